"""CSV packs: the quickest way to type an evening in a spreadsheet.

Four columns: round, question, answer, alternatives ("; " between them, a
leading "!" marks a known wrong answer). The header row is optional, the
delimiter is a comma or a semicolon, and the file may carry a UTF-8 BOM. Rounds
numbered 1-6 take the BG programme's kind, points and check mode (RULES.md
BG-R1..R6); anything richer (songs, pairs, media) needs the native format.
"""

from __future__ import annotations

import csv
import io
import re

from .model import BG_ROUNDS, N_, Pack, PackError, QuestionSpec, RoundSpec, text_key
from .textio import decode_text

COLUMNS = 4
_HEADER_WORDS = {
    "round", "question", "answer", "alternatives", "кръг", "рунд", "въпрос", "отговор",
    "варианти", "алтернативи", "раунд", "тур", "вопрос", "ответ", "зачет", "зачёт",
    "варианты", "#", "no", "№",
}


def _rows(text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    """(line number, cells) for every non-blank record."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    out: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            if any(c.strip() for c in cells):
                out.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise PackError("broken CSV: %(reason)s", N_("line %(line)s", line=reader.line_num),
                       reason=str(exc)) from exc
    return out


def _choose_delimiter(text: str) -> str:
    """The delimiter under which every record has four cells; failing that, the
    one giving the first record four cells; failing that, the likelier one."""
    counts = {}
    for d in (",", ";"):
        try:
            rows = _rows(text, d)
        except PackError:
            continue
        if rows and all(len(c) == COLUMNS for _, c in rows):
            return d
        counts[d] = rows
    for d, rows in counts.items():
        if rows and len(rows[0][1]) == COLUMNS:
            return d
    first = text.split("\n", 1)[0]
    return ";" if first.count(";") > first.count(",") else ","


def _is_header(cells: list[str]) -> bool:
    words = [c.strip().lower() for c in cells]
    return sum(w in _HEADER_WORDS for w in words) >= 2


def _round_id(raw: str) -> tuple[int | None, str]:
    """"2", "R2", "Кръг 2" → 2; anything else is a round name."""
    m = re.fullmatch(r"(?:r|round|кръг|рунд|раунд|тур)?\s*(\d+)\.?", raw.strip(), re.IGNORECASE)
    return (int(m.group(1)), raw.strip()) if m else (None, raw.strip())


def parse_csv(data: bytes | str, filename: str = "pack.csv") -> Pack:
    """Parse a four-column CSV pack into a Pack; a row with another number of
    columns is refused with its row and line."""
    text = data if isinstance(data, str) else decode_text(data, filename)
    text = text.lstrip("\ufeff")
    delimiter = _choose_delimiter(text)
    rows = _rows(text, delimiter)
    if rows and _is_header(rows[0][1]):
        rows = rows[1:]
    if not rows:
        raise PackError("no questions in the CSV file", filename)
    rounds: dict[str, RoundSpec] = {}
    warnings: list[str] = []
    for index, (line, cells) in enumerate(rows, start=1):
        where = N_("row %(row)s (line %(line)s)", row=index, line=line)
        if len(cells) != COLUMNS:
            raise PackError(
                "%(count)s columns, expected %(expected)s: round, question, answer, "
                "alternatives (delimiter '%(delimiter)s'; quote a cell that contains it)", where,
                count=len(cells), expected=COLUMNS, delimiter=delimiter)
        round_raw, question, answer, alternatives = (c.strip() for c in cells)
        if not round_raw:
            raise PackError("the round column is empty", where)
        if not answer:
            raise PackError("the answer column is empty", where)
        rnd = rounds.get(round_raw)
        if rnd is None:
            number, name = _round_id(round_raw)
            used = {r.number for r in rounds.values()}
            defaults = BG_ROUNDS.get(number) if number is not None else None
            if number is not None and defaults and number not in used:
                rnd = RoundSpec(number=number, name=defaults["name"], kind=defaults["kind"],
                                points=defaults["points"], check_mode=defaults["check_mode"])
            else:
                rnd = RoundSpec(number=max(used, default=0) + 1, name=name, kind="open",
                                points=1, check_mode="typo3")
                warnings.append(N_("%(where)s: round '%(round)s' is not a BG round number "
                                   "1-6: open questions, 1 point, up to 3 spelling errors",
                                   where=where, round=round_raw))
            if rnd.number == 4:
                warnings.append(N_("%(where)s: round 4 from CSV is checked as typo5 text; "
                                   "song keys (title + performers) need the native format",
                                   where=where))
            rounds[round_raw] = rnd
        alts = [a.strip() for a in alternatives.split(";") if a.strip()]
        accept = [answer] + [a for a in alts if not a.startswith("!")]
        reject = [a[1:].strip() for a in alts if a.startswith("!")]
        if rnd.check_mode == "choice":
            key: list[str] | dict[str, list[str]] = accept
        else:
            key = text_key(accept, reject)
        rnd.questions.append(QuestionSpec(number=len(rnd.questions) + 1, text=question, key=key,
                                          answer=answer))
        if rnd.check_mode == "choice" and reject:
            warnings.append(N_("%(where)s: '!' rejects are ignored in a choice round",
                               where=where))
    ordered = sorted(rounds.values(), key=lambda r: r.number)
    title = re.sub(r"\.csv$", "", filename.rsplit("/", 1)[-1], flags=re.IGNORECASE)
    return Pack(title=title, format="csv", rounds=ordered, media={}, warnings=warnings)
