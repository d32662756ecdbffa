"""The final round „Димо Падалски“: one question at a time (BG-R6.1, BG-R6.2).

Round 6 opens as a whole, but each question opens, locks and is revealed on
its own; a save reaches a question only while it is open (widgets.prepare_answer,
inside the round's lock). The checker proposes "correct" within 3 errors;
everything else goes to the host, who judges reasoning a machine cannot.
"""

from __future__ import annotations

from typing import Any

from ...checker.reasons import N_
from ...core import audit, labels, rounds
from ...core.rounds import gates
from ...core.states import (
    CLOSED_GATE_STATES,
    CLOSED_ROUND_STATES,
    GateState,
    Outcome,
    RoundState,
)
from ...errors import Conflict, Msgid, NotFound
from ...extensions import db
from ...i18n import NESTED_REASONS
from ...models import Answer, Event, Question, QuestionGate, Round, Verdict, utcnow
from .programme import FINAL_ROUND


def is_one_at_a_time(rnd: Round) -> bool:
    return rnd.number == FINAL_ROUND and rnd.kind == "final"


def _question(event: Event, number: int) -> tuple[Round, Question]:
    """A question of the final under the round's lock; a refusal releases the lock."""
    try:
        return rounds.question_of(event, FINAL_ROUND, number, for_update=True)
    except NotFound:
        db.session.rollback()
        raise


def open_question(event: Event, number: int, actor: str = "host") -> QuestionGate:
    """BG-R6.1: show the next question; the previous one must be locked first."""
    rnd, question = _question(event, number)
    if rnd.state == RoundState.DRAFT:
        rnd.state, rnd.opened_at = RoundState.OPEN, utcnow()
    elif rnd.state != RoundState.OPEN:
        db.session.rollback()
        raise Conflict("Round %(round)s is %(state)s", round=FINAL_ROUND,
                       state=Msgid(labels.ROUND_STATES.get(rnd.state, rnd.state)))
    existing = gates(rnd)
    if question.id in existing:
        db.session.rollback()
        raise Conflict("Question %(question)s was already opened", question=number)
    still_open = [g for g in existing.values() if g.state == GateState.OPEN]
    if still_open:
        db.session.rollback()
        raise Conflict("Lock the open question before opening the next one")
    gate = QuestionGate(question_id=question.id, state=GateState.OPEN)
    db.session.add(gate)
    audit.record(event, actor, "question.open", f"R{FINAL_ROUND}Q{number}",
                 after={"state": GateState.OPEN})
    db.session.flush()
    return gate


def lock_question(event: Event, number: int, actor: str = "host") -> QuestionGate:
    """BG-R6.2: lock one question (saves in flight finish first) and check its answers."""
    rnd, question = _question(event, number)
    gate = gates(rnd).get(question.id)
    if gate is None:
        db.session.rollback()
        raise Conflict("Question %(question)s has not been opened", question=number)
    if gate.state != GateState.OPEN:
        db.session.rollback()
        return gate
    gate.state, gate.locked_at = GateState.LOCKED, utcnow()
    audit.record(event, actor, "question.lock", f"R{FINAL_ROUND}Q{number}",
                 before={"state": GateState.OPEN}, after={"state": GateState.LOCKED})
    rounds.check_question(question, rnd)
    opened = gates(rnd)
    if len(opened) == len(rnd.questions) and all(
        g.state != GateState.OPEN for g in opened.values()
    ):
        rnd.state, rnd.locked_at = RoundState.LOCKED, utcnow()  # the last question: round done
    db.session.flush()
    return gate


def reveal_question(event: Event, number: int, actor: str = "host") -> QuestionGate:
    """BG-R6.1: after its lock, the question's correct answer is shown."""
    rnd, question = _question(event, number)
    gate = gates(rnd).get(question.id)
    if gate is None or gate.state == GateState.OPEN:
        db.session.rollback()
        raise Conflict("Question %(question)s must be locked before its answer is shown",
                       question=number)
    if gate.state != GateState.REVEALED:
        gate.state, gate.revealed_at = GateState.REVEALED, utcnow()
        audit.record(event, actor, "question.reveal", f"R{FINAL_ROUND}Q{number}",
                     before={"state": GateState.LOCKED}, after={"state": GateState.REVEALED})
    db.session.flush()
    return gate


def send_to_host(question: Question, rnd: Round) -> None:
    """BG-R6.1 Decision: only "correct" within 3 errors is proposed; the rest is reviewed."""
    if not is_one_at_a_time(rnd):
        return
    rows = db.session.execute(
        db.select(Verdict, Answer).join(Answer, Verdict.answer_id == Answer.id)
        .where(Answer.question_id == question.id)
    )
    for verdict, answer in rows:
        values = host_judges({name: getattr(verdict, name) for name in _PROPOSAL}, answer.text)
        for name, value in values.items():
            setattr(verdict, name, value)


_PROPOSAL = ("outcome", "fraction", "reason", "reason_code", "reason_params")
#: the reason code of a final-round answer sent to the host; its values hold the
#: checker's own code and values (rendered by ``i18n.reason_text``)
FINAL_ROUND_REASON = "final_round"
NESTED_REASONS[FINAL_ROUND_REASON] = N_("final round: the host judges (%(reason)s)")


def host_judges(values: dict[str, Any], text: str) -> dict[str, Any]:
    """BG-R6.1 for one proposal (a verdict's outcome, fraction and reason, as
    ``rounds._proposal`` gives them): a wrong or partial answer that says something is
    reviewed; its reason keeps the checker's code inside."""
    if values["outcome"] in (Outcome.WRONG, Outcome.PARTIAL) and text.strip():
        return {**values, "outcome": Outcome.REVIEW, "fraction": None,
                "reason": f"final round: the host judges ({values['reason']})"[:300],
                "reason_code": FINAL_ROUND_REASON,
                "reason_params": {"code": values.get("reason_code"),
                                  "params": values.get("reason_params") or {}}}
    return values


def counted_question_ids(event: Event, *, revealed_only: bool = False) -> set[int]:
    """Questions whose answers count in the standings: those of locked rounds, and the
    locked questions of a final round still running; with ``revealed_only``, only those
    whose answers the room has seen (BG-E3: the projector shows nothing earlier)."""
    rounds_counted = (RoundState.REVEALED,) if revealed_only else CLOSED_ROUND_STATES
    gates_counted = (GateState.REVEALED,) if revealed_only else CLOSED_GATE_STATES
    rows = db.session.execute(
        db.select(Question.id, Round.state, QuestionGate.state)
        .join(Round, Question.round_id == Round.id)
        .outerjoin(QuestionGate, QuestionGate.question_id == Question.id)
        .where(Round.event_id == event.id)
    )
    return {
        qid for qid, round_state, gate_state in rows
        if round_state in rounds_counted or gate_state in gates_counted
    }
