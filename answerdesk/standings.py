"""Standings of an event: the verdicts that count, turned into points and places.

The rules themselves (points per outcome, competition ranking, shoot-out) live
in the pure module scoring.py; this module only gathers the data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import scoring
from .extensions import db
from .models import Answer, Event, Question, Round, Team, Verdict


@dataclass
class StandingRow:
    team_id: int
    name: str
    points: float
    place: int
    shared: bool = False
    shootout_needed: bool = False
    by_round: dict[int, float] = field(default_factory=dict)
    pending: int = 0


def verdict_points(verdict: Verdict, rnd: Round) -> int:
    """Points of one judged answer; an undecided review earns nothing yet."""
    outcome = verdict.final
    fraction = verdict.fraction
    if outcome == "partial" and not (fraction and 0 < fraction < 1):
        fraction = (rnd.partial_points / rnd.points) if rnd.partial_points else 0.5
    return scoring.answer_points(
        rnd.points, outcome, fraction, partial_points=rnd.partial_points
    )


def event_standings(event: Event) -> list[StandingRow]:
    """BG-S1/S2: every team of the event with its points per round and its place."""
    teams = db.session.scalars(db.select(Team).where(Team.event_id == event.id)).all()
    rows = {t.id: StandingRow(team_id=t.id, name=t.name, points=0, place=0) for t in teams}
    judged = db.session.execute(
        db.select(Verdict, Answer.team_id, Round)
        .join(Answer, Verdict.answer_id == Answer.id)
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, Round.state.in_(("locked", "revealed")))
    )
    for verdict, team_id, rnd in judged:
        row = rows[team_id]
        if verdict.final == "review":
            row.pending += 1
            continue
        points = verdict_points(verdict, rnd)
        row.by_round[rnd.number] = row.by_round.get(rnd.number, 0) + points
        row.points += points
    ranked = scoring.rank({tid: row.points for tid, row in rows.items()})
    result = []
    for standing in ranked:
        row = rows[standing.team]
        row.place = standing.place
        row.shared = standing.shared
        row.shootout_needed = standing.shootout_needed
        result.append(row)
    return result
