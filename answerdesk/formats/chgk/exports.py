"""ЧГК results as files, like the BG exports: the evening and the season, CSV and XLSX."""

from __future__ import annotations

import datetime as dt

from flask_babel import gettext as _

from ...core.spreadsheets import Table, place_label
from ...models import Event
from . import game, rules
from .rules import League


def league_label(league: str) -> str:
    return {League.FAVOURITES.value: _("Favourites"),
            League.CONTENDERS.value: _("Contenders")}.get(league, league)


def season_label(season: rules.Season) -> str:
    """CHGK-2.1: a season as the reader says it ("autumn 2026", "winter 2026/2027")."""
    names = {"spring": _("spring %(year)s", year=season.year),
             "summer": _("summer %(year)s", year=season.year),
             "autumn": _("autumn %(year)s", year=season.year),
             "winter": _("winter %(year)s/%(next)s", year=season.year, next=season.year + 1)}
    return names[season.name]


def evening_results(event: Event) -> Table:
    """CHGK-2.4-2.7: evening place, then each game's place, points and series points."""
    header = [_("Place"), _("Team"), _("League"), _("Sum of places"),
              _("Central Table points"), _("Central Table rounds"), _("Points"), _("Tie-break")]
    data = game.standings_json(event)
    per_game = {number: {r["team"]: r for r in g["standings"]}
                for number, g in data["games"].items()}
    for number in per_game:
        header += [_("Game %(n)s place", n=number), _("Game %(n)s points", n=number),
                   _("Game %(n)s series points", n=number)]
    rows = []
    for row in data["evening"]:
        line = [row["place"], row["team"], league_label(row["league"]), row["place_sum"],
                row["table_points"], row["table_rounds"], row["points"], row["tie_break"]]
        for rows_of_game in per_game.values():
            g = rows_of_game[row["team"]]
            line += [place_label(g["place"], g["shared"]), g["points"], g["series"]]
        rows.append(line)
    return header, rows


def season_results(day: dt.date) -> Table:
    """CHGK-2.1-2.3: each league's table of the season, and who moves between them."""
    table = game.season_table(day)
    header = [_("League"), _("Place"), _("Team"), _("Series points"), _("Next season")]
    rows = []
    for league, lines in table.leagues.items():
        for line in lines:
            moves = (_("to the Favourites") if line.team in table.promoted else
                     _("to the Contenders") if line.team in table.relegated else "")
            rows.append([league_label(league.value), place_label(line.place, line.shared),
                         str(line.team), line.points, moves])
    return header, rows
