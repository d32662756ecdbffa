"""Answer widgets per round kind, and the text the checker gets from them.

The phone sheet and the host's paper-entry form show a widget per question
(big choice buttons for BG-R1, title + performers for a song, four pickers for
BG-R5.5, the 1-to-10 sheet for BG-R5.4); they send structured ``fields``, and
``answer_text`` turns those into the one line the checker reads. What a widget
cannot enforce alone (BG-R5.4: a number only once) the game's rules check on the
server (Format.check_save, called by ``prepare_answer``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..checker import modes
from ..checker.normalize import normalize
from ..checker.numbers import parse_number
from ..errors import DeskError, RoundLocked
from ..extensions import db
from ..models import Answer, Question, Round, Team
from .states import GateState
from .text import clean_text

if TYPE_CHECKING:
    from .formats import Format

TRUE_FALSE = ("вярно", "невярно")
LETTERS = ("А", "Б", "В", "Г")
NUMBERS_1_TO_10 = tuple(range(1, 11))
FIELD_LENGTH = 300


def widget_kind(question: Question, rnd: Round | None = None) -> str:
    """The widget a question is answered with: truefalse, abcd, song, pairs, number, text."""
    rnd = rnd or question.round
    return kind_of(question.check_mode or rnd.check_mode, question.key)


def kind_of(mode: str, key: Any) -> str:
    """widget_kind from the check mode and the key alone (the save reads no ORM objects)."""
    return modes.widget_kind(mode, key)


def widget_spec(question: Question, rnd: Round | None = None) -> dict[str, Any]:
    """What the phone needs to draw the widget; never the key itself (BG-G3)."""
    kind = widget_kind(question, rnd)
    spec: dict[str, Any] = {"kind": kind}
    if kind == "truefalse":
        spec["options"] = list(TRUE_FALSE)
    elif kind == "abcd":
        spec["options"] = list(LETTERS)
        texts = option_texts(question)
        if texts:
            spec["texts"] = texts  # BG-R1: "А) Искър" on the buttons
    elif kind == "pairs":
        count = len(question.key) if isinstance(question.key, dict) else 4
        spec["numbers"] = [str(n) for n in range(1, count + 1)]
        spec["letters"] = list(LETTERS[:count])
    elif kind == "number":
        spec["numbers"] = list(NUMBERS_1_TO_10)
    return spec


def option_texts(question: Question) -> dict[str, str]:
    """A choice question's options as the pack wrote them ({"А": "Искър", …}; BG-R1),
    for the phones' buttons and the projector; empty when the pack gave none."""
    options = (question.details or {}).get("options") if isinstance(question.details, dict) \
        else None
    if not isinstance(options, dict):
        return {}
    return {str(letter): str(text) for letter, text in options.items() if text}


def _field(fields: dict, name: str) -> str:
    return clean_text(fields.get(name) or "", max_length=FIELD_LENGTH, field=name)


def answer_text(fields: Any, kind: str) -> str:
    """The one line the checker gets from a widget's structured fields.

    choice → the option; song → "performers – title" (either alone when the
    other is empty; a free ``line`` wins); pairs → "1В 2А 3Б 4Г" (BG-R5.5, a
    letter used twice is refused); number / text → the value as typed.
    """
    if not isinstance(fields, dict):
        raise DeskError("fields must be an object")
    if kind in ("truefalse", "abcd"):
        choice = _field(fields, "choice")
        options = TRUE_FALSE if kind == "truefalse" else LETTERS
        if choice and choice not in options:
            raise DeskError("Choose one of %(options)s", options=", ".join(options))
        return choice
    if kind == "song":
        line = _field(fields, "line")
        if line:
            return line
        title, artists = _field(fields, "title"), _field(fields, "artists")
        return " – ".join(part for part in (artists, title) if part)
    if kind == "pairs":
        return pairs_text(fields.get("pairs") or {})
    if kind == "number":
        return _field(fields, "number")
    return _field(fields, "text")


def pairs_text(pairs: Any) -> str:
    """BG-R5.5: "1В 2А …" from {"1": "В", …}; each letter at most once, numbers 1-4."""
    if not isinstance(pairs, dict):
        raise DeskError("pairs must be an object like {\"1\": \"В\"}")
    chosen = {str(n).strip(): str(letter).strip().upper() for n, letter in pairs.items() if letter}
    for number, letter in chosen.items():
        if number not in {"1", "2", "3", "4"} or letter not in LETTERS:
            raise DeskError("Invalid pair %(pair)s", pair=f"{number}{letter}")
    if len(set(chosen.values())) != len(chosen):
        raise DeskError("Each letter can be paired with one number only")
    return " ".join(f"{n}{chosen[n]}" for n in sorted(chosen, key=int))


def number_of(text: str) -> int | None:
    """The number an answer names (digits or a word, BG-R5.4), else None."""
    value = parse_number(normalize(text or ""))
    return int(value) if value is not None and value == int(value) else None


@dataclass(frozen=True)
class AnswerTarget:
    """The question a save is for, as the save's one locked query read it (answers._save)."""

    round_id: int
    round_number: int
    round_kind: str
    question_id: int
    question_number: int
    kind: str  # widget_kind
    gated: bool  # the round opens its questions one at a time (Format.one_at_a_time)
    gate_state: str | None  # the question's gate in such a round, if opened (BG-R6.2)
    #: What the event's format read for its own rules (Format.save_columns, paper_extras).
    extra: dict[str, Any] = field(default_factory=dict)


def prepare_answer(team_id: int, target: AnswerTarget, text: str, fields: Any,
                   fmt: Format,
                   run: Callable[[Any, dict[str, Any]], Iterable[Any]] | None = None,
                   ) -> tuple[str, Any]:
    """Rule checks of a save, inside its transaction; returns the text to store.

    Structured fields become the checker's text (``answer_text``); a question of
    a round opened one at a time takes answers only while its gate is open
    (BG-R6.2 the final); then the game's own rules (Format.check_save; ``run``
    runs a query in the save's transaction, by default the Session's).
    """
    if isinstance(fields, dict) and fields:
        text = answer_text(fields, target.kind) or text
    if target.gated and target.gate_state != GateState.OPEN:
        raise RoundLocked(
            "Question %(question)s of round %(round)s is not open for answers.",
            round=target.round_number, question=target.question_number,
        )
    fmt.check_save(team_id, target, text, fields, run or db.session.execute)
    return text, fields


def used_numbers(team: Team, rnd: Round) -> dict[int, int]:
    """BG-R5.4: the numbers the team has given in the round → the question they answer."""
    rows = db.session.execute(
        db.select(Question.number, Answer.text)
        .join(Answer, Answer.question_id == Question.id)
        .where(Question.round_id == rnd.id, Answer.team_id == team.id)
    )
    return {n: q for q, text in rows if (n := number_of(text)) is not None}


def fields_from_form(form: Any, name: str, kind: str) -> dict[str, Any]:
    """The fields a server-rendered widget (templates/widgets/answer_field.html) posted."""
    if kind in ("truefalse", "abcd"):
        return {"choice": form.get(f"{name}-choice", "")}
    if kind == "song":
        return {part: form.get(f"{name}-{part}", "") for part in ("title", "artists", "line")}
    if kind == "pairs":
        return {"pairs": {n: form.get(f"{name}-pair-{n}", "") for n in ("1", "2", "3", "4")}}
    if kind == "number":
        return {"number": form.get(f"{name}-number", "")}
    return {"text": form.get(f"{name}-text", "")}
