"""SQLite's write-ahead log copied back into the database file beside the saves."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING
from weakref import WeakSet

from ..errors import Busy

if TYPE_CHECKING:
    from .writer_queue import WriterQueue


class Checkpointer:
    """Copies SQLite's write-ahead log back into the database file beside the saves,
    not inside one of them.

    SQLite checkpoints inside the COMMIT that takes the log past 1,000 pages, and that
    COMMIT still holds the WriterQueue: the checkpoint's two fsyncs held up every save
    behind it, for as long as the disk took (on the development machine fsync's p99.9
    is 100 ms and more: bench/README.md, "Checkpoints beside the saves"). So the
    pool's connections switch the automatic checkpoint off, and a commit that wrote
    nudges this per-process thread, which runs a PASSIVE checkpoint (it never waits
    for, nor holds up, a writer or a reader) on a connection of its own. The workers
    take turns: one checkpoint every INTERVAL seconds among them all (the time of the
    last is that of the file ``<database>-checkpoint``), about as often as SQLite's
    own threshold at 300 saves a second.

    The log starts again from its beginning only when a writer begins after a
    checkpoint copied all of it; under a steady stream of saves one written during the
    checkpoint may keep that from happening, so once the log is past RESTART_PAGES the
    thread copies the last pages holding the writer queue, as SQLite's own checkpoint
    did, and the next save starts the log afresh. The thread ends after IDLE seconds
    without a nudge (a test suite makes an engine per test); the next write starts
    another.
    """

    INTERVAL = 0.5
    IDLE = 5.0
    RESTART_PAGES = 16000  # 64 MB of 4 KiB pages; at 4,000, 5 times in 100 checkpoints

    def __init__(self, database: str, queue: WriterQueue) -> None:
        self.database = database
        self.queue = queue
        self.marker = f"{database}-checkpoint"
        self._reset()
        _CHECKPOINTERS.add(self)

    def _reset(self) -> None:
        """No thread yet in this process (also in a forked child: its parent's lock and
        events may have been in use when it forked)."""
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def nudge(self) -> None:
        """Checkpoint soon: a commit added to the log."""
        self._wake.set()
        if self._thread is None:
            with self._lock:
                if self._thread is not None:
                    return
                self._stop = threading.Event()
                self._thread = threading.Thread(target=self._run, args=(self._stop,),
                                                name="sqlite-checkpoint", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        """End the thread and close its connection (Engine.dispose): the last connection
        to close copies the log back and removes it, so the file alone is whole again."""
        thread = self._thread
        if thread is not None:
            self._stop.set()
            self._wake.set()
            thread.join(self.IDLE)

    def _run(self, stop: threading.Event) -> None:
        conn = None
        try:
            conn = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False)
            while not stop.is_set():
                if not self._wake.wait(self.IDLE) and self._idle():
                    return
                wait = self._turn()
                if wait > 0:  # another worker's checkpoint was recent: the nudge stays
                    stop.wait(wait)
                    continue
                self._wake.clear()
                if not stop.is_set():
                    self._checkpoint(conn)
        except Exception:  # the first write after IDLE seconds tries again
            _log.exception("SQLite checkpoint of %s failed", self.database)
            stop.wait(self.IDLE)
        finally:
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None
            if conn is not None:
                conn.close()

    def _idle(self) -> bool:
        """Whether the thread may end: no nudge came while it decided."""
        with self._lock:
            if self._wake.is_set():
                return False
            self._thread = None
            return True

    def _turn(self) -> float:
        """Seconds until this process's turn; at 0 the turn is taken."""
        try:
            since = time.time() - os.stat(self.marker).st_mtime
        except FileNotFoundError:
            since = self.INTERVAL
        if since < self.INTERVAL:
            return self.INTERVAL - since
        Path(self.marker).touch(mode=0o600)
        return 0.0

    def _checkpoint(self, conn: sqlite3.Connection) -> None:
        """A checkpoint reports the log's pages as it found them, not those saves wrote
        while it copied; past RESTART_PAGES it is done again with no writer at work."""
        _busy, pages, _copied = conn.execute(_PASSIVE).fetchone()
        if pages > self.RESTART_PAGES:
            try:
                self.queue.acquire(conn)
            except Busy:  # the saves come first; the next checkpoint tries again
                return
            try:
                conn.execute(_PASSIVE).fetchone()
            finally:
                self.queue.release(conn)


_PASSIVE = "PRAGMA wal_checkpoint(PASSIVE)"
_log = logging.getLogger(__name__)
_CHECKPOINTERS: WeakSet[Checkpointer] = WeakSet()


def _no_checkpoint_threads() -> None:
    for checkpointer in list(_CHECKPOINTERS):
        checkpointer._reset()


os.register_at_fork(after_in_child=_no_checkpoint_threads)
