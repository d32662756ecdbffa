"""The live checker: a process of its own that proposes verdicts while teams type.

The host's review queue fills while a round is open (issue 5): every answer that
arrives is checked at once. Checking is CPU work (10 µs for a typed Bulgarian
answer, 100 µs for Latin letters and digits against a Cyrillic key), 600 answers
every 2 s at a busy night. Done by the host's page, it held its web
worker's GIL for 35 ms at each load, and the phones' saves served by that worker
waited behind it (issue 6: a save's p99 on PostgreSQL up to 84 ms). Here it runs
in a process of its own; the checking itself runs on a thread at a lower CPU
priority than the web workers (NICENESS), and the proposals are written from the
process's main thread at theirs. A write holds SQLite's one writer: done at nice 10
on a machine the workers kept busy, a 200-row write waited for the CPU with the
lock held, 50-365 ms, and every phone's save waited behind it (issue 33: the
300-team night's bursts of slow saves, bench/README.md).

gunicorn.conf.py forks it from gunicorn's master (it shares the preloaded app and
the checker's word lists); `flask --app answerdesk check-live` runs it alone, e.g.
once beside several app servers. Each web worker still checks, from the review
page, whatever has waited longer than ``LIVE_CHECK_WAIT`` seconds, so the queue
stays whole if this process is gone; two checkers at once are safe (the writes of
rounds.check_arrived are guarded), only wasteful.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from flask import Flask

from .core.clock import has_due, settle
from .core.rounds import Checking, at_once, check_arrived
from .core.states import RoundState
from .database.readonly import read_only
from .extensions import db
from .models import AuditEntry, Event, Round
from .niceness import niced

log = logging.getLogger(__name__)

INTERVAL = 1.0
NICENESS = 10


def check_open_rounds(since: int | None = None, checking: Checking = at_once) -> int:
    """One pass: check what arrived in the open rounds of every event, or (``since``,
    an audit entry id) of the events whose audit log grew after it; returns how many
    answers were checked. ``checking``: where the checker's CPU work runs
    (rounds.check_arrived). Needs an app context."""
    events = db.select(Round.event_id).where(Round.state == RoundState.OPEN).distinct()
    if since is not None:
        events = events.where(Round.event_id.in_(
            db.select(AuditEntry.event_id).where(AuditEntry.id > since)
        ))
    with read_only():
        event_ids = db.session.scalars(events).all()
    checked = 0
    for event_id in event_ids:
        event = db.session.get(Event, event_id)
        if event is not None:
            checked += check_arrived(event, checking=checking)
            with read_only():
                due = has_due(event)
            if due and settle(event):
                # Questions past their clock's deadline: the lock recorded, verdicts proposed.
                db.session.commit()  # the live checker's loop is its own boundary
    return checked


class Passes:
    """Pass after pass, looking only at events that changed lately.

    Every save writes an audit entry, so an event whose audit log did not grow has
    nothing new to check: a pass costs what the night's activity costs, not what the
    database holds (rounds left open by past nights included). The first pass looks
    at every open round. Later ones at the events with entries newer than the log's
    end WINDOW seconds ago: a save whose id was drawn then but whose commit came
    later (ids are not handed out in commit order) is still seen.
    """

    WINDOW = 10.0

    def __init__(self, checking: Checking = at_once) -> None:
        self.marks: deque[tuple[float, int]] = deque()  # (when, newest audit id then)
        self.checking = checking

    def check(self) -> int:
        with read_only():
            newest = db.session.scalar(db.select(db.func.max(AuditEntry.id))) or 0
        now = time.monotonic()
        first = not self.marks
        self.marks.append((now, newest))
        while len(self.marks) > 2 and self.marks[1][0] <= now - self.WINDOW:
            self.marks.popleft()
        return check_open_rounds(None if first else self.marks[0][1], self.checking)


def run(app: Flask, interval: float = INTERVAL,
        keep_going: Callable[[], bool] = lambda: True) -> None:
    """Pass after pass, ``interval`` seconds apart, while ``keep_going()``.

    A pass that fails (the database restarting, say) is logged and the next one
    tries again: the night goes on.
    """
    lower = niced(NICENESS, THREAD_NAME, refused=_priority_refused)
    with ThreadPoolExecutor(1, THREAD_NAME, initializer=lower) as lane:
        lane.submit(lambda: None).result()  # its thread runs, at its priority, from the start
        passes = Passes(lambda work: lane.submit(work).result())
        while keep_going():
            started = time.monotonic()
            with app.app_context():
                try:
                    passes.check()
                except Exception:
                    log.exception("live check failed; trying again in %s s", interval)
                finally:
                    db.session.remove()
            time.sleep(max(0.0, interval - (time.monotonic() - started)))


#: The checking thread's name as `top -H` and /proc show it.
THREAD_NAME = "live-checks"


def _priority_refused() -> None:
    log.warning("live checker: could not lower the checking thread's priority")


def fork(app: Flask, listeners: Iterable[socket.socket] = ()) -> int:
    """Start the live checker in a child of this process; returns its pid.

    The child drops what it inherited from a server master: its listening sockets
    (a checker left behind must not keep the port) and signal handlers. It stops
    on SIGTERM or SIGINT, and on its own when its parent is gone (kill -9).
    """
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    status = 0
    try:
        for listener in listeners:
            listener.close()
        stopping: list[int] = []
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
            signal.signal(number, lambda signum, _frame: stopping.append(signum))
        for number in (signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGWINCH,
                       signal.SIGTTIN, signal.SIGTTOU, signal.SIGCHLD):
            signal.signal(number, signal.SIG_DFL)
        run(app, keep_going=lambda: not stopping and os.getppid() == parent)
    except BaseException:
        log.exception("live checker stopped")
        status = 1
    finally:
        os._exit(status)
