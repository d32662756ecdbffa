"""The OpenQuiz game's row and its clocks over the database (OQ-4, OQ-7, OQ-8).

The rules are timers.py (pure); this module stores the speed and the pauses, guards
every action of the game (a paused game takes no play, a stopped one nothing), and
applies the press timer's close (OQ-4.1) and the answer timer's timeout once the
time is up: lazily, at the next request that reads or writes the game, with the
deadline as its moment, so a late application scores what a punctual one would.
Services flush; the views commit; refusals change nothing.
"""

from __future__ import annotations

from typing import Any, NamedTuple, cast

from sqlalchemy import CursorResult
from sqlalchemy.exc import IntegrityError

from ...core import audit
from ...database.readonly import read_write
from ...errors import Conflict, DeskError
from ...extensions import db
from ...models import Event, Question, QuestionGate, Round
from ..buzzer import presses
from ..buzzer.models import BuzzPress
from . import game, room, timers
from .models import OqGame, OqPlay
from .timers import N_


class GamePaused(Conflict):
    """OQ-8: the game is paused; play waits for the host to resume."""

    code = "game_paused"


class GameStopped(Conflict):
    """OQ-8: the game stopped by itself (30 minutes idle, or 5 hours)."""

    code = "game_stopped"


class PauseRefused(Conflict):
    """OQ-8: already paused, not paused, or the hour of pauses is used up."""

    code = "pause_refused"


def game_row(event: Event) -> OqGame | None:
    return db.session.scalar(db.select(OqGame).where(OqGame.event_id == event.id))


def ensure_game_row(event: Event) -> OqGame:
    """The game's row, made if missing: two first actions at once (two phones) make
    it once, the second finds the first's."""
    row = game_row(event)
    if row is None:
        try:
            with db.session.begin_nested():
                db.session.add(OqGame(event_id=event.id, bans=[]))
        except IntegrityError:
            pass
        row = game_row(event)
    assert row is not None
    return row


def _pauses(row: OqGame | None) -> list[timers.Pause]:
    return timers.as_pauses(row.pauses) if row is not None else []


def _speed(row: OqGame | None) -> timers.Speed:
    return timers.Speed(row.speed) if row is not None and row.speed else timers.Speed.NORMAL


def touch(event: Event, now_ms: int) -> None:
    """OQ-8: an action by a player or the host (timers ticking on their own are not;
    presses and question starts are counted from their own rows, see ``_stopped``)."""
    row = ensure_game_row(event)
    if row.started_ms is None:
        row.started_ms = now_ms
    row.active_ms = max(row.active_ms or now_ms, now_ms)


def _stopped(event: Event, row: OqGame | None, now_ms: int) -> tuple[timers.Stop, int] | None:
    """OQ-8 for this game. Activity is the row's (the OpenQuiz routes), the host's
    question starts (core's start) and the presses, read from their own rows so a
    press writes nothing more than itself; the game starts with the first of them."""
    of_event = (db.select(Question.id).join(Round, Question.round_id == Round.id)
                .where(Round.event_id == event.id))
    gates = db.select(QuestionGate.opened_at).where(QuestionGate.question_id.in_(of_event))
    first_gate, last_gate, last_press = db.session.execute(db.select(
        gates.with_only_columns(db.func.min(QuestionGate.opened_at)).scalar_subquery(),
        gates.with_only_columns(db.func.max(QuestionGate.opened_at)).scalar_subquery(),
        db.select(db.func.max(BuzzPress.received_ms))
        .where(BuzzPress.question_id.in_(of_event)).scalar_subquery())).one()
    starts = [ms for ms in (row.started_ms if row else None,
                            presses.to_ms(first_gate) if first_gate else None) if ms]
    actions = [ms for ms in (row.active_ms if row else None, last_press,
                             presses.to_ms(last_gate) if last_gate else None) if ms]
    return timers.stopped(min(starts) if starts else None, max(actions) if actions else None,
                          _pauses(row), now_ms)


def guard(event: Event, now_ms: int, play: bool = True, press: bool = False) -> None:
    """Refuse any action of a stopped game (OQ-8) and play in a paused one, then count
    the action as activity (a press counts by its own row); the timer's due timeout is
    applied first."""
    row = game_row(event)
    stop = _stopped(event, row, now_ms)
    if stop is not None:
        raise GameStopped(_STOPPED[stop[0]])
    if play and row is not None and timers.is_paused(_pauses(row), now_ms):
        raise GamePaused("The game is paused: wait for the host to resume it.")
    settle(event, now_ms)
    if not press:
        touch(event, now_ms)


