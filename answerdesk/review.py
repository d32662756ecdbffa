"""The host's review queue: what the checker could not honestly decide.

Identical answers to a question (after the checker's normalisation) form one
item, judged once for every team that gave it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import audit
from .checker.normalize import normalize
from .errors import DeskError, NotFound
from .extensions import db
from .models import Answer, Event, Question, Round, Team, Verdict, utcnow

DECISIONS = ("correct", "partial", "wrong")


@dataclass
class ReviewItem:
    round: int
    question: int
    shown_answer: str
    text: str
    reason: str
    verdict_ids: list[int] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)
    partial_allowed: bool = False


def _pending(event: Event):
    return (
        db.select(Verdict, Answer, Question, Round, Team)
        .join(Answer, Verdict.answer_id == Answer.id)
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .join(Team, Answer.team_id == Team.id)
        .where(
            Round.event_id == event.id,
            Round.state.in_(("locked", "revealed")),
            Verdict.outcome == "review",
            Verdict.decision.is_(None),
        )
        .order_by(Round.number, Question.number, Answer.id)
    )


def review_queue(event: Event) -> list[ReviewItem]:
    """Pending review verdicts grouped by question and normalised answer."""
    items: dict[tuple[int, str], ReviewItem] = {}
    for verdict, answer, question, rnd, team in db.session.execute(_pending(event)):
        group = (question.id, normalize(answer.text))
        item = items.get(group)
        if item is None:
            item = items[group] = ReviewItem(
                round=rnd.number,
                question=question.number,
                shown_answer=question.shown_answer,
                text=answer.text,
                reason=verdict.reason,
                partial_allowed=rnd.partial_points is not None,
            )
        item.verdict_ids.append(verdict.id)
        item.teams.append(team.name)
    return list(items.values())


def decide(event: Event, verdict_ids: list[int], decision: str, actor: str = "host") -> int:
    """Give the host's last word on one or more verdicts of this event."""
    if decision not in DECISIONS:
        raise DeskError(f"Unknown decision {decision!r}; use one of {', '.join(DECISIONS)}")
    rows = db.session.execute(
        db.select(Verdict, Answer, Question, Round, Team)
        .join(Answer, Verdict.answer_id == Answer.id)
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .join(Team, Answer.team_id == Team.id)
        .where(Verdict.id.in_(verdict_ids), Round.event_id == event.id)
        .with_for_update(of=Verdict)
    ).all()
    if len(rows) != len(set(verdict_ids)):
        db.session.rollback()
        raise NotFound("Some of these verdicts do not belong to this event")
    now = utcnow()
    for verdict, answer, question, rnd, team in rows:
        if decision == "partial" and rnd.partial_points is None:
            db.session.rollback()
            raise DeskError(f"Round {rnd.number} gives no partial credit")
        audit.record(
            event,
            actor,
            "verdict.decide",
            f"R{rnd.number}Q{question.number} {team.name}",
            before={"outcome": verdict.outcome, "decision": verdict.decision},
            after={"decision": decision, "text": answer.text},
        )
        verdict.decision = decision
        verdict.decided_by = actor
        verdict.decided_at = now
    db.session.commit()
    return len(rows)
