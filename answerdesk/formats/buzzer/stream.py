"""Server push for the buzzer games: an SSE stream that hands phones and the projector
the game's public state the moment the game changes (docs/live-push.md).

The database stays the truth: one thread per worker process reads a cheap version
per watched event (its newest audit entry, its screen version, its newest press,
whether that press's window has closed by the time alone) and, when it moved,
renders the state once (what GET /state answers) for all that process's streams
of the event. It reads at once when told something was written (PostgreSQL:
LISTEN/NOTIFY, which crosses workers and app servers; SQLite: PRAGMA data_version
on a connection of its own, a few µs, read every SQLITE_HINT_SECONDS), when a buzzer
window closes, and every POLL_SECONDS whatever it was told, so a lost hint delays
an update and never loses it. When a game's own timer runs out (Format.timers_due_ms
of the state it rendered), it applies it (Format.settle_timers) before it reads, so
phones that only listen see it without anybody's request. Each open stream holds
one gunicorn thread, and a request slot (answerdesk/slots.py) only for its reads at
the start; a process takes at most LIVE_STREAM_LIMIT streams (gunicorn.conf.py) and
tells any further phone to come back later, meanwhile it polls /state. A stream ends
after LIVE_STREAM_SECONDS; EventSource reconnects with Last-Event-ID, and nothing is
sent again if the game has not moved since.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, has_app_context, request
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from ... import live
from ...api import state_document
from ...api.blueprint import bp
from ...core import formats
from ...core.events import event_by_code
from ...extensions import db
from ...models import AuditEntry, Event, Question, Round, ScreenState, Team
from ...slots import long_lived, slot
from . import presses, timing
from .models import BuzzPress

POLL_SECONDS = 0.25  # the version is read at least this often, hint or no hint
SQLITE_HINT_SECONDS = 0.005  # PRAGMA data_version is read this often (a few µs each)
WAKE_SECONDS = 0.05  # the longest a PostgreSQL wait for NOTIFY blocks before looking round
#: Hints come at most this often: on a SQLite file where phones save 300 times a
#: second, data_version moves on every check, and each read costs about a millisecond.
HINT_GAP_SECONDS = 0.02
KEEPALIVE_SECONDS = 15
STREAM_SECONDS = 300
RETRY_MS = 1000  # EventSource's wait before it reconnects
BUSY_RETRY_MS = 5000  # ... when this process has no thread to spare for a stream
CHANNEL = "answerdesk_live"
#: What the version reads: a flush writing one of these moves it (PostgreSQL's hint).
VERSIONED = (AuditEntry, ScreenState, BuzzPress)
#: A hint without an event id: every watched event is read.
EVERY_EVENT = 0
#: Events whose format a process remembers for its NOTIFY (_pushes).
FORMATS_KEPT = 4096


def _buzz_version(event_id: int) -> tuple[int, int | None]:
    """The event's newest press and when the window of its question's attempt closes."""
    newest = db.session.execute(
        db.select(BuzzPress.id, BuzzPress.question_id, BuzzPress.attempt)
        .join(Question, BuzzPress.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event_id).order_by(BuzzPress.id.desc()).limit(1)).first()
    if newest is None:
        return 0, None
    first = db.session.scalar(db.select(db.func.min(BuzzPress.received_ms)).where(
        BuzzPress.question_id == newest[1], BuzzPress.attempt == newest[2]))
    return newest[0], timing.window_closes_ms([first]) if first is not None else None


def _version(event_id: int) -> tuple[str, int | None]:
    """(the event's version, the server ms at which it moves by the time alone or None).
    While a window collects presses the version stays what it was before the first
    press (issue 31: a "look" then would tell every phone that someone pressed); it
    moves when the window closes."""
    press_id, window = _buzz_version(event_id)
    closed = window is not None and presses.now_ms() > window
    shown_id, shown_closed = press_id, closed
    if window is not None and not closed:  # as before the first press of this attempt
        shown_id = _before_window(event_id)
        shown_closed = shown_id > 0  # an earlier attempt's window has closed
    version = f"{live.screen_version(event_id)}.{shown_id}.{int(shown_closed)}"
    return version, None if window is None or closed else window + 1


def _before_window(event_id: int) -> int:
    """The event's newest press of an attempt other than the latest (0: none)."""
    newest = db.session.execute(
        db.select(BuzzPress.question_id, BuzzPress.attempt)
        .join(Question, BuzzPress.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event_id).order_by(BuzzPress.id.desc()).limit(1)).first()
    if newest is None:
        return 0
    older = db.session.scalar(
        db.select(db.func.max(BuzzPress.id))
        .join(Question, BuzzPress.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event_id,
               db.or_(BuzzPress.question_id != newest[0], BuzzPress.attempt != newest[1])))
    return older or 0


def _event_of(session: Session, row: Any) -> int | None:
    """The event a versioned row belongs to (a press: through its team, which the press
    was made with, so in the Session already); None when it cannot be told cheaply."""
    if isinstance(row, BuzzPress):
        team = session.identity_map.get(session.identity_key(Team, row.team_id))
        return team.event_id if team is not None else None
    return row.event_id


def _pushes(session: Session, event_id: int) -> bool:
    """Whether the event's format pushes live. The event is mostly in the Session
    already (the host's action loaded it); otherwise its format is read once and kept
    per event in the app (an event's format never changes; FORMATS_KEPT at most). An
    event deleted and its id given again could leave a wrong entry in another process:
    one NOTIFY too many, or one missed that the POLL_SECONDS read makes up for."""
    event = session.identity_map.get(session.identity_key(Event, event_id))
    if event is not None:
        name: str | None = event.format
    else:
        kept = current_app.extensions.setdefault("live_push_formats", {}) \
            if has_app_context() else {}
        name = kept.get(event_id)
        if name is None:
            name = session.execute(db.select(Event.format).where(Event.id == event_id)).scalar()
            if name is not None:
                if len(kept) >= FORMATS_KEPT:
                    kept.clear()
                kept[event_id] = name
    return name is not None and formats.get(name).live_push


def notified_events(session: Session) -> set[int]:
    """The events whose watchers a flush must tell: those whose format pushes live
    (Format.live_push) and whose version it moved; EVERY_EVENT for a press whose event
    is not known here (presses exist only in games that push)."""
    found: set[int] = set()
    for row in (*session.new, *session.dirty):
        if not isinstance(row, VERSIONED):
            continue
        event_id = _event_of(session, row)
        if event_id is None:
            found.add(EVERY_EVENT)
        elif event_id not in found and _pushes(session, event_id):
            found.add(event_id)
    return found


@sa_event.listens_for(Session, "after_flush")
def _notify_on_flush(session: Session, _flush_context: Any) -> None:
    """PostgreSQL: NOTIFY the watchers of every process and app server, the event's id
    as the payload, when a flush moved the version of an event whose format pushes
    live. NOTIFY is transactional (sent at commit, dropped on rollback) and collapses
    repeats within a transaction. Only such events: PostgreSQL commits the transactions
    that notify one at a time, under one lock for the whole cluster, and a Bulgarian
    quiz's host pages and services have no stream to tell (bench/README.md)."""
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        return
    for event_id in sorted(notified_events(session)):
        connection.exec_driver_sql(
            "SELECT pg_notify(%(channel)s, %(event)s)",
            {"channel": CHANNEL, "event": str(event_id) if event_id else ""})


class _SqliteHint:
    """PRAGMA data_version, on a connection of its own, moves whenever another
    connection (any thread, any process) committed to the file: it says nothing of
    which event, so a move hints every event (EVERY_EVENT)."""

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.seen = self._read()

    def _read(self) -> int:
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def wait(self, seconds: float) -> set[int]:
        time.sleep(min(seconds, SQLITE_HINT_SECONDS))
        now = self._read()
        moved, self.seen = now != self.seen, now
        return {EVERY_EVENT} if moved else set()

    def close(self) -> None:
        self.conn.close()


class _PostgresHint:
    """LISTEN on a connection of its own, taken out of the pool for good."""

    def __init__(self, engine: Any) -> None:
        raw = engine.raw_connection()
        self.conn = raw.driver_connection
        raw.detach()
        self.conn.autocommit = True
        self.conn.execute(f"LISTEN {CHANNEL}")

    def wait(self, seconds: float) -> set[int]:
        """The events hinted (their ids, the NOTIFY payloads), waiting up to ``seconds``
        for the first; what else queued meanwhile is taken too (one read covers it)."""
        hinted: set[int] = set()
        for note in self.conn.notifies(timeout=seconds, stop_after=1):
            hinted.add(_payload_event(note.payload))
        if hinted:
            for note in self.conn.notifies(timeout=0):
                hinted.add(_payload_event(note.payload))
        return hinted

    def close(self) -> None:
        self.conn.close()


class _NoHint:
    """A database without a hint (SQLite in memory): the periodic read alone."""

    def wait(self, seconds: float) -> set[int]:
        time.sleep(seconds)
        return set()

    def close(self) -> None:
        pass


def _payload_event(payload: str) -> int:
    return int(payload) if payload.isdigit() else EVERY_EVENT


def _hint(engine: Any) -> _SqliteHint | _PostgresHint | _NoHint:
    if engine.dialect.name == "postgresql":
        return _PostgresHint(engine)
    path = engine.url.database
    if engine.dialect.name == "sqlite" and path and path != ":memory:":
        return _SqliteHint(path)
    return _NoHint()


class Watcher:
    """One per worker process: it reads the version of each event that has streams
    open here, renders the state once when the version moved, and wakes those streams.

    The version still comes from the database, so every worker and every app server
    sees every change; the hint only says when to read it sooner. Each stream waits
    on an Event of its own: a shared Condition made 20 woken streams queue again for
    its lock, one after another (bench/push_bench.py, docs/live-push.md).
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.latest: dict[int, tuple[str, str]] = {}  # event id -> (version, message)
        self.listeners: dict[int, set[threading.Event]] = {}
        self.fresh: set[int] = set()  # watched since the last read: read them at once
        #: event id -> server ms at which its game's own timers decide something
        #: (Format.timers_due_ms of the state last rendered): settled and read then
        self.timers: dict[int, int] = {}
        self.active = threading.Event()  # some stream is open
        self.thread: threading.Thread | None = None

    def watch(self, event_id: int, limit: int | None) -> threading.Event | None:
        """A stream of the event: the Event it waits on (None: this process is full)."""
        woken = threading.Event()
        with self.lock:
            if limit is not None and sum(map(len, self.listeners.values())) >= limit:
                return None
            self.listeners.setdefault(event_id, set()).add(woken)
            self.fresh.add(event_id)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, daemon=True,
                                               name="live-push")
                self.thread.start()
        self.active.set()
        return woken

    def seed(self, event: Event) -> None:
        """The first stream of an event in this process renders its state itself, so
        it need not wait for the watcher thread (on PostgreSQL: its own connection)."""
        with self.lock:
            if event.id in self.latest:
                return
        version, _ = _version(event.id)
        message, timers_at = _rendered(event, version)
        with self.lock:
            if event.id in self.listeners and event.id not in self.latest:
                self.latest[event.id] = (version, message)
                self._keep_timers(event.id, timers_at)

    def unwatch(self, event_id: int, woken: threading.Event) -> None:
        with self.lock:
            self.listeners[event_id].discard(woken)
            if not self.listeners[event_id]:
                del self.listeners[event_id]
                self.latest.pop(event_id, None)
                self.timers.pop(event_id, None)
            if not self.listeners:
                self.active.clear()

    def wait(self, event_id: int, woken: threading.Event, known: str | None,
             timeout: float) -> tuple[str, str] | None:
        """(version, message) once the event's version differs from ``known``, or None."""
        ends = time.monotonic() + timeout
        while True:
            with self.lock:
                latest = self.latest.get(event_id)
            if latest is not None and latest[0] != known:
                return latest
            if not woken.wait(max(0.0, ends - time.monotonic())):
                return None
            woken.clear()

    def _run(self) -> None:
        with self.app.app_context():
            hint = None
            due: dict[int, float] = {}  # event id -> monotonic time of its next read
            pending: set[int] = set()  # events hinted, not yet read (EVERY_EVENT: all)
            last = 0.0  # when hinted events were last read
            while True:
                if hint is not None and not self.active.is_set():
                    hint.close()  # no stream left: no connection kept for nothing
                    hint = None
                self.active.wait()
                try:
                    hint = hint or _hint(db.engine)
                    with self.lock:
                        soonest = 0 if self.fresh else min(
                            (due.get(e, 0) for e in self.listeners), default=0)
                    if pending:
                        soonest = min(soonest, last + HINT_GAP_SECONDS)
                    idle = max(0.0, min(WAKE_SECONDS, soonest - time.monotonic()))
                    got = hint.wait(idle)
                    with self.lock:  # a hint for an event not watched here is dropped
                        pending |= {e for e in got
                                    if e == EVERY_EVENT or e in self.listeners}
                    now = time.monotonic()
                    hinted: set[int] = set()
                    if pending and now >= last + HINT_GAP_SECONDS:
                        hinted, pending, last = pending, set(), now
                    every = EVERY_EVENT in hinted
                    with self.lock:
                        watched = [e for e in self.listeners
                                   if every or e in hinted or e in self.fresh
                                   or due.get(e, 0) <= now]
                        self.fresh.difference_update(watched)
                    if watched:
                        due.update(self._read(watched))
                except Exception:  # the database went away: read again after a pause
                    self.app.logger.exception("live push: reading the versions failed")
                    with contextlib.suppress(Exception):
                        hint.close()  # type: ignore[union-attr]
                    hint = None
                    time.sleep(POLL_SECONDS)

    def _keep_timers(self, event_id: int, at_ms: int | None) -> None:
        """Remember when the event's timers decide next (call with the lock held)."""
        if at_ms is None:
            self.timers.pop(event_id, None)
        else:
            self.timers[event_id] = at_ms

    def _settle(self, event_id: int) -> None:
        """A timer of the event ran out (OQ-4, OQ-4.1): apply it through the game's own
        settle path, as the next request would, so phones that only listen see it. Two
        processes doing it at once are serialised by the game (only one applies it);
        the write moves the version, and the state is rendered again."""
        with self.lock:
            at_ms = self.timers.get(event_id)
        if at_ms is None or presses.now_ms() < at_ms:
            return
        with self.lock:
            if self.timers.get(event_id) == at_ms:
                del self.timers[event_id]
        event = db.session.get(Event, event_id)
        if event is None:
            return
        try:
            formats.of(event).settle_timers(event)
            db.session.commit()  # the stream's timer thread: no request to commit it
        except Exception:
            db.session.rollback()
            self.app.logger.exception("live push: applying a timer of event %s failed",
                                      event_id)

    def _read(self, watched: list[int]) -> dict[int, float]:
        """Apply the timers run out, read the versions, render what moved, wake its
        streams; when to read again (at the latest POLL_SECONDS, sooner for a buzzer
        window's close or a timer's deadline)."""
        due = {}
        try:
            for event_id in watched:
                self._settle(event_id)
                version, moves_at_ms = _version(event_id)
                with self.lock:
                    latest = self.latest.get(event_id)
                if latest is None or latest[0] != version:
                    event = db.session.get(Event, event_id)
                    message, timers_at = _rendered(event, version) if event else ("", None)
                    with self.lock:
                        streams = list(self.listeners.get(event_id, ()))
                        if streams:
                            self.latest[event_id] = (version, message)
                            self._keep_timers(event_id, timers_at)
                    for woken in streams:
                        woken.set()
                with self.lock:
                    timers_at = self.timers.get(event_id)
                now, now_ms = time.monotonic(), presses.now_ms()
                due[event_id] = min([now + POLL_SECONDS] + [
                    now + max(0, at_ms - now_ms) / 1000
                    for at_ms in (moves_at_ms, timers_at) if at_ms is not None])
        finally:
            db.session.remove()
        return due


def watcher(app: Any) -> Watcher:
    """The app's watcher in this process (created by the first stream, after the fork)."""
    return app.extensions.setdefault("live_push", Watcher(app))


def _rendered(event: Event, version: str) -> tuple[str, int | None]:
    """The ``look`` message of the event's state, and when its game's timers decide
    something next (Format.timers_due_ms; None for a game without timers)."""
    # The state names the pack's media by their paths (url_for), which needs a request:
    # the watcher's thread has none, so it builds the state in a neutral one.
    with current_app.test_request_context("/"):
        state = state_document(event)
    return _message(version, state), formats.of(event).timers_due_ms(state)


def _message(version: str, state: dict[str, Any]) -> str:
    data = json.dumps({"version": version, "state": state}, separators=(",", ":"))
    return f"event: look\nid: {version}\ndata: {data}\n\n"


def events(live: Watcher, event_id: int, woken: threading.Event, known: str | None,
           seconds: float, release: Callable[[], None]) -> Iterator[str]:
    """The stream's lines: a comment at once, then ``look`` with the state whenever the
    game moved (at once if it moved since ``known``, the client's Last-Event-ID)."""
    try:
        yield f": connected\nretry: {RETRY_MS}\n\n"
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            left = ends - time.monotonic()
            got = live.wait(event_id, woken, known, max(0.0, min(KEEPALIVE_SECONDS, left)))
            if got is None:
                yield ": keepalive\n\n"
            elif got[1]:
                known = got[0]
                yield got[1]
            else:
                return  # the event is gone
    finally:
        release()


def _releaser(live: Watcher, event_id: int, woken: threading.Event) -> Callable[[], None]:
    """Uncount the stream once, whichever comes first: its end or the server closing it."""
    done = threading.Lock()

    def release() -> None:
        if done.acquire(blocking=False):
            live.unwatch(event_id, woken)

    return release


@bp.get("/events/<code>/stream")
@long_lived
def stream(code: str):
    """SSE: ``look`` with the state (what GET /state answers) when the game changed."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    live = watcher(app)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    with slot():
        event = event_by_code(code)
        event_id = event.id
        woken = live.watch(event_id, app.config.get("LIVE_STREAM_LIMIT"))
        if woken is None:
            db.session.remove()
            return Response(f"retry: {BUSY_RETRY_MS}\n\n", mimetype="text/event-stream",
                            headers=headers)
        try:
            live.seed(event)
        except Exception:
            live.unwatch(event_id, woken)
            raise
        finally:
            db.session.remove()  # no connection held while the stream waits
    known = request.headers.get("Last-Event-ID") or request.args.get("version")
    seconds = app.config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS)
    release = _releaser(live, event_id, woken)
    response = Response(events(live, event_id, woken, known, seconds, release),
                        mimetype="text/event-stream", headers=headers)
    response.call_on_close(release)
    return response
