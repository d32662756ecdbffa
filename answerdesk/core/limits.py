"""An event's own limits (RULES.md BG-G2b) and invitation list (BG-M5).

BG-G2b: an event may announce at most so many players per team, and starting
points for named teams (a handicap, negative, or a head start); both are event
settings the host sets, and a join over the limit is refused. BG-M5: the yearly
champions' quiz is by invitation; only the teams on its list may join. Names
match as team names do (BG-G1 folding: case, spaces, look-alike letters).
"""

from __future__ import annotations

from typing import Any

from ..errors import DeskError
from ..extensions import db
from ..models import Event, Team
from . import audit
from .text import clean_text, team_name_key

MAX_PLAYERS = 100
MAX_HANDICAP = 1000
MAX_NAME = 120


class NotInvited(DeskError):
    status = 403
    code = "not_invited"


def check_join(event: Event, name: str, players: int) -> None:
    """Refuse a join the event's own rules do not allow (BG-G2b, BG-M5)."""
    if event.max_players is not None and players > event.max_players:
        raise DeskError("This event allows at most %(most)s players per team", field="players",
                        most=event.max_players)
    if event.invited is not None and team_name_key(name) not in {
            team_name_key(n) for n in event.invited}:
        raise NotInvited("This event is by invitation only and '%(name)s' is not on the list",
                         field="name", name=name)


def team_handicaps(event: Event) -> dict[int, int]:
    """BG-G2b: the event's starting points of its teams, by team id."""
    if not event.handicaps:
        return {}
    points = {team_name_key(h["name"]): h["points"] for h in event.handicaps}
    teams = db.session.execute(
        db.select(Team.id, Team.name_key).where(Team.event_id == event.id)).all()
    return {team_id: points[key] for team_id, key in teams if key in points}


def parse_max_players(value: object) -> int | None:
    text = str(value if value is not None else "").strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= MAX_PLAYERS:
        raise DeskError("The players limit must be a whole number from 1 to %(most)s",
                        field="max_players", most=MAX_PLAYERS)
    return int(text)


def parse_handicaps(text: str) -> list[dict[str, Any]]:
    """Lines "Team name: points" (e.g. "Сови: -2"); each team once."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        name, sep, points = line.rpartition(":")
        name = clean_text(name, max_length=MAX_NAME, field="name")
        try:
            value = int(points.strip().replace("−", "-"))
        except ValueError:
            value = None
        if not sep or not name or value is None or abs(value) > MAX_HANDICAP:
            raise DeskError("Line %(line)s: write the team, a colon and the points "
                            "(at most %(most)s either way), e.g. Сови: -2", field="handicaps",
                            line=number, most=MAX_HANDICAP)
        if team_name_key(name) in seen:
            raise DeskError("Line %(line)s: '%(name)s' is named twice", field="handicaps",
                            line=number, name=name)
        seen.add(team_name_key(name))
        out.append({"name": name, "points": value})
    return out


def parse_names(text: str) -> list[str] | None:
    """One team a line; no line at all: no list (anyone may join)."""
    names: list[str] = []
    seen: set[str] = set()
    for line in (text or "").splitlines():
        name = clean_text(line, max_length=MAX_NAME, field="invited")
        if name and team_name_key(name) not in seen:
            seen.add(team_name_key(name))
            names.append(name)
    return names or None


def handicaps_text(event: Event) -> str:
    return "".join(f"{h['name']}: {h['points']}\n" for h in event.handicaps or [])


APPEALS = {"": None, "yes": True, "no": False}


def parse_appeals(value: object) -> bool | None:
    """"" (as the game's rules say), "yes" or "no"."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in APPEALS:
        raise DeskError("Disputes must be allowed, refused or left to the game's rules.",
                        field="appeals")
    return APPEALS[value]


def set_limits(event: Event, *, max_players: object, handicaps: str, invited: str,
               appeals: object = None, actor: str = "host") -> None:
    """The host's settings of the event; all are checked before any is changed."""
    limit = parse_max_players(max_players)
    points = parse_handicaps(handicaps)
    names = parse_names(invited)
    allowed = parse_appeals(appeals)
    before = {"max_players": event.max_players, "handicaps": event.handicaps,
              "invited": event.invited, "appeals": event.appeals}
    event.max_players, event.handicaps, event.invited = limit, points or None, names
    event.appeals = allowed
    audit.record(event, actor, "event.limits", event.code, before=before,
                 after={"max_players": limit, "handicaps": points or None, "invited": names,
                        "appeals": allowed})
    db.session.flush()
