"""The state poll's read, kept for a moment in each process (issue 18).

Every phone polls GET /state every 3 s and the projector every 1.5 s: at a
100-team night that is 100 reads a second of rows that change a few times an
hour (a round opened, locked or revealed, a question started on the clock).
On PostgreSQL each read is a round trip whose cost, the driver's and the
backend's, was most of the poll's (bench/README.md). So each process keeps
what it read of an event for ``STATE_CACHE_SECONDS`` (default 0.5 s):

- what the same process commits through a Session is seen by its next poll: a
  commit that wrote an event, round, question, gate, audit entry or screen state
  forgets every kept read
  (``_forget_on_commit``), and a read that began before such a commit is never
  kept;
- another process's change (another worker, another app server, the CLI) is
  seen at most ``STATE_CACHE_SECONDS`` later, a sixth of a phone's poll period;
- the rows are kept, not the answer: the question clock's open or locked is
  worked out on every poll from the kept deadline (``locks_at``), so a
  question locks on the phones on time;
- the save never reads from here: its lock check reads the database in its
  own transaction (answers.py), so a kept state can only be a moment late on
  a phone's screen, never let an answer in.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from itertools import chain
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from ..models import AuditEntry, Event, Question, QuestionGate, Round, ScreenState

#: The rows of state_by_code's one read come from these tables, and its screen
#: version from the audit log's entries that are not a phone's save (those are
#: written on a raw connection, lean.py, never through a Session).
_STATE_TABLES = (Event, Round, Question, QuestionGate, AuditEntry, ScreenState)
#: Kept reads a process holds at most; past it they are all dropped (a venue polls a few events).
LIMIT = 256
_FLAG = "answerdesk.state_changed"


class _Changes:
    """A counter each state-changing commit of this process moves on."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def moved(self) -> None:
        with self._lock:
            self.count += 1


CHANGES = _Changes()


class RecentStates:
    """One app's kept reads: event code -> (when read, CHANGES.count before the read, rows)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._kept: dict[str, tuple[float, int, list[Any]]] = {}
        #: Codes of events whose format has a public state of its own (Своя игра,
        #: OpenQuiz): lean_routes.py hands their polls to Flask without a read first.
        #: An event's format never changes; a code met here by mistake only costs the
        #: Flask path, which answers every format.
        self._own_state: set[str] = set()

    def has_own_state(self, code: str) -> bool:
        """Whether ``code``'s format was seen to have a public state of its own."""
        return code in self._own_state

    def note_own_state(self, code: str) -> None:
        """Remember that ``code``'s format has a public state of its own."""
        if len(self._own_state) >= LIMIT:
            self._own_state.clear()
        self._own_state.add(code)

    def rows(self, code: str, read: Callable[[], list[Any]],
             keep: Callable[[list[Any]], bool]) -> list[Any]:
        """The kept rows of ``code`` while fresh, else ``read()``'s, kept if ``keep``
        says so. A read is fresh while younger than ``seconds`` and no commit of this
        process changed state since it began (so one that such a commit overtook is
        never served again)."""
        kept = self._kept.get(code)
        if (kept is not None and kept[1] == CHANGES.count
                and time.monotonic() - kept[0] < self.seconds):
            return kept[2]
        count, at = CHANGES.count, time.monotonic()
        rows = read()
        if self.seconds > 0 and keep(rows):
            if len(self._kept) >= LIMIT:
                self._kept.clear()
            self._kept[code] = (at, count, rows)
        return rows


def recent_states(app: Any) -> RecentStates:
    """The app's kept reads (one per app: tests make several apps in one process)."""
    found = app.extensions.get("answerdesk.recent_states")
    if found is None:
        found = app.extensions["answerdesk.recent_states"] = RecentStates(
            float(app.config["STATE_CACHE_SECONDS"]))
    return found


@sa_event.listens_for(Session, "after_flush")
def _note_state_change(session: Session, _flush_context: Any) -> None:
    """Mark the transaction when a flush wrote a row the state poll reads."""
    if any(isinstance(row, _STATE_TABLES)
           for row in chain(session.new, session.dirty, session.deleted)):
        session.info[_FLAG] = True


@sa_event.listens_for(Session, "do_orm_execute")
def _note_bulk_change(orm_execute_state: Any) -> None:
    """An UPDATE or DELETE through the Session (not a flush) may change them too."""
    if orm_execute_state.is_update or orm_execute_state.is_delete:
        orm_execute_state.session.info[_FLAG] = True


@sa_event.listens_for(Session, "after_commit")
def _forget_on_commit(session: Session) -> None:
    """Forget every kept read once a marked transaction commits. (A mark that a
    rolled-back transaction left behind only makes a later commit forget them once
    too often.)"""
    if session.info.pop(_FLAG, False):
        CHANGES.moved()
