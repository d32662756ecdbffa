"""Joining an OpenQuiz game (OQ-1): a player joins their team (its first is the
captain), a new team or an existing one by its invitation, within the host's list of
teams (issue 31) and never past a ban (OQ-8). Services flush; the views commit.
"""

from __future__ import annotations

import base64
import hmac
import secrets
from typing import Any, NamedTuple

from flask import current_app
from sqlalchemy.exc import IntegrityError

from ...core import audit
from ...core.teams import hash_token, register_team
from ...core.text import clean_name, team_name_key
from ...errors import Conflict, DeskError, NameTaken, NotAllowed
from ...extensions import db
from ...keyed import keyed_hash
from ...models import Event, Team
from . import room
from .control import ensure_game_row, game_row, guard, touch
from .models import OqGame, OqPlayer
from .players import Banned, players, refuse_banned_device
from .timers import N_

MAX_PLAYER_NAME = 60


class GameFull(Conflict):
    """OQ-1: a 13th team, or a 4th player of a team."""

    code = "game_full"


class NotReserved(NotAllowed):
    """OQ-1, issue 31: the host lets in only the teams they listed."""

    code = "not_reserved"


class InvitationRequired(NotAllowed):
    """OQ-1: joining an existing team by its name needs that team's invitation."""

    code = "invitation_required"


def check_team_join(event: Event, name_key: str) -> None:
    """OQ-1 at most 12 teams, OQ-8 a banned team stays out, and where the host listed the
    teams to let in, only those (core's join asks)."""
    row = game_row(event)
    if row is not None and row.reserved and name_key not in {
            team_name_key(name) for name in row.reserved}:
        raise NotReserved("This game takes only the teams its host has listed: ask the "
                          "host to add yours.", field="team")
    count = db.session.scalar(db.select(db.func.count()).where(Team.event_id == event.id))
    refusal = room.team_join_refusal(count or 0, name_key, (row.banned or []) if row else [])
    if refusal:
        raise (Banned if refusal in room.BANNED else GameFull)(refusal, most=room.MAX_TEAMS)


def _player_name(name: Any) -> tuple[str, str]:
    clean = clean_name(name, max_length=MAX_PLAYER_NAME)
    if not clean:
        raise DeskError("The player's name is empty.", field="name")
    return clean, team_name_key(clean)


class _Joiner(NamedTuple):
    """A player who passed the checks every join makes first (the game takes joins,
    the name is a name, the phone is not a banned player's, nor is its address)."""

    row: OqGame | None
    name: str
    key: str
    address: str | None


def address_key(address: str | None) -> str | None:
    """A request's address as the game keeps it: a keyed hash (no address is stored)."""
    return keyed_hash(f"oq-address:{address}").hex() if address else None


def _joiner(event: Event, name: Any, previous: Any, now_ms: int,
            address: str | None) -> _Joiner:
    guard(event, now_ms, play=False)
    clean, key = _player_name(name)
    row = game_row(event)
    refuse_banned_device(row, previous)
    if row is not None and room.address_banned(row.banned or [], address):
        raise Banned(room.PLAYER_BANNED)
    return _Joiner(row, clean, key, address)


def join_player(event: Event, team: Team, name: Any, now_ms: int,
                previous: Any = None, address: str | None = None) -> tuple[OqPlayer, str]:
    """OQ-1: a player joins their team and gets a token of their own; the first is the
    captain. OQ-8: a banned name in this team, or a banned player's phone or address
    (``address``: address_key of the request's), is refused."""
    return _add_player(event, team, _joiner(event, name, previous, now_ms, address), now_ms)


def _add_player(event: Event, team: Team, joiner: _Joiner, now_ms: int
                ) -> tuple[OqPlayer, str]:
    row, clean, key, address = joiner
    # Two phones of a team joining at once: one after the other (the captain once).
    db.session.execute(db.select(Team.id).where(Team.id == team.id).with_for_update())
    rows = players(team)
    refusal = room.player_join_refusal(len(rows), key, team.name_key,
                                       (row.banned or []) if row else [])
    if refusal:
        raise (Banned if refusal in room.BANNED else GameFull)(refusal, most=room.MAX_PLAYERS)
    token = secrets.token_urlsafe(24)
    player = OqPlayer(team_id=team.id, name=clean, name_key=key, token_hash=hash_token(token),
                      captain=not rows, address=address)
    try:
        with db.session.begin_nested():
            db.session.add(player)
    except IntegrityError:
        raise NameTaken("A player called '%(name)s' is already in the team.", field="name",
                        name=clean) from None
    audit.record(event, f"team:{team.name}", "oq.player", clean,
                 after={"captain": player.captain})
    touch(event, now_ms)
    db.session.flush()
    return player, token


