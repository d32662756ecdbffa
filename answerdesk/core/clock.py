"""The question clock: a question started with a deadline locks by the time alone.

A round its format plays one question at a time (``Format.one_at_a_time``: the
ЧГК games) can run each question on a clock: the host starts a question, teams
get an answer period and then a grace to hand in (CHGK-1.1: 60 s + 10 s; an
event may set its own, a start may pass its own). The save (answers._save)
refuses an answer from ``locks_at`` on, in the same transaction as its write,
so nobody has to close anything; ``settle`` only records the lock and lets the
checker propose verdicts, whenever someone looks (the next start, the host's
pages, the live checker). Early answers are fine (CHGK-1.5); one answer per
team and question, editable until the lock.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from ..errors import Conflict, DeskError, Msgid
from ..extensions import db
from ..models import Event, Question, QuestionGate, Round, utcnow
from . import audit, formats, labels, rounds

DEFAULT_SECONDS = 60  # CHGK-1.1: a minute to discuss
DEFAULT_GRACE = 10  # CHGK-1.1: then 10 s to hand in
MAX_SECONDS = 3600


def _whole(value: Any, name: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SECONDS:
        raise DeskError("%(name)s must be a whole number of seconds from 0 to %(max)s.",
                        name=name, max=MAX_SECONDS)
    return value


def set_defaults(event: Event, seconds: Any, grace: Any, actor: str = "host") -> None:
    """The event's own answer period and grace (e.g. a faster practice, CHGK-1.1)."""
    seconds = _whole(seconds, "seconds", DEFAULT_SECONDS)
    grace = _whole(grace, "grace", DEFAULT_GRACE)
    if seconds + grace == 0:
        raise DeskError("A question needs some time for answers.")
    before = {"seconds": event.question_seconds, "grace": event.question_grace}
    event.question_seconds, event.question_grace = seconds, grace
    audit.record(event, actor, "event.clock", event.code, before=before,
                 after={"seconds": seconds, "grace": grace})
    db.session.flush()


class GateClock(Protocol):
    """What the clock reads of a gate: a QuestionGate, or a row of _LATEST's columns."""

    @property
    def state(self) -> str: ...
    @property
    def opened_at(self) -> dt.datetime: ...
    @property
    def seconds(self) -> int | None: ...
    @property
    def grace(self) -> int | None: ...
    @property
    def locks_at(self) -> dt.datetime | None: ...


def is_running(gate: GateClock, now: dt.datetime) -> bool:
    """Open for answers now: started, not locked by hand, and its deadline not passed."""
    return gate.state == "open" and (gate.locks_at is None or now < gate.locks_at)


def event_gates(event: Event) -> list[tuple[QuestionGate, Question, Round]]:
    rows = db.session.execute(
        db.select(QuestionGate, Question, Round)
        .join(Question, QuestionGate.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id)
        .order_by(QuestionGate.id)
    )
    return [tuple(row) for row in rows]


def _due(event: Event, now: dt.datetime):
    return (db.select(QuestionGate, Question, Round)
            .join(Question, QuestionGate.question_id == Question.id)
            .join(Round, Question.round_id == Round.id)
            .where(Round.event_id == event.id, QuestionGate.state == "open",
                   QuestionGate.locks_at.is_not(None), QuestionGate.locks_at <= now))


def has_due(event: Event, now: dt.datetime | None = None) -> bool:
    """Whether a question's deadline passed with its lock not yet recorded (a read)."""
    return db.session.execute(_due(event, now or utcnow()).limit(1)).first() is not None


def settle(event: Event, now: dt.datetime | None = None) -> int:
    """Record the lock of every question whose deadline passed and let the checker
    propose verdicts for its answers; returns how many were settled (flushed)."""
    now = now or utcnow()
    due = db.session.execute(_due(event, now)).all()
    for gate, question, rnd in due:
        gate.state, gate.locked_at = "locked", gate.locks_at
        audit.record(event, "clock", "question.lock", f"R{rnd.number}Q{question.number}",
                     before={"state": "open"}, after={"state": "locked",
                                                      "at": gate.locks_at.isoformat()})
        rounds.check_question(question, rnd)
    if due:
        db.session.flush()
    return len(due)


