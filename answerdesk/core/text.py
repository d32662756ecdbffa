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


def team_name_key(name: str) -> str:
    """BG-G1: names collide when equal after case folding, whitespace collapsing
    and folding of look-alike Latin/Cyrillic letters."""
    folded = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip().casefold()
    return fold_lookalikes(folded)
