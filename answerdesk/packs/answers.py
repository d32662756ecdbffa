"""Turning editors' answer text into checker keys.

db.chgk.info answers are written for people: "[Джузеппе] Верди." (an optional
part), "БрЕцель" (a stress mark), "Зачет: Рэтт; Рет. Незачет: Ред" (accepted and
rejected variants in one field), "По смыслу" (an instruction to the judge). The
checker needs plain strings; what no machine can apply goes to `note` so the
host still sees it in the review queue.
"""

from __future__ import annotations

import html
import itertools
import re

CYR_UPPER_VOWELS = "АЕЁИОУЫЭЮЯ"
MAX_VARIANTS = 64

_STRESS_INNER = re.compile(rf"(?<=[а-яё])([{CYR_UPPER_VOWELS}])")
_STRESS_SECOND = re.compile(rf"(?<![^\W\d_])([А-ЯЁ])([{CYR_UPPER_VOWELS}])(?=[а-яё]{{2,}})")
_READER_NOTE = re.compile(r"\s*\[(?:ведущ|чтец|внимание|примечание)[^\]]*\]", re.IGNORECASE)
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
_PAREN = re.compile(r"(?<=\s)\(([^()]*)\)|^\(([^()]*)\)$")
_SLASH = re.compile(r"(?<![\w/])([а-яёА-ЯЁ]+(?:/[а-яёА-ЯЁ]+)+)(?![\w/])")
_NEZACHET = re.compile(r"(?:^|\s|\.)\s*Незач[её]т\s*:\s*", re.IGNORECASE)
_TRAILER = re.compile(
    r"^(?P<lead>.*?)\s*,?\s+(?P<note>и\s+т\.\s?[пд]\..*|и\s+(?:все\s+)?(?:другие|остальные|"
    r"аналогичные|близкие|синонимичные|подобные|прочие)\b.*)$",
    re.IGNORECASE | re.DOTALL,
)
_NOTE_START = re.compile(
    r"^(?:по\s+(?:смыслу|слову|словам|упоминани|имени|фамилии|корню|ключев)|"
    r"в\s+любом|в\s+любой|с\s+любой|с\s+любым|с\s+любыми|с\s+написанием|с\s+синоним|"
    r"с\s+упоминани|с\s+несущественн|с\s+использованием|любой|любая|любое|любые|"
    r"принима|засчитыва|те\s+же|другие|а\s+также|также|только|при\s+упоминании|"
    r"ответы?\s+со?\s|допускается|незачет|не\s+засчитыва)",
    re.IGNORECASE,
)
_NOTE_ANYWHERE = re.compile(r"\sвместо\s|\s/\s|по смыслу|засчитывается", re.IGNORECASE)
_QUOTE_PAIRS = {'"': '"', "«": "»", "“": "”", "„": "“"}


def fold_stress(text: str) -> str:
    """Lower the capital vowels editors use as stress marks ("БутОрина" →
    "Буторина", "КАпри" → "Капри"); acronyms ("СССР"), initial capitals and
    Latin camel case ("McDonald") are kept."""
    text = _STRESS_INNER.sub(lambda m: m.group(1).lower(), text)
    return _STRESS_SECOND.sub(lambda m: m.group(1) + m.group(2).lower(), text)


def squash(text: str) -> str:
    """One line, single spaces, no space before punctuation."""
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\s+([.,;:!?])", r"\1", text)


def expand_optional(text: str) -> list[str]:
    """"[Джузеппе] Верди" → ["Джузеппе Верди", "Верди"]: every optional part
    both with and without, the full form first."""
    parts = _OPTIONAL.split(text)
    if len(parts) == 1:
        return [text]
    fixed, optional = parts[0::2], parts[1::2]
    out: list[str] = []
    for choice in itertools.product((True, False), repeat=len(optional)):
        pieces = [fixed[0]]
        for keep, opt, after in zip(choice, optional, fixed[1:], strict=True):
            pieces.append(opt if keep else "")
            pieces.append(after)
        variant = squash("".join(pieces))
        if variant and variant not in out:
            out.append(variant)
        if len(out) >= MAX_VARIANTS:
            break
    return out


