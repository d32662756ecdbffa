"""Tables as files a host can keep or send: CSV and XLSX (any format's results)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Font

FILE_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> bytes:
    """UTF-8 with a byte-order mark, so spreadsheet programs read Cyrillic right."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def to_xlsx(header: Sequence[str], rows: Sequence[Sequence[Any]], title: str) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = title[:31] or "Results"
    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(list(row))
    sheet.column_dimensions["B"].width = 30
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
