"""A round's life: open → locked (sheets read-only, checker runs) → revealed.

BG-E2: editing locks on the host's announcement; BG-E3: the correct answers
are then shown and compared with each team's answers.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.exc import IntegrityError

from . import audit, final, jokers
from .checker import check
from .database import queue_for_round
from .errors import Conflict, NotFound
from .extensions import db
from .models import Answer, Event, Question, Round, Verdict, utcnow


def get_round(event: Event, number: int, *, for_update: bool = False) -> Round:
    query = db.select(Round).where(Round.event_id == event.id, Round.number == number)
    if for_update:
        queue_for_round(event.id, number, exclusive=True)
        query = query.with_for_update()
    rnd = db.session.scalar(query)
    if rnd is None:
        raise NotFound("Round %(round)s does not exist", round=number)
    return rnd


def open_round(event: Event, number: int, actor: str = "host") -> Round:
    """Open a round for answers; a locked round can be reopened by the host."""
    rnd = get_round(event, number, for_update=True)
    if rnd.state == "open":
        db.session.rollback()
        return rnd
    if rnd.state == "revealed":
        db.session.rollback()
        raise Conflict("Round %(round)s is already revealed and cannot be reopened",
                       round=number)
    before = rnd.state
    rnd.state = "open"
    rnd.opened_at = rnd.opened_at or utcnow()
    audit.record(event, actor, "round.open", f"R{number}", before={"state": before},
                 after={"state": "open"})
    db.session.commit()
    return rnd


def close_round(event: Event, number: int, actor: str = "host") -> Round:
    """Lock the round (BG-E2) and let the checker propose a verdict for every answer.

    The row lock taken here waits for every save still in flight, so each
    acknowledged answer is in the table before the checker reads it.
    """
    rnd = get_round(event, number, for_update=True)
    if rnd.state in ("locked", "revealed"):
        db.session.rollback()
        return rnd
    before = rnd.state
    rnd.state = "locked"
    rnd.locked_at = utcnow()
    audit.record(event, actor, "round.close", f"R{number}", before={"state": before},
                 after={"state": "locked"})
    db.session.flush()
    check_round(rnd)
    db.session.commit()
    return rnd


def reveal_round(event: Event, number: int, actor: str = "host") -> Round:
    """Show the correct answers on the projector (BG-E3); only after the lock."""
    rnd = get_round(event, number, for_update=True)
    if rnd.state == "revealed":
        db.session.rollback()
        return rnd
    if rnd.state != "locked":
        db.session.rollback()
        raise Conflict("Round %(round)s must be locked before its answers are revealed",
                       round=number)
    rnd.state = "revealed"
    rnd.revealed_at = utcnow()
    audit.record(event, actor, "round.reveal", f"R{number}", before={"state": "locked"},
                 after={"state": "revealed"})
    db.session.commit()
    return rnd


def check_round(rnd: Round) -> None:
    for question in rnd.questions:
        check_question(question, rnd)


def check_question(question: Question, rnd: Round | None = None) -> None:
    """(Re)run the checker on every answer to one question; host decisions stay,
    unless the answer changed after the decision."""
    rnd = rnd or question.round
    answers = db.session.scalars(
        db.select(Answer).where(Answer.question_id == question.id)
    ).all()
    existing = {
        v.answer_id: v
        for v in db.session.scalars(
            db.select(Verdict).where(Verdict.answer_id.in_([a.id for a in answers]))
        )
    } if answers else {}
    now = utcnow()
    for answer in answers:
        _propose(answer, existing.get(answer.id), question, rnd, now)
    jokers.check_second_answers(question, rnd)
    final.send_to_host(question, rnd)


def _propose(answer: Answer, verdict: Verdict | None, question: Question, rnd: Round,
             now: dt.datetime) -> None:
    """The checker's proposal for one answer, kept in its verdict."""
    result = check(answer.text, question.key, question.check_mode or rnd.check_mode)
    if verdict is None:
        verdict = Verdict(answer_id=answer.id, outcome=result.outcome)
        db.session.add(verdict)
    elif verdict.decided_at is not None and answer.updated_at > verdict.decided_at:
        # The team changed its answer after the host judged it: judge it again.
        verdict.decision = verdict.decided_by = verdict.decided_at = None
    verdict.outcome = result.outcome
    verdict.fraction = result.fraction
    verdict.reason = result.reason[:300]
    verdict.checked_at = now


def check_arrived(event: Event) -> int:
    """Propose verdicts for answers of open rounds as they arrive, so the host's review
    queue fills while teams still type (issue 5); returns how many answers were checked.

    Only answers without a verdict, or changed since theirs, are checked. Two host
    pages may do this at once: the second one's duplicate proposals are dropped.
    It ends the session's transaction (commit, or rollback of a read that found
    nothing), so call it with no changes pending.
    """
    rows = db.session.execute(
        db.select(Answer, Verdict, Question, Round)
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .outerjoin(Verdict, Verdict.answer_id == Answer.id)
        .where(
            Round.event_id == event.id,
            Round.state == "open",
            db.or_(Verdict.id.is_(None), Verdict.checked_at < Answer.updated_at),
        )
    ).all()
    if not rows:
        db.session.rollback()  # end the read: what follows need not hold the writer
        return 0
    now = utcnow()
    touched: dict[int, tuple[Question, Round]] = {}
    for answer, verdict, question, rnd in rows:
        _propose(answer, verdict, question, rnd, now)
        touched[question.id] = (question, rnd)
    for question, rnd in touched.values():
        final.send_to_host(question, rnd)  # BG-R6.1 applies to early proposals too
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return 0
    return len(rows)
