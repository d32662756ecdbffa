"""What the BG rules add to an answer's save (core's Format.save_* hooks).

BG-J2: a question the team copies takes no answer of its own; BG-J1: a second
answer needs the double joker on that question; BG-R5.4: each number is the
answer to exactly one question of the round. The save's one read carries the
two joker flags (``columns``); on PostgreSQL the optimistic save's write re-checks
the copy joker under the round's lock (``guard``, models.BG_SAVE_GUARD), and a
number question, whose rule reads the team's other answers, takes the full save.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ...core.widgets import AnswerTarget, number_of
from ...errors import Conflict, DeskError
from ...extensions import db
from ...models import Answer, Question, Round, Team
from . import scoring
from .models import Joker

_joker = Joker.__table__


def _played(kind: str, team_id: Any, question_id: Any) -> Any:
    return db.exists().where(_joker.c.team_id == team_id, _joker.c.question_id == question_id,
                             _joker.c.kind == kind)


def columns(team_id: Any, question_id: Any) -> dict[str, Any]:
    """BG-J1, BG-J2: whether the team played the double or the copy joker on the question."""
    return {"copy_joker": _played(scoring.COPY, team_id, question_id),
            "double_joker": _played(scoring.DOUBLE, team_id, question_id)}


def guard(params: Mapping[str, Any]) -> Any:
    """BG-J2 again under the round's lock: no copy joker on the question meanwhile."""
    return db.func.answerdesk_bg_save_guard(
        params["event_id"], params["round"], params["question_id"], params["team_id"],
        type_=db.Boolean)


def check(team_id: int, target: AnswerTarget, text: str, fields: Any,
          run: Callable[[Any, dict[str, Any]], Iterable[Any]]) -> None:
    """BG-J2 a copied question takes no answer of its own; BG-J1 a second answer needs
    the double joker on that question; BG-R5.4 a number given once per round."""
    if target.extra.get("copy_joker"):
        raise Conflict("Your team copies another team's answer on this question.")
    if isinstance(fields, dict) and fields.get("second") and not target.extra.get(
            "double_joker"):
        raise DeskError("A second answer needs the double joker on this question.")
    if target.kind == "number":
        _refuse_number_twice(team_id, target, text, run)


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


def paper_extras(team: Team, rnd: Round) -> dict[int, dict[str, Any]]:
    """The jokers the paper team played in the round, by question id: the save's flags
    (``check``) and, for the grid, the team it copies (BG-J2)."""
    extras: dict[int, dict[str, Any]] = {}
    for joker in db.session.scalars(
        db.select(Joker).join(Question, Joker.question_id == Question.id)
        .where(Joker.team_id == team.id, Question.round_id == rnd.id)
    ):
        extra = extras.setdefault(joker.question_id, {})
        if joker.kind == scoring.COPY:
            extra["copy_joker"] = True
            extra["copies"] = joker.target.name if joker.target else None
        elif joker.kind == scoring.DOUBLE:
            extra["double_joker"] = True
    return extras
