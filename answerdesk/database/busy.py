"""A write that waits too long for the database's lock is refused as busy (errors.Busy:
a 503 with Retry-After, web.py's handler), never answered with a 500: the phones send
it again. SQLite's side is the writer queue's and the busy timeout's bound
(sqlite.tune_sqlite); PostgreSQL's is ``lock_timeout`` on every connection."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from ..errors import Busy


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
