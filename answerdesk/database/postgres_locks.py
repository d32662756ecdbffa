"""PostgreSQL's queue lock of a round: saves take it shared, the round's moves exclusive."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer, bindparam, func, select


def queue_for_round(event_id: int, number: int, *, exclusive: bool) -> None:
    """PostgreSQL: a fair queue between saves (shared) and the host's round moves (exclusive).

    A FOR SHARE on the round row let a stream of saves starve close_round's FOR
    UPDATE: a new share locker joins the current holders without queueing
    (measured: a close waited minutes behind 40 busy phones). Advisory locks queue
    in arrival order, so a waiting close holds back new saves and gets the round
    next. Every change of a round's state must take it exclusively
    (rounds.get_round(for_update=True)): it is the only lock a save takes.
    """
    from ..extensions import db

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
