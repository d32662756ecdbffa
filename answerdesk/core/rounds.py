"""A round's life: open → locked (sheets read-only, checker runs) → revealed.

BG-E2: editing locks on the host's announcement; BG-E3: the correct answers
are then shown and compared with each team's answers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Table

from ..checker import check
from ..database.postgres_locks import queue_for_round
from ..database.readonly import read_only, read_write
from ..errors import Conflict, NotFound
from ..extensions import db
from ..models import Answer, Event, Question, QuestionGate, Round, Verdict, utcnow
from . import audit, formats
from .states import RoundState


def get_round(event: Event, number: int, *, for_update: bool = False,
              for_share: bool = False) -> Round:
    """A round by its number. ``for_update``: the exclusive lock every change of the
    round's state takes; ``for_share``: the shared one a play by a team takes, queued
    fairly behind a waiting close (postgres_locks.queue_for_round)."""
    query = db.select(Round).where(Round.event_id == event.id, Round.number == number)
    if for_update or for_share:
        queue_for_round(event.id, number, exclusive=for_update)
        query = query.with_for_update(read=not for_update)
    rnd = db.session.scalar(query)
    if rnd is None:
        raise NotFound("Round %(round)s does not exist", round=number)
    return rnd


def question_of(event: Event, round_number: int, question_number: int, *,
                for_update: bool = False, for_share: bool = False) -> tuple[Round, Question]:
    """A question by the numbers the host and the phones use; a translated 404 otherwise.

    The one lookup of a question for core and every format. Unlocked it reads the
    event's loaded rounds (no query on a buzzer press, none for a round number the
    database cannot hold); get_round takes a lock and refuses a round that does not exist.
    """
    rnd: Round | None
    if for_update or for_share:
        rnd = get_round(event, round_number, for_update=for_update, for_share=for_share)
    else:
        rnd = event.round(round_number)
        if rnd is None:
            raise NotFound("Round %(round)s does not exist", round=round_number)
    question = next((q for q in rnd.questions if q.number == question_number), None)
    if question is None:
        raise NotFound("Round %(round)s has no question %(question)s", round=round_number,
                       question=question_number)
    return rnd, question


def open_round(event: Event, number: int, actor: str = "host") -> Round:
    """Open a round for answers; a locked round can be reopened by the host."""
    rnd = get_round(event, number, for_update=True)
    if rnd.state == RoundState.OPEN:
        db.session.rollback()
        return rnd
    if rnd.state == RoundState.REVEALED:
        db.session.rollback()
        raise Conflict("Round %(round)s is already revealed and cannot be reopened",
                       round=number)
    before = rnd.state
    rnd.state = RoundState.OPEN
    rnd.opened_at = rnd.opened_at or utcnow()
    audit.record(event, actor, "round.open", f"R{number}", before={"state": before},
                 after={"state": RoundState.OPEN})
    db.session.flush()
    return rnd


def close_round(event: Event, number: int, actor: str = "host") -> Round:
    """Lock the round (BG-E2) and let the checker propose a verdict for every answer.

    The row lock taken here waits for every save still in flight, so each
    acknowledged answer is in the table before the checker reads it.
    """
    rnd = get_round(event, number, for_update=True)
    if rnd.state in (RoundState.LOCKED, RoundState.REVEALED):
        db.session.rollback()
        return rnd
    before = rnd.state
    rnd.state = RoundState.LOCKED
    rnd.locked_at = utcnow()
    audit.record(event, actor, "round.close", f"R{number}", before={"state": before},
                 after={"state": RoundState.LOCKED})
    db.session.flush()
    check_round(rnd)
    db.session.flush()
    return rnd


def reveal_round(event: Event, number: int, actor: str = "host") -> Round:
    """Show the correct answers on the projector (BG-E3); only after the lock."""
    rnd = get_round(event, number, for_update=True)
    if rnd.state == RoundState.REVEALED:
        db.session.rollback()
        return rnd
    if rnd.state != RoundState.LOCKED:
        db.session.rollback()
        raise Conflict("Round %(round)s must be locked before its answers are revealed",
                       round=number)
    rnd.state = RoundState.REVEALED
    rnd.revealed_at = utcnow()
    audit.record(event, actor, "round.reveal", f"R{number}", before={"state": RoundState.LOCKED},
                 after={"state": RoundState.REVEALED})
    db.session.flush()
    return rnd


def gates(rnd: Round) -> dict[int, QuestionGate]:
    """The gate of each question of the round that has been opened, by question id."""
    rows = db.session.scalars(
        db.select(QuestionGate).join(Question, QuestionGate.question_id == Question.id)
        .where(Question.round_id == rnd.id)
    )
    return {g.question_id: g for g in rows}


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
    formats.of(rnd.event).on_question_checked(question, rnd)


def _propose(answer: Answer, verdict: Verdict | None, question: Question, rnd: Round,
             now: dt.datetime) -> None:
    """The checker's proposal for one answer, kept in its verdict."""
    values = _proposal(answer.text, question.key, question.check_mode or rnd.check_mode)
    if verdict is None:
        verdict = Verdict(answer_id=answer.id, outcome=values["outcome"])
        db.session.add(verdict)
    elif _changed_after_decision(answer.updated_at, verdict.decided_at):
        verdict.decision = verdict.decided_by = verdict.decided_at = None
    for name, value in values.items():
        setattr(verdict, name, value)
    verdict.checked_at = now


