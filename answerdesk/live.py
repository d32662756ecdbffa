"""Live updates without in-process state: a version number read from the database.

Every change of the night writes an audit entry in its own transaction, and
every projector change moves the screen's version; so the newest audit id
plus the screen version changes exactly when a host page or the projector
could show something new. Pages poll it (one indexed query) and fetch their
fragment only when it moved, which works across any number of workers.
"""

from __future__ import annotations

from .extensions import db
from .models import AuditEntry, ScreenState


def version(event_id: int) -> str:
    """An opaque token that changes whenever the event changes."""
    newest = (
        db.select(db.func.max(AuditEntry.id))
        .where(AuditEntry.event_id == event_id)
        .scalar_subquery()
    )
    screen = (
        db.select(ScreenState.version)
        .where(ScreenState.event_id == event_id)
        .scalar_subquery()
    )
    audit_id, screen_version = db.session.execute(db.select(newest, screen)).one()
    return f"{audit_id or 0}.{screen_version or 0}"
