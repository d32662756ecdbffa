"""Manual score corrections: the host adds or takes points from a team, with a reason.

A correction counts in the standings (and is listed in the team's details)
until the host undoes it; both steps are in the audit log.
"""

from __future__ import annotations

from ..errors import DeskError, NotFound
from ..extensions import db
from ..models import AuditEntry, Event, ScoreCorrection, Team, utcnow
from . import audit
from .text import clean_text

MAX_POINTS = 1000


def add_correction(
    event: Event, team_id: int, points: object, reason: object, actor: str = "host"
) -> ScoreCorrection:
    """Add ``points`` (may be negative) to a team's total; a reason is required."""
    try:
        value = int(str(points).strip())
    except ValueError:
        raise DeskError("points must be a whole number", field="points") from None
    if value == 0 or abs(value) > MAX_POINTS:
        raise DeskError("points must be between -%(max)s and %(max)s, not 0",
                        field="points", max=MAX_POINTS)
    why = clean_text(reason, max_length=300, field="reason")
    if not why:
        raise DeskError("A correction needs a reason", field="reason")
    team = db.session.scalar(
        db.select(Team).where(Team.id == team_id, Team.event_id == event.id)
    )
    if team is None:
        raise NotFound("No such team in this event")
    correction = ScoreCorrection(event_id=event.id, team_id=team.id, points=value, reason=why,
                                 actor=actor)
    db.session.add(correction)
    db.session.flush()
    audit.record(event, actor, "score.correct", team.name,
                 after={"correction": correction.id, "points": value, "reason": why})
    db.session.flush()
    return correction


def undo_correction(event: Event, entry: AuditEntry, actor: str) -> None:
    """Stop counting the correction an audit entry recorded (the caller commits)."""
    correction = db.session.scalar(
        db.select(ScoreCorrection)
        .where(ScoreCorrection.id == (entry.after or {})["correction"],
               ScoreCorrection.event_id == event.id)
        .with_for_update()
    )
    if correction is None:
        raise NotFound("That correction no longer exists")
    correction.undone_at = utcnow()
    correction.undone_by = actor
    audit.record(event, actor, "score.undo", entry.subject, before=entry.after,
                 after=None, undoes=entry)


def event_corrections(event: Event, *, active_only: bool = True) -> list[ScoreCorrection]:
    query = db.select(ScoreCorrection).where(ScoreCorrection.event_id == event.id)
    if active_only:
        query = query.where(ScoreCorrection.undone_at.is_(None))
    return list(db.session.scalars(query.order_by(ScoreCorrection.id)))
