"""The keyed hash (answerdesk/keyed.py) behind receipts, the organiser's session and
OpenQuiz invitations: values handed out before an upgrade must still verify after it,
so they are pinned here."""

from __future__ import annotations

import datetime as dt

from flask import Flask

from answerdesk.core.answer_write import receipt_code
from answerdesk.keyed import keyed_hash


def test_codes_handed_out_stay_the_same_and_differ_by_key() -> None:
    app = Flask(__name__)
    saved_at = dt.datetime(2026, 1, 1, 12)
    with app.app_context():
        app.config["SECRET_KEY"] = "s3"
        assert receipt_code(1, 2, "Париж", saved_at) == "8CF127CE"
        assert receipt_code(1, 2, "Париж ", saved_at) != "8CF127CE"
        # The organiser's session fingerprint of the password "pw" (access.py).
        assert keyed_hash("pw").hex() == (
            "909182eb2e279812ac57d5dada39f7f62f4c6cfc3dbf869fc67ad4efaea8e8c9")
        assert keyed_hash(b"pw") == keyed_hash("pw")
        app.config["SECRET_KEY"] = "another"
        assert receipt_code(1, 2, "Париж", saved_at) != "8CF127CE"
