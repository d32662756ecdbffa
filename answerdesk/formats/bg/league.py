"""The monthly league (BG-M1-M4): editions of a month, league points, streaks, titles.

Events belong to a month and are numbered in order of their date. A team is
the same team across events when its name is equal under BG-G1 folding
(text.team_name_key), or when the host merged two spellings. The rules
(league points, the streak handicap, the month table, the titles) are in
scoring.py; this module gathers the editions' final places for them.

The BG-M3 handicap of an edition is computed from the editions before it in
sequence and stored on the edition, so an event's standings never need to
recompute the whole history; it is computed when the event joins the league
and again when the host asks (after a late correction or a merge of names).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ...core import audit
from ...core import formats as registry
from ...core.text import clean_text, team_name_key
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Team
from . import scoring
from .models import Edition, TeamAlias

MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
WINNER, VICE = "winner", "vice-champion"  # BG-M4 „МЕСЕЧЕН ПОБЕДИТЕЛ“, „МЕСЕЧЕН ВИЦЕШАМПИОН“


def month_of(date: dt.date) -> str:
    return f"{date.year:04d}-{date.month:02d}"


def league_key(name_key: str, aliases: dict[str, str] | None = None) -> str:
    """The key a team is known by in the league: its folded name, or the merged one."""
    if aliases is None:
        aliases = _aliases()
    return aliases.get(name_key, name_key)


def _aliases() -> dict[str, str]:
    return dict(db.session.execute(
        db.select(TeamAlias.name_key, TeamAlias.canonical_key)).all())


def editions(month: str | None = None, league_name: str = "") -> list[Edition]:
    """A league's editions in sequence: by month, then number (BG-M3 counts across
    months, never across leagues)."""
    query = (db.select(Edition).where(Edition.league == league_name)
             .order_by(Edition.month, Edition.number))
    if month is not None:
        query = query.where(Edition.month == month)
    return list(db.session.scalars(query))


def edition_of(event: Event) -> Edition | None:
    return db.session.scalar(db.select(Edition).where(Edition.event_id == event.id))


def add_to_month(event: Event, month: str | None = None, actor: str = "host",
                 league_name: str | None = None) -> Edition:
    """Make the event an edition of its month in a league (by default the one it is
    in, else the venue's); editions are numbered by date (BG-M)."""
    month = month or month_of(event.date)
    if not MONTH.match(month):
        raise DeskError("The month must look like 2025-03", field="month")
    edition = edition_of(event)
    old = (edition.league, edition.month) if edition else None
    if edition is None:
        edition = Edition(event_id=event.id, month=month, number=0, league="")
        db.session.add(edition)
    if league_name is not None:
        edition.league = league_name
    edition.month = month
    db.session.flush()
    _renumber(month, edition.league)
    if old and old != (edition.league, month):
        _renumber(old[1], old[0])
    audit.record(event, actor, "league.edition", month,
                 after={"number": edition.number, "league": edition.league})
    db.session.flush()
    refresh_handicaps()
    return edition


def _renumber(month: str, league_name: str) -> None:
    rows = db.session.execute(
        db.select(Edition, Event.date).join(Event, Edition.event_id == Event.id)
        .where(Edition.month == month, Edition.league == league_name)
        .order_by(Event.date, Event.id)
    ).all()
    for number, (edition, _) in enumerate(rows, start=1):
        edition.number = number


def final_places(edition: Edition, aliases: dict[str, str]) -> dict[str, int]:
    """An edition's final places (after the shoot-out) by league key. The standings come
    through the format registry: they start from BG-M3's handicaps (standings.py imports
    this module), so this module does not import them."""
    event = db.session.get_one(Event, edition.event_id)
    keys: dict[int, str] = dict(db.session.execute(
        db.select(Team.id, Team.name_key).where(Team.event_id == event.id)).all())
    return {league_key(keys[row.team_id], aliases): row.place
            for row in registry.get(event.format).standings(event)}


def leagues() -> list[str]:
    return list(db.session.scalars(db.select(Edition.league).distinct().order_by(
        Edition.league)))


def refresh_handicaps() -> None:
    """BG-M3 for every edition of each league in sequence, from the winners of the
    league's editions before it."""
    aliases = _aliases()
    for name in leagues():
        winners: list[set[str]] = []
        for edition in editions(league_name=name):
            edition.handicaps = scoring.streak_handicap(winners) or None
            db.session.flush()
            places = final_places(edition, aliases)
            winners.append({key for key, place in places.items() if place == 1})
    db.session.flush()


def event_handicaps(event: Event) -> dict[int, int]:
    """BG-M3: the negative starting points of this event's teams, by team id."""
    edition = edition_of(event)
    if edition is None or not edition.handicaps:
        return {}
    aliases = _aliases()
    teams = db.session.execute(
        db.select(Team.id, Team.name_key).where(Team.event_id == event.id)).all()
    return {
        team_id: edition.handicaps[key] for team_id, name_key in teams
        if (key := league_key(name_key, aliases)) in edition.handicaps
    }


@dataclass
class MonthLine:
    place: int
    shared: bool
    name: str
    points: int
    by_edition: tuple[int | None, ...]
    title: str | None


@dataclass
class MonthTable:
    month: str
    editions: list[Edition]
    lines: list[MonthLine]
    winners: list[str]
    vice_champions: list[str]


def _names() -> dict[str, str]:
    """The latest spelling of each league key, for the table."""
    aliases = _aliases()
    names: dict[str, str] = {}
    for name_key, name in db.session.execute(
        db.select(Team.name_key, Team.name).join(Event, Team.event_id == Event.id)
        .order_by(Event.date, Team.id)
    ):
        names[league_key(name_key, aliases)] = name
    for alias in db.session.scalars(db.select(TeamAlias)):
        names[alias.canonical_key] = alias.canonical_name
    return names


def month_table(month: str, league_name: str = "") -> MonthTable:
    """BG-M1/M2 table of the month and BG-M4 titles (earlier months' winners keep theirs),
    of one league."""
    aliases = _aliases()
    all_editions = editions(league_name=league_name)
    months = sorted({e.month for e in all_editions if e.month <= month})
    holders: set[str] = set()
    table: list[scoring.MonthRow[str]] = []
    winners: frozenset[str] = frozenset()
    vice: frozenset[str] = frozenset()
    for current in months:
        places = [final_places(e, aliases) for e in all_editions if e.month == current]
        table = scoring.month_table(places)
        winners, vice = scoring.monthly_titles(table, holders)
        if current != month:
            holders |= winners
    if month not in months:
        table, winners, vice = [], frozenset(), frozenset()
    names = _names()
    lines = [
        MonthLine(place=row.place, shared=row.shared, name=names.get(row.team, row.team),
                  points=row.points, by_edition=row.by_edition,
                  title=WINNER if row.team in winners else VICE if row.team in vice else None)
        for row in table
    ]
    return MonthTable(
        month=month,
        editions=[e for e in all_editions if e.month == month],
        lines=lines,
        winners=[names.get(t, t) for t in sorted(winners)],
        vice_champions=[names.get(t, t) for t in sorted(vice)],
    )


def merge_teams(spelling: str, into: str, actor: str = "host",
                event: Event | None = None) -> TeamAlias:
    """The host says two spellings are one team: ``spelling`` becomes ``into``."""
    source = clean_text(spelling, max_length=120, field="spelling")
    target = clean_text(into, max_length=120, field="into")
    if not source or not target:
        raise DeskError("Name both spellings")
    source_key, target_key = team_name_key(source), team_name_key(target)
    target_key = league_key(target_key)
    if source_key == target_key:
        raise DeskError("These spellings are already the same team")
    known = set(db.session.scalars(db.select(Team.name_key)))
    if source_key not in known:
        raise NotFound("No team was ever called '%(spelling)s'", spelling=source)
    aliases = _aliases()
    together = db.session.scalar(
        db.select(db.func.count()).select_from(Team)
        .where(Team.name_key.in_([k for k in known if league_key(k, aliases) == target_key]))
        .where(Team.event_id.in_(db.select(Team.event_id).where(Team.name_key == source_key)))
    )
    if together:
        raise Conflict("'%(spelling)s' and '%(into)s' played in the same event: two teams",
                       spelling=source, into=target)
    for alias in db.session.scalars(
            db.select(TeamAlias).where(TeamAlias.canonical_key == source_key)):
        alias.canonical_key, alias.canonical_name = target_key, target
    alias = db.session.scalar(db.select(TeamAlias).where(TeamAlias.name_key == source_key))
    if alias is None:
        alias = TeamAlias(name_key=source_key, canonical_key=target_key, canonical_name=target)
        db.session.add(alias)
    alias.canonical_key, alias.canonical_name = target_key, target
    if event is not None:
        audit.record(event, actor, "league.merge", f"{source} → {target}")
    db.session.flush()
    refresh_handicaps()
    return alias


def months(league_name: str = "") -> list[str]:
    return sorted({e.month for e in editions(league_name=league_name)}, reverse=True)