def invitation(team: Team) -> str:
    """OQ-1: the team's invitation, which lets a player join it by its name (the phone
    of any of its players shows it as a link and a QR code).

    **Decision**: derived, not stored: a keyed hash (the instance's SECRET_KEY) of the
    team's id and its token's hash. Every worker gives the same one, any player of the
    team can be shown it again, the database alone does not reveal it, and a team that
    is removed and joins again has a new one. It is neither the team token nor a
    player's token, so sharing it lets a teammate join and nothing more."""
    signed = keyed_hash(f"oq-invite:{team.event_id}:{team.id}:{team.token_hash}")
    return base64.urlsafe_b64encode(signed[:16]).rstrip(b"=").decode()


NO_INVITATION = N_("The team '%(name)s' exists already: ask its captain for the "
                   "invitation link.")


WRONG_INVITATION = N_("This invitation is not for the team '%(name)s': ask its captain for "
                      "the invitation link.")


def _check_invitation(team: Team, invite: Any) -> None:
    """OQ-1: a player joins an existing team with its invitation, or with the team
    token (the team's own share link, which already adds players); a player's own
    token is not an invitation. Compared in constant time."""
    if not isinstance(invite, str) or not invite.strip():
        raise InvitationRequired(NO_INVITATION, name=team.name, field="invite")
    given = invite.strip()
    if not (hmac.compare_digest(given.encode(), invitation(team).encode())
            or hmac.compare_digest(hash_token(given), team.token_hash)):
        raise InvitationRequired(WRONG_INVITATION, name=team.name, field="invite")


def join_room(event: Event, team_name: Any, player_name: Any, previous: Any,
              now_ms: int, invite: Any = None, address: str | None = None
              ) -> tuple[Team, OqPlayer, str]:
    """OQ-1 on the phone: a player gives their team's name and their own; a new team is
    made with them as its first player (its captain); an existing one of fewer than 3
    takes them in with its invitation (``invite``). The player is checked before the
    team is made, so a refused player leaves no team behind."""
    joiner = _joiner(event, player_name, previous, now_ms, address)
    team_key = team_name_key(clean_name(
        team_name, max_length=current_app.config["MAX_TEAM_NAME_LENGTH"]) or "")
    team = next((t for t in event.teams if team_key and t.name_key == team_key), None)
    if team is not None:
        _check_invitation(team, invite)
    else:
        banned = (joiner.row.banned or []) if joiner.row else []
        if room.is_banned(banned, room.Kind.PLAYER, joiner.key, team_key):
            raise Banned(room.PLAYER_BANNED)
        team, _ = register_team(event, team_name, room.MAX_PLAYERS)
    player, token = _add_player(event, team, joiner, now_ms)
    return team, player, token


MAX_RESERVED = 12  # OQ-1: no more teams than a game takes


def set_reserved(event: Event, names: Any, actor: str = "host") -> list[str]:
    """OQ-1, issue 31: the host lists the teams a game lets in, one name a line (empty:
    any team); teams already in stay. A name is cleaned as a team's is."""
    if not isinstance(names, str):
        raise DeskError("List the teams one name a line.")
    limit = current_app.config["MAX_TEAM_NAME_LENGTH"]
    cleaned = [clean_name(line, max_length=limit) for line in names.splitlines()]
    kept: dict[str, str] = {}
    for name in cleaned:  # each team once, as a team name is matched; its first spelling
        if name:
            kept.setdefault(team_name_key(name), name)
    listed = list(kept.values())
    if len(listed) > MAX_RESERVED:
        raise DeskError("At most %(most)s teams can be listed.", most=MAX_RESERVED)
    row = ensure_game_row(event)
    row.reserved = listed
    audit.record(event, actor, "oq.reserve", event.code, after={"teams": listed})
    db.session.flush()
    return listed


def add_reserved(event: Event, name: Any, actor: str = "host") -> list[str]:
    """OQ-1, issue 31: the host lets one more team in, by its name (the room page's
    field, one team at a time)."""
    if not isinstance(name, str) or not name.strip():
        raise DeskError("The team's name is empty.", field="team")
    return set_reserved(event, "\n".join([*reserved(event), name]), actor)


def remove_reserved(event: Event, name: Any, actor: str = "host") -> list[str]:
    """OQ-1: the host takes one team off the list (a team already in stays)."""
    if not isinstance(name, str):
        raise DeskError("The team's name is empty.", field="team")
    key = team_name_key(name)
    return set_reserved(event, "\n".join(
        n for n in reserved(event) if team_name_key(n) != key), actor)


def reserved(event: Event) -> list[str]:
    """The team names the host lets in (none: any team)."""
    row = game_row(event)
    return list(row.reserved or []) if row else []
