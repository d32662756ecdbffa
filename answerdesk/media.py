"""Pictures, audio and video of imported packs: stored under the instance folder,
served to phones and the projector.

A file is stored as `instance/media/<event code>/<sha256 prefix>.<ext>`: the name
is made here, never taken from the pack, so a pack cannot write outside its
folder, and the same bytes imported twice are stored once.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import Blueprint, abort, current_app, send_from_directory

bp = Blueprint("media", __name__)

SAFE_NAME = re.compile(r"[0-9a-f]{24}(\.[a-z0-9]{1,5})?")
_EXT = re.compile(r"\.([A-Za-z0-9]{1,5})$")


def media_dir(code: str) -> Path:
    return Path(current_app.instance_path) / "media" / code.upper()


def stored_name(ref: str, data: bytes) -> str:
    """A safe file name for a media file: content hash plus the ref's extension."""
    digest = hashlib.sha256(data).hexdigest()[:24]
    ext = _EXT.search(ref.rsplit("/", 1)[-1].split("?", 1)[0])
    return digest + (f".{ext.group(1).lower()}" if ext else "")


def store(code: str, ref: str, data: bytes) -> tuple[str, Path | None]:
    """Write the file if it is not there yet; return its name and the path when
    this call created it (so a failed import can remove what it added)."""
    name = stored_name(ref, data)
    folder = media_dir(code)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if path.exists():
        return name, None
    tmp = path.with_suffix(path.suffix + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)
    return name, path


def read(code: str, name: str) -> bytes | None:
    if not SAFE_NAME.fullmatch(name):
        return None
    path = media_dir(code) / name
    return path.read_bytes() if path.is_file() else None


@bp.get("/e/<code>/media/<name>")
def serve(code: str, name: str):
    if not SAFE_NAME.fullmatch(name) or not re.fullmatch(r"[A-Za-z0-9]{1,12}", code):
        abort(404)
    return send_from_directory(media_dir(code), name, max_age=3600)
