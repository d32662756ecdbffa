"""Numbers as digits, words (bg/ru/en) and Roman numerals (BG-R5.4)."""

from __future__ import annotations

import re
from functools import lru_cache

from answerdesk.checker.morph import russian

_UNITS = {
    # bg
    "нула": 0, "едно": 1, "един": 1, "една": 1, "две": 2, "два": 2, "три": 3, "четири": 4,
    "пет": 5, "шест": 6, "седем": 7, "осем": 8, "девет": 9, "десет": 10, "единадесет": 11,
    "единайсет": 11, "дванадесет": 12, "дванайсет": 12, "тринадесет": 13, "тринайсет": 13,
    "четиринадесет": 14, "четиринайсет": 14, "петнадесет": 15, "петнайсет": 15,
    "шестнадесет": 16, "шестнайсет": 16, "седемнадесет": 17, "седемнайсет": 17,
    "осемнадесет": 18, "осемнайсет": 18, "деветнадесет": 19, "деветнайсет": 19,
    "двадесет": 20, "трийсет": 30, "тридесет": 30, "четиридесет": 40, "четирсе": 40,
    "четирийсет": 40,
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
    """The number written in a normalised text: digits, bg/ru/en words of any size, a
    noun for a number or Roman (BG-R5.4, ``read_number``)."""
    t = text.strip().replace(" ", "") if re.fullmatch(r"[\d ]+", text.strip()) else text.strip()
    if not t:
        return None
    if re.fullmatch(r"\d+", t):
        return float(int(t))
    if re.fullmatch(r"\d+[.,]\d+", t):
        return float(t.replace(",", "."))
    return read_number(" ".join(w for w in re.split(r"[\s-]+", t) if w))


# ---------------------------------------------------------------- numbers of any size in words

#: kinds of number words: an additive value below 1000 ("сорок", "двеста", "seven"), the
#: English multiplier "hundred", a scale (thousand, million, billion), their ordinals,
#: and a noun for a number ("пятёрка"), which stands alone
ADD, HUNDRED, SCALE, ORD, ORD_HUNDRED, ORD_SCALE, NOUN = range(7)
_ATOMS = list(range(0, 20)) + list(range(20, 100, 10)) + list(range(100, 1000, 100))
_SCALES = (1000, 1_000_000, 1_000_000_000)

#: Russian nouns for numbers (Русская грамматика, 1980, §§ 1240-1250: собирательные
#: числительные and the nouns of number): a grade, a playing card, a bus route, a team
#: of so many ("пятёрка", "тройка", "семёрка", "десятка", "дюжина", "сотня", "трое")
_RU_NOUNS = {
    "единица": 1, "двойка": 2, "тройка": 3, "четверка": 4, "пятерка": 5, "шестерка": 6,
    "семерка": 7, "восьмерка": 8, "девятка": 9, "десятка": 10, "дюжина": 12, "сотня": 100,
    "двое": 2, "трое": 3, "четверо": 4, "пятеро": 5, "шестеро": 6, "семеро": 7,
    "восьмеро": 8, "девятеро": 9, "десятеро": 10, "двадцатка": 20, "тридцатка": 30,
}
#: Bulgarian nouns for numbers (Правописен речник на българския книжовен език, БАН
#: 2012: бройни съществителни and the personal forms of the numerals): "петица",
#: "шестица", "десетка", "дузина", "трима", "петима"
_BG_NOUNS = {
    "единица": 1, "двойка": 2, "тройка": 3, "четворка": 4, "петица": 5, "шестица": 6,
    "седмица": 7, "осмица": 8, "деветка": 9, "десетка": 10, "дузина": 12, "стотица": 100,
    "двама": 2, "трима": 3, "четирима": 4, "петима": 5, "шестима": 6, "седмина": 7,
    "осмина": 8, "деветима": 9, "десетима": 10,
    # a set or team of so many (eighth pass): "петорка" (a basketball five), "осморка"
    # (an eight-oar boat); Правописен речник, БАН 2012
    "петорка": 5, "шесторка": 6, "седморка": 7, "осморка": 8, "деветорка": 9,
    "десеторка": 10,
}
#: the Bulgarian article on a noun for a number: "тройката", "петицата", "тримата"
#: (Правописен речник, БАН 2012), eighth pass
_BG_NOUN_ARTICLE = "та"
_EN_NOUNS = {"dozen": 12, "dozens": 12}
#: Bulgarian ordinal stems of the tens, hundreds and scales (same source): "двадесети",
#: "стотен", "двестотен", "хиляден", "милионен"; -ен stems take -ен/-на/-но/-ни and the
#: article forms (стотният, стотната)
_BG_ORD_TENS = {
    "двадесет": 20, "двайсет": 20, "тридесет": 30, "трийсет": 30, "четиридесет": 40,
    "четирийсет": 40, "петдесет": 50, "шестдесет": 60, "седемдесет": 70, "осемдесет": 80,
    "деветдесет": 90,
}
_BG_ORD_EN = {
    "сто": 100, "двесто": 200, "тристо": 300, "четиристо": 400, "петсто": 500,
    "шестсто": 600, "седемсто": 700, "осемсто": 800, "деветсто": 900,
}
_BG_EN_ENDINGS = ("тен", "тна", "тно", "тни", "тния", "тният", "тната", "тното", "тните")
_BG_SCALE_ORD = {"хиляд": 1000, "милион": 1_000_000, "милиард": 1_000_000_000}
_BG_SCALE_ENDINGS = ("ен", "на", "но", "ни", "ния", "ният", "ната", "ното", "ните")


def _norm_word(w: str) -> str:
    return w.replace("ё", "е")


#: Russian number words that the dictionary reads as nouns
_RU_SCALE_NOUNS = frozenset({"тысяча", "миллион", "миллиард"})


def _ru_forms(word: str, noun: bool = False) -> set[str]:
    """``word`` and its other case, gender and number forms from the Russian dictionary
    (pymorphy3): "семьсот" -> семисот, семистам...; "двадцатый" -> двадцатого...; only
    from the readings as a numeral (NUMR, Anum), or as a noun of that very word for a
    scale or with ``noun`` ("тысячу", "пятёрку"). A word the dictionary does not read
    as a numeral (Bulgarian "пет") stays alone."""
    out = {word}
    as_noun = noun or word in _RU_SCALE_NOUNS
    for p in russian().parse(word):
        numeral = p.tag.POS == "NUMR" or "Anum" in p.tag.grammemes
        if numeral or (as_noun and p.tag.POS == "NOUN" and _norm_word(p.normal_form) == word):
            out |= {_norm_word(f.word) for f in p.lexeme}
    return out


@lru_cache(maxsize=1)
def number_vocabulary() -> dict[str, tuple[int, int]]:
    """Every number word of bg, ru and en with its value and kind (see ``ADD`` ...):

    - English and Russian from num2words (cardinals and ordinals of every atom, each
      gender), Russian forms of every case from pymorphy3's dictionary;
    - Bulgarian cardinals from ICU's rule-based number format (``icu_rbnf``, CLDR's
      Bulgarian rules: "двайсет и едно", "седемстотин и четиресет", "хиляди",
      "милиона"), with the written forms of ``_UNITS`` ("двадесет", "четиридесет");
      Bulgarian ordinals from the stems above (num2words and ICU spell no Bulgarian
      ordinal words).
    """
    import icu_rbnf
    from num2words import num2words

    vocab: dict[str, tuple[int, int]] = {}

    def put(word: str, value: int, kind: int) -> None:
        w = _norm_word(word.casefold())
        if w and " " not in w and "-" not in w:
            vocab.setdefault(w, (value, kind))

    for n in _ATOMS:
        for lang in ("en", "ru"):
            words = num2words(n, lang=lang).replace("-", " ").split()
            if len(words) == 1:
                for w in (_ru_forms(_norm_word(words[0])) if lang == "ru" else {words[0]}):
                    put(w, n, ADD)
        bg = icu_rbnf.spellout(n, "bg").split()
        if len(bg) == 1:
            put(bg[0], n, ADD)
        if n:
            ordinals = [num2words(n, lang="en", to="ordinal")]
            ordinals += [num2words(n, lang="ru", to="ordinal", gender=g) for g in "mfn"]
            for o in ordinals:
                words = o.replace("-", " ").split()
                if len(words) == 1:
                    forms = _ru_forms(_norm_word(words[0])) if o[0] >= "а" else {words[0]}
                    for w in forms:
                        put(w, n, ORD)
    for w, n in _UNITS.items():
        if w == "hundred":
            put(w, 100, HUNDRED)
        else:
            for f in (_ru_forms(w) if w[0] >= "а" else {w}):
                put(f, n, ADD)
    for w in ("одна", "одно", "две"):
        for f in _ru_forms(w):
            put(f, 1 if w != "две" else 2, ADD)
    put("hundredth", 100, ORD_HUNDRED)
    for scale in _SCALES:
        put(num2words(scale, lang="en").split()[-1], scale, SCALE)
        put(num2words(scale, lang="en", to="ordinal").split()[-1], scale, ORD_SCALE)
        for k in (1, 2, 5):
            for w in icu_rbnf.spellout(k * scale, "bg").split()[-1:]:
                put(w, scale, SCALE)
            for w in _ru_forms(num2words(k * scale, lang="ru").split()[-1]):
                put(w, scale, SCALE)
        for w in _ru_forms(_norm_word(num2words(scale, lang="ru", to="ordinal").split()[-1])):
            put(w, scale, ORD_SCALE)
    for w in ("thousands", "millions", "billions"):
        put(w, {"t": 1000, "m": 1_000_000, "b": 1_000_000_000}[w[0]], SCALE)
    for w, n in SCALE_ABBREVIATIONS.items():
        put(w, n, SCALE)
    for stem, n in _BG_ORDINAL_STEMS.items():
        for ending in _BG_ORDINAL_ENDINGS:
            put(stem + ending, n, ORD)
    for stem, n in _BG_ORD_TENS.items():
        for ending in _BG_ORDINAL_ENDINGS:
            put(stem + ending, n, ORD)
    for stem, n in _BG_ORD_EN.items():
        for ending in _BG_EN_ENDINGS:
            put(stem + ending, n, ORD)
    for stem, n in _BG_SCALE_ORD.items():
        for ending in _BG_SCALE_ENDINGS:
            put(stem + ending, n, ORD_SCALE)
    for table in (_RU_NOUNS, _BG_NOUNS, _EN_NOUNS):
        for w, n in table.items():
            forms = {w, w + _BG_NOUN_ARTICLE} if table is _BG_NOUNS else {w}
            for f in (_ru_forms(w, noun=True) if table is _RU_NOUNS else forms):
                put(f, n, NOUN)
    return vocab



@lru_cache(maxsize=1)
def plain_number_words() -> dict[str, int]:
    """Number words a text may hold alone and still mean the number: the nominative
    cardinals of bg, ru and en of any atom ("сто", "двеста", "хиляда", "тысяча",
    "hundred") and the ordinals of ``number_words``. Russian oblique cases ("сорока",
    "семью", "трем") are left out: alone they are as often other words (a magpie, a
    family)."""
    import icu_rbnf
    from num2words import num2words

    out = dict(number_words())
    for n in _ATOMS + list(_SCALES):
        for text in (num2words(n, lang="ru"), num2words(n, lang="en"), icu_rbnf.spellout(n, "bg")):
            words = _norm_word(text.casefold()).replace("-", " ").split()
            if len(words) == 1:
                out.setdefault(words[0], n)
            elif n in _SCALES:
                out.setdefault(words[-1], n)
    return out


#: Rule "a scale word abbreviated" (issue 30 class 2, seventh pass): the abbreviations
#: of the scale words that the dictionaries give, read as the words ("1 млн" is
#: 1 000 000, "5 хил." is 5000, "3 млрд" is 3 000 000 000, "20 тыс." is 20 000):
#: Bulgarian "хил.", "млн.", "млрд." (Правописен речник, БАН 2012, list of
#: abbreviations); Russian "тыс.", "млн", "млрд" (ГОСТ Р 7.0.12-2011; Розенталь,
#: Справочник по правописанию, § 213); English "mln", "bn", "bln" (The Economist Style
#: Guide). A unit abbreviation stays a unit: "5 мл" (millilitres), "5 м", "5 т" are 5;
#: English "m" and "k" are left out, being metres and a unit's prefix as often.
SCALE_ABBREVIATIONS = {
    "хил": 1000, "тыс": 1000, "млн": 1_000_000, "mln": 1_000_000,
    "млрд": 1_000_000_000, "bn": 1_000_000_000, "bln": 1_000_000_000,
}


def words_value(words: list[str], nouns: bool = False) -> tuple[int, bool] | None:
    """The number that a run of number words names, any size, and whether it is an
    ordinal: "семьсот сорок" 740, "семисот сорока" 740, "двеста и петдесет" 250,
    "хиляда деветстотин четиридесет и четвърта" (1944, ordinal), "two hundred and
    fifty" 250, "twenty first" 21. None when the words do not make one number: a
    number word twice in one place ("пять шесть"), an ordinal before the end, a noun
    for a number ("пятёрка", only with ``nouns``) together with other words."""
    vocab = number_vocabulary()
    words = [w for w in words if w not in _JOINERS]
    if not words:
        return None
    total, current, last_add, last_scale, ordinal = 0, 0, 10**12, 10**12, False
    for w in words:
        entry = vocab.get(w)
        if entry is None or ordinal:
            return None
        value, kind = entry
        if kind == NOUN:
            if not nouns or len(words) != 1:
                return None
            return value, False
        if kind in (ADD, ORD):
            # each additive word must be smaller than the one before it and not fill a
            # place already taken ("двадцать один", not "один двадцать", not "пять шесть")
            if value >= last_add or (value < 10 and current % 10) or (
                10 <= value < 100 and current % 100
            ):
                return None
            current += value
            last_add = value if value else 1
        elif kind in (HUNDRED, ORD_HUNDRED):
            if current >= 100:
                return None
            current = (current or 1) * 100
            last_add = 100
        else:  # a scale
            if value >= last_scale:
                return None  # scales fall: "миллион тысяча", not "тысяча миллион"
            total += (current or 1) * value
            current, last_add, last_scale = 0, value, value
        ordinal = kind in (ORD, ORD_HUNDRED, ORD_SCALE)
    return total + current, ordinal


#: a suffix after digits that makes an ordinal or a case form of a number: bg "21-ви",
#: "2-ри", "3-ти", "7-ми", "100-тен", "1944-та"; ru "21-й", "21-го", "5-я", "2-е", "10-х";
#: en "21st", "2nd", "3rd", "5th"
_DIGIT_SUFFIX = re.compile(
    r"^(\d+)\s?(ви|ри|ти|ми|ия|ият|ата|ото|ите|та|то|те|ен|тен|на|но|й|я|е|го|му|м|х|ми|ый|"
    r"ой|ая|ое|ые|ом|st|nd|rd|th|s)$"
)
def read_number(text: str) -> float | None:
    """The number of a whole normalised answer in the number mode (BG-R5.4): digits,
    digits with an ordinal or case suffix ("21-ви", "5th", "1944 г."), words of any
    size in bg, ru or en, a noun for a number ("пятёрка"), a Roman numeral; a year's
    "г."/"година"/"год" and a preposition before a year are dropped."""
    tokens = text.split()
    while tokens and tokens[0] in _YEAR_PREPOSITIONS and len(tokens) > 1:
        tokens = tokens[1:]
    while len(tokens) > 1 and (tokens[-1] in YEAR_WORDS or tokens[-1] in CENTURY_UNITS):
        tokens = tokens[:-1]
    if not tokens:
        return None
    tokens = _article_for_one(tokens)
    joined = " ".join(tokens)
    m = _DIGIT_SUFFIX.match(joined)
    if m:
        return float(int(m.group(1)))
    glued = _YEAR_GLUED.match(joined)
    if glued:
        return float(int(glued.group(1)))
    if joined.isdigit():
        return float(int(joined))
    if len(tokens) == 1 and roman_value(joined) is not None:
        return float(roman_value(joined) or 0)
    if len(tokens) == 2 and tokens[1] in _ROMAN_SUFFIXES and roman_value(tokens[0]):
        # a Roman numeral with an ordinal suffix, "XIV-ти", "IV-ти" (eighth pass): the
        # Правописен речник (БАН 2012) writes none, but teams type one as after digits
        return float(roman_value(tokens[0]) or 0)
    read = words_value(tokens, nouns=True)
    if read:
        return float(read[0])
    year = _english_year(tokens)
    if year is not None:
        return year
    scaled = _digits_times_scale(tokens)
    if scaled is not None:
        return scaled
    half = _and_a_half(tokens)
    if half is not None:
        return half
    return _with_unit(tokens)


def _article_for_one(tokens: list[str]) -> list[str]:
    """Rule "a hundred" (issue 30 class 2, tenth pass): English says one hundred,
    thousand, million or dozen with the indefinite article ("a hundred", "a thousand and
    one", "a million", "a dozen" for 100, 1001, 1 000 000, 12; the dictionaries give the
    article the sense "one": Merriam-Webster, Oxford), so "a" before such a word is one."""
    if len(tokens) >= 2 and tokens[0] in ("a", "an"):
        entry = number_vocabulary().get(tokens[1])
        if entry is not None and entry[1] in (HUNDRED, SCALE, NOUN):
            return ["one", *tokens[1:]] if entry[1] != NOUN else tokens[1:]
    return tokens


#: Russian "one and a half" (полутора in the oblique cases), and its hundred
_ONE_AND_A_HALF = frozenset({"полтора", "полторы", "полутора"})
_HALF_HUNDREDS = {"полтораста": 150, "полутораста": 150}
_HALF = frozenset({"половина", "половин"})


def _and_a_half(tokens: list[str]) -> float | None:
    """Rule "one and a half" (issue 30 class 2, tenth pass): Russian полтора/полторы
    (oblique полутора) before a scale word is one and a half of it, and полтораста is
    150 (Русская грамматика 1980, the numerals полтора, полтораста; Розенталь,
    Справочник по правописанию, § 213): "полторы тысячи" 1500, "полтора миллиона"
    1 500 000, "полутора тысяч" 1500; Bulgarian says the half after the scale word,
    "хиляда и половина" 1500, "милион и половина" 1 500 000 (Правописен речник, БАН
    2012: половина). The product must be whole ("полтора" alone is 1.5, no answer)."""
    if len(tokens) == 1 and tokens[0] in _HALF_HUNDREDS:
        return float(_HALF_HUNDREDS[tokens[0]])
    vocab = number_vocabulary()
    if len(tokens) == 2 and tokens[0] in _ONE_AND_A_HALF:
        scale = vocab.get(tokens[1])
    elif len(tokens) == 3 and tokens[1] == "и" and tokens[2] in _HALF:
        scale = vocab.get(tokens[0])
    else:
        return None
    if scale is None or scale[1] != SCALE:
        return None
    return float(scale[0] * 3 // 2)


#: the ordinal suffixes a Roman numeral is typed with (bg, ru; en)
_ROMAN_SUFFIXES = frozenset(("ви", "ри", "ти", "ми", "й", "я", "е", "го", "st", "nd", "rd", "th"))


def _english_year(tokens: list[str]) -> float | None:
    """Rule "a year read in pairs" (issue 30 class 2, eighth pass): English reads a year
    as two numbers of two digits, "nineteen forty-four" 1944, "ten sixty-six" 1066,
    "eighteen twelve" 1812 (The Chicago Manual of Style, 9.31; Oxford Style Manual);
    only where the words make no one number, and the first part of ten or more, the
    second of ten or more ("twenty five" is 25)."""
    vocab = number_vocabulary()
    if not tokens or any(t not in vocab or not t.isascii() for t in tokens):
        return None
    for cut in range(1, len(tokens)):
        first = words_value(tokens[:cut])
        second = words_value(tokens[cut:])
        if first and second and not first[1] and 10 <= first[0] <= 99 and 10 <= second[0] <= 99:
            return float(first[0] * 100 + second[0])
    return None


def _digits_times_scale(tokens: list[str]) -> float | None:
    """Rule "digits and a scale word" (issue 30 class 2, seventh pass): digits followed
    by one scale word, written out or abbreviated, are their product, as a newspaper
    writes large numbers: "5 хиляди", "5 миллионов", "1 млн", "20 тыс", "3 bn" for
    5000, 5 000 000, 1 000 000, 20 000, 3 000 000 000 (Правописен речник, БАН 2012;
    Розенталь, § 213). A scale word is no unit (rule "a number and its unit")."""
    if len(tokens) != 2 or not tokens[0].isdigit():
        return None
    entry = number_vocabulary().get(tokens[1])
    if entry is None or entry[1] != SCALE:
        return None
    return float(int(tokens[0]) * entry[0])


_DECIMAL_SCALED = re.compile(r"^\s*(\d+)[.,](\d+)\s+([^\W\d_]+)\.?\s*$")


def decimal_times_scale(text: str) -> float | None:
    """Rule "digits and a scale word" with a decimal part, read from the answer as typed
    (normalising drops the decimal point): "2,5 хиляди", "1.5 млн", "2,5 тыс." for 2500,
    1 500 000, 2500; the product must be a whole number ("2,0005 хил." is none)."""
    m = _DECIMAL_SCALED.match(text.casefold())
    if not m:
        return None
    entry = number_vocabulary().get(m.group(3))
    if entry is None or entry[1] != SCALE:
        return None
    whole, frac = m.group(1), m.group(2)
    value = (int(whole + frac) * entry[0]) / 10 ** len(frac)
    return float(value) if (int(whole + frac) * entry[0]) % 10 ** len(frac) == 0 else None


#: digits grouped by threes with spaces ("8 848", "1 000 000": БДС ISO 80000-1 and the
#: Russian ГОСТ 8.417 write thousands so)
_DIGIT_GROUPS = re.compile(r"^\d{1,3}(?: \d{3})+$")


def _with_unit(tokens: list[str]) -> float | None:
    """Rule "a number and its unit" (issue 30 class 2, sixth pass): a number followed by
    one word that is no number word is the number with what it counts, as the question
    asks it: "8 848 м", "5 пъти", "тридесет и три години", "12 apostles", "сто рублей"
    for 8848, 5, 33, 12, 100; digits grouped by threes are one number ("8 848")."""
    if len(tokens) < 2 or not tokens[-1].isalpha() or tokens[-1] in _JOINERS:
        return None
    unit = tokens[-1]
    if unit in number_vocabulary() or (unit.isascii() and roman_value(unit) is not None):
        return None
    if unit in _HALF or unit == "half":
        return None  # "две и половина", "two and a half": a fraction, not a unit
    head = " ".join(tokens[:-1])
    if _DIGIT_GROUPS.match(head):
        return float(int(head.replace(" ", "")))
    if head.isdigit():
        return float(int(head))
    m = _DIGIT_SUFFIX.match(head)
    if m:
        return float(int(m.group(1)))
    read = words_value(tokens[:-1], nouns=False)
    return float(read[0]) if read else None


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


#: the nouns a Roman numeral comes before ("XXI век", "XIX столетие", "XX century")
CENTURY_WORDS = frozenset(
    {"век", "века", "веке", "веков", "столетие", "столетия", "century", "centuries"}
)
#: rule "a century is its number" (sixth pass): in the number mode a century word after
#: the number names its unit, as "г." names a year's: "XIV век", "14 в.", "двадцать первый
#: век", "19th century", "XIX столетие" for 14, 14, 21, 19, 19 (Bulgarian and Russian
#: write "в." for век: Правописен речник, БАН 2012, abbreviations; Розенталь, Справочник
#: по правописанию, § 213)
CENTURY_UNITS = CENTURY_WORDS | {"в", "вв", "векът", "века", "веку", "столетия", "c", "cent"}
#: a run of number words in a text is read as one number up to this many words
RUN_MAX = 9


def _number_run(
    tokens: tuple[str, ...], i: int, vocab: dict[str, tuple[int, int]]
) -> tuple[int, int] | None:
    """The longest run of two or more number words from ``tokens[i]`` that names one
    number ("семьсот сорок", "двадцать первый", "двеста и петдесет"), as (value, number
    of tokens); None when there is none. A noun for a number is no part of a run."""
    j = i
    while j < len(tokens) and j - i < RUN_MAX and (
        tokens[j] in _JOINERS or vocab.get(tokens[j], (0, NOUN))[1] != NOUN
    ):
        j += 1
    for end in range(j, i + 1, -1):
        if tokens[end - 1] in _JOINERS or tokens[i] in _JOINERS:
            continue
        read = words_value(list(tokens[i:end]))
        if read:
            return read[0], end - i
    return None


#: a century's number read in a text stays below this (``_TEXT_ROMAN`` reads to 39)
CENTURY_MAX = 40
#: the ordinal suffixes typed after a century's number ("9-ти век", "XIV-ти век", "21-ви
#: век", "5-й век"), as ``_DIGIT_SUFFIX`` reads them in the number mode
_CENTURY_SUFFIXES = frozenset(("ти", "ви", "ри", "ми", "й", "я", "го", "ый", "ой"))


def _century_unit(tokens: tuple[str, ...], i: int) -> str:
    """What ``tokens[i]`` is after a number: "unit" for a century word, or for its
    abbreviation closing the text ("IX в.", "20 вв.", "5th c."; "в" inside a text is
    the Russian preposition); "suffix" for an ordinal suffix before a century unit
    ("9-ти век"); else ""."""
    if i >= len(tokens):
        return ""
    t = tokens[i]
    if t in CENTURY_WORDS or (t in CENTURY_UNITS and i == len(tokens) - 1):
        return "unit"
    if t in _CENTURY_SUFFIXES and _century_unit(tokens, i + 1) == "unit":
        return "suffix"
    return ""


def digits_for_numbers(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens with every number written as digits (issue 16 §2): number words and
    ordinals ("осем", "Трети", "Третий", "fifth"), Roman numerals closing a name of
    several words ("Петър III"), a year's "г."/"година"/"год." dropped and a lone year's
    preposition too ("в 1944 году" -> "1944"); rule "a century in a text" (tenth pass):
    a century's unit after its number is one word, "век", whether written in full, in
    another word or abbreviated, and an ordinal suffix before it is dropped ("IX в.",
    "9-ти век", "XIX столетие", "19th century" -> "9 век", "9 век", "19 век", "19 век").
    """
    words = plain_number_words()
    vocab = number_vocabulary()
    out: list[str] = []
    skip = 0
    for i, t in enumerate(tokens):
        if skip:
            skip -= 1
            continue
        run = _number_run(tokens, i, vocab)
        if run:
            value, length = run
            out.append(str(value))
            skip = length - 1
            continue
        glued = _YEAR_GLUED.match(t)
        if glued:
            out.append(glued.group(1))
            continue
        if t in YEAR_WORDS and out and out[-1].isdigit() and len(out[-1]) in (3, 4):
            continue
        century = _century_unit(tokens, i)
        if out and out[-1].isdigit() and int(out[-1]) < CENTURY_MAX:
            if century == "unit":
                out.append("век")
                continue
            if century == "suffix":
                continue
        v = words.get(t)
        if v is None and i and i == len(tokens) - 1:
            v = text_roman(t)
        elif v is None and _century_unit(tokens, i + 1) in ("unit", "suffix"):
            v = text_roman(t)  # "XXI век", "XIX century", "IX в.", "XIV-ти век"
        elif v is None and len(tokens) == 1 and t.isascii() and len(t) >= 2:
            # a lone Roman numeral of Latin letters ("IV", "XIV", "XX" for "двадесети",
            # "Четвърти", "fourth"); one letter alone (V, I, C, X) is left a letter:
            # Vitamin C, option B, the C language
            v = text_roman(t)
        out.append(str(v) if v is not None else t)
    if len(out) == 2 and out[0] in _YEAR_PREPOSITIONS and out[1].isdigit():
        out = out[1:]
    return tuple(out)