_STOPPED = {timers.Stop.IDLE: N_("The game has stopped: 30 minutes without activity."),
            timers.Stop.LIFETIME: N_("The game has stopped: it has run for 5 hours.")}


def set_speed(event: Event, speed: Any, now_ms: int, actor: str = "host") -> timers.Speed:
    """OQ-7: slow ×1.5, normal ×1, fast ×0.5 of every timer."""
    try:
        chosen = timers.Speed(speed)
    except ValueError:
        raise DeskError("speed must be slow, normal or fast.") from None
    guard(event, now_ms, play=False)
    ensure_game_row(event).speed = str(chosen)
    audit.record(event, actor, "oq.speed", str(chosen))
    db.session.flush()
    return chosen


def set_paused(event: Event, paused: Any, now_ms: int, actor: str = "host") -> dict[str, Any]:
    """OQ-8: the host pauses (timers stand still) or resumes; an hour per game."""
    if not isinstance(paused, bool):
        raise DeskError("paused must be true or false.")
    guard(event, now_ms, play=False)
    row = ensure_game_row(event)
    pauses = _pauses(row)
    if paused:
        refusal = timers.pause_refusal(pauses, now_ms)
        if refusal:
            raise PauseRefused(refusal)
        row.pauses = [list(p) for p in timers.pause(pauses, now_ms)]
    else:
        if not timers.is_paused(pauses, now_ms):
            raise PauseRefused("The game is not paused.")
        row.pauses = [list(p) for p in timers.close(pauses, now_ms)]
    audit.record(event, actor, "oq.pause" if paused else "oq.resume", "")
    db.session.flush()
    return clock_state(event, now_ms)


class Timer(NamedTuple):
    """The timer running on the question in play (OQ-4): ``press`` while nobody has
    pressed in the current attempt (OQ-4.1), ``answer`` while the buzzer's winner
    answers; when it runs out (server clock, later by every pause) and how long it is."""

    kind: str
    armed: presses.Arming
    team: str | None
    deadline_ms: int
    length_ms: int


def _running(event: Event, row: OqGame | None, now_ms: int,
             seen: tuple[presses.Arming, dict[str, Any]] | None = None) -> Timer | None:
    """The timer of the latest question if it still plays (OQ-4, OQ-4.1, OQ-7, OQ-8).
    ``seen``: the latest question's arming and buzzer state a poll has already read
    (then one query says whether it still plays and what the host gave at its start)."""
    if seen is None:
        latest = game.latest_arming(event)
        armed = latest and game.arming(event, latest.round_number, latest.question_number)
        if not armed:
            return None
        buzz = presses.buzz_state(armed, now_ms)
    else:
        armed, buzz = seen
    live = db.session.execute(
        db.select(QuestionGate.state, QuestionGate.seconds, QuestionGate.grace,
                  QuestionGate.locks_at, OqPlay.done)
        .outerjoin(OqPlay, OqPlay.question_id == QuestionGate.question_id)
        .where(QuestionGate.question_id == armed.question_id)).first()
    if live is None or live.state != "open" or live.done:
        return None
    pauses = _pauses(row)
    if buzz["state"] == "armed":  # OQ-4.1: nobody has pressed in this attempt yet
        if live.locks_at is not None:
            return None  # a deadline of core's question clock ends it (core.clock.settle)
        host = None if live.seconds is None else live.seconds + (live.grace or 0)
        length = timers.press_ms(_speed(row), host)
        start = max(armed.armed_ms, armed.reading_until_ms or armed.armed_ms)
        return Timer("press", armed, None, timers.deadline_ms(start, length, pauses, now_ms),
                     length)
    if buzz["state"] != "closed" or not buzz["order"]:
        return None
    length = timers.answer_ms(_speed(row))
    return Timer("answer", armed, buzz["order"][0]["team"], timers.deadline_ms(
        buzz["window_closes_ms"], length, pauses, now_ms), length)


