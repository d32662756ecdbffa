"""Teams joining an event and proving who they are with their secret token."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Annotated

from flask import current_app
from msgspec import Meta
from sqlalchemy.exc import IntegrityError

from ..bodies import Body
from ..database.postgres_locks import round_queue
from ..errors import Conflict, DeskError, NameTaken, NotFound, Unauthorized
from ..extensions import db
from ..lean import RawExecutor
from ..models import Event, Team
from . import audit
from .events import event_by_code
from .formats import REGISTRY
from .labels import N_
from .limits import MAX_PLAYERS, check_join
from .text import clean_name, team_name_key


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class JoinRequest(Body):
    """POST /api/events/{code}/teams: a team joins (BG-G1 unique names, BG-G2 players)."""

    name: Annotated[str, Meta(description="At most MAX_TEAM_NAME_LENGTH characters (60 "
                                          "unless the instance sets another)")]
    players: Annotated[int, Meta(description=f"1 to {MAX_PLAYERS}; a format may ask fewer")] = 1


def register_team(event: Event, name: object, players: object = 1) -> tuple[Team, str]:
    """Join an event (BG-G1 unique names, BG-G2 players counted, BG-G2b the event's own
    limits, BG-M5 its invitation list); return the team and
    its token, which is shown once and stored only as a hash."""
    clean = clean_name(name, max_length=current_app.config["MAX_TEAM_NAME_LENGTH"])
    if not clean:
        raise DeskError("Team name is empty", field="name")
    try:
        count = int(players)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise DeskError("players must be a whole number", field="players") from None
    if not 1 <= count <= MAX_PLAYERS:
        raise DeskError("players must be between 1 and %(most)s", field="players",
                        most=MAX_PLAYERS)
    fmt = REGISTRY.get(event.format)
    if fmt is not None and fmt.team_size and not fmt.team_size[0] <= count <= fmt.team_size[1]:
        raise DeskError("A team of this game has %(least)s to %(most)s players.",
                        field="players", least=fmt.team_size[0], most=fmt.team_size[1])
    most = current_app.config["MAX_TEAMS_PER_EVENT"]
    if db.session.scalar(db.select(db.func.count()).where(Team.event_id == event.id)) >= most:
        raise Conflict("This event is full: at most %(most)s teams.", most=most)
    key = team_name_key(clean)
    check_join(event, clean, count)
    if fmt is not None:
        fmt.before_join(event, key)
    taken = db.session.scalar(
        db.select(Team.name).where(Team.event_id == event.id, Team.name_key == key)
    )
    if taken is not None:
        raise NameTaken(
            "The name '%(name)s' is already taken (by '%(taken)s'); please pick another.",
            field="name", name=clean, taken=taken,
        )
    token = secrets.token_urlsafe(24)
    team = Team(event=event, name=clean, name_key=key, players=count, token_hash=hash_token(token))
    db.session.add(team)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise NameTaken(
            "The name '%(name)s' is already taken; please pick another.", field="name",
            name=clean,
        ) from None
    audit.record(event, f"team:{clean}", "team.join", clean, after={"players": count})
    db.session.flush()
    return team, token


NO_TEAM = N_("No team called '%(name)s'.")


def team_named(event: Event, name: object, missing: str = NO_TEAM,
               refusal: type[DeskError] = NotFound) -> Team:
    """A team of the event by its exact name, as the host's and phones' requests send
    it; else ``refusal`` with ``missing`` (an English msgid with %(name)s: a format
    names its own teams, Своя игра's are players)."""
    team = next((t for t in event.teams if isinstance(name, str) and t.name == name), None)
    if team is None:
        raise refusal(missing, name=str(name)[:60])
    return team


@dataclass(frozen=True)
class TeamRef:
    """What an answer save needs to know about the team (answers.save_answer)."""

    id: int
    event_id: int
    name: str
    format: str  # the event's format (core.formats): what the save asks it
    queued_for: int | None = None  # the round whose queue lock the lookup took


_team, _event = Team.__table__, Event.__table__
_BY_CODE_AND_TOKEN = (
    db.select(_team.c.id, _team.c.event_id, _team.c.name, _event.c.format)
    .join_from(_team, _event, _team.c.event_id == _event.c.id)
    .where(_event.c.code == db.bindparam("code"), _team.c.token_hash == db.bindparam("token"))
)
# The same lookup taking the round's queue lock (postgres_locks.queue_for_round) as it finds
# the team: one round trip less for every save on PostgreSQL.
_BY_CODE_AND_TOKEN_QUEUED = _BY_CODE_AND_TOKEN.add_columns(
    round_queue(_team.c.event_id, db.bindparam("round", type_=db.Integer), exclusive=False)
)


def refused(code: str, token: str | None) -> Unauthorized:
    """Why ``token`` found no team in ``code``: no such event (404, before any word about
    tokens), no token, or a token that is not this event's."""
    event_by_code(code)
    if not token:
        return Unauthorized("A team token is required")
    return Unauthorized("This team token is not valid for this event")


def team_ref(ex: RawExecutor, code: str, token_hash: str | None, *,
             queue_for: int | None = None) -> TeamRef | None:
    """The team whose token hashes to ``token_hash`` (hash_token) in the event ``code``,
    in one query (the save's hot path), or None (then ``refused`` says why).

    ``queue_for``: a round number whose queue lock the same statement takes, shared,
    for a save that follows in this transaction (PostgreSQL; elsewhere no lock exists).
    """
    if not token_hash:
        return None
    queued = queue_for is not None and ex.dialect.name == "postgresql"
    params = {"code": code.strip().upper(), "token": token_hash}
    if queued:
        row = ex.first(_BY_CODE_AND_TOKEN_QUEUED, {**params, "round": queue_for})
    else:
        row = ex.first(_BY_CODE_AND_TOKEN, params)
    if row is None:
        return None
    return TeamRef(row.id, row.event_id, row.name, row.format, queue_for if queued else None)


# Built once (issue 33): every phone's sheet read and /play poll asks for it.
_EVENT_AND_TEAM = (
    db.select(Event, Team).join(Team, Team.event_id == Event.id)
    .where(Event.code == db.bindparam("code"), Team.token_hash == db.bindparam("token_hash"))
)


def event_and_team_by_token(code: str, token: str | None) -> tuple[Event, Team]:
    """The event ``code`` and the team of ``token`` in it, in one query."""
    if token:
        row = db.session.execute(
            _EVENT_AND_TEAM, {"code": code.strip().upper(), "token_hash": hash_token(token)}
        ).first()
        if row is not None:
            return row[0], row[1]
    raise refused(code, token)
