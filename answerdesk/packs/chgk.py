"""db.chgk.info text packs: ЧГК tournaments and Своя игра.

The format is a sequence of "Field:" lines each followed by its text. A ЧГК pack
has "Тур:" sections of "Вопрос N:" with "Ответ:", "Зачет:", "Незачет:",
"Комментарий:", "Источник:", "Автор:". A Своя игра pack ("Вид: Я") uses each
"Вопрос N:" for a theme: its first line is the theme's name, then numbered
questions "1." … "5.", and "Ответ:" is a numbered list in the same order.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from .answers import (
    answer_variants,
    fold_stress,
    has_top_comma,
    split_nezachet,
    squash,
    zachet_variants,
)
from .model import N_, Pack, PackError, QuestionSpec, RoundSpec, text_key
from .textio import decode_text

MAX_COMBINATIONS = 64
SVOYAK_THEMES_PER_ROUND = 5

_FIELD = re.compile(
    r"^(?P<name>Чемпионат|Пакет|URL|Ссылка|Дата|Тур|Редакторы?|Инфо|Вид|Тип|"
    r"Вопрос\s+(?P<num>\d+)[^:\n]{0,30}|Ответ|Зач[её]т|Незач[её]т|Комментари[йи]|"
    r"Источник(?:и)?|Авторы?|Обработан|Копирайт|Тема|Мета|Глава)\s*:\s*(?P<rest>.*)$"
)
_CANON = {
    "Ответ": "answer", "Зачет": "zachet", "Зачёт": "zachet", "Незачет": "nezachet",
    "Незачёт": "nezachet", "Комментарий": "comment", "Комментарии": "comment",
    "Источник": "source", "Источники": "source", "Автор": "author", "Авторы": "author",
    "Тур": "tour", "Чемпионат": "title", "Пакет": "title", "Вид": "kind", "Тип": "kind",
}
_MEDIA = re.compile(r"\(\s*(pic|aud|audio|video|vid)\s*:\s*([^)\s]+)\s*\)", re.IGNORECASE)
_MEDIA_KIND = {"pic": "image", "aud": "audio", "audio": "audio", "video": "video",
               "vid": "video"}
_ITEM = re.compile(r"^\s*(\d+)\.\s*(.*)$")


@dataclass
class Field:
    """One "Name:" block: canonical name, question number, its lines, where it starts."""

    name: str
    number: int | None
    lines: list[str]
    line: int


def scan_fields(text: str) -> list[Field]:
    """Cut the text into fields; text before the first field is ignored."""
    fields: list[Field] = []
    for i, raw in enumerate(text.split("\n"), start=1):
        m = _FIELD.match(raw)
        if m:
            name = m.group("name")
            if m.group("num"):
                fields.append(Field("question", int(m.group("num")), [], i))
            else:
                fields.append(Field(_CANON.get(name, name.lower()), None, [], i))
            if m.group("rest").strip():
                fields[-1].lines.append(m.group("rest"))
        elif fields:
            fields[-1].lines.append(raw)
    for f in fields:
        while f.lines and not f.lines[-1].strip():
            f.lines.pop()
    return fields


def unwrap(lines: list[str]) -> str:
    """Undo db.chgk.info's 72-column wrapping: an indented or numbered line, or
    one after a blank line, starts a paragraph; other lines continue one."""
    paragraphs: list[str] = []
    fresh = True
    for line in lines:
        if not line.strip():
            fresh = True
            continue
        if fresh or line[:1].isspace() or _ITEM.match(line) or not paragraphs:
            paragraphs.append(line.strip())
        else:
            paragraphs[-1] += " " + line.strip()
        fresh = False
    return "\n".join(p for p in paragraphs if p)


def split_numbered(
    lines: list[str], allowed: set[int] | None = None
) -> tuple[list[str], dict[int, list[str]]]:
    """Lines before "1." and the numbered items; numbers must run 1, 2, 3 … or
    10, 20, 30 … so that a "1917." inside an item is not taken for a new item.
    With `allowed`, items may skip numbers (a source given only for "3.") but
    must be among `allowed` and increase."""
    preamble: list[str] = []
    items: dict[int, list[str]] = {}
    step = 0
    current: int | None = None
    for line in lines:
        m = _ITEM.match(line)
        if m:
            n = int(m.group(1))
            if allowed is not None:
                starts = n in allowed and n > (current or 0)
            else:
                if current is None and n in (1, 10, 100):
                    step = n
                starts = bool(step) and n == (current or 0) + step
            if starts:
                current = n
                items[n] = [m.group(2)]
                continue
        if current is None:
            preamble.append(line)
        else:
            items[current].append(line)
    return preamble, items


def take_media(text: str) -> tuple[str, list[dict[str, str]]]:
    """"(pic: 20160702.jpg)" markers out of the text, into media references.
    db.chgk.info does not ship the files; the pack's warnings list them."""
    media = [{"kind": _MEDIA_KIND[m.group(1).lower()], "ref": m.group(2)}
             for m in _MEDIA.finditer(text)]
    text = _MEDIA.sub("", text)
    return "\n".join(squash(p) for p in text.split("\n") if p.strip()), media


