"""Modes number (BG-R5.4) and choice (BG-R1)."""

from __future__ import annotations

import re
from typing import Any

from answerdesk.checker.keys import parse_open_key
from answerdesk.checker.normalize import normalize
from answerdesk.checker.numbers import decimal_times_scale, parse_number
from answerdesk.checker.reasons import Reason, why

Result = tuple[str, float | None, Reason]


#: a number with a decimal part: one comma or point followed by one, two or four and
#: more digits. Three digits after it are a thousands group in English ("1,000") and
#: stay read so (rule "digits grouped by threes").
_DECIMAL = re.compile(r"^\s*(\d+)[.,](\d{1,2}|\d{4,})\s*$")


def _decimal(text: str) -> float | None:
    """Rule "a decimal is no whole number" (issue 30 class 2, seventh pass): "2,5" and
    "2.5" are 2.5, read before normalising drops the separator, so "25" is no answer for
    2.5, "314" none for 3.14, and "2,5" none for 25 (the decimal comma of БДС ISO 80000-1
    and ГОСТ 8.417, the decimal point of English)."""
    m = _DECIMAL.match(text)
    return float(f"{m.group(1)}.{m.group(2)}") if m else None


def check_number(given: str, key: Any) -> Result:
    """The number as digits, a bg/ru/en word or a Roman numeral; no spelling tolerance."""
    accept, _ = parse_open_key(key)
    wanted = []
    for a in accept:
        v = _decimal(a)
        if v is None:
            v = parse_number(normalize(a))
        if v is None:
            raise ValueError(f"number key must hold numbers, got {a!r}")
        wanted.append(v)
    g = normalize(given)
    if not g:
        return "wrong", 0.0, why("empty")
    v = _decimal(given)
    if v is None:
        v = decimal_times_scale(given)
    if v is None:
        v = parse_number(g)
    if v is None:
        digits = re.findall(r"\d+", g)
        if len(digits) == 1 and not re.search(r"[^\W\d_]{3,}", g):
            v = float(digits[0])
        elif len(set(digits)) > 1:
            return "review", None, why("several_numbers")
        else:
            return "review", None, why("not_a_number")
    if v in wanted:
        return "correct", 1.0, why("right_number")
    return "wrong", 0.0, why("different_number", number=f"{v:g}")


# option letters: Cyrillic А-Г (and Д, Е), their Latin typing and look-alikes
_LETTER_ALIASES = {
    "а": "а", "a": "а", "б": "б", "в": "в", "v": "в", "г": "г", "g": "г",
    "д": "д", "d": "д", "е": "е", "e": "е",
    # the third of Latin options A-D, and its Cyrillic look-alike (no Cyrillic option
    # is С): "c) Jupiter" for "C", "C" typed for "В" on an English keyboard, "с" for "C"
    "c": "в", "с": "в",
}
_LATIN_B = "b"  # Б by sound, В by shape
# True/false in bg, ru and en are one option each (BG-R1, issue 16 §6). No maintained
# list holds these answer words, so they are written out: the adjective ("вярно",
# "верно", "true"), its negation written together or apart ("невярно", "не е вярно",
# "не верно"), the yes/no words ("да"/"не", "да"/"нет", "yes"/"no") and the nouns and
# synonyms teams use ("истина", "лъжа", "ложь", "правилно", "грешно", "правильно").
_TRUE = frozenset({
    "вярно", "вярно е", "да", "истина", "правилно", "точно", "true", "yes", "correct", "right",
    "верно", "правда", "правильно", "истинно", "t", "y",
})
_FALSE = frozenset({
    "невярно", "не е вярно", "не вярно", "грешно", "неправилно", "не", "лъжа", "неистина",
    "false", "no", "not true", "incorrect", "wrong", "неверно", "не верно", "неправда",
    "ложь", "нет", "неправильно", "ложно", "f", "n",
})
# between two options in one answer ("А или Б", "а, б", "вярно/невярно")
_OPTION_SEP = re.compile(r"\s*(?:[,;/|&+]|\s(?:или|либо|or|и|and)\s)\s*|\s+")


#: rule "marks for true and false" (issue 30 class 3, tenth pass): a phone's keyboard
#: offers the check mark and the cross, which exam sheets and forms use for true and
#: false (Unicode CHECK MARK, HEAVY CHECK MARK, WHITE HEAVY CHECK MARK, BALLOT BOX WITH
#: CHECK, THUMBS UP SIGN; BALLOT X, HEAVY BALLOT X, CROSS MARK, THUMBS DOWN SIGN);
#: normalising drops them, so they are read first
_TRUE_MARKS = frozenset("✓✔✅☑👍")
_FALSE_MARKS = frozenset("✗✘❌❎👎")


def _mark(text: str) -> str | None:
    """"true" or "false" for an answer made of one kind of mark, else None."""
    marks = set(text.replace("\ufe0f", "").split()) if text.strip() else set()
    chars = {c for m in marks for c in m}
    if chars and chars <= _TRUE_MARKS:
        return "true"
    if chars and chars <= _FALSE_MARKS:
        return "false"
    return None


