"""Standings of an event: verdicts, jokers, disputes and handicaps turned into places.

The rules themselves live in the pure module scoring.py (score_question for
jokers and disputes, game_totals for corrections and the BG-M3 and BG-G2b
handicaps, rank and apply_shootout for places); this module only gathers the
data for it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from ...core.disputes import event_disputes
from ...core.limits import team_handicaps
from ...core.states import Outcome
from ...extensions import db
from ...models import Answer, Event, Question, Round, Team, Verdict
from . import scoring
from .final import counted_question_ids
from .league import event_handicaps
from .models import Joker
from .shootout import apply_shootouts


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
    handicap: int = 0
    #: Of ``handicap``: the part the event's settings give (BG-G2b); the rest is the
    #: league's winning-streak handicap (BG-M3).
    set_handicap: int = 0
    corrections: int = 0
    correction_notes: list[str] = field(default_factory=list)
    players: int = 0


def _team_answer(outcome: str | None, fraction: float | None,
                 rnd: Round) -> scoring.TeamAnswer[int]:
    """The effective outcome of one answer (the host's decision beats the checker's);
    the round's partial points (BG-R4.1 one of three, BG-R5.3 none)."""
    if outcome == Outcome.PARTIAL and not (fraction and 0 < fraction < 1):
        fraction = 0.5
    return scoring.TeamAnswer(outcome=outcome, fraction=fraction,
                              partial_points=rnd.partial_points)


def event_standings(event: Event, *, rounds: Collection[int] | None = None,
                    revealed_only: bool = False) -> list[StandingRow]:
    """BG-S1-S3: every team with its points per round, its place, and shoot-outs applied.

    ``rounds`` limits the count to those round numbers (BG-R5.0 ranks after R1-R4);
    the shoot-out applies only to the full standings. ``revealed_only`` counts only
    the answers already revealed to the room (BG-E3, the projector).
    """
    teams = db.session.scalars(db.select(Team).where(Team.event_id == event.id)).all()
    rows = {t.id: StandingRow(team_id=t.id, name=t.name, points=0, place=0, players=t.players)
            for t in teams}
    counted = counted_question_ids(event, revealed_only=revealed_only)
    questions = {
        q.id: (q, rnd) for q, rnd in db.session.execute(
            db.select(Question, Round).join(Round, Question.round_id == Round.id)
            .where(Round.event_id == event.id)
        ) if q.id in counted and (rounds is None or rnd.number in rounds)
    }
    per_question: dict[int, dict[int, scoring.TeamAnswer[int]]] = {q: {} for q in questions}
    # Plain columns, not ORM objects: this runs on every projector refresh.
    for question_id, team_id, outcome, decision, fraction in db.session.execute(
        db.select(Answer.question_id, Answer.team_id, Verdict.outcome, Verdict.decision,
                  Verdict.fraction)
        .outerjoin(Verdict, Verdict.answer_id == Answer.id)
        .where(Answer.question_id.in_(questions))
    ):
        final = decision or outcome
        if final == Outcome.REVIEW:
            rows[team_id].pending += 1
        per_question[question_id][team_id] = _team_answer(final, fraction,
                                                          questions[question_id][1])
    for joker in db.session.scalars(db.select(Joker).where(Joker.question_id.in_(questions))):
        given = per_question[joker.question_id].get(joker.team_id, scoring.TeamAnswer())
        if joker.kind == scoring.DOUBLE:
            given = scoring.TeamAnswer(
                outcome=given.outcome, double=True,
                second_outcome=joker.second_decision or joker.second_outcome)
        elif joker.kind == scoring.COPY:
            given = scoring.TeamAnswer(copies=joker.target_team_id)
        else:
            given = scoring.TeamAnswer(
                outcome=given.outcome, fraction=given.fraction,
                partial_points=given.partial_points, first_letter=True)
        per_question[joker.question_id][joker.team_id] = given
    disputes = event_disputes(event)
    question_points = []
    for qid, answers in per_question.items():
        question, rnd = questions[qid]
        decided = disputes.get(qid)
        result = scoring.score_question(
            question.points or rnd.points, answers, teams=rows,
            upheld=decided.upheld if decided else (),
            annulled=bool(decided and decided.annulled),
        )
        for team_id, points in result.points.items():
            rows[team_id].by_round[rnd.number] = rows[team_id].by_round.get(rnd.number, 0) + points
        question_points.append(result.points)
    corrections = _corrections(event)
    for correction in corrections:
        if correction.team in rows:
            rows[correction.team].corrections += correction.points
            rows[correction.team].correction_notes.append(
                f"{correction.points:+d} {correction.reason}")
    handicaps = event_handicaps(event)
    for team_id, points in team_handicaps(event).items():  # BG-G2b, beside BG-M3
        handicaps[team_id] = handicaps.get(team_id, 0) + points
        if team_id in rows:
            rows[team_id].set_handicap = points
    for team_id, handicap in handicaps.items():
        if team_id in rows:
            rows[team_id].handicap = handicap
    totals = scoring.game_totals(question_points, corrections=corrections,
                                 handicaps=handicaps, teams=rows)
    for team_id, total in totals.items():
        rows[team_id].points = total
    ranked = scoring.rank(totals)
    if rounds is None:
        ranked = apply_shootouts(event, ranked)
    standing_rows: list[StandingRow] = []
    for standing in ranked:
        row = rows[standing.team]
        row.place = standing.place
        row.shared = standing.shared
        row.shootout_needed = standing.shootout_needed
        standing_rows.append(row)
    return standing_rows


def _corrections(event: Event) -> list[scoring.Correction[int]]:
    """The host's manual corrections that still count (undone ones do not)."""
    from ... import models

    model = getattr(models, "ScoreCorrection", None)
    if model is None:
        return []
    rows = db.session.scalars(
        db.select(model).where(model.event_id == event.id, model.undone_at.is_(None))
    )
    return [scoring.Correction(team=c.team_id, points=c.points, reason=c.reason) for c in rows]
