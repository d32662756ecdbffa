"""Counts for the host's pages: questions per round, who has answered what."""

from __future__ import annotations

from ..extensions import db
from ..models import Answer, Event, Question, Round


def question_counts(event: Event) -> dict[int, int]:
    """{round number: how many questions} in one query (not one per round)."""
    return dict(db.session.execute(
        db.select(Round.number, db.func.count(Question.id))
        .outerjoin(Question, Question.round_id == Round.id)
        .where(Round.event_id == event.id)
        .group_by(Round.number)
    ).all())


def who_has_answered(event: Event,
                     questions: dict[int, int]) -> list[tuple[str, int, list[str]]]:
    """The host's "who has answered" table: (team, players, "answered/questions" per
    round). Built here from plain values: the dashboard reloads every few seconds
    and a cell per team and round read through the ORM in the template cost 8 ms
    of its worker's GIL for 100 teams (issue 6)."""
    rows = db.session.execute(
        db.select(Answer.team_id, Round.number, db.func.count(Answer.id))
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, Answer.text != "")
        .group_by(Answer.team_id, Round.number)
    )
    counts = {(team_id, number): count for team_id, number, count in rows}
    rounds = [(number, f"/{total}") for number, total in sorted(questions.items())]
    return [
        (team.name, team.players,
         [f"{counts.get((team.id, number), 0)}{total}" for number, total in rounds])
        for team in event.teams
    ]


def answered_teams(rnd: Round) -> int:
    """Teams with at least one answer in the round: the desk's "who has answered"."""
    return db.session.scalar(
        db.select(db.func.count(db.distinct(Answer.team_id)))
        .join(Question, Answer.question_id == Question.id)
        .where(Question.round_id == rnd.id, Answer.text != "")
    ) or 0
