"""OpenQuiz's players over the database (OQ-1): which player a token is (every act is
a player's own), the team's players and its captain, the captaincy handed on; a
banned player's phone stays out (OQ-8). Services flush; the views commit.
"""

from __future__ import annotations

from typing import Any

from ...core import audit
from ...core.events import event_by_code
from ...core.teams import event_and_team_by_token, hash_token
from ...errors import NotAllowed, NotFound, Unauthorized
from ...extensions import db
from ...models import Event, Team
from ..buzzer import presses
from . import game, room
from .control import game_row, guard, touch
from .models import OqGame, OqPlayer


class Banned(NotAllowed):
    """OQ-8: the host banned this team or player from the game."""

    code = "banned"


class NotCaptain(NotAllowed):
    """OQ-1: a captain's action asked by another player of the team."""

    code = "not_captain"


class PlayerRequired(NotAllowed):
    """OQ-1: play is a player's, with their own token; the team token alone adds players."""

    code = "player_required"


def players(team: Team) -> list[OqPlayer]:
    return list(db.session.scalars(db.select(OqPlayer).where(OqPlayer.team_id == team.id)
                                   .order_by(OqPlayer.id)))


def plain_players(rows: list[OqPlayer]) -> list[room.Player]:
    return [room.Player(p.id, p.name, p.captain) for p in rows]


def store_captains(rows: list[OqPlayer], plain: list[room.Player]) -> None:
    flags = {p.id: p.captain for p in plain}
    for row in rows:
        if row.id in flags:
            row.captain = flags[row.id]


def refuse_banned_device(row: OqGame | None, previous: Any) -> None:
    """OQ-8: a phone that held a banned player's token stays out, under any name and in
    any team (the phone page sends the token it held as ``previous``)."""
    if isinstance(previous, str) and previous and row is not None and room.token_banned(
            row.banned or [], hash_token(previous)):
        raise Banned(room.PLAYER_BANNED)


def who(code: str, token: str | None) -> tuple[Event, Team, OqPlayer | None]:
    """The event, team and player of a request's token: a player's own token, or the
    team token (no player). A banned player's token is refused as banned (403), a
    kicked one's as unknown (401)."""
    if token:
        found = db.session.execute(
            db.select(Event, Team, OqPlayer).join(Team, Team.event_id == Event.id)
            .join(OqPlayer, OqPlayer.team_id == Team.id)
            .where(Event.code == code.strip().upper(),
                   OqPlayer.token_hash == hash_token(token))).first()
        if found is not None:
            return found[0], found[1], found[2]
    try:
        event, team = event_and_team_by_token(code, token)
    except Unauthorized:
        refuse_banned_device(game_row(event_by_code(code)), token)
        raise
    return event, team, None


def acting(code: str, token: str | None) -> tuple[Event, Team, OqPlayer]:
    """OQ-1: the player whose own token came with a press, pick, choice, bid, bet or
    answer; the team token alone is refused (it only adds players to its team)."""
    event, team, player = who(code, token)
    if player is None:
        raise PlayerRequired("Join your team as a player first: in OpenQuiz each player "
                             "plays with their own phone.")
    return event, team, player


def require_captain(team: Team, player: OqPlayer | None) -> None:
    """OQ-1: refuse a captain's action to anyone but the captain, changing nothing."""
    plain = plain_players(players(team))
    refusal = room.captain_refusal(player.id if player else None, plain)
    if refusal:
        captain = room.captain_of(plain)
        raise NotCaptain(refusal, captain=captain.name if captain else "")


def player_of(event: Event, team_name: Any, player_name: Any) -> tuple[Team, OqPlayer | None]:
    team = game.team_named(event, team_name)
    if player_name is None:
        return team, None
    player = next((p for p in players(team) if p.name == player_name), None)
    if player is None:
        raise NotFound("No player called '%(name)s' in the team.", name=str(player_name)[:60])
    return team, player


def transfer(event: Event, team: Team, actor: OqPlayer | None, target_name: Any,
             now_ms: int, by_host: bool = False) -> OqPlayer:
    """OQ-1: the captain (or the host) hands the captaincy to another player of the team."""
    guard(event, now_ms, play=False)
    rows = players(team)
    target = next((p for p in rows if isinstance(target_name, str) and p.name == target_name),
                  None)
    plain = plain_players(rows)
    refusal = room.transfer_refusal(actor.id if actor else None, plain,
                                    target.id if target else None, by_host)
    if refusal:
        captain = room.captain_of(plain)
        cls = NotFound if target is None else NotCaptain
        raise cls(refusal, captain=captain.name if captain else "")
    assert target is not None
    store_captains(rows, room.transferred(plain, target.id))
    audit.record(event, "host" if by_host else f"team:{team.name}", "oq.captain",
                 f"{team.name}: {target.name}")
    touch(event, now_ms)
    db.session.flush()
    return target


def host_transfer(event: Event, team_name: Any, player_name: Any, now_ms: int) -> OqPlayer:
    """OQ-1: the host hands a team's captaincy to another of its players."""
    team, _ = player_of(event, team_name, None)
    return transfer(event, team, None, player_name, now_ms, by_host=True)


def me(team: Team, player: OqPlayer | None) -> dict[str, Any]:
    """OQ-1, for the phone: its player (None for the team token), the team's players in
    joining order and its captain (a read)."""
    plain = plain_players(players(team))
    captain = room.captain_of(plain)
    return {"team": team.name, "player": player.name if player else None,
            "players": [p.name for p in plain],
            "captain": captain.name if captain else None}


def buzzer_phone(event: Event, token: str | None, press: bool) -> presses.Phone | None:
    """OQ-1 at the buzzer: a press is a player's (their own token); a sync exchange
    feeds the server's estimate of that player's phone (OQ-4: per phone, so a press
    is converted with the pressing phone's own clock, not a teammate's), and is
    anonymous with the team token alone or no token. A banned player's token is
    refused everywhere (OQ-8)."""
    if not token and not press:
        return None
    if press:
        _, team, player = acting(event.code, token)
        return presses.Phone(team, f"oq_player:{player.id}", player.name)
    _, team, known = who(event.code, token)
    if known is None:
        return None
    return presses.Phone(team, f"oq_player:{known.id}", known.name)


def room_state(event: Event) -> list[dict[str, Any]]:
    """OQ-1: each team's players and captain, in joining order (a read)."""
    rows = db.session.execute(db.select(OqPlayer.team_id, OqPlayer.name, OqPlayer.captain)
                              .join(Team, Team.id == OqPlayer.team_id)
                              .where(Team.event_id == event.id).order_by(OqPlayer.id)).all()
    out = []
    for team in event.teams:
        mine = [room.Player(0, name, captain) for team_id, name, captain in rows
                if team_id == team.id]
        captain = room.captain_of(mine)
        out.append({"team": team.name, "players": [p.name for p in mine],
                    "captain": captain.name if captain else None})
    return out
