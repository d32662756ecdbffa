"""Engine tuning that keeps several workers honest on SQLite.

STACK-NOTES: a deferred transaction that reads and then writes cannot upgrade
its lock under WAL and fails at once with "database is locked". SQLAlchemy's
pysqlite recipe takes over transaction control so each one starts with
BEGIN IMMEDIATE and waits for the write lock instead.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary, WeakSet

from sqlalchemy import Integer, bindparam, event, func, select
from sqlalchemy.engine import Engine

from .errors import Busy


class WriterBusy(Busy):
    """The writer queue's wait ran out (WriterQueue.acquire)."""


def tune_sqlite(engine: Engine, timeout: float = 5.0) -> None:
    """Install WAL, busy timeout and BEGIN IMMEDIATE on an SQLite engine; a write waits
    at most ``timeout`` seconds in the writer queue, then as long again for SQLite's
    lock, and is refused as busy (errors.Busy, a 503 the phones resend)."""
    if engine.dialect.name != "sqlite":
        return
    gate = WriterQueue(engine.url.database, timeout)
    gate.install(engine)
    checkpointer = gate.checkpointer
    if checkpointer is not None:
        event.listen(engine, "engine_disposed", lambda _engine: checkpointer.stop())

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        if gate.checkpointer is not None:
            cursor.execute("PRAGMA wal_autocheckpoint=0")  # the Checkpointer's work
        cursor.close()

    def begin(dbapi_conn: Any, info: dict[str, Any], reading: bool) -> None:
        if info.get("query_only", False) != reading:
            dbapi_conn.execute(f"PRAGMA query_only={'ON' if reading else 'OFF'}")
            info["query_only"] = reading
        if reading:
            dbapi_conn.execute("BEGIN")
            return
        gate.acquire(dbapi_conn)
        dbapi_conn.execute("BEGIN IMMEDIATE")

    _SQLITE_BEGIN[engine] = begin

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        begin(conn.connection.dbapi_connection, conn.info, _read_only.get())


# The BEGIN of each tuned SQLite engine, for the lean path's raw connections (lean.py).
_SQLITE_BEGIN: WeakKeyDictionary[Engine, Callable[[Any, dict[str, Any], bool], None]] = (
    WeakKeyDictionary()
)


def begin_raw(engine: Engine, dbapi_conn: Any, info: dict[str, Any]) -> None:
    """Begin a write transaction on a raw DBAPI connection of ``engine`` as the engine's
    own transactions begin: on SQLite BEGIN IMMEDIATE behind the writer queue, on
    PostgreSQL nothing (the driver begins with the first statement)."""
    begin = _SQLITE_BEGIN.get(engine)
    if begin is not None:
        begin(dbapi_conn, info, False)


def tune_postgresql(engine: Engine, timeout: float = 5.0) -> None:
    """A statement waits at most ``timeout`` seconds for a lock (a round's queue lock,
    a row): then PostgreSQL gives up, the transaction is rolled back and the request is
    refused as busy (errors.Busy) instead of holding a server thread for as long as
    the lock's holder takes."""
    if engine.dialect.name != "postgresql":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.autocommit = True  # a setting of the session, outside any transaction
        try:
            dbapi_conn.execute(f"SET lock_timeout = {int(timeout * 1000)}")
        finally:
            dbapi_conn.autocommit = False


# SQLITE_BUSY and SQLITE_LOCKED (the low byte of an extended result code)
_SQLITE_BUSY = {5, 6}
# lock_not_available (lock_timeout), serialization_failure, deadlock_detected
_POSTGRES_BUSY = {"55P03", "40001", "40P01"}


def is_busy(error: BaseException) -> bool:
    """Whether a database error means "not now", not "never": the write waited too long
    for a lock or lost a race, and nothing of it was kept. SQLAlchemy's errors carry
    the driver's (``orig``); the lean path (lean.py) raises the driver's own."""
    error = getattr(error, "orig", None) or error
    if isinstance(error, Busy):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _SQLITE_BUSY
    return getattr(error, "sqlstate", None) in _POSTGRES_BUSY


_read_only: ContextVar[bool] = ContextVar("answerdesk_read_only", default=False)


@contextmanager
def read_only() -> Iterator[None]:
    """Read in a transaction of its own that only reads, ended on the way out.

    On SQLite that is a plain BEGIN (WAL readers never wait for the writer, nor hold
    it up while a page renders) with PRAGMA query_only, so a write slipped into such
    a block fails loudly instead of racing for the lock. Inside a transaction that
    is already under way this changes nothing (its pending work must not be lost).
    """
    from .extensions import db

    if db.session().in_transaction():
        yield
        return
    token = _read_only.set(True)
    try:
        if db.session.get_bind().dialect.name == "postgresql":
            # Each statement reads committed data on its own (as READ COMMITTED does
            # anyway): no BEGIN and ROLLBACK round trips for a polled page.
            db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        yield
    finally:
        _read_only.reset(token)
        db.session.rollback()


@contextmanager
def read_write() -> Iterator[None]:
    """Write from inside a read-only block (the review queue's live check, issue 6).

    What the block has read so far ends (query_only is set per transaction), and
    transactions begun here take the writer again; commit before leaving, the
    rest is rolled back. Outside a read-only block this changes nothing.
    """
    from .extensions import db

    if not _read_only.get():
        yield
        return
    db.session.commit()  # ends the read (query_only holds per transaction)
    token = _read_only.set(False)
    try:
        yield
    finally:
        _read_only.reset(token)
        db.session.rollback()


def reads_only(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view that never writes (polled pages: phone state, projector, standings)."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with read_only():
            return view(*args, **kwargs)

    return wrapped


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
            except WriterBusy:  # the saves come first; the next checkpoint tries again
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


def queue_for_round(event_id: int, number: int, *, exclusive: bool) -> None:
    """PostgreSQL: a fair queue between saves (shared) and the host's round moves (exclusive).

    A FOR SHARE on the round row let a stream of saves starve close_round's FOR
    UPDATE: a new share locker joins the current holders without queueing
    (measured: a close waited minutes behind 40 busy phones). Advisory locks queue
    in arrival order, so a waiting close holds back new saves and gets the round
    next. Every change of a round's state must take it exclusively
    (rounds.get_round(for_update=True)): it is the only lock a save takes.
    """
    from .extensions import db

    if db.session.get_bind().dialect.name != "postgresql":
        return
    db.session.connection().execute(
        _ROUND_QUEUE[exclusive], {"event": event_id, "round": number}
    )


def round_queue(event_id: Any, number: Any, *, exclusive: bool) -> Any:
    """queue_for_round as a column of a larger SELECT (PostgreSQL only): the lock is
    taken for each row the statement returns, and only then."""
    lock = func.pg_advisory_xact_lock if exclusive else func.pg_advisory_xact_lock_shared
    return lock(event_id, number).label("round_queue")


_ROUND_QUEUE = {
    exclusive: select(round_queue(bindparam("event", type_=Integer),
                                  bindparam("round", type_=Integer), exclusive=exclusive))
    for exclusive in (True, False)
}
