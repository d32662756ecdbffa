"""The audit log: who changed what, when, from what to what.

Every service that changes the night writes its entry inside the same
transaction as the change, so the log can never disagree with the data.
"""

from __future__ import annotations

from typing import Any

from .extensions import db
from .models import AuditEntry, Event


def record(
    event: Event | int,
    actor: str,
    action: str,
    subject: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Add an audit entry to the current transaction (the caller commits)."""
    event_id = event if isinstance(event, int) else event.id
    entry = AuditEntry(
        event_id=event_id, actor=actor, action=action, subject=subject, before=before, after=after
    )
    db.session.add(entry)
    return entry


def entries(event: Event, limit: int = 500) -> list[AuditEntry]:
    return list(
        db.session.scalars(
            db.select(AuditEntry)
            .where(AuditEntry.event_id == event.id)
            .order_by(AuditEntry.id.desc())
            .limit(limit)
        )
    )