def _key_parts(answer: str, zachet: str, nezachet: str) -> tuple[list[str], list[str], list[str]]:
    """Accepted, rejected and notes for one answer (or one part of a duplet)."""
    answer, inline_reject = split_nezachet(answer)
    zachet, zachet_reject = split_nezachet(zachet)
    commas = not has_top_comma(answer)
    accept, notes = answer_variants(answer)
    more, more_notes = zachet_variants(zachet, commas) if zachet else ([], [])
    reject: list[str] = []
    for text in (inline_reject, zachet_reject, nezachet):
        if text:
            found, found_notes = zachet_variants(text, commas)
            reject += found
            notes += found_notes
    return accept + more, reject, notes + more_notes


def _field_text(f: Field | None) -> str:
    return unwrap(f.lines) if f else ""


def _numbered_text(f: Field | None, allowed: set[int] | None = None) -> dict[int, str] | None:
    if not f:
        return None
    pre, items = split_numbered(f.lines, allowed)
    if unwrap(pre) or not items:
        return None
    return {n: unwrap(lines) for n, lines in items.items()}


class _Builder:
    """Walks the fields once, collecting the questions of each section."""

    def __init__(self, fields: list[Field]) -> None:
        self.fields = fields

    def sections(self) -> list[tuple[str | None, list[list[Field]]]]:
        """[(tour name, [[question field, its fields…], …]), …]."""
        out: list[tuple[str | None, list[list[Field]]]] = []
        tour: str | None = None
        current: list[list[Field]] | None = None
        for f in self.fields:
            if f.name == "tour":
                tour = _field_text(f) or None
                current = []
                out.append((tour, current))
            elif f.name == "question":
                if current is None:
                    current = []
                    out.append((None, current))
                current.append([f])
            elif current:
                current[-1].append(f)
        return [s for s in out if s[1]]


def _get(block: list[Field], name: str) -> Field | None:
    for f in block[1:]:
        if f.name == name:
            return f
    return None


def _require_answer(block: list[Field]) -> Field:
    answer = _get(block, "answer")
    q = block[0]
    if answer is None or not unwrap(answer.lines):
        raise PackError("'Вопрос %(number)s:' has no 'Ответ:'", N_("line %(line)s", line=q.line),
                       number=q.number)
    return answer


def _chgk_question(block: list[Field], number: int, warnings: list[str]) -> QuestionSpec:
    q = block[0]
    answer_f = _require_answer(block)
    zachet_f, nezachet_f = _get(block, "zachet"), _get(block, "nezachet")
    text, media = take_media(_field_text(q))
    parts = _numbered_text(answer_f)
    notes: list[str] = []
    if parts and len(parts) > 1:
        zparts = _numbered_text(zachet_f, set(parts)) or {}
        accepted_parts: list[list[str]] = []
        reject: list[str] = []
        for n, part in parts.items():
            acc, rej, nts = _key_parts(part, zparts.get(n, ""), "")
            accepted_parts.append(acc)
            reject += rej
            notes += nts
        if zachet_f and not zparts:
            notes.append(_field_text(zachet_f))
        if nezachet_f:
            reject += zachet_variants(_field_text(nezachet_f), True)[0]
        combos = ["; ".join(c) for c in itertools.islice(
            itertools.product(*accepted_parts), MAX_COMBINATIONS)]
        warnings.append(N_(
            "line %(line)s: Вопрос %(number)s has %(count)s numbered answers "
            "(duplet/blitz); the key joins the parts with '; '",
            line=q.line, number=q.number, count=len(parts)))
        key = text_key(combos, reject)
    else:
        acc, rej, notes = _key_parts(
            _field_text(answer_f), _field_text(zachet_f), _field_text(nezachet_f))
        key = text_key(acc, rej)
    display, _ = split_nezachet(_field_text(answer_f))
    if not key["accept"]:
        raise PackError("'Вопрос %(number)s:' has an empty 'Ответ:'",
                        N_("line %(line)s", line=answer_f.line), number=q.number)
    return QuestionSpec(
        number=number,
        text=text,
        key=key,
        comment=_field_text(_get(block, "comment")) or None,
        source=_field_text(_get(block, "source")) or None,
        author=_field_text(_get(block, "author")) or None,
        media=media,
        answer=fold_stress(display),
        note="; ".join(dict.fromkeys(n for n in notes if n)) or None,
    )


