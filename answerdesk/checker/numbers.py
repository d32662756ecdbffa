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


# ---------------------------------------------------------------- numbers inside text

#: Roman numerals read inside a text stop at 39 (I, V and X only). Why: after a name
#: they are regnal or ordinal numbers ("Людовик XIV", "Пий XII", "XXI век"), all below
#: 40, while L, C, D and M in such a place are initials or parts of names ("Boney M",
#: "AC/DC", "MC Hammer", "Run DMC"): read as numbers they turned a band into 1000.
_TEXT_ROMAN = re.compile(r"^(xxx|xx|x)?(ix|iv|v?i{0,3})$")
#: Cyrillic and Ukrainian letters typed for Roman I and X ("Людовик ХІV", "ХХ век")
_CYR_ROMAN_LOOKS = str.maketrans({"х": "x", "і": "i", "ї": "i", "ѵ": "v"})
_ROMAN_LOOKING = re.compile(r"^[ivxхіїѵ]+$")

#: a word that follows a year: "1944 г.", "1944 година", "1944 год.", "в 1944 году"
YEAR_WORDS = frozenset(
    {"г", "гг", "год", "година", "годината", "года", "году", "годом", "годы", "year", "yr"}
)
_YEAR_GLUED = re.compile(r"^(\d{3,4})(?:г|гг|год|година|года|году)$")
#: a preposition before a lone year ("в 1944", "през 1944", "in 1944")
_YEAR_PREPOSITIONS = frozenset({"в", "во", "през", "in"})

# Bulgarian ordinal stems (num2words has no Bulgarian), 1-20 and the tens to 90; each
# takes the endings -и (m.), -а (f.), -о (n.), -ият/-ия, -ата, -ото, -ите (with article).
_BG_ORDINAL_STEMS = {
    "първ": 1, "втор": 2, "трет": 3, "четвърт": 4, "пет": 5, "шест": 6, "седм": 7, "осм": 8,
    "девет": 9, "десет": 10, "единадесет": 11, "единайсет": 11, "дванадесет": 12,
    "дванайсет": 12, "тринадесет": 13, "тринайсет": 13, "четиринадесет": 14,
    "четиринайсет": 14, "петнадесет": 15, "петнайсет": 15, "шестнадесет": 16,
    "шестнайсет": 16, "седемнадесет": 17, "седемнайсет": 17, "осемнадесет": 18,
    "осемнайсет": 18, "деветнадесет": 19, "деветнайсет": 19, "двадесет": 20,
}
_BG_ORDINAL_ENDINGS = ("и", "а", "о", "ият", "ия", "ата", "ото", "ите")


def fold_roman_lookalikes(token: str) -> str:
    """A token of Roman-numeral letters typed partly or wholly in Cyrillic look-alikes
    ("ХІV", "ХХ", "XІ") in Latin ("xiv"), when it is a numeral up to 39; else unchanged.
    A single Cyrillic letter stays a letter ("Малкълм Х", "Поколение Х")."""
    if not _ROMAN_LOOKING.match(token) or (len(token) < 2 and token not in "ivx"):
        return token
    latin = token.translate(_CYR_ROMAN_LOOKS)
    return latin if _TEXT_ROMAN.match(latin) else token


def text_roman(token: str) -> int | None:
    """Value of a Roman numeral of I, V and X (1-39) in Latin letters, else None."""
    if not token or not _TEXT_ROMAN.match(token):
        return None
    return roman_value(token)


@lru_cache(maxsize=1)
def number_words() -> dict[str, int]:
    """Single words that name a number 0-40 or an ordinal 1-40 in bg, ru and en,
    normalised (ё as е): "осем" 8, "третий"/"третья" 3, "трети"/"третата" 3, "fifth" 5.
    Russian and English from num2words (maintained); Bulgarian from the stems above."""
    from num2words import num2words

    table: dict[str, int] = {w: v for w, v in _UNITS.items() if v <= 40}
    for n in range(1, 41):
        words = [num2words(n, lang="en", to="ordinal"), num2words(n, lang="en")]
        words += [num2words(n, lang="ru", to="ordinal", gender=g) for g in ("m", "f", "n")]
        words.append(num2words(n, lang="ru"))
        for w in words:
            w = w.replace("ё", "е")
            if " " not in w and "-" not in w:
                table.setdefault(w, n)
    for stem, n in _BG_ORDINAL_STEMS.items():
        for ending in _BG_ORDINAL_ENDINGS:
            table.setdefault(stem + ending, n)
    return table


def digits_for_numbers(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens with every number written as digits (issue 16 §2): number words and
    ordinals ("осем", "Трети", "Третий", "fifth"), Roman numerals closing a name of
    several words ("Петър III"), a year's "г."/"година"/"год." dropped and a lone year's
    preposition too ("в 1944 году" -> "1944")."""
    words = number_words()
    out: list[str] = []
    for i, t in enumerate(tokens):
        glued = _YEAR_GLUED.match(t)
        if glued:
            out.append(glued.group(1))
            continue
        if t in YEAR_WORDS and out and out[-1].isdigit() and len(out[-1]) in (3, 4):
            continue
        v = words.get(t)
        if v is None and i and i == len(tokens) - 1:
            v = text_roman(t)
        elif v is None and len(tokens) == 1 and t.isascii() and len(t) >= 2:
            # a lone Roman numeral of Latin letters ("IV", "XIV", "XX" for "двадесети",
            # "Четвърти", "fourth"); one letter alone (V, I, C, X) is left a letter:
            # Vitamin C, option B, the C language
            v = text_roman(t)
        out.append(str(v) if v is not None else t)
    if len(out) == 2 and out[0] in _YEAR_PREPOSITIONS and out[1].isdigit():
        out = out[1:]
    return tuple(out)
