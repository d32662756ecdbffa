"""Transactions that only read: polled pages never take SQLite's writer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any

reading_only: ContextVar[bool] = ContextVar("answerdeskreading_only", default=False)


@contextmanager
def read_only() -> Iterator[None]:
    """Read in a transaction of its own that only reads, ended on the way out.

    On SQLite that is a plain BEGIN (WAL readers never wait for the writer, nor hold
    it up while a page renders) with PRAGMA query_only, so a write slipped into such
    a block fails loudly instead of racing for the lock. Inside a transaction that
    is already under way this changes nothing (its pending work must not be lost).
    """
    from ..extensions import db

    if db.session().in_transaction():
        yield
        return
    token = reading_only.set(True)
    try:
        if db.session.get_bind().dialect.name == "postgresql":
            # Each statement reads committed data on its own (as READ COMMITTED does
            # anyway): no BEGIN and ROLLBACK round trips for a polled page.
            db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        yield
    finally:
        reading_only.reset(token)
        db.session.rollback()


@contextmanager
def read_write() -> Iterator[None]:
    """Write from inside a read-only block (the review queue's live check, issue 6).

    What the block has read so far ends (query_only is set per transaction), and
    transactions begun here take the writer again; commit before leaving, the
    rest is rolled back. Outside a read-only block this changes nothing.
    """
    from ..extensions import db

    if not reading_only.get():
        yield
        return
    db.session.commit()  # ends the read (query_only holds per transaction)
    token = reading_only.set(False)
    try:
        yield
    finally:
        reading_only.reset(token)
        db.session.rollback()


def reads_only(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view that never writes (polled pages: phone state, projector, standings)."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with read_only():
            return view(*args, **kwargs)

    return wrapped