def _claim(armed: presses.Arming) -> bool:
    """Claim the attempt for the timer's outcome, so two requests never apply it twice:
    a conditional update of the question's play row; only one request wins it."""
    play = db.session.scalar(db.select(OqPlay).where(OqPlay.question_id == armed.question_id))
    if play is None:
        try:
            with db.session.begin_nested():
                db.session.add(OqPlay(question_id=armed.question_id, attempt=armed.attempt,
                                      armed_ms=armed.armed_ms, out=[], done=False))
        except IntegrityError:
            return False  # another request is applying it
    claimed = db.session.execute(db.update(OqPlay).where(
        OqPlay.question_id == armed.question_id, OqPlay.attempt == armed.attempt,
        OqPlay.done.is_(False)).values(attempt=OqPlay.attempt)
        .execution_options(synchronize_session=False))
    return cast(CursorResult[Any], claimed).rowcount == 1  # an UPDATE's result


def settle(event: Event, now_ms: int) -> None:
    """Apply the timers run out by now, each as at its deadline and once: the winner's
    time is up (OQ-4: timeout, −value, the question returns to the others, armed from
    the deadline), or nobody pressed in time (OQ-4.1: the question closes, no score
    changes). A timeout's return starts the next attempt's press timer, so both may be
    due at once: they are applied in order."""
    for _ in range(2 * room.MAX_TEAMS + 2):  # a question returns at most once a team
        due = _running(event, game_row(event), now_ms)
        if due is None or due.deadline_ms > now_ms or not _claim(due.armed):
            return
        armed = due.armed
        if due.kind == "answer":
            game.judge(event, armed.round_number, armed.question_number, "timeout",
                       actor="timer", now_ms=due.deadline_ms)
        else:
            game.close_unpressed(event, armed, due.deadline_ms)


def press_timer_shown(event: Event, now_ms: int, armed: presses.Arming,
                      shown: dict[str, Any]) -> Timer | None:
    """The press timer as phones see it while presses are collected (``shown``: the
    buzzer made to look armed, presses.public_buzz): running as if nobody had pressed,
    so the clock does not tell either (issue 31). Only shown; nothing is applied by it."""
    return _running(event, game_row(event), now_ms, (armed, shown))


def clock_state(event: Event, now_ms: int, running: Timer | None | bool = False
                ) -> dict[str, Any]:
    """What phones and the host see of the clocks: speed, pause, the press and answer
    timers, and whether the game has stopped (a read; ``running``: ``_running``'s, if
    known)."""
    row = game_row(event)
    pauses = _pauses(row)
    stop = _stopped(event, row, now_ms)
    if running is False:
        running = _running(event, row, now_ms)
    answer = press = None
    if isinstance(running, Timer):
        shown = {"seconds": running.length_ms / 1000, "deadline_ms": running.deadline_ms}
        if running.kind == "answer":
            answer = {"team": running.team, **shown}  # the same document whenever built
        else:
            press = shown
    return {"speed": str(_speed(row)), "paused": timers.is_paused(pauses, now_ms),
            "pause_left_ms": timers.pause_left_ms(pauses, now_ms),
            "stopped": None if stop is None else {"reason": str(stop[0]), "at_ms": stop[1]},
            "answer": answer, "press": press}


def timers_due_ms(clock: dict[str, Any] | None) -> int | None:
    """From ``clock_state`` as shown: when the running press or answer timer runs out
    (OQ-4, OQ-4.1), or None. During a pause (OQ-8) its deadline moves on with the pause,
    so the earliest it can run out is once the pause has used up the game's hour (the
    host's resume is a write, and the stream reads the state again then)."""
    if not clock:
        return None
    running = clock["answer"] or clock["press"]
    if not running:
        return None
    return running["deadline_ms"] + (clock["pause_left_ms"] if clock["paused"] else 0)


def settle_due(event: Event, now_ms: int, seen: tuple[presses.Arming, dict[str, Any]] | None
               ) -> Timer | None | bool:
    """For a poll (a read): apply a timer run out since the last request, once, as at its
    deadline (OQ-4, OQ-4.1), in a short transaction of its own. Returns the timer
    running now, or False when one was applied (the caller reads the buzzer again)."""
    running = _running(event, game_row(event), now_ms, seen) if seen else None
    if running is None or running.deadline_ms > now_ms:
        return running
    with read_write():
        settle(event, now_ms)
        db.session.commit()  # read_write rolls back on leaving: a poll's write commits here
    return False
