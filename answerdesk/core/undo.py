"""Undoing a host correction (verdict decisions, score corrections): a new audit entry
that points at the one it undoes. Kept apart from the audit log (core/audit.py): every
service writes the log, so the log imports none of them."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import Conflict, DeskError, NotFound
from ..extensions import db
from ..models import AuditEntry, Event
from . import audit, corrections, review

#: Each undoable action and the service that takes it back.
UNDOERS: dict[str, Callable[[Event, AuditEntry, str], None]] = {
    "verdict.decide": review.undo_decision,
    "score.correct": corrections.undo_correction,
}


def undoable(entry: AuditEntry) -> bool:
    """Host corrections (verdict decisions, score corrections) can be undone."""
    return entry.action in UNDOERS


def undo(event: Event, entry_id: int, actor: str) -> AuditEntry:
    """Undo one host correction, recorded as a new entry; each entry is undone at most once."""
    entry = db.session.scalar(
        db.select(AuditEntry)
        .where(AuditEntry.id == entry_id, AuditEntry.event_id == event.id)
        .with_for_update()
    )
    if entry is None:
        db.session.rollback()
        raise NotFound("No audit entry %(entry)s in this event", entry=entry_id)
    if not undoable(entry):
        db.session.rollback()
        raise DeskError("%(action)s cannot be undone", action=entry.action)
    if entry.id in audit.undone_ids(event):
        db.session.rollback()
        raise Conflict("This change has already been undone")
    try:
        UNDOERS[entry.action](event, entry, actor)
    except DeskError:
        db.session.rollback()
        raise
    db.session.flush()
    return entry
