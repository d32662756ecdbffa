"""Rate-limit counters shared by every gunicorn worker of one server (issue 31).

Flask-Limiter's ``memory://`` counts in each process, so 4 workers allowed 4 times
every limit per address. This storage keeps the counters in a small SQLite file of
the instance (``instance/ratelimits.sqlite``, apart from the app's database, so a
counted password never waits for a phone's save or the other way round): every
worker reads and writes the same fixed-window counters. Counters need not survive a
crash (``synchronous=OFF``); one increment is one statement, atomic across processes.
Only the limited routes (joins, password checks) touch it.

URI: ``answerdesk-sqlite:///<path>``; ``RATELIMIT_STORAGE_URI`` still chooses any
storage of the ``limits`` library (``redis://…``, ``memory://``).
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from typing import Any

from limits.storage import Storage

SCHEME = "answerdesk-sqlite"
PRUNE_CHANCE = 0.01  # of an increment also deleting the expired counters


class SharedFileStorage(Storage):
    """Fixed-window counters in one SQLite file, shared across processes."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False,
                 **options: Any) -> None:
        self.path = (uri or "").split("://", 1)[1]
        self._local = threading.local()
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        """This thread's connection; a forked worker opens its own."""
        conn = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():
            if not os.path.exists(self.path):
                os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
            conn = sqlite3.connect(self.path, timeout=5, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=OFF")
            conn.execute("CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY,"
                         " count INTEGER NOT NULL, expires REAL NOT NULL)")
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        db = self._db()
        if random.random() < PRUNE_CHANCE:
            db.execute("DELETE FROM counters WHERE expires <= ?", (now,))
        (count,) = db.execute(
            "INSERT INTO counters (key, count, expires) VALUES (?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET"
            " count = CASE WHEN expires <= ? THEN excluded.count ELSE count + excluded.count END,"
            " expires = CASE WHEN expires <= ? THEN excluded.expires ELSE expires END"
            " RETURNING count",
            (key, amount, now + expiry, now, now)).fetchone()
        return int(count)

    def get(self, key: str) -> int:
        row = self._db().execute("SELECT count FROM counters WHERE key = ? AND expires > ?",
                                 (key, time.time())).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        row = self._db().execute("SELECT expires FROM counters WHERE key = ? AND expires > ?",
                                 (key, now)).fetchone()
        return float(row[0]) if row else now

    def check(self) -> bool:
        return self._db().execute("SELECT 1").fetchone() == (1,)

    def reset(self) -> int | None:
        return self._db().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        self._db().execute("DELETE FROM counters WHERE key = ?", (key,))


def default_uri(instance_path: str) -> str:
    """The shared counters of this instance."""
    return f"{SCHEME}:///" + os.path.join(instance_path, "ratelimits.sqlite").lstrip("/")