def _proposal(text: str, key: object, mode: str) -> dict[str, Any]:
    """The checker's proposal as a verdict keeps it: outcome, fraction, the reason's
    English text and its code and values for pages (issue 16 §8)."""
    result = check(text, key, mode)
    return {"outcome": result.outcome, "fraction": result.fraction,
            "reason": result.reason[:300], "reason_code": result.code or None,
            "reason_params": result.params or None}


def _changed_after_decision(updated_at: dt.datetime, decided_at: dt.datetime | None) -> bool:
    """The team changed its answer after the host judged it: it is judged again."""
    return decided_at is not None and updated_at > decided_at


# Answers of an event's open rounds with no verdict, or changed since their verdict.
_verdict = cast(Table, Verdict.__table__)  # a FromClause to mypy
_ARRIVED = (
    db.select(
        Answer.id.label("answer_id"), Answer.text, Answer.updated_at,
        Verdict.id.label("verdict_id"), Verdict.checked_at, Verdict.decided_at,
        Question.key, Question.check_mode.label("question_mode"),
        Round.check_mode.label("round_mode"), Round.number, Round.kind,
    )
    .join(Question, Answer.question_id == Question.id)
    .join(Round, Question.round_id == Round.id)
    .outerjoin(Verdict, Verdict.answer_id == Answer.id)
    .where(
        Round.event_id == db.bindparam("event_id"),
        Round.state == RoundState.OPEN,
        Answer.updated_at <= db.bindparam("arrived_by", type_=Answer.updated_at.type),
        db.or_(Verdict.id.is_(None), Verdict.checked_at < Answer.updated_at),
    )
)
# Each write changes only what the read saw: a verdict another judge (or the close)
# touched meanwhile is left alone and looked at again on the next pass.
_REFRESH = _verdict.update().where(
    _verdict.c.id == db.bindparam("verdict_id"),
    _verdict.c.checked_at == db.bindparam("seen_checked_at", type_=_verdict.c.checked_at.type),
    _verdict.c.decided_at.is_not_distinct_from(
        db.bindparam("seen_decided_at", type_=_verdict.c.decided_at.type)
    ),
)
ARRIVED_CHUNK = 200


#: Runs the checker's CPU work of a pass and returns its result: at once by default; the
#: live checker (livecheck.py) hands it to a thread at a lower CPU priority.
Checking = Callable[[Callable[[], list[dict[str, Any]]]], list[dict[str, Any]]]


