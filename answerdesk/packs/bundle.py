"""A native pack with its media in one zip: `pack.yaml` (or .yml/.json) at the top
and the files it names by relative path beside it (docs/packs.md). The zip passes
packs/archive.py's guard like every archive the app opens."""

from __future__ import annotations

from .archive import Archive, normal_path
from .model import Pack, PackError
from .native import load_native

PACK_NAMES = ("pack.yaml", "pack.yml", "pack.json")


def is_bundle(data: bytes, filename: str = "pack.zip") -> bool:
    """A zip with a native pack file at its top and no SIGame content.xml (an archive
    the guard refuses is refused here, before a second look)."""
    try:
        archive = Archive(data, filename)
    except PackError as err:
        if err.message == "not a zip file":
            return False
        raise
    with archive:
        return "content.xml" not in archive and any(n in archive for n in PACK_NAMES)


def load_bundle(data: bytes, filename: str) -> Pack:
    """The pack file, with every media ref it names found in the zip attached; refs
    that leave the zip's folder ("../x", "/etc/x") are never looked up, and a file
    named by several spellings of its path is read once."""
    with Archive(data, filename) as archive:
        name = next(n for n in PACK_NAMES if n in archive)
        pack = load_native(archive.read(name), f"{filename}: {name}")
        for ref in pack.missing_media():
            path = normal_path(ref)
            if path is not None and path in archive:
                pack.media[ref] = archive.read(path)
    return pack
