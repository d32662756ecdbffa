"""Numbers as digits, words (bg/ru/en) and Roman numerals (BG-R5.4)."""

from __future__ import annotations

import re
from functools import lru_cache

_UNITS = {
    # bg
    "нула": 0, "едно": 1, "един": 1, "една": 1, "две": 2, "два": 2, "три": 3, "четири": 4,
    "пет": 5, "шест": 6, "седем": 7, "осем": 8, "девет": 9, "десет": 10, "единадесет": 11,
    "единайсет": 11, "дванадесет": 12, "дванайсет": 12, "тринадесет": 13, "тринайсет": 13,
    "четиринадесет": 14, "четиринайсет": 14, "петнадесет": 15, "петнайсет": 15,
    "шестнадесет": 16, "шестнайсет": 16, "седемнадесет": 17, "седемнайсет": 17,
    "осемнадесет": 18, "осемнайсет": 18, "деветнадесет": 19, "деветнайсет": 19,
    "двадесет": 20, "трийсет": 30, "тридесет": 30, "четиридесет": 40, "четирсе": 40,
    "петдесет": 50, "шестдесет": 60, "седемдесет": 70, "осемдесет": 80, "деветдесет": 90,
    "сто": 100,
    # ru
    "ноль": 0, "нуль": 0, "один": 1, "одна": 1, "одно": 1, "четыре": 4, "пять": 5,
    "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "одиннадцать": 11,
    "двенадцать": 12, "тринадцать": 13, "четырнадцать": 14, "пятнадцать": 15,
    "шестнадцать": 16, "семнадцать": 17, "восемнадцать": 18, "девятнадцать": 19,
    "двадцать": 20, "тридцать": 30, "сорок": 40, "пятьдесят": 50, "шестьдесят": 60,
    "семьдесят": 70, "восемьдесят": 80, "девяносто": 90,
    # en
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}
_JOINERS = {"и", "and"}
_ROMAN = re.compile(r"^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_VAL = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_CYR_ROMAN = str.maketrans({"х": "x", "і": "i", "с": "c", "м": "m"})


def roman_value(token: str) -> int | None:
    """Value of a Roman numeral token ("iv", "xiv"), else None."""
    t = token.translate(_CYR_ROMAN)
    if not t or not _ROMAN.match(t):
        return None
    total = 0
    for i, ch in enumerate(t):
        v = _ROMAN_VAL[ch]
        nxt = _ROMAN_VAL[t[i + 1]] if i + 1 < len(t) else 0
        total += -v if v < nxt else v
    return total or None


@lru_cache(maxsize=16384)
def parse_number(text: str) -> float | None:
    """The number written in a normalised text: digits, bg/ru/en words or Roman (BG-R5.4)."""
    t = text.strip().replace(" ", "") if re.fullmatch(r"[\d ]+", text.strip()) else text.strip()
    if not t:
        return None
    if re.fullmatch(r"\d+", t):
        return float(int(t))
    if re.fullmatch(r"\d+[.,]\d+", t):
        return float(t.replace(",", "."))
    words = [w for w in re.split(r"[\s-]+", t) if w and w not in _JOINERS]
    if not words:
        return None
    if len(words) == 1:
        r = roman_value(words[0])
        if r is not None:
            return float(r)
    total = 0
    for w in words:
        v = _UNITS.get(w)
        if v is None:
            return None
        if v == 100 and total:
            total *= 100
        else:
            total += v
    return float(total)
