"""Checking a receipt a team shows in a dispute (BG-E2: was it saved before the lock?).

Every acknowledged save returns a short code derived (HMAC, answer_write.receipt_code)
from team, question, text and server time. The host types team, question and
code; the code is valid if the server issued it for the team's current answer
or for any earlier edit in the audit log, which keeps each save's text and time.
"""

from __future__ import annotations

import datetime as dt
import hmac
import re
from typing import Any

from ..errors import NotFound
from ..extensions import db
from ..models import PHONE_SAVE, Answer, AuditEntry, Event, Team
from . import rounds
from .answer_write import receipt_code
from .replies import Moment, Reply
from .text import team_name_key

_NOT_CODE = re.compile(r"[^0-9A-F]")


class ReceiptCheck(Reply):
    """Whether a receipt a team shows was issued by this server for its save (BG-E2):
    the host's check and its reply model (GET /api/host/events/{code}/receipts/...)."""

    valid: bool
    team: str
    round: int
    question: int
    text: str | None = None
    saved_at: Moment | None = None
    current: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "team": self.team,
            "round": self.round,
            "question": self.question,
            "text": self.text,
            "saved_at": self.saved_at.isoformat(timespec="milliseconds") + "Z"
            if self.saved_at else None,
            "current": self.current,
        }


def find_team(event: Event, name: str) -> Team:
    """The team by name as the host types it (BG-G1 folding: case, look-alike letters)."""
    team = db.session.scalar(
        db.select(Team).where(Team.event_id == event.id, Team.name_key == team_name_key(name))
    )
    if team is None:
        raise NotFound("No team named '%(team)s' in this event", team=name)
    return team


def verify_receipt(
    event: Event, team_name: str, round_number: int, question_number: int, code: str
) -> ReceiptCheck:
    """Valid if this server issued ``code`` for one of the team's saves of that question."""
    team = find_team(event, team_name)
    _, question = rounds.question_of(event, round_number, question_number)
    wanted = _NOT_CODE.sub("", (code or "").upper())
    refusal = ReceiptCheck(valid=False, team=team.name, round=round_number,
                           question=question_number)
    if len(wanted) != 8:
        return refusal
    answer = db.session.scalar(
        db.select(Answer).where(Answer.team_id == team.id, Answer.question_id == question.id)
    )
    candidates: list[tuple[str, dt.datetime]] = []
    if answer is not None:
        candidates.append((answer.text, answer.updated_at))
    entries = db.session.scalars(
        db.select(AuditEntry).where(
            AuditEntry.event_id == event.id,
            AuditEntry.action == PHONE_SAVE,
            AuditEntry.subject == f"R{round_number}Q{question_number} {team.name}",
        ).order_by(AuditEntry.id.desc())
    )
    for entry in entries:
        after = entry.after or {}
        if isinstance(after, dict) and after.get("saved_at"):
            candidates.append((after.get("text", ""), dt.datetime.fromisoformat(after["saved_at"])))
    for text, saved_at in candidates:
        if hmac.compare_digest(receipt_code(team.id, question.id, text, saved_at), wanted):
            current = answer is not None and (text, saved_at) == (answer.text, answer.updated_at)
            return ReceiptCheck(valid=True, team=team.name, round=round_number,
                                question=question_number, text=text, saved_at=saved_at,
                                current=current)
    return refusal
