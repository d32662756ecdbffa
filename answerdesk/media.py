"""Pictures, audio and video of imported packs: stored under the instance folder,
served to phones and the projector.

A file is stored as `instance/media/<event code>/<sha256 prefix>.<ext>`: the name
is made here, never taken from the pack, so a pack cannot write outside its
folder, and the same bytes imported twice are stored once. The extension is
that of what the bytes are (packs/mediatypes.py), never the pack's.

Served from our own origin, a file must not be able to act as a page: every
response says nosniff and carries a Content-Security-Policy that allows nothing
and sandboxes the document; a file of any other type (stored before this check
existed) is served only as a download.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import Blueprint, abort, current_app, send_from_directory

from .packs.mediatypes import MEDIA_TYPES

bp = Blueprint("media", __name__)

SAFE_NAME = re.compile(r"[0-9a-f]{24}(\.[a-z0-9]{1,5})?")


def media_dir(code: str) -> Path:
    return Path(current_app.instance_path) / "media" / code.upper()


def stored_name(data: bytes, ext: str) -> str:
    """A safe file name for a media file: content hash plus the extension of its type."""
    return f"{hashlib.sha256(data).hexdigest()[:24]}.{ext}"


def store(code: str, data: bytes, ext: str) -> tuple[str, Path | None]:
    """Write the file if it is not there yet; return its name and the path when
    this call created it (so a failed import can remove what it added)."""
    name = stored_name(data, ext)
    folder = media_dir(code)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if path.exists():
        return name, None
    tmp = path.with_suffix(path.suffix + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)
    return name, path


def forget_unused(code: str, keep: set[str]) -> None:
    """Remove the event's media files no question names any more (after a
    replace-import: the old programme's pictures would otherwise stay for good)."""
    folder = media_dir(code)
    if folder.is_dir():
        for path in folder.iterdir():
            if SAFE_NAME.fullmatch(path.name) and path.name not in keep:
                path.unlink(missing_ok=True)


def read(code: str, name: str) -> bytes | None:
    if not SAFE_NAME.fullmatch(name):
        return None
    path = media_dir(code) / name
    return path.read_bytes() if path.is_file() else None


@bp.get("/e/<code>/media/<name>")
def serve(code: str, name: str):
    if not SAFE_NAME.fullmatch(name) or not re.fullmatch(r"[A-Za-z0-9]{1,12}", code):
        abort(404)
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    if ext in MEDIA_TYPES:
        response = send_from_directory(media_dir(code), name, mimetype=MEDIA_TYPES[ext],
                                       max_age=3600)
        response.headers["Content-Disposition"] = "inline"
    else:
        response = send_from_directory(media_dir(code), name, max_age=3600, as_attachment=True,
                                       mimetype="application/octet-stream")
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
