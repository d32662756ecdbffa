"""Server push for the buzzer games: an SSE stream that tells phones and the projector
to look (GET /state) the moment the game changes (docs/live-push.md).

The database stays the truth: each stream polls a cheap version (the event's
newest audit entry, its screen version, its newest press) every POLL_SECONDS
and sends ``look`` when it moved, or when a buzzer window it saw open has
closed by the time alone. No process-local pub/sub, so any worker of any app
server serves any phone. Each open stream holds one gunicorn thread (gthread
workers: size threads above the open screens); a stream ends after
STREAM_SECONDS and EventSource reconnects by itself; phones without
EventSource keep polling /state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Response, stream_with_context

from ... import live
from ...api import bp
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


def _message(version: str) -> str:
    return f"event: look\ndata: {json.dumps({'version': version})}\n\n"


def events(event_id: int, seconds: float = STREAM_SECONDS) -> Iterator[str]:
    """The stream's lines: a comment at once, then ``look`` whenever the game moved."""
    yield ": connected\nretry: 1000\n\n"
    sent, quiet_since = None, time.monotonic()
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        press_id, window = _buzz_version(event_id)
        closed = window is not None and presses.now_ms() > window
        version = f"{live.screen_version(event_id)}.{press_id}.{int(closed)}"
        db.session.remove()  # give the connection back between polls
        if version != sent:
            sent, quiet_since = version, time.monotonic()
            yield _message(version)
        elif time.monotonic() - quiet_since > KEEPALIVE_SECONDS:
            quiet_since = time.monotonic()
            yield ": keepalive\n\n"
        time.sleep(POLL_SECONDS)


@bp.get("/events/<code>/stream")
def stream(code: str):
    """SSE: ``look`` when the game's state changed (then GET /state); see events()."""
    event_id = event_by_code(code).id
    db.session.remove()  # no connection held while the stream waits
    return Response(stream_with_context(events(event_id)), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
