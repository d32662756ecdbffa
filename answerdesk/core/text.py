"""Cleaning of what people type before it is stored (input limits, BG-G1)."""

from __future__ import annotations

import re
import unicodedata

from ..checker.normalize import fold_lookalikes
from ..errors import DeskError

_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]"
)
_SPACES = re.compile(r"\s+")
_SURROGATE = re.compile(r"[\ud800-\udfff]")

# Code points that show nothing, beyond the format characters (category Cf: soft
# hyphen U+00AD, U+180E, U+200B-U+200F, U+2060-U+2064, U+FEFF, tags U+E0001-U+E007F …):
# Unicode's Default_Ignorable_Code_Point letters and marks (combining grapheme joiner
# U+034F, Hangul fillers U+115F, U+1160, U+3164, U+FFA0, Khmer vowels U+17B4-U+17B5,
# Mongolian and other variation selectors) and the blank Braille pattern U+2800 that
# fonts draw as empty space. A team name made of these is empty; "Alpha" with one
# inside is still "Alpha" (BG-G1).
_INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"
    "\U000e0100-\U000e01ef]"
)


def is_valid_text(value: str) -> bool:
    """No lone surrogate (JSON's "\\ud800"), which no database can store."""
    return not _SURROGATE.search(value)


def check_unicode(value: str, field: str) -> None:
    """Refuse a lone surrogate (JSON's "\\ud800"): no database can store it."""
    if _SURROGATE.search(value):
        raise DeskError("%(field)s is not valid text", field=field)


# An answer's structured fields (widgets.py) are a few short strings; these bounds
# leave room for every widget and keep a phone from storing megabytes per save.
MAX_FIELDS_SIZE = 4096
MAX_FIELDS_DEPTH = 4


def check_fields(fields: object, field: str = "fields") -> None:
    """Refuse structured fields that are too large, too deep or not valid text.

    Walks the parsed JSON once, without serialising it again: a size close to its
    JSON length (each string's length plus 4, other values 8), stopping early.
    """
    size, stack = 0, [(fields, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_FIELDS_DEPTH:
                raise DeskError("%(field)s is nested too deeply", field=field)
            size += 2
            if isinstance(value, dict):
                for key in value:
                    size += len(key) + 4
                    check_unicode(key, field)
                stack.extend((v, depth + 1) for v in value.values())
            else:
                stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str):
            size += len(value) + 4
            check_unicode(value, field)
        else:
            size += 8
        if size > MAX_FIELDS_SIZE:
            raise DeskError("%(field)s is too large: at most %(kb)s KB", field=field,
                            kb=MAX_FIELDS_SIZE // 1024)


def strip_invisible(text: str) -> str:
    """Remove the code points that show nothing (see _INVISIBLE)."""
    text = _INVISIBLE.sub("", text)
    if text.isascii():
        return text
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def clean_text(value: object, *, max_length: int, field: str, multiline: bool = False) -> str:
    """NFC-normalise, strip control characters, and refuse what is too long."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise DeskError("%(field)s must be text", field=field)
    check_unicode(value, field)
    text = unicodedata.normalize("NFC", value)
    text = _CONTROL.sub("", text)
    if not multiline:
        text = _SPACES.sub(" ", text)
    text = text.strip()
    if len(text) > max_length:
        raise DeskError("%(field)s is too long: at most %(max_length)s characters", field=field,
                        max_length=max_length)
    return text


def clean_name(value: object, *, max_length: int) -> str:
    """A team's name: clean_text, and no code point that shows nothing (BG-G1)."""
    text = clean_text(value, max_length=max_length, field="name")
    return _SPACES.sub(" ", strip_invisible(text)).strip()


# What makes a spreadsheet cell a formula (OWASP "CSV injection"): a team could
# name itself =HYPERLINK(…) and have the host's spreadsheet run it.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def looks_like_formula(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_START)


def spreadsheet_text(value: object) -> object:
    """A CSV cell that a spreadsheet program shows as text, never runs: text that
    would start a formula gets a leading apostrophe; other values stay as they are."""
    return "'" + value if looks_like_formula(value) else value  # type: ignore[operator]


def team_name_key(name: str) -> str:
    """BG-G1: names collide when equal after case folding, whitespace collapsing,
    removal of invisible code points and folding of look-alike Latin/Cyrillic letters.
    Control characters go too, as clean_name drops them from every stored name: a
    looked-up name with a NUL finds what it would have named (PostgreSQL refuses NUL
    in a text parameter)."""
    check_unicode(name, "name")
    visible = strip_invisible(unicodedata.normalize("NFKC", _CONTROL.sub("", name)))
    folded = _SPACES.sub(" ", visible)
    folded = folded.strip().casefold()
    return fold_lookalikes(folded)
