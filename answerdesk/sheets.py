"""What a team's phone sees: its own answers, and the key only after reveal (BG-G3)."""

from __future__ import annotations

from typing import Any

from . import play
from .answers import saved
from .extensions import db
from .models import Answer, Event, Question, Round, Team, Verdict

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
    """Every visible round with its questions and this team's saved answers."""
    rounds = db.session.scalars(
        db.select(Round)
        .where(Round.event_id == event.id, Round.state.in_(VISIBLE_STATES))
        .order_by(Round.number)
    ).all()
    questions = db.session.scalars(
        db.select(Question)
        .where(Question.round_id.in_([r.id for r in rounds]))
        .order_by(Question.number)
    ).all() if rounds else []
    answers = {
        a.question_id: (a, v)
        for a, v in db.session.execute(
            db.select(Answer, Verdict)
            .outerjoin(Verdict, Verdict.answer_id == Answer.id)
            .where(Answer.team_id == team.id)
        )
    }
    by_round: dict[int, list[Question]] = {}
    for q in questions:
        by_round.setdefault(q.round_id, []).append(q)
    return play.decorate({
        "event": {"code": event.code, "name": event.name},
        "team": {"name": team.name, "players": team.players},
        "states": round_states(event),
        "rounds": [_round_json(r, by_round.get(r.id, []), answers) for r in rounds],
    }, event, team)


def _round_json(rnd: Round, questions: list[Question], answers: dict) -> dict[str, Any]:
    revealed = rnd.state == "revealed"
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