def at_once(work: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The default Checking: in the caller's thread."""
    return work()


def check_arrived(event: Event, *, waited: float = 0.0, checking: Checking = at_once) -> int:
    """Propose verdicts for answers of open rounds as they arrive, so the host's review
    queue fills while teams still type (issue 5); returns how many answers were checked.
    ``waited``: only answers unchecked for at least that many seconds (what the live
    checker, livecheck.py, should have seen by then).

    Only answers without a verdict, or changed since theirs, are checked. The read
    only reads and the checker runs outside any transaction; the proposals are then
    written ARRIVED_CHUNK at a time in short transactions, so phones' saves (which
    need SQLite's one writer) never wait for the checking (issue 6). A verdict's
    ``checked_at`` is the ``updated_at`` of the text it judged: a change that lands
    meanwhile is newer, so the next pass sees it. Two checkers (the live checker,
    a review page) may do this at once: the second one's proposals are dropped.
    It commits the caller's transaction first; from a read-only view
    (database.readonly.reads_only) it writes all the same. ``checking`` runs the
    checker over the rows (the pure part, ``_proposal``), before any write.
    """
    event_id, fmt = event.id, formats.of(event)
    db.session.commit()  # the checking must not run inside the caller's transaction
    with read_only():
        rows = db.session.execute(_ARRIVED, {
            "event_id": event_id, "arrived_by": utcnow() - dt.timedelta(seconds=waited),
        }).all()
    new: list[dict] = []
    refreshed: list[dict] = []
    proposals = checking(lambda: [_proposal(row.text, row.key,
                                            row.question_mode or row.round_mode)
                                  for row in rows])
    for row, proposal in zip(rows, proposals, strict=True):
        values = fmt.after_check(row, proposal)
        values["checked_at"] = row.updated_at
        if row.verdict_id is None:
            new.append({"answer_id": row.answer_id, **values})
        else:
            refreshed.append({
                "verdict_id": row.verdict_id, "seen_checked_at": row.checked_at,
                "seen_decided_at": row.decided_at, **values,
                **({"decision": None, "decided_by": None, "decided_at": None}
                   if _changed_after_decision(row.updated_at, row.decided_at) else {}),
            })
    reopened_rows = [r for r in refreshed if "decision" in r]
    plain_rows = [r for r in refreshed if "decision" not in r]
    insert = _insert_ignoring_duplicates(_verdict, "answer_id")
    round_numbers = sorted({row.number for row in rows})
    with read_write():
        for statement, batch in ((insert, new), (_REFRESH, plain_rows),
                                 (_REFRESH, reopened_rows)):
            for at in range(0, len(batch), ARRIVED_CHUNK):
                # In the round's queue, as saves are: a close under way (it reads the
                # verdicts, then writes its own) finishes first, and what is written
                # here after it changes nothing (the guards above).
                for number in round_numbers:
                    queue_for_round(event_id, number, exclusive=False)
                db.session.connection().execute(statement, batch[at:at + ARRIVED_CHUNK])
                db.session.commit()  # short: phones' saves wait for SQLite's one writer
    return len(rows)


def _insert_ignoring_duplicates(table, column: str):
    """INSERT ... ON CONFLICT (column) DO NOTHING, on SQLite and PostgreSQL alike."""
    if db.session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table).on_conflict_do_nothing(index_elements=[column])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table).on_conflict_do_nothing(index_elements=[column])


def next_step(event: Event) -> tuple[Round, str] | None:
    """The desk's one next action (issue 19): close the open round, reveal the closed
    one (BG-E3), else open the next round that has questions; None when all is done."""
    playable = [r for r in event.rounds if r.questions]
    for state, action in ((RoundState.OPEN, "close"), (RoundState.LOCKED, "reveal")):
        found = next((r for r in playable if r.state == state), None)
        if found is not None:
            return found, action
    found = next((r for r in playable if r.state == RoundState.DRAFT), None)
    return (found, "open") if found is not None else None
