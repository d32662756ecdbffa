"""Results as files a host can keep or send: event results and the month table, CSV and XLSX."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font

from ...core.text import looks_like_formula, spreadsheet_text
from ...models import Event
from .league import VICE, WINNER, MonthTable
from .standings import event_standings

Table = tuple[list[str], list[list[Any]]]


def _place(place: int, shared: bool) -> str:
    return f"{place}=" if shared else str(place)


def event_results(event: Event) -> Table:
    """Place, team, players, points per round, handicap, corrections, total."""
    numbers = [r.number for r in event.rounds]
    header = [_("Place"), _("Team"), _("Players"), *[f"R{n}" for n in numbers],
              _("Handicap"), _("Corrections"), _("Total")]
    rows = [
        [_place(r.place, r.shared), r.name, r.players,
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
        [_place(line.place, line.shared), line.name,
         *["" if p is None else p for p in line.by_edition], line.points,
         title_label(line.title)]
        for line in table.lines
    ]
    return header, rows


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> bytes:
    """UTF-8 with a byte-order mark, so spreadsheet programs read Cyrillic right; no
    cell can be read as a formula (text.spreadsheet_text)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([spreadsheet_text(v) for v in header])
    writer.writerows([spreadsheet_text(v) for v in row] for row in rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def to_xlsx(header: Sequence[str], rows: Sequence[Sequence[Any]], title: str) -> bytes:
    """One sheet; text that would start a formula is stored as text with Excel's
    quote prefix, so it shows as typed and never runs."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title[:31] or "Results"
    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(list(row))
    for line in sheet.iter_rows():
        for cell in line:
            if looks_like_formula(cell.value):
                cell.data_type = "s"
                cell.quotePrefix = True
    sheet.column_dimensions["B"].width = 30
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