def _option(text: str) -> str | None:
    mark = _mark(text)
    if mark:
        return mark
    t = normalize(text)
    if t in _TRUE:
        return "true"
    if t in _FALSE:
        return "false"
    m = re.fullmatch(r"(?:отговор\s+|ответ\s+|answer\s+)?([a-zа-я])", t)
    if m and (m.group(1) in _LETTER_ALIASES or m.group(1) == _LATIN_B):
        return _LETTER_ALIASES.get(m.group(1), _LATIN_B)
    return None


def _options_named(raw: str) -> set[str]:
    """The options an answer names when it is made only of options ("А или Б", "a, b",
    "вярно/невярно"): two or more different ones mean the team hedged (BG-R1: one
    choice). Empty when any piece is not an option (a word of an open answer)."""
    pieces = [p for p in _OPTION_SEP.split(normalize(raw.replace(")", " ").replace(".", " ")))
              if p]
    if len(pieces) < 2:
        return set()
    found = [_option(p) for p in pieces]
    return set(found) if all(found) else set()  # type: ignore[arg-type]


#: an option's letter followed by the option's text: "б) Родопи", "Б – Родопи", "B. Rila",
#: "в: Пирин" (a bare space is not enough: "В Родопите" is "in the Rhodopes")
_LETTER_WITH_TEXT = re.compile(r"^\s*([A-Za-zА-Яа-я])\s*(?:[\).:]|\s[-–—]|[-–—]\s)\s*(.*)$")


def _text_matches(text: str, texts: tuple[str, ...]) -> str:
    """The outcome of an option's text against the key's option texts (typo3, BG-R2)."""
    from answerdesk.checker.text import check_text

    return check_text(text, texts, (), "typo3", 3)[0]


def _fuller_text(text: str, texts: tuple[str, ...]) -> bool:
    """Rule "a fuller option text" (issue 30 class 3, eighth pass): a team writes the
    option as it remembers it, often in full, and a text that holds every word of the
    key's option text agrees with it: "Христо Ботев" for the option "Ботев", "Родопи
    планина" for "Родопи", "река Дунав" for "Дунав"."""
    words = set(normalize(text).split())
    return any(set(normalize(t).split()) <= words for t in texts if normalize(t))


#: rule "the answer word" (issue 30 class 3, tenth pass): a team that writes "Answer:"
#: before its choice, as an exam sheet prints it ("Отговор: Б) Родопи", "отг. Б",
#: "Ответ: в", "Answer - C"), names the choice after it
_ANSWER_WORD = re.compile(
    r"^(?:(?:отговорът\s+е|отговор|ответ|answer)\s*(?:[:\-–—]\s*|\s)|(?:отг|отв|ans)\.\s*)",
    re.IGNORECASE,
)


def check_choice(given: str, key: Any) -> Result:
    """The chosen option: a letter in either script with or without ")"/"." (BG-R1),
    or true/false in bg/ru/en ("невярно" is not "вярно"); two options in one answer
    are wrong (one choice per question). A letter with the option's text ("Б – Родопи")
    is judged by its letter; when the key also holds the option's text (["Б",
    "Родопи"]) a text that contradicts the letter goes to the host."""
    accept, _ = parse_open_key(key)
    wanted = {_option(a) or normalize(a) for a in accept}
    raw = _ANSWER_WORD.sub("", given.strip(), count=1).strip() or given.strip()
    g = _option(raw)
    if g is None:
        named = _options_named(raw)
        if len(named) >= 2:
            return "wrong", 0.0, why("two_options")
        if named:
            g = named.pop()
    texts = tuple(a for a in accept if _option(a) is None)
    text = ""
    if g is None:
        m = _LETTER_WITH_TEXT.match(raw)
        if m and _option(m.group(1)):
            g, text = _option(m.group(1)), m.group(2).strip()
    if g is None:
        n = normalize(raw)
        if not n:
            return "wrong", 0.0, why("empty")
        if n in wanted:
            return "correct", 1.0, why("exact")
        if texts and _text_matches(raw, texts) == "correct":
            return "correct", 1.0, why("right_option")
        return "review", None, why("not_an_option")
    if text and texts and g != _LATIN_B:
        # Rule "letter and text" (issue 30 class 3): the letter decides; a text that
        # contradicts it (the right letter with another option's text, or the right
        # text with another letter) goes to the host
        same = _text_matches(text, texts) == "correct" or _fuller_text(text, texts)
        if (g in wanted) != same:
            return "review", None, why("option_text_differs")
    if g == _LATIN_B:
        # rule "Latin options" (sixth pass): for a key of Latin letters A-D, B is B
        # ("B" for "B" right, "B) London" for "C" another option)
        if _LATIN_B in wanted:
            return "correct", 1.0, why("right_option")
        if any(re.fullmatch(r"[a-f]", normalize(a)) for a in accept):
            return "wrong", 0.0, why("other_option")
        if "б" in wanted:
            return "correct", 1.0, why("right_option_latin_b")
        if "в" in wanted:
            return "review", None, why("latin_b")
        return "wrong", 0.0, why("other_option")
    if g in wanted:
        return "correct", 1.0, why("right_option")
    return "wrong", 0.0, why("other_option")
