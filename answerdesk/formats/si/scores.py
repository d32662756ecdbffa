"""Своя игра's scores over the published lists (SI-2.4, SI-1.3) and its standings rows
with places for the players in competition (SI-1.2).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ...extensions import db
from ...models import Event, Question, Round
from . import rules
from .game import answers_of, mark_of
from .models import SiQuestion
from .players import players_of
from .themes import value_of


def _published_marks(event: Event) -> list[tuple[int, str, rules.Mark, int]]:
    """(round, player, mark, value) of every answer in the published lists."""
    published = set(db.session.scalars(
        db.select(SiQuestion.question_id).join(Question, SiQuestion.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, SiQuestion.published_at.is_not(None))))
    marks = []
    for rnd in event.rounds:
        for question in rnd.questions:
            if question.id not in published:
                continue
            worth = value_of(rnd, question)
            marks += [(rnd.number, r.team.name, m, worth) for r in answers_of(question)
                      if (m := mark_of(r)) is not None]
    return marks


def scores(event: Event) -> list[rules.PlayerScore]:
    """The players' scores over the published questions (SI-2.4, SI-1.3)."""
    return rules.scores(players_of(event),
                        [(name, m, worth) for _, name, m, worth in _published_marks(event)])


@dataclass
class SiStanding:
    """A player's line in core's standings (desk, projector, API, exports): SI-1.2 places
    for the players in competition (None for the others), points by round."""

    team_id: int
    name: str
    points: float
    place: int | None
    shared: bool = False
    by_round: dict[int, float] = dataclasses.field(default_factory=dict)
    in_competition: bool = True
    removed: bool = False
    shootout_needed: bool = False
    handicap: int = 0
    correction_notes: tuple[str, ...] = ()


def standings_rows(event: Event) -> list[SiStanding]:
    """The scores as standings rows, best first (rules.scores' order)."""
    marks = _published_marks(event)
    ids = {t.name: t.id for t in event.teams}
    by_round: dict[str, dict[int, float]] = {}
    for number, name, mark, worth in marks:
        line = by_round.setdefault(name, {})
        line[number] = line.get(number, 0) + rules.points(mark, worth)
    rows = rules.scores(players_of(event), [(n, m, w) for _, n, m, w in marks])
    places = [r.place for r in rows if r.place is not None]
    return [SiStanding(team_id=ids[r.player], name=r.player, points=r.points, place=r.place,
                       shared=r.place is not None and places.count(r.place) > 1,
                       by_round={} if r.removed else by_round.get(r.player, {}),
                       in_competition=r.in_competition, removed=r.removed)
            for r in rows]
