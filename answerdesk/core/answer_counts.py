"""Counts for the host's pages: questions per round, who has answered what."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..extensions import db
from ..models import Answer, Event, Question, Round, Team


def question_counts(event: Event) -> dict[int, int]:
    """{round number: how many questions} in one query (not one per round)."""
    return dict(db.session.execute(
        db.select(Round.number, db.func.count(Question.id))
        .outerjoin(Question, Question.round_id == Round.id)
        .where(Round.event_id == event.id)
        .group_by(Round.number)
    ).all())


@dataclass
class Answered:
    """The host's "who has answered" table and its round counts, from one read."""

    #: (team, players, "answered/questions" per round), in the teams' order.
    rows: list[tuple[str, int, list[str]]]
    #: Round number: how many teams gave at least one answer in it.
    teams_by_round: dict[int, int]


def who_has_answered(event: Event, questions: dict[int, int]) -> Answered:
    """The host's "who has answered" table: (team, players, "answered/questions" per
    round), and per round how many teams answered at all (the desk's "now" line).
    Built from plain values in two statements: the desk fetches itself again whenever
    the desk's version moves, every two seconds while teams type, and a cell per team
    and round read through the ORM cost 8 ms of its worker's GIL for 100 teams (issue
    6); at 300 teams the teams as ORM objects and a second count of the round cost
    5 ms more (issue 33, bench/host_pages_bench.py --typed)."""
    rows = db.session.execute(
        db.select(Answer.team_id, Round.number, db.func.count(Answer.id))
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, Answer.text != "")
        .group_by(Answer.team_id, Round.number)
    )
    counts = {(team_id, number): count for team_id, number, count in rows}
    rounds = [(number, f"/{total}") for number, total in sorted(questions.items())]
    teams = db.session.execute(
        db.select(Team.id, Team.name, Team.players)
        .where(Team.event_id == event.id).order_by(Team.id)
    )
    return Answered(
        rows=[(name, players,
               [f"{counts.get((team_id, number), 0)}{total}" for number, total in rounds])
              for team_id, name, players in teams],
        teams_by_round=dict(Counter(number for _, number in counts)),
    )
