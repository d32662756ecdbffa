"""Своя игра's players (its teams are players): in or out of competition (SI-1.2) and
the host's warnings (SI-1.3). Services flush; the views commit.
"""

from __future__ import annotations

from typing import Any

from ...core import audit
from ...core.labels import N_
from ...core.teams import team_named
from ...errors import Conflict, DeskError
from ...extensions import db
from ...models import Event, Team
from .models import SiPlayer


def in_competition_by_name(name: str) -> bool:
    """SI-1.2: a player who joins as "@Name" plays out of competition."""
    return not name.startswith("@")


def player(team: Team) -> SiPlayer:
    row = db.session.scalar(db.select(SiPlayer).where(SiPlayer.team_id == team.id))
    if row is None:
        row = SiPlayer(team_id=team.id, in_competition=in_competition_by_name(team.name),
                       warnings=0)
        db.session.add(row)
    return row


#: Своя игра's teams are players: core's team lookup refuses with this.
NO_PLAYER = N_("No player called '%(name)s'.")


def warn(event: Event, name: Any, actor: str) -> SiPlayer:
    """SI-1.3: a warning; the second removes the player and annuls the points."""
    team = team_named(event, name, NO_PLAYER)
    row = player(team)
    row.warnings += 1
    audit.record(event, actor, "si.warn", team.name, after={"warnings": row.warnings})
    db.session.flush()
    return row


def unwarn(event: Event, name: Any, actor: str) -> SiPlayer:
    """Take back the host's last warning (a slip of the finger): a player removed by the
    second one is back with their points (SI-1.3)."""
    team = team_named(event, name, NO_PLAYER)
    row = player(team)
    if row.warnings < 1:
        raise Conflict("'%(name)s' has no warning to take back.", name=team.name)
    row.warnings -= 1
    audit.record(event, actor, "si.unwarn", team.name, before={"warnings": row.warnings + 1},
                 after={"warnings": row.warnings})
    db.session.flush()
    return row


def set_competition(event: Event, name: Any, in_competition: Any, actor: str) -> SiPlayer:
    """SI-1.2: the host puts a player in or out of competition (out: plays, not ranked)."""
    if not isinstance(in_competition, bool):
        raise DeskError("in_competition must be true or false.")
    team = team_named(event, name, NO_PLAYER)
    row = player(team)
    audit.record(event, actor, "si.competition", team.name,
                 before={"in_competition": row.in_competition},
                 after={"in_competition": in_competition})
    row.in_competition = in_competition
    db.session.flush()
    return row


def players_of(event: Event) -> list[tuple[str, bool, int]]:
    """(name, in competition, warnings) of every player (SI-1.2, SI-1.3)."""
    players = {p.team_id: p for p in db.session.scalars(db.select(SiPlayer).join(
        Team, SiPlayer.team_id == Team.id).where(Team.event_id == event.id))}
    return [(t.name, players[t.id].in_competition if t.id in players
             else in_competition_by_name(t.name),
             players[t.id].warnings if t.id in players else 0) for t in event.teams]


def warnings(event: Event) -> dict[str, int]:
    """Each player's warnings (SI-1.3), by name."""
    rows = db.session.execute(db.select(Team.name, SiPlayer.warnings).join(
        SiPlayer, SiPlayer.team_id == Team.id).where(Team.event_id == event.id))
    return dict(rows.all())
