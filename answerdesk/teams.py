"""Teams joining an event and proving who they are with their secret token."""

from __future__ import annotations

import hashlib
import secrets

from flask import current_app
from sqlalchemy.exc import IntegrityError

from . import audit
from .errors import DeskError, NameTaken, Unauthorized
from .extensions import db
from .models import Event, Team
from .text import clean_text, team_name_key

MAX_PLAYERS = 100


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def register_team(event: Event, name: object, players: object = 1) -> tuple[Team, str]:
    """Join an event (BG-G1 unique names, BG-G2 players counted); return the team and
    its token, which is shown once and stored only as a hash."""
    clean = clean_text(name, max_length=current_app.config["MAX_TEAM_NAME_LENGTH"], field="name")
    if not clean:
        raise DeskError("Team name is empty", field="name")
    try:
        count = int(players)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise DeskError("players must be a whole number", field="players") from None
    if not 1 <= count <= MAX_PLAYERS:
        raise DeskError(f"players must be between 1 and {MAX_PLAYERS}", field="players")
    key = team_name_key(clean)
    taken = db.session.scalar(
        db.select(Team.name).where(Team.event_id == event.id, Team.name_key == key)
    )
    if taken is not None:
        raise NameTaken(
            f"The name {clean!r} is already taken (by {taken!r}); please pick another.",
            field="name",
        )
    token = secrets.token_urlsafe(24)
    team = Team(event=event, name=clean, name_key=key, players=count, token_hash=hash_token(token))
    db.session.add(team)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise NameTaken(
            f"The name {clean!r} is already taken; please pick another.", field="name"
        ) from None
    audit.record(event, f"team:{clean}", "team.join", clean, after={"players": count})
    db.session.commit()
    return team, token


def team_by_token(event: Event, token: str | None) -> Team:
    """The team a token belongs to, only within this event."""
    if not token:
        raise Unauthorized("A team token is required")
    team = db.session.scalar(
        db.select(Team).where(Team.token_hash == hash_token(token), Team.event_id == event.id)
    )
    if team is None:
        raise Unauthorized("This team token is not valid for this event")
    return team
