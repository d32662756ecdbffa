"""One keyed hash of the instance's SECRET_KEY for what only this server may make:
save receipts (core/answer_write.py), the organiser's session fingerprint (access.py) and
OpenQuiz invitations (formats/oq/joining.py), each of a message of its own shape."""

from __future__ import annotations

import hashlib
import hmac

from flask import current_app

_KEYED: dict[str, hmac.HMAC] = {}  # SECRET_KEY -> its HMAC, keyed once (a save makes one)


def keyed_hash(message: str | bytes) -> bytes:
    """HMAC-SHA256 of ``message`` under the app's SECRET_KEY."""
    key = current_app.config["SECRET_KEY"]
    keyed = _KEYED.get(key)
    if keyed is None:
        keyed = _KEYED[key] = hmac.new(key.encode(), digestmod=hashlib.sha256)
    digest = keyed.copy()
    digest.update(message.encode() if isinstance(message, str) else message)
    return digest.digest()
