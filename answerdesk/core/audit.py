"""The audit log: who changed what, when, from what to what.

Every service that changes the night writes its entry inside the same
transaction as the change, so the log can never disagree with the data. The
log is never edited: undoing a host correction writes a new entry that points
at the one it undoes.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..extensions import db
from ..models import AuditEntry, Event
from .text import spreadsheet_text

CSV_COLUMNS = ("id", "at", "actor", "action", "subject", "before", "after", "undoes")


def record(
    event: Event | int,
    actor: str,
    action: str,
    subject: str = "",
    before: Any = None,
    after: Any = None,
    undoes: AuditEntry | None = None,
) -> AuditEntry:
    """Add an audit entry to the current transaction (the caller commits)."""
    event_id = event if isinstance(event, int) else event.id
    entry = AuditEntry(
        event_id=event_id, actor=actor, action=action, subject=subject, before=before,
        after=after, undoes_id=undoes.id if undoes is not None else None,
    )
    db.session.add(entry)
    return entry


def entries(event: Event, limit: int = 500, action: str = "") -> list[AuditEntry]:
    """The newest entries first; ``action`` keeps those whose action starts with it."""
    query = db.select(AuditEntry).where(AuditEntry.event_id == event.id)
    if action:
        query = query.where(AuditEntry.action.startswith(action, autoescape=True))
    return list(db.session.scalars(query.order_by(AuditEntry.id.desc()).limit(limit)))


def undone_ids(event: Event) -> set[int]:
    """Entries that a later entry has undone."""
    return set(db.session.scalars(
        db.select(AuditEntry.undoes_id).where(
            AuditEntry.event_id == event.id, AuditEntry.undoes_id.is_not(None)
        )
    ))


def to_csv(event: Event) -> str:
    """The event's whole log, oldest first, JSON in the before/after columns."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    rows = db.session.scalars(
        db.select(AuditEntry).where(AuditEntry.event_id == event.id).order_by(AuditEntry.id)
    )
    for e in rows:
        writer.writerow([
            e.id, e.at.isoformat(timespec="seconds"), spreadsheet_text(e.actor), e.action,
            spreadsheet_text(e.subject),
            "" if e.before is None else json.dumps(e.before, ensure_ascii=False),
            "" if e.after is None else json.dumps(e.after, ensure_ascii=False),
            e.undoes_id or "",
        ])
    return out.getvalue()