def start_question(event: Event, round_number: int, question_number: int, *,
                   seconds: Any = None, grace: Any = None, actor: str = "host",
                   now: dt.datetime | None = None) -> QuestionGate:
    """Start a question of a round played one at a time on the clock (CHGK-1.1).

    The event's format shapes the start (``Format.start_question``): a game whose
    host closes each question (Своя игра's ВСЁ, OpenQuiz's buzzer) runs it without
    a deadline unless the host sets one. Refused, changing nothing: a question of
    the event still running, a question already started, a round locked or
    revealed, or what the format's rules forbid now.
    """
    asked = seconds is not None or grace is not None
    seconds = _whole(seconds, "seconds", event.question_seconds
                     if event.question_seconds is not None else DEFAULT_SECONDS)
    grace = _whole(grace, "grace", event.question_grace
                   if event.question_grace is not None else DEFAULT_GRACE)
    if seconds + grace == 0:
        raise DeskError("A question needs some time for answers.")
    now = now or utcnow()
    try:
        rnd, question = rounds.question_of(event, round_number, question_number,
                                           for_update=True)
        settle(event, now)
        formats.of(event).settle_timers(event)
        if not formats.of(event).one_at_a_time(rnd):
            raise Conflict("Round %(round)s is not played question by question.",
                           round=round_number)
        if rnd.state not in ("draft", "open"):
            raise Conflict("Round %(round)s is %(state)s", round=round_number,
                           state=Msgid(labels.ROUND_STATES.get(rnd.state, rnd.state)))
        gates = event_gates(event)
        running = [(g, q, r) for g, q, r in gates if is_running(g, now)]
        if running:
            _, q, r = running[0]
            raise Conflict("Question %(question)s of round %(round)s is still running.",
                           question=q.number, round=r.number)
        if any(g.question_id == question.id for g, _, _ in gates):
            raise Conflict("Question %(question)s was already opened", question=question_number)
        start = formats.of(event).start_question(event, rnd, question, formats.QuestionStart(
            opened_at=now, seconds=seconds, grace=grace,
            locks_at=now + dt.timedelta(seconds=seconds + grace), asked=asked))
    except DeskError:
        db.session.rollback()
        raise
    if rnd.state == "draft":
        rnd.state, rnd.opened_at = "open", now
        audit.record(event, actor, "round.open", f"R{round_number}",
                     before={"state": "draft"}, after={"state": "open"})
    gate = QuestionGate(question_id=question.id, state="open", opened_at=start.opened_at,
                        seconds=start.seconds, grace=start.grace, locks_at=start.locks_at)
    db.session.add(gate)
    audit.record(event, actor, "question.start", f"R{round_number}Q{question_number}",
                 after={"seconds": start.seconds, "grace": start.grace,
                        "locks_at": start.locks_at.isoformat() if start.locks_at else None})
    db.session.flush()
    return gate


def stamp(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="milliseconds") + "Z"


def clock_json(gate: GateClock, round_number: int, question_number: int,
               now: dt.datetime | None = None) -> dict[str, Any]:
    """What phones and the projector count down from: the server's deadlines and its
    own time (a phone corrects its clock by the difference)."""
    now = now or utcnow()
    answer_until = (gate.opened_at + dt.timedelta(seconds=gate.seconds)
                    if gate.seconds is not None else None)
    locked = not is_running(gate, now)
    return {
        "round": round_number,
        "question": question_number,
        "opens_at": stamp(gate.opened_at),
        "answer_until": stamp(answer_until) if answer_until else None,
        "locks_at": stamp(gate.locks_at) if gate.locks_at else None,
        "seconds": gate.seconds,
        "grace": gate.grace,
        "now": stamp(now),
        "state": "locked" if locked and gate.state == "open" else gate.state,
    }


# The event's latest started question with a deadline, prebuilt and by columns: every
# sheet load and state poll through the ORM reads it (marker), and building the select
# and loading three objects cost more than running it. Its gate columns keep their
# names, so is_running and clock_json read a row as a gate.
_LATEST = (
    db.select(Round.number.label("round"), Question.number.label("question"),
              QuestionGate.state, QuestionGate.opened_at, QuestionGate.seconds,
              QuestionGate.grace, QuestionGate.locks_at)
    .join_from(QuestionGate, Question, QuestionGate.question_id == Question.id)
    .join(Round, Question.round_id == Round.id)
    .where(Round.event_id == db.bindparam("event_id"), QuestionGate.locks_at.is_not(None))
    .order_by(QuestionGate.id.desc()).limit(1)
)


def current(event: Event, now: dt.datetime | None = None) -> dict[str, Any] | None:
    """The clock of the event's latest started question (running or just locked)."""
    row = db.session.execute(_LATEST, {"event_id": event.id}).first()
    return clock_json(row, row.round, row.question, now) if row else None


def marker(event: Event, now: dt.datetime | None = None) -> dict[str, Any] | None:
    """What phones poll to notice a question started, locked by the clock or its answer
    shown: it changes exactly then (the clock itself they count from the sheet)."""
    row = db.session.execute(_LATEST, {"event_id": event.id}).first()
    if row is None:
        return None
    state = ("open" if is_running(row, now or utcnow())
             else "revealed" if row.state == "revealed" else "locked")
    return {"round": row.round, "question": row.question, "state": state}
