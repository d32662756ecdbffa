"""SQLite's write lock handed from one transaction to the next, across threads and workers."""

from __future__ import annotations

import fcntl
import os
import threading
from typing import Any

from sqlalchemy.engine import Engine

from ..errors import Busy
from .checkpoints import Checkpointer


class WriterBusy(Busy):
    """The writer queue's wait ran out (WriterQueue.acquire)."""


class WriterQueue:
    """Hands SQLite's write lock from one transaction to the next without polling.

    SQLite's busy handler sleeps 1, 2, 5 ... 100 ms between tries, so under load a
    waiting save slept long after the lock was free (p99 850 ms, 300 saves/s with
    2 workers, bench/harness.py). Transactions queue here instead: on a thread
    lock within a worker and an flock on a file beside the database between
    workers; the kernel wakes the next one the moment the lock is released. A
    transaction that waits on the thread lock longer than ``timeout`` is refused
    (WriterBusy); the one thread of a worker that waits on the flock waits for the
    holder in another worker, whose own wait for SQLite's lock is bounded by the
    busy timeout.
    """

    def __init__(self, database: str | None, timeout: float = 5.0) -> None:
        self.timeout = timeout
        on_file = database if database and database != ":memory:" else None
        self.path = f"{on_file}-writer" if on_file else None
        self.checkpointer = Checkpointer(on_file, self) if on_file else None
        self._thread_lock = threading.Lock()
        self._fd: tuple[int, int] | None = None  # (pid, fd): a forked worker opens its own
        self._holder: Any = None

    def install(self, engine: Engine) -> None:
        """Release after the DBAPI commit or rollback (also the pool's reset on return);
        a commit that held the writer then nudges the Checkpointer."""
        dialect = engine.dialect
        for name in ("do_commit", "do_rollback", "do_close"):
            original = getattr(dialect, name)

            def released(dbapi_conn: Any, _original=original, _commit=name == "do_commit") -> None:
                try:
                    _original(dbapi_conn)
                finally:
                    wrote = self.release(getattr(dbapi_conn, "dbapi_connection", dbapi_conn))
                if wrote and _commit and self.checkpointer is not None:
                    self.checkpointer.nudge()

            setattr(dialect, name, released)

    def _file(self) -> int:
        if self._fd is None or self._fd[0] != os.getpid():
            assert self.path is not None  # only a database on file queues its writers
            self._fd = (os.getpid(), os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        return self._fd[1]

    def acquire(self, dbapi_conn: Any) -> None:
        if self.path is None:
            return
        if not self._thread_lock.acquire(timeout=self.timeout):
            raise WriterBusy("The server is busy: nothing was changed. Try again in a moment.")
        try:
            fcntl.flock(self._file(), fcntl.LOCK_EX)
        except OSError:
            self._thread_lock.release()
            return
        self._holder = dbapi_conn

    def release(self, dbapi_conn: Any) -> bool:
        """Hand the writer on, if ``dbapi_conn`` held it (then True)."""
        if self._holder is None or self._holder is not dbapi_conn:
            return False
        self._holder = None
        try:
            fcntl.flock(self._file(), fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()
        return True