def _svoyak_theme(block: list[Field], multiplier: int) -> tuple[str, list[QuestionSpec]]:
    """One Своя игра theme: its name and its numbered questions with values."""
    q = block[0]
    answer_f = _require_answer(block)
    pre, items = split_numbered(q.lines)
    name = squash(unwrap(pre)) or f"Тема {q.number}"
    answers = _numbered_text(answer_f, set(items)) or {}
    if not items:
        raise PackError("theme 'Вопрос %(number)s:' has no numbered questions",
                        N_("line %(line)s", line=q.line), number=q.number)
    missing = [n for n in items if n not in answers]
    if missing:
        raise PackError(
            "theme 'Вопрос %(number)s:' (%(theme)s): 'Ответ:' has no item %(items)s",
            N_("line %(line)s", line=q.line), number=q.number, theme=name,
            items=", ".join(f"{n}." for n in missing))
    per_item = {f: _numbered_text(_get(block, f), set(items)) or {}
                for f in ("zachet", "nezachet", "comment", "source")}
    shared = {f: (_field_text(_get(block, f)) if not per_item.get(f) else "")
              for f in ("comment", "source", "author")}
    step = min(items)
    out: list[QuestionSpec] = []
    for position, (n, lines) in enumerate(items.items(), start=1):
        text, media = take_media(unwrap(lines))
        acc, rej, notes = _key_parts(answers[n], per_item["zachet"].get(n, ""),
                                     per_item["nezachet"].get(n, ""))
        value = n if step >= 10 else position * multiplier
        out.append(QuestionSpec(
            number=0,
            text=text,
            key=text_key(acc, rej),
            points=value,
            comment=per_item["comment"].get(n) or shared["comment"] or None,
            source=per_item["source"].get(n) or shared["source"] or None,
            author=shared["author"] or None,
            media=media,
            answer=fold_stress(split_nezachet(answers[n])[0]),
            note="; ".join(dict.fromkeys(x for x in notes if x)) or None,
            theme=name,
        ))
    return name, out


def _is_svoyak(fields: list[Field]) -> bool:
    return any(f.name == "kind" and unwrap(f.lines)[:1].upper() == "Я" for f in fields)


def parse_chgk(data: bytes | str, filename: str = "pack.txt") -> Pack:
    """Parse a db.chgk.info text pack (ЧГК or Своя игра) into a Pack.

    ЧГК: each "Тур:" is a round, open answers checked with typo3 (up to 3
    spelling errors), 1 point per question (CHGK-1.2). Своя игра: see
    `_svoyak_rounds`.
    """
    text = data if isinstance(data, str) else decode_text(data, filename)
    fields = scan_fields(text)
    title_f = next((f for f in fields if f.name == "title"), None)
    title = squash(_field_text(title_f)) or filename
    sections = _Builder(fields).sections()
    if not sections:
        raise PackError("no 'Вопрос N:' found: not a db.chgk.info pack", filename)
    warnings: list[str] = []
    if _is_svoyak(fields):
        rounds = _svoyak_rounds(sections, warnings)
        fmt = "svoyak"
    else:
        rounds = []
        for i, (tour, blocks) in enumerate(sections, start=1):
            questions = [_chgk_question(b, n, warnings) for n, b in enumerate(blocks, start=1)]
            rounds.append(RoundSpec(number=i, name=tour or f"Тур {i}", kind="open", points=1,
                                    check_mode="typo3", questions=questions))
        fmt = "chgk"
    refs = sorted({m["ref"] for r in rounds for q in r.questions for m in q.media})
    if refs:
        warnings.append(N_("media files the pack refers to but does not contain "
                           "(upload them before the evening): %(files)s",
                           files=", ".join(refs)))
    return Pack(title=title, format=fmt, rounds=rounds, media={}, warnings=warnings)


def _svoyak_rounds(sections: list[tuple[str | None, list[list[Field]]]],
                   warnings: list[str]) -> list[RoundSpec]:
    """Group themes five to a round, as SI-1.1 plays them (3 rounds × 5 themes).

    Why group rather than one round per theme: a round is what the host opens
    and closes and what SIGame packs also call a round, so both Своя игра
    sources import the same shape (round → themes → questions). Values: a pack
    numbering its questions 10…50 keeps its numbers; a pack numbering 1…5 gets
    SI-1.1's values, round r → r×(1…5); rounds past the third continue r×(1…5).
    """
    themes = [b for _, blocks in sections for b in blocks]
    if len(themes) != 15:
        warnings.append(N_(
            "Своя игра pack has %(count)s themes; SI-1.1 plays 15 (3 rounds × 5): "
            "grouped %(per_round)s themes per round",
            count=len(themes), per_round=SVOYAK_THEMES_PER_ROUND))
    rounds: list[RoundSpec] = []
    for r, start in enumerate(range(0, len(themes), SVOYAK_THEMES_PER_ROUND), start=1):
        rnd = RoundSpec(number=r, name=f"Раунд {r}", kind="open", points=r, check_mode="typo3")
        for block in themes[start:start + SVOYAK_THEMES_PER_ROUND]:
            name, questions = _svoyak_theme(block, r)
            rnd.themes.append(name)
            for q in questions:
                q.number = len(rnd.questions) + 1
                rnd.questions.append(q)
        rounds.append(rnd)
    if len(rounds) > 3:
        warnings.append(N_("Своя игра pack fills %(count)s rounds; SI-1.1 has 3: rounds "
                           "past the third continue the values r×(1…5)", count=len(rounds)))
    return rounds
