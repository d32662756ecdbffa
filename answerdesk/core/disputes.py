"""Disputes after a round (BG-D1): the host upholds, accepts a further answer, or annuls.

Each decision is one call that records its reason and its audit entry in the
same transaction; what it does to the points is scoring.score_question's job
(upheld teams, annulled questions); an accepted answer is added to the key and
every team's answer to the question is checked again at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Conflict, DeskError, NotFound
from ..extensions import db
from ..models import Answer, Dispute, Event, Question, Round, Team, Verdict
from . import audit, rounds
from .formats import REGISTRY
from .states import GateState, Outcome, RoundState
from .text import clean_text

UPHOLD, ACCEPT, ANNUL = "uphold", "accept", "annul"


def offered(event: Event) -> bool:
    """Whether the event takes disputes: as its game's rules say (BG-D1 does; CHGK-1.2
    takes no appeals), unless the event itself allows or refuses them."""
    if event.appeals is not None:
        return event.appeals
    fmt = REGISTRY.get(event.format)
    return fmt is None or fmt.appeals


def refuse_unless_offered(event: Event) -> None:
    if not offered(event):
        raise Conflict("This game takes no appeals: the host's decision is final.")


def _question(event: Event, round_number: int, question_number: int) -> tuple[Round, Question]:
    refuse_unless_offered(event)
    rnd, question = rounds.question_of(event, round_number, question_number)
    if rnd.state not in (RoundState.LOCKED, RoundState.REVEALED) and not _question_locked(question):
        raise Conflict("Disputes are decided after the question is locked")
    return rnd, question


def _question_locked(question: Question) -> bool:
    gate = rounds.gates(question.round).get(question.id)
    return gate is not None and gate.state != GateState.OPEN


def _reason(reason: object) -> str:
    text = clean_text(reason, max_length=300, field="reason")
    if not text:
        raise DeskError("Every dispute decision needs a reason", field="reason")
    return text


def uphold(event: Event, round_number: int, question_number: int, team: Team,
           reason: str, actor: str = "host") -> Dispute:
    """BG-D1(a): the team's answer counts as correct, for that team only."""
    reason = _reason(reason)
    rnd, question = _question(event, round_number, question_number)
    if team.event_id != event.id:
        raise NotFound("No such team in this event")
    dispute = Dispute(question_id=question.id, team_id=team.id, kind=UPHOLD, reason=reason,
                      actor=actor)
    db.session.add(dispute)
    audit.record(event, actor, "dispute.uphold", f"R{rnd.number}Q{question.number} {team.name}",
                 after={"reason": reason})
    db.session.flush()
    return dispute


def accept_answer(event: Event, round_number: int, question_number: int, answer: str,
                  reason: str, actor: str = "host") -> Dispute:
    """BG-D1(b): add an accepted answer to the key and check every team's answer again.

    Decision: a host "wrong" on an answer that the new key now accepts is
    cleared (the host has just said this answer is right); other decisions stay.
    """
    reason = _reason(reason)
    accepted = clean_text(answer, max_length=300, field="answer")
    if not accepted:
        raise DeskError("Name the answer to accept", field="answer")
    rnd, question = _question(event, round_number, question_number)
    key = question.key
    if isinstance(key, list):
        new_key: object = [*key, accepted]
    elif isinstance(key, dict) and "accept" in key:
        new_key = {**key, "accept": [*key["accept"], accepted]}
    elif isinstance(key, dict) and "title" in key:
        new_key = {**key, "title": [*key["title"], accepted]}
    else:
        raise DeskError("This question's key takes no further answer: uphold or annul instead")
    before = _outcomes(question)
    question.key = new_key
    db.session.flush()
    rounds.check_question(question, rnd)
    cleared = []
    for verdict, team_name in _verdicts(question):
        if verdict.outcome == Outcome.CORRECT and verdict.decision == Outcome.WRONG:
            verdict.decision = verdict.decided_by = verdict.decided_at = None
            cleared.append(team_name)
    dispute = Dispute(question_id=question.id, kind=ACCEPT, accepted=accepted, reason=reason,
                      actor=actor)
    db.session.add(dispute)
    audit.record(event, actor, "dispute.accept", f"R{rnd.number}Q{question.number}",
                 before={"key": key, "outcomes": before},
                 after={"key": new_key, "outcomes": _outcomes(question), "reason": reason,
                        "cleared_decisions": cleared})
    db.session.flush()
    return dispute


def annul(event: Event, round_number: int, question_number: int, reason: str,
          actor: str = "host") -> Dispute:
    """BG-D1(c): every team is credited the question's points as if correct."""
    reason = _reason(reason)
    rnd, question = _question(event, round_number, question_number)
    if db.session.scalar(db.select(Dispute.id).where(
            Dispute.question_id == question.id, Dispute.kind == ANNUL)):
        raise Conflict("This question is already annulled")
    dispute = Dispute(question_id=question.id, kind=ANNUL, reason=reason, actor=actor)
    db.session.add(dispute)
    audit.record(event, actor, "dispute.annul", f"R{rnd.number}Q{question.number}",
                 after={"reason": reason})
    db.session.flush()
    return dispute


def _verdicts(question: Question) -> list[tuple[Verdict, str]]:
    return list(db.session.execute(
        db.select(Verdict, Team.name).join(Answer, Verdict.answer_id == Answer.id)
        .join(Team, Answer.team_id == Team.id).where(Answer.question_id == question.id)
        .order_by(Team.name)
    ).all())


def _outcomes(question: Question) -> dict[str, str]:
    return {name: verdict.final for verdict, name in _verdicts(question)}


@dataclass
class QuestionDisputes:
    """What scoring needs per question: the teams upheld, and whether it is annulled."""

    upheld: set[int] = field(default_factory=set)
    annulled: bool = False


def event_disputes(event: Event) -> dict[int, QuestionDisputes]:
    """Every dispute decision of the event, by question id."""
    rows = db.session.scalars(
        db.select(Dispute).join(Question, Dispute.question_id == Question.id)
        .join(Round, Question.round_id == Round.id).where(Round.event_id == event.id)
    )
    result: dict[int, QuestionDisputes] = {}
    for dispute in rows:
        entry = result.setdefault(dispute.question_id, QuestionDisputes())
        if dispute.kind == UPHOLD and dispute.team_id is not None:
            entry.upheld.add(dispute.team_id)
        elif dispute.kind == ANNUL:
            entry.annulled = True
    return result


def decisions(event: Event) -> list[Dispute]:
    """Every dispute decision, newest first, for the host's page."""
    return list(db.session.scalars(
        db.select(Dispute).join(Question, Dispute.question_id == Question.id)
        .join(Round, Question.round_id == Round.id).where(Round.event_id == event.id)
        .order_by(Dispute.id.desc())
    ))
