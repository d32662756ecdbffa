"""Live updates without in-process state: a version number read from the database.

Every change of the night writes an audit entry in its own transaction, and
every projector change moves the screen's version; so the newest audit id
(with how many entries lie just below it, for a late commit) plus the screen
version changes exactly when a host page or the projector could show something
new. Pages poll it (one indexed query) and fetch their
fragment only when it moved, which works across any number of workers.

The projector polls its own version, which skips phone saves: it shows no answer
of an open round, and while teams type (300 saves a second at a big night) the
desk's version moves on every poll, so the projector would redraw its whole
picture every 1.5 s for nothing.

A page reads its version before what it shows. On PostgreSQL each statement of a
polled page sees what is committed by then (database.readonly.read_only): a change landing
between the two reads then leaves the page a version behind, and the next poll
draws it; read last, the version already counted a change the picture missed, and
the page kept the old picture until the next change (tests/test_live_versions.py).
"""

from __future__ import annotations

from typing import Any

from .extensions import db
from .models import NOT_A_PHONE_SAVE, AuditEntry, ScreenState


def version(event_id: int) -> str:
    """An opaque token that changes whenever the event changes (the desk's pages)."""
    return _version(_DESK_VERSION, event_id)


def screen_version(event_id: int) -> str:
    """An opaque token that changes whenever the projector's picture may change."""
    return _version(_SCREEN_VERSION, event_id)


#: How far below the newest audit id a late commit is still noticed (see _version).
LATE_COMMIT_IDS = 10_000


def _statement(*entries: Any) -> Any:
    """The newest audit id, how many entries lie within LATE_COMMIT_IDS below it, and
    the screen version. PostgreSQL hands ids out at insert, not at commit: a save that
    took id 100 and commits after id 101 leaves the newest id as it was, so the newest
    id alone would keep a page on a picture without it until the next change; the
    count moves then (tests/test_live_versions.py)."""
    return db.select(*_columns(db.bindparam("event_id"), *entries))


def screen_version_columns(event_id: Any) -> tuple[Any, Any, Any]:
    """The screen version's three parts as scalar subqueries on ``event_id`` (a column
    or a subquery), for a statement that reads them with what they label (the phones'
    state poll, sheets.py); ``token`` makes them the version."""
    return _columns(event_id, NOT_A_PHONE_SAVE)


def token(audit_id: int | None, count: int | None, screen: int | None) -> str:
    """The version of its three parts, as screen_version returns it."""
    return f"{audit_id or 0}.{count or 0}.{screen or 0}"


def _columns(event_id: Any, *entries: Any) -> tuple[Any, Any, Any]:
    newest = (
        db.select(db.func.max(AuditEntry.id))
        .where(AuditEntry.event_id == event_id, *entries)
        .scalar_subquery()
    )
    recent = (
        db.select(db.func.count())
        .where(AuditEntry.event_id == event_id, *entries,
               AuditEntry.id > newest - LATE_COMMIT_IDS)
        .scalar_subquery()
    )
    screen = (
        db.select(ScreenState.version)
        .where(ScreenState.event_id == event_id)
        .scalar_subquery()
    )
    return newest, recent, screen


# Built once (issue 33): building the select cost more than running it, and every
# phone's /play poll and sheet read asks for the screen version.
_DESK_VERSION = _statement()
_SCREEN_VERSION = _statement(NOT_A_PHONE_SAVE)


def screen_version_on(ex: Any, event_id: int) -> str:
    """screen_version read on a lean executor (lean.py): a phone's read off the ORM."""
    return token(*ex.first(_SCREEN_VERSION, {"event_id": event_id}))


def _version(statement: Any, event_id: int) -> str:
    return token(*db.session.execute(statement, {"event_id": event_id}).one())
