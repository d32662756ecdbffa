"""OpenQuiz's room, pure (RULES.md OQ-1, OQ-8): how many teams and players, who is
captain, who was banned. No Flask, no database: plain data in, a refusal's English
msgid (or None) or the new state out.

A team joins with the team token (its creator); each of its players then joins
with a name and gets a token of their own. The first player of a team is its
captain (OQ-1: the creator, whose phone joins first). Every press, pick, choice,
bid, bet and answer is a player's, made with their own token: a ban holds that
token (the person), not only the name.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MAX_TEAMS = 12  # OQ-1: up to 12 teams
MAX_PLAYERS = 3  # OQ-1: of 3 players


def N_(msgid: str) -> str:
    """Mark a msgid for the catalogues; the caller translates it when it is shown."""
    return msgid


class Kind(enum.StrEnum):
    """OQ-8: what the host kicks or bans: a whole team or one of its players."""

    TEAM = "team"
    PLAYER = "player"


@dataclass(frozen=True)
class Player:
    """A player of a team, in the order they joined."""

    id: int
    name: str
    captain: bool = False


TEAM_BANNED = N_("The host has banned this team from the game.")
PLAYER_BANNED = N_("The host has banned this player from the game.")
BANNED = (TEAM_BANNED, PLAYER_BANNED)


def is_banned(banned: Sequence[Mapping[str, Any]], kind: Kind, key: str,
              team_key: str | None = None) -> bool:
    """OQ-8: whether the host banned this team (its name key) or this player (their
    name key in the team of ``team_key``)."""
    return any(b.get("kind") == kind and b.get("key") == key
               and (kind == Kind.TEAM or b.get("team") == team_key) for b in banned)


def token_banned(banned: Sequence[Mapping[str, Any]], token_hash: str | None) -> bool:
    """OQ-8: whether this token (its hash) was a player's the host banned: the person,
    whatever name they give next."""
    return token_hash is not None and any(
        b.get("kind") == Kind.PLAYER and b.get("token") == token_hash for b in banned)


def address_banned(banned: Sequence[Mapping[str, Any]], address: str | None) -> bool:
    """OQ-8, issue 31: whether a banned team or player joined from this address (its
    keyed hash): the phone stays out under any name, in any team."""
    return address is not None and any(address in (b.get("addresses") or ()) for b in banned)


def with_addresses(entry: dict[str, Any], addresses: Sequence[str | None]) -> dict[str, Any]:
    """A ban that also keeps out the addresses the banned joined from (each once); the
    host's unban lifts them with it."""
    return {**entry, "addresses": [a for a in dict.fromkeys(addresses) if a]}


def ban_entry(kind: Kind, key: str, team_key: str | None = None,
              token_hash: str | None = None) -> dict[str, Any]:
    """The record of a ban, kept with the game (JSON): a player's holds their token's
    hash as well as their name."""
    if kind == Kind.TEAM:
        return {"kind": str(kind), "key": key}
    return {"kind": str(kind), "key": key, "team": team_key, "token": token_hash}


def team_join_refusal(teams: int, key: str, banned: Sequence[Mapping[str, Any]]) -> str | None:
    """OQ-1/OQ-8: a team may join while fewer than 12 play, unless it was banned."""
    if is_banned(banned, Kind.TEAM, key):
        return TEAM_BANNED
    if teams >= MAX_TEAMS:
        return N_("This game is full: at most %(most)s teams.")
    return None


def player_join_refusal(players: int, key: str, team_key: str,
                        banned: Sequence[Mapping[str, Any]]) -> str | None:
    """OQ-1/OQ-8: a player joins a team of fewer than 3, unless banned from it."""
    if is_banned(banned, Kind.PLAYER, key, team_key):
        return PLAYER_BANNED
    if players >= MAX_PLAYERS:
        return N_("This team is full: at most %(most)s players.")
    return None


def captain_of(players: Sequence[Player]) -> Player | None:
    """OQ-1: the team's captain: the one handed the role, else the first to join."""
    return next((p for p in players if p.captain), players[0] if players else None)


def captain_refusal(actor: int | None, players: Sequence[Player]) -> str | None:
    """OQ-1: only the captain picks, chooses, bids, bets and bans; ``actor`` is the
    player asking (None: no player, the team token alone)."""
    captain = captain_of(players)
    if captain is not None and actor == captain.id:
        return None
    return N_("Only the captain (%(captain)s) can do that for the team.")


def transfer_refusal(actor: int | None, players: Sequence[Player], target: int | None,
                     by_host: bool = False) -> str | None:
    """OQ-1: the host or the captain hands the captaincy to another player of the team."""
    if target is None or all(p.id != target for p in players):
        return N_("No such player in this team.")
    if by_host:
        return None
    return captain_refusal(actor, players) if actor is not None else N_(
        "Only the captain (%(captain)s) can do that for the team.")


def transferred(players: Sequence[Player], target: int) -> list[Player]:
    """The players with ``target`` the only captain."""
    return [Player(p.id, p.name, p.id == target) for p in players]


def without(players: Sequence[Player], removed: int) -> list[Player]:
    """The players once one is kicked: a kicked captain's role passes to the next
    player in joining order (OQ-1: every team has a captain)."""
    left = [p for p in players if p.id != removed]
    captain = captain_of(players)
    keep = captain.id if captain is not None and captain.id != removed else (
        left[0].id if left else None)
    return [Player(p.id, p.name, p.id == keep) for p in left]
