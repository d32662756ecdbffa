"""Cleaning of what people type before it is stored (input limits, BG-G1)."""

from __future__ import annotations

import re
import unicodedata

from .checker.normalize import fold_lookalikes
from .errors import DeskError

_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]"
)
_SPACES = re.compile(r"\s+")


def clean_text(value: object, *, max_length: int, field: str, multiline: bool = False) -> str:
    """NFC-normalise, strip control characters, and refuse what is too long."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise DeskError("%(field)s must be text", field=field)
    text = unicodedata.normalize("NFC", value)
    text = _CONTROL.sub("", text)
    if not multiline:
        text = _SPACES.sub(" ", text)
    text = text.strip()
    if len(text) > max_length:
        raise DeskError("%(field)s is too long: at most %(max_length)s characters", field=field,
                        max_length=max_length)
    return text


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
    """BG-G1: names collide when equal after case folding, whitespace collapsing
    and folding of look-alike Latin/Cyrillic letters."""
    folded = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip().casefold()
    return fold_lookalikes(folded)
