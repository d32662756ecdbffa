"""The host's kicks and bans in an OpenQuiz game (OQ-8): a team or a player out now,
or out and refused when they try to join again; a ban lifted.
"""

from __future__ import annotations

from typing import Any

from ...core import audit
from ...errors import DeskError, NotFound
from ...extensions import db
from ...models import Event
from . import room
from .control import ensure_game_row, game_row, guard
from .players import plain_players, player_of, players, store_captains


def remove(event: Event, kind: Any, team_name: Any, player_name: Any, ban: Any,
           now_ms: int, actor: str = "host") -> dict[str, Any]:
    """OQ-8: the host kicks a team or a player (out now, may join again) or bans them
    (out, and refused when they try to join again)."""
    if not isinstance(ban, bool):
        raise DeskError("ban must be true or false.")
    try:
        kind = room.Kind(kind)
    except ValueError:
        raise DeskError("kind must be team or player.") from None
    team, player = player_of(event, team_name, player_name if kind == room.Kind.PLAYER
                              else None)
    if kind == room.Kind.PLAYER and player is None:
        raise DeskError("Name the player to remove.")
    guard(event, now_ms, play=False)
    row = ensure_game_row(event)
    if kind == room.Kind.TEAM:
        entry, subject = room.ban_entry(kind, team.name_key), team.name
        addresses = [p.address for p in players(team)]
        db.session.delete(team)
    else:
        assert player is not None
        entry = room.ban_entry(kind, player.name_key, team.name_key, player.token_hash)
        addresses = [player.address]
        rows = players(team)
        store_captains(rows, room.without(plain_players(rows), player.id))
        db.session.delete(player)
        subject = f"{team.name}: {player.name}"
    if ban:  # issue 31: the addresses they joined from stay out too
        entry = room.with_addresses(entry, addresses)
        row.banned = [*(row.banned or []), entry]
    audit.record(event, actor, "oq.ban" if ban else "oq.kick", subject, after=entry)
    db.session.flush()
    db.session.expire(event, ["teams"])
    return {"kind": str(kind), "removed": subject, "banned": ban}


def unban(event: Event, index: Any, actor: str = "host") -> dict[str, Any]:
    """OQ-8: the host lifts a ban (by its place in the list the room page shows): the
    team or player may join again."""
    row = ensure_game_row(event)
    banned = list(row.banned or [])
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(banned):
        raise NotFound("No such ban.")
    entry = banned.pop(index)
    row.banned = banned
    audit.record(event, actor, "oq.unban", str(entry.get("key", "")), before=entry)
    db.session.flush()
    return entry


def banned_list(event: Event) -> list[dict[str, Any]]:
    """OQ-8: whom the host banned, for the room page (a read)."""
    row = game_row(event)
    return list(row.banned or []) if row is not None else []
