"""A native pack with its media in one zip: `pack.yaml` (or .yml/.json) at the top
and the files it names by relative path beside it (docs/packs.md)."""

from __future__ import annotations

import io
import posixpath
import zipfile

from .model import Pack, PackError
from .native import load_native

PACK_NAMES = ("pack.yaml", "pack.yml", "pack.json")


def is_bundle(data: bytes) -> bool:
    """A zip with a native pack file at its top and no SIGame content.xml."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
    except zipfile.BadZipFile:
        return False
    return "content.xml" not in names and any(n in names for n in PACK_NAMES)


def load_bundle(data: bytes, filename: str, max_bytes: int) -> Pack:
    """The pack file, with every media ref it names found in the zip attached; refs
    that leave the zip's folder ("../x", "/etc/x") are never looked up."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = {i.filename: i for i in zf.infolist() if not i.is_dir()}
        if sum(i.file_size for i in infos.values()) > max_bytes:
            raise PackError("file larger than 200 MB", filename)
        name = next(n for n in PACK_NAMES if n in infos)
        pack = load_native(zf.read(name), f"{filename}: {name}")
        for ref in pack.missing_media():
            path = posixpath.normpath(ref)
            if path.startswith(("../", "/")) or path == "..":
                continue
            if path in infos:
                pack.media[ref] = zf.read(infos[path])
    return pack
