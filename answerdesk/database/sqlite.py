"""Engine tuning that keeps several workers honest on SQLite.

STACK-NOTES: a deferred transaction that reads and then writes cannot upgrade
its lock under WAL and fails at once with "database is locked". SQLAlchemy's
pysqlite recipe takes over transaction control so each one starts with
BEGIN IMMEDIATE and waits for the write lock instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import event
from sqlalchemy.engine import Engine

from .readonly import reading_only
from .writer_queue import WriterQueue


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
        begin(conn.connection.dbapi_connection, conn.info, reading_only.get())


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
