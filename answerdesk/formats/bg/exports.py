"""Results as files a host can keep or send: event results and the month table, CSV and XLSX."""

from __future__ import annotations

from flask_babel import gettext as _

from ...core.spreadsheets import Table, place_label, to_csv, to_xlsx
from ...models import Event
from .league import VICE, WINNER, MonthTable
from .standings import event_standings

__all__ = ["Table", "event_results", "month_results", "title_label", "to_csv", "to_xlsx"]


def event_results(event: Event) -> Table:
    """Place, team, players, points per round, handicap, corrections, total."""
    numbers = [r.number for r in event.rounds]
    header = [_("Place"), _("Team"), _("Players"), *[f"R{n}" for n in numbers],
              _("Handicap"), _("Corrections"), _("Total")]
    rows = [
        [place_label(r.place, r.shared), r.name, r.players,
         *[r.by_round.get(n, 0) for n in numbers], r.handicap, r.corrections, r.points]
        for r in event_standings(event)
    ]
    return header, rows


def title_label(title: str | None) -> str:
    """BG-M4 titles as the host reads them."""
    labels = {WINNER: _("Monthly winner"), VICE: _("Monthly vice-champion")}
    return labels.get(title, "") if title else ""


def month_results(table: MonthTable) -> Table:
    """Place, team, league points per edition (blank: absent), total, title."""
    header = [_("Place"), _("Team"),
              *[f"#{e.number} {e.event.date.isoformat()}" for e in table.editions],
              _("Points"), _("Title")]
    rows = [
        [place_label(line.place, line.shared), line.name,
         *["" if p is None else p for p in line.by_edition], line.points,
         title_label(line.title)]
        for line in table.lines
    ]
    return header, rows