def expand_slashes(text: str) -> list[str]:
    """"сияние/сверкание золота" → both words; only Cyrillic words, so that
    "AC/DC" and "24/7" stay as written."""
    groups = _SLASH.findall(text)
    if not groups:
        return [text]
    pieces = _SLASH.split(text)
    out: list[str] = []
    for combo in itertools.product(*(g.split("/") for g in groups)):
        s = pieces[0]
        for word, after in zip(combo, pieces[2::2], strict=False):
            s += word + after
        out.append(squash(s))
    return out[:MAX_VARIANTS]


def strip_outer(text: str) -> str:
    """Drop one trailing full stop (not an ellipsis) and quotes around the whole
    answer: the checker ignores both, the projector looks cleaner without."""
    text = text.strip()
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1].rstrip()
    for left, right in _QUOTE_PAIRS.items():
        inner = text[1:-1]
        if (
            len(text) >= 2 and text[0] == left and text[-1] == right
            and left not in inner and right not in inner
        ):
            text = inner.strip()
            break
    return text


def take_parentheticals(text: str) -> tuple[str, list[str]]:
    """Remove "(comment ...)" that follows a space and return it separately:
    "Нагорный Карабах (просто Карабах не засчитывается)" keeps the answer and
    turns the remark into a note. "РСДРП(б)" is left alone."""
    notes: list[str] = []

    def grab(m: re.Match[str]) -> str:
        notes.append((m.group(1) or m.group(2) or "").strip())
        return ""

    return squash(_PAREN.sub(grab, text)), [n for n in notes if n]


def answer_variants(raw: str) -> tuple[list[str], list[str]]:
    """All checker strings one written answer stands for, and the remarks taken
    out of it."""
    text = squash(_READER_NOTE.sub("", html.unescape(raw)))
    text, notes = take_parentheticals(text)
    text = fold_stress(text)
    out: list[str] = []
    for with_opt in expand_optional(text):
        for variant in expand_slashes(with_opt):
            v = strip_outer(variant)
            if v and v not in out:
                out.append(v)
    return out[:MAX_VARIANTS], notes


def split_top(text: str, sep: str) -> list[str]:
    """Split on `sep` outside brackets, parentheses and quotes."""
    parts: list[str] = []
    depth = 0
    in_quote = False
    start = 0
    for i, ch in enumerate(text):
        if ch in "[(«“":
            depth += 1
        elif ch in "])»”" and depth:
            depth -= 1
        elif ch == '"':
            in_quote = not in_quote
        elif ch == sep and depth == 0 and not in_quote:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def split_nezachet(text: str) -> tuple[str, str]:
    """"Рэтт; Рет. Незачет: Ред; Рэд." → ("Рэтт; Рет.", "Ред; Рэд.")."""
    m = _NEZACHET.search(text)
    if not m:
        return text, ""
    head = text[: m.start()] + (text[m.start()] if text[m.start()] == "." else "")
    return head.strip(), text[m.end():].strip()


def is_note(piece: str) -> bool:
    """True for judging instructions ("По смыслу", "В любом порядке")."""
    piece = piece.strip().strip('."')
    return bool(_NOTE_START.match(piece) or _NOTE_ANYWHERE.search(f" {piece} "))


def zachet_variants(text: str, allow_commas: bool) -> tuple[list[str], list[str]]:
    """Accepted variants and judging notes from a Зачёт (or Незачёт) field.

    ";" always separates variants. "," separates them only when
    `allow_commas` — the caller passes False when the main answer itself
    contains a comma ("Кошка, мышь"), because then a comma is part of one answer.
    """
    text = squash(html.unescape(text))
    variants: list[str] = []
    notes: list[str] = []

    def add_plain(piece: str) -> None:
        pieces = split_top(piece, ",") if allow_commas else [piece]
        for p in pieces:
            if is_note(p):
                notes.append(strip_outer(p))
                continue
            found, remarks = answer_variants(p)
            variants.extend(v for v in found if v not in variants)
            notes.extend(remarks)

    for piece in split_top(text, ";"):
        piece = squash(_READER_NOTE.sub("", piece))
        trailer = _TRAILER.match(piece)
        if is_note(piece):
            notes.append(strip_outer(piece))
        elif trailer and trailer.group("lead") and not is_note(trailer.group("lead")):
            add_plain(trailer.group("lead"))
            notes.append(strip_outer(piece))
        else:
            add_plain(piece)
    return variants, notes


def has_top_comma(text: str) -> bool:
    """Whether a written answer has a comma outside brackets and quotes."""
    return len(split_top(squash(text), ",")) > 1
