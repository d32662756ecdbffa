"""Tables as files a host can keep or send: CSV and XLSX (any format's results)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext
from openpyxl import Workbook
from openpyxl.chart import LineChart, Reference
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from ..models import Event
from .charts import event_standings_chart
from .text import looks_like_formula, spreadsheet_text

Table = tuple[list[str], list[list[Any]]]  # a header and its rows
FILE_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def place_label(place: int, shared: bool) -> str:
    """A place as every results table prints it: "3=" when teams share it."""
    return f"{place}=" if shared else str(place)


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> bytes:
    """UTF-8 with a byte-order mark, so spreadsheet programs read Cyrillic right; no
    cell can be read as a formula (text.spreadsheet_text)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([spreadsheet_text(v) for v in header])
    writer.writerows([spreadsheet_text(v) for v in row] for row in rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def to_xlsx(header: Sequence[str], rows: Sequence[Sequence[Any]], title: str,
            chart: Mapping[str, Any] | None = None, chart_title: str = "") -> bytes:
    """One sheet, and with ``chart`` (charts.standings_series: the running totals after
    each round) a second one holding those totals and their line chart (issue 19), a
    chart the spreadsheet program draws itself. Text that would start a formula is
    stored as text with Excel's quote prefix, so it shows as typed and never runs."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = _sheet_title(title) or "Results"
    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(list(row))
    sheet.column_dimensions["B"].width = 30
    if chart and chart.get("labels") and chart.get("series"):
        _line_chart(workbook.create_sheet(_sheet_title(chart_title) or "Chart"), chart,
                    chart_title)
    for each in workbook.worksheets:
        for line in each.iter_rows():
            for cell in line:
                if looks_like_formula(cell.value):
                    cell.data_type = "s"
                    cell.quotePrefix = True
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def results_xlsx(event: Event, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> bytes:
    """A format's results table and, on a second sheet, the standings over the rounds
    as a line chart, as the desk and the projector draw them (issue 19)."""
    return to_xlsx(header, rows, event.code, chart=event_standings_chart(event),
                   chart_title=gettext("Points after each round"))


def _sheet_title(text: str) -> str:
    """What a sheet's name may hold: 31 characters, none of []:*?/\\."""
    return "".join(c for c in text if c not in "[]:*?/\\")[:31]


def _line_chart(sheet: Worksheet, chart: Mapping[str, Any], title: str) -> None:
    """Rounds down, one team a column, and a line per team over the rounds."""
    labels, series = list(chart["labels"]), list(chart["series"])
    sheet.append(["", *[s["name"] for s in series]])
    for i, label in enumerate(labels):
        sheet.append([label, *[s["points"][i] for s in series]])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    line = LineChart()
    line.title = title or None
    line.height, line.width = 10, 20
    line.add_data(Reference(sheet, min_col=2, max_col=1 + len(series), min_row=1,
                            max_row=1 + len(labels)), titles_from_data=True)
    line.set_categories(Reference(sheet, min_col=1, min_row=2, max_row=1 + len(labels)))
    sheet.add_chart(line, f"{get_column_letter(len(series) + 3)}2")
