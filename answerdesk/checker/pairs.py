"""Mode pairs, the All-in round (BG-R5.5): all four pairs right or nothing."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from answerdesk.checker.normalize import normalize
from answerdesk.checker.reasons import Reason, why

Result = tuple[str, float | None, Reason]

_CYR = "абвгдежзиклмнопрстуфхцчшщюя"
# Latin letters as typed for Cyrillic option letters; "b" is ambiguous (Б by sound, В by shape)
_LATIN = {"a": "а", "v": "в", "g": "г", "d": "д", "e": "е", "z": "з", "k": "к"}
_AMBIGUOUS = {"b": ("б", "в")}


def _parse_key(key: Any) -> dict[str, str]:
    if not isinstance(key, Mapping) or not key:
        raise ValueError(
            'pairs key must be a mapping like {"1": "В", "2": "А", "3": "Б", "4": "Г"}'
        )
    out: dict[str, str] = {}
    for num, letter in key.items():
        n = str(num).strip()
        if not n.isdigit() or not isinstance(letter, str) or len(normalize(letter)) != 1:
            raise ValueError(f"pairs key entry {num!r}: {letter!r} is not number -> letter")
        out[n] = _letter(normalize(letter)) or normalize(letter)
    return out


def _letter(ch: str) -> str | None:
    if ch in _CYR:
        return ch
    return _LATIN.get(ch)


def check_pairs(given: str, key: Any) -> Result:
    """Accept "1В 2А 3Б 4Г" in any order, with or without separators, or the bare
    letters in order "В А Б Г"; Latin letters are transliterated (BG-R5.5)."""
    k = _parse_key(key)
    t = normalize(given).replace(" ", "")
    if not t:
        return "wrong", 0.0, why("empty")
    pairs = re.findall(r"(\d+)([^\W\d_])", t)
    if pairs and "".join(n + c for n, c in pairs) == t:
        got = {n: c for n, c in pairs}
        if len(got) != len(pairs):
            return "review", None, why("pairs_twice")
    elif t.isalpha() and len(t) == len(k):
        got = {n: t[i] for i, n in enumerate(sorted(k, key=int))}
    else:
        return "review", None, why("pairs_unreadable")
    ambiguous = False
    for n, c in list(got.items()):
        if c in _AMBIGUOUS:
            if k.get(n) in _AMBIGUOUS[c]:
                ambiguous = True
            got[n] = k.get(n, "") if k.get(n) in _AMBIGUOUS[c] else _AMBIGUOUS[c][0]
            continue
        letter = _letter(c)
        if letter is None:
            return "review", None, why("pairs_unknown_letter", letter=c)
        got[n] = letter
    right = sum(1 for n, c in k.items() if got.get(n) == c)
    if right == len(k) and len(got) == len(k):
        if ambiguous:
            return "review", None, why("latin_b")
        return "correct", 1.0, why("pairs_all")
    return "wrong", 0.0, why("pairs_some", right=right, total=len(k))
