"""Decoding text packs whose encoding nobody wrote down.

db.chgk.info files circulate in UTF-8, CP1251 and KOI8-R; CSV exported from
spreadsheets arrives in UTF-8 with or without a BOM (and, from old Excel, CP1251).
"""

from __future__ import annotations

from .model import PackError


def decode_text(data: bytes, location: str | None = None) -> str:
    """UTF-8 (BOM dropped) when the bytes are valid UTF-8, otherwise CP1251 or
    KOI8-R, told apart by letter case: Russian text is mostly lowercase, and the
    two encodings put lowercase Cyrillic in opposite halves of 0xC0-0xFF."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise PackError("broken UTF-16 text: %(reason)s", location, reason=exc.reason) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        upper_half = sum(1 for b in data if b >= 0xE0)
        lower_half = sum(1 for b in data if 0xC0 <= b < 0xE0)
        text = data.decode("cp1251" if upper_half >= lower_half else "koi8-r", errors="replace")
    if "\x00" in text:
        raise PackError("binary data, not a text pack", location)
    return text.replace("\r\n", "\n").replace("\r", "\n")
