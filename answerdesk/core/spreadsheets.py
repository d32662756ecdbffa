"""Tables as files a host can keep or send: CSV and XLSX (any format's results)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Font

from .text import looks_like_formula, spreadsheet_text

FILE_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


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
