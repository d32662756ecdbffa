"""Answer widgets per round kind, and the text the checker gets from them.

The phone sheet and the host's paper-entry form show a widget per question
(big choice buttons for BG-R1, title + performers for a song, four pickers for
BG-R5.5, the 1-to-10 sheet for BG-R5.4); they send structured ``fields``, and
``answer_text`` turns those into the one line the checker reads. The server
checks what a widget cannot enforce alone (BG-R5.4: a number only once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..checker import modes
from ..checker.normalize import normalize
from ..checker.numbers import parse_number
from ..errors import Conflict, DeskError, RoundLocked
from ..extensions import db
from ..models import Answer, Question, Round, Team
from .states import GateState
from .text import clean_text

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
    copy_joker: bool  # BG-J2 played by this team on this question
    double_joker: bool  # BG-J1 played by this team on this question


def prepare_answer(team_id: int, target: AnswerTarget, text: str, fields: Any,
                   run: Callable[[Any, dict[str, Any]], Iterable[Any]] | None = None,
                   ) -> tuple[str, Any]:
    """Rule checks of a save, inside its transaction; returns the text to store.

    Structured fields become the checker's text (``answer_text``); a question of
    a round opened one at a time takes answers only while its gate is open
    (BG-R6.2 the final); BG-J2 a copied question takes no answer of its own;
    BG-J1 a second answer needs the double joker on that question; BG-R5.4 a
    number is refused when the team already gave it to another question of the
    round (the only check that needs a query; ``run`` runs it in the save's
    transaction, by default the Session's).
    """
    if isinstance(fields, dict) and fields:
        text = answer_text(fields, target.kind) or text
    if target.gated and target.gate_state != GateState.OPEN:
        raise RoundLocked(
            "Question %(question)s of round %(round)s is not open for answers.",
            round=target.round_number, question=target.question_number,
        )
    if target.copy_joker:
        raise Conflict("Your team copies another team's answer on this question.")
    if isinstance(fields, dict) and fields.get("second") and not target.double_joker:
        raise DeskError("A second answer needs the double joker on this question.")
    if target.kind == "number":
        _refuse_number_twice(team_id, target, text, run or db.session.execute)
    return text, fields


# The team's answers to the other questions of the round (BG-R5.4), built once.
_OTHER_ANSWERS = (
    db.select(Question.number, Answer.text)
    .join(Answer, Answer.question_id == Question.id)
    .where(Question.round_id == db.bindparam("round_id"),
           Question.id != db.bindparam("question_id"), Answer.team_id == db.bindparam("team_id"))
)


def _refuse_number_twice(team_id: int, target: AnswerTarget, text: str,
                         run: Callable[[Any, dict[str, Any]], Iterable[Any]]) -> None:
    """BG-R5.4: each number is the answer to exactly one question of the round."""
    number = number_of(text)
    if number is None:
        return
    others = run(_OTHER_ANSWERS, {"round_id": target.round_id,
                                  "question_id": target.question_id, "team_id": team_id})
    for other, other_text in others:
        if number_of(other_text) == number:
            raise Conflict(
                "The number %(number)s is already your answer to question %(question)s.",
                number=number, question=other,
            )


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
