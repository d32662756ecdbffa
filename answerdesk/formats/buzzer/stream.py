"""Server push for the buzzer games: an SSE stream that tells phones and the projector
to look (GET /state) the moment the game changes (docs/live-push.md).

The database stays the truth: one thread per worker process polls a cheap
version per watched event (its newest audit entry, its screen version, its
newest press, whether that press's window has closed by the time alone) every
POLL_SECONDS, and the process's streams of that event send ``look`` when it
moved. Nothing is published between processes, so any worker of any app server
serves any phone. Each open stream holds one gunicorn thread (gthread
workers: size threads above the open screens); a stream ends after
STREAM_SECONDS and EventSource reconnects by itself; phones without
EventSource keep polling /state.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app

from ... import live
from ...api.blueprint import bp
from ...core.events import event_by_code
from ...extensions import db
from ...models import Question, Round
from . import presses, timing
from .models import BuzzPress

POLL_SECONDS = 0.05  # a host action reaches every phone within this plus one GET
KEEPALIVE_SECONDS = 15
STREAM_SECONDS = 300


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


def _version(event_id: int) -> str:
    press_id, window = _buzz_version(event_id)
    closed = window is not None and presses.now_ms() > window
    return f"{live.screen_version(event_id)}.{press_id}.{int(closed)}"


class Watcher:
    """One poller per worker process: it reads each watched event's version from the
    database every POLL_SECONDS and wakes that event's streams when it moved.

    The streams of a process share one query per event and poll, not one each; what
    they learn still comes from the database, so every worker sees every change.
    """

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.versions: dict[int, str] = {}
        self.listeners: dict[int, int] = {}
        self.thread: threading.Thread | None = None

    def watch(self, event_id: int, app: Any) -> None:
        with self.lock:
            self.listeners[event_id] = self.listeners.get(event_id, 0) + 1
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, args=(app,), daemon=True,
                                               name="live-push")
                self.thread.start()

    def unwatch(self, event_id: int) -> None:
        with self.lock:
            self.listeners[event_id] -= 1
            if not self.listeners[event_id]:
                del self.listeners[event_id]
                self.versions.pop(event_id, None)

    def wait(self, event_id: int, known: str | None, timeout: float) -> str | None:
        """The event's version once it differs from ``known`` (None on timeout)."""
        with self.lock:
            self.lock.wait_for(lambda: self.versions.get(event_id, known) != known,
                               timeout=timeout)
            version = self.versions.get(event_id)
            return version if version != known else None

    def _run(self, app: Any) -> None:
        with app.app_context():
            while True:
                with self.lock:
                    watched = list(self.listeners)
                if not watched:
                    time.sleep(POLL_SECONDS)
                    continue
                try:
                    fresh = {event_id: _version(event_id) for event_id in watched}
                finally:
                    db.session.remove()
                with self.lock:
                    for event_id, version in fresh.items():
                        if event_id in self.listeners and self.versions.get(event_id) != version:
                            self.versions[event_id] = version
                            self.lock.notify_all()
                time.sleep(POLL_SECONDS)


WATCHER = Watcher()


def _message(version: str) -> str:
    return f"event: look\ndata: {json.dumps({'version': version})}\n\n"


def events(event_id: int, app: Any, seconds: float = STREAM_SECONDS) -> Iterator[str]:
    """The stream's lines: a comment at once, then ``look`` whenever the game moved."""
    yield ": connected\nretry: 1000\n\n"
    WATCHER.watch(event_id, app)
    try:
        known: str | None = None
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            left = ends - time.monotonic()
            version = WATCHER.wait(event_id, known, max(0.0, min(KEEPALIVE_SECONDS, left)))
            if version is None:
                yield ": keepalive\n\n"
            else:
                known = version
                yield _message(version)
    finally:
        WATCHER.unwatch(event_id)


@bp.get("/events/<code>/stream")
def stream(code: str):
    """SSE: ``look`` when the game's state changed (then GET /state); see events()."""
    event_id = event_by_code(code).id
    db.session.remove()  # no connection held while the stream waits
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    seconds = current_app.config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS)
    return Response(events(event_id, app, seconds), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
