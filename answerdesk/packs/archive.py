"""The one guard every archive the app opens passes (.siq packs, native pack bundles).

A zip's central directory says how many entries it holds and how large each inflates;
all of it is checked before anything is inflated (issue 31, findings 4 and 5):

- MAX_ENTRIES, from the end record, before zipfile parses the directory (a directory
  of a million empty entries took 700 MB and 16 s to parse);
- MAX_ENTRY_BYTES per entry and MAX_TOTAL_BYTES over all entries, inflated;
- MAX_RATIO for an entry larger than RATIO_FROM: pictures, sounds and videos are
  compressed already, so an entry inflating far beyond its stored size is a bomb;
- each path normalised once ("./big.mp4", "a/../big.mp4" and "big.mp4" are one entry,
  paths leaving the archive are left out), and each entry inflated at most once
  however many spellings ask for it.
"""

from __future__ import annotations

import io
import posixpath
import struct
import zipfile
from collections.abc import Callable
from types import TracebackType

from .model import PackError

MAX_ENTRIES = 10_000
MAX_DIRECTORY_BYTES = 16 * 1024 * 1024
MAX_ENTRY_BYTES = 200 * 1024 * 1024
MAX_TOTAL_BYTES = 250 * 1024 * 1024
MAX_RATIO = 20
RATIO_FROM = 1024 * 1024  # small entries may compress well (a blank picture, an XML)

_END = b"PK\x05\x06"
_END64_LOCATOR = b"PK\x06\x07"
_END64 = b"PK\x06\x06"
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError,
               NotImplementedError, ValueError, struct.error)


def _directory_size(data: bytes) -> tuple[int, int] | None:
    """(entries, central directory bytes) from the end record (zip64's when present);
    None when there is no end record (not a zip)."""
    at = data.rfind(_END, max(0, len(data) - 22 - 65535))
    if at < 0 or len(data) < at + 22:
        return None
    entries, size = struct.unpack_from("<HI", data, at + 10)
    locator = at - 20
    if locator >= 0 and data[locator:locator + 4] == _END64_LOCATOR:
        (offset,) = struct.unpack_from("<Q", data, locator + 8)
        if data[offset:offset + 4] == _END64 and len(data) >= offset + 56:
            entries, size = struct.unpack_from("<QQ", data, offset + 32)
    return entries, size


def normal_path(name: str) -> str | None:
    """The archive path an entry or a reference means, or None when it leaves the
    archive ("../x", "/etc/x") or names a folder."""
    path = posixpath.normpath(name.replace("\\", "/"))
    if path in (".", "..") or path.startswith(("../", "/")) or name.endswith(("/", "\\")):
        return None
    return path


class Archive:
    """A zip checked as the module says; ``entries`` by normalised path (the first entry
    of a path wins). ``spell`` turns an entry's stored name into the one the format
    looks it up by (SIGame URL-quotes its names)."""

    def __init__(self, data: bytes, filename: str,
                 spell: Callable[[str], str] = lambda name: name) -> None:
        self.filename = filename
        counted = _directory_size(data)
        if counted is None:
            raise PackError("not a zip file", filename)
        entries, directory = counted
        if entries > MAX_ENTRIES or directory > MAX_DIRECTORY_BYTES:
            raise PackError("the archive holds more than %(count)s files", filename,
                            count=MAX_ENTRIES)
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zip.infolist()
        except _ZIP_ERRORS as exc:
            raise PackError("damaged zip archive: %(reason)s", filename,
                            reason=str(exc)) from exc
        if len(infos) > MAX_ENTRIES:
            raise PackError("the archive holds more than %(count)s files", filename,
                            count=MAX_ENTRIES)
        if sum(i.file_size for i in infos) > MAX_TOTAL_BYTES:
            raise PackError("the archive inflates to more than %(mb)s MB", filename,
                            mb=MAX_TOTAL_BYTES >> 20)
        self.entries: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            path = normal_path(spell(info.filename))
            if path is not None and not info.is_dir():
                self.entries.setdefault(path, info)
        self._read: dict[str, bytes] = {}

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.zip.close()

    def __contains__(self, path: str) -> bool:
        return path in self.entries

    def read(self, path: str) -> bytes:
        """The entry at the normalised ``path``, inflated once: refused before reading
        when it is larger than MAX_ENTRY_BYTES or inflates more than MAX_RATIO times.
        zipfile never yields more than the size the directory declares."""
        if path in self._read:
            return self._read[path]
        info = self.entries[path]
        if info.file_size > MAX_ENTRY_BYTES:
            raise PackError("'%(file)s' is larger than %(mb)s MB", self.filename, file=path,
                            mb=MAX_ENTRY_BYTES >> 20)
        if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size,
                                                                             1):
            raise PackError("'%(file)s' inflates %(ratio)s times: not a media file",
                            self.filename, file=path,
                            ratio=info.file_size // max(info.compress_size, 1))
        try:
            data = self.zip.read(info)
        except _ZIP_ERRORS as exc:
            raise PackError("damaged zip archive: %(reason)s", self.filename,
                            reason=str(exc)) from exc
        self._read[path] = data
        return data

