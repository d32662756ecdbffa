"""The yearly champions' quiz, „ГОДИШЕН ШАМПИОНСКИ КУИЗ“ (RULES.md BG-M5).

The teams that hold the year's monthly titles (BG-M4: monthly winners and
vice-champions) are invited; each starts with a handicap the organiser sets.
The event is created from the league's month tables: its invitation list holds
the title holders (only they may join, core/limits.py), and its handicaps
(BG-G2b) one line per team, 0 until the organiser edits them before the event.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from ...core import audit
from ...core.events import create_event
from ...core.organiser import base_url_of, check_date, event_line
from ...core.text import team_name_key
from ...errors import DeskError
from ...extensions import db
from ...models import Event
from . import league

if TYPE_CHECKING:
    from flask import Flask

YEAR = re.compile(r"^\d{4}$")


@dataclass
class Invitation:
    """A team invited to the champions' quiz, with the titles that qualify it."""

    name: str
    titles: list[str] = field(default_factory=list)


def year_titles(year: str, league_name: str = "") -> list[Invitation]:
    """The holders of the year's monthly titles (BG-M4), in month order."""
    if not YEAR.match(str(year)):
        raise DeskError("The year must look like 2025", field="year")
    invited: dict[str, Invitation] = {}
    for month in sorted(m for m in league.months(league_name) if m.startswith(f"{year}-")):
        table = league.month_table(month, league_name)
        for title, names in ((league.WINNER, table.winners), (league.VICE, table.vice_champions)):
            for name in names:
                key = league.league_key(team_name_key(name))
                invited.setdefault(key, Invitation(name)).titles.append(f"{month} {title}")
    return list(invited.values())


def create_champions_quiz(year: str, league_name: str = "", date: dt.date | None = None,
                          actor: str = "host") -> tuple[Event, str, list[Invitation]]:
    """BG-M5: a new BG event for the year's title holders, each with a 0 handicap the
    organiser edits before the event; return it, its host password and the invitations."""
    invitations = year_titles(year, league_name)
    if not invitations:
        raise DeskError("No monthly titles in %(year)s: nobody to invite", field="year",
                        year=str(year))
    event, password = create_event(f"Годишен шампионски куиз {year}", date=date, format="bg")
    event.invited = [i.name for i in invitations]
    event.handicaps = [{"name": i.name, "points": 0} for i in invitations]
    audit.record(event, actor, "league.champions", str(year), after={
        "league": league_name, "invited": {i.name: i.titles for i in invitations}})
    db.session.flush()
    return event, password, invitations


def register_commands(app: Flask) -> None:
    @app.cli.command("champions-quiz")
    @click.option("--year", required=True, help="The year whose monthly titles qualify.")
    @click.option("--league", "league_name", default="", help="The league (default: the venue's).")
    @click.option("--date", default=None, help="YYYY-MM-DD (default: today).")
    @click.option("--base-url", default=None, help="Address the links should use.")
    def champions_quiz(year: str, league_name: str, date: str | None,
                       base_url: str | None) -> None:
        """BG-M5: create the yearly champions' quiz for the holders of the year's monthly
        titles; print the event's JSON line with the invited teams and their titles."""
        try:
            event, password, invitations = create_champions_quiz(
                year, league_name, check_date(date), actor="organiser:cli")
        except DeskError as err:
            raise click.ClickException(str(err)) from None
        db.session.commit()  # the command is the boundary
        data: dict[str, Any] = event_line(event, password, base_url_of(base_url))
        data["invited"] = {i.name: i.titles for i in invitations}
        click.echo(json.dumps(data, ensure_ascii=False))
