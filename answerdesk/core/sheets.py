"""What a team's phone sees: its own answers, and the key only after reveal (BG-G3)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import Answer, Event, Question, Round, Team, Verdict, utcnow
from . import clock, formats
from .answers import saved
from .states import RoundState

VISIBLE_STATES = ("open", "locked", "revealed")


def round_states(event: Event) -> list[dict[str, Any]]:
    """The tiny payload phones poll to notice an opened or locked round."""
    rows = db.session.execute(
        db.select(Round.number, Round.state)
        .where(Round.event_id == event.id)
        .order_by(Round.number)
    )
    return [{"number": n, "state": s} for n, s in rows]


def team_sheet(event: Event, team: Team) -> dict[str, Any]:
    """Every visible round with its questions and this team's saved answers.

    The event's rounds and their questions load once, eagerly, and serve the
    widgets, jokers, wildcard and final round too: every phone reloads its sheet
    when a round opens or locks, so a lazy load per round cost 300 phones a
    round trip each (bench/harness.py load, ramp-up).
    """
    db.session.execute(
        db.select(Event).where(Event.id == event.id)
        .options(selectinload(Event.rounds).selectinload(Round.questions))
    ).all()
    rounds = [r for r in event.rounds if r.state in VISIBLE_STATES]
    answers = {
        a.question_id: (a, v)
        for a, v in db.session.execute(
            db.select(Answer, Verdict)
            .outerjoin(Verdict, Verdict.answer_id == Answer.id)
            .where(Answer.team_id == team.id)
        )
    }
    now = utcnow()
    return formats.of(event).decorate_sheet({
        "event": {"code": event.code, "name": event.name},
        "team": {"name": team.name, "players": team.players},
        "states": [{"number": r.number, "state": r.state} for r in event.rounds],
        "rounds": [_round_json(r, r.questions, answers) for r in rounds],
        "now": clock.stamp(now),  # phones count the question clock from the server's time
        "question": clock.marker(event, now),
    }, event, team)


def _round_json(rnd: Round, questions: list[Question], answers: dict) -> dict[str, Any]:
    revealed = rnd.state == RoundState.REVEALED
    items = []
    for q in questions:
        answer, verdict = answers.get(q.id, (None, None))
        item: dict[str, Any] = {
            "number": q.number,
            "text": q.text,
            "answer": saved(answer, rnd.number, q.number).to_json() if answer else None,
        }
        if revealed:
            item["correct_answer"] = q.shown_answer
            item["verdict"] = verdict.final if verdict else None
        items.append(item)
    return {
        "number": rnd.number,
        "name": rnd.name,
        "kind": rnd.kind,
        "points": rnd.points,
        "state": rnd.state,
        "questions": items,
    }
