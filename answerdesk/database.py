"""Engine tuning that keeps several workers honest on SQLite.

STACK-NOTES: a deferred transaction that reads and then writes cannot upgrade
its lock under WAL and fails at once with "database is locked". SQLAlchemy's
pysqlite recipe takes over transaction control so each one starts with
BEGIN IMMEDIATE and waits for the write lock instead.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


def tune_sqlite(engine: Engine) -> None:
    """Install WAL, busy timeout and BEGIN IMMEDIATE on an SQLite engine."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
