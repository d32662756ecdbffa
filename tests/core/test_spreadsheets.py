"""Exports keep the standings chart (issue 19): the XLSX carries the running totals and a
line chart of them, one series per team and one point per round, drawn by the program
that opens it; a name that looks like a formula stays text on that sheet too."""

from __future__ import annotations

import io
import re

from openpyxl import load_workbook

from answerdesk.core.spreadsheets import to_xlsx

CHART = {"type": "standings", "labels": ["R1", "R2", "R3"],
         "series": [{"name": "Сови", "points": [1, 3, 6]},
                    {"name": "=1+1", "points": [0, 2, 2.5]}]}


def cells(sheet, reference: str) -> list:
    """The values a chart's reference like 'Точки'!$B$2:$B$4 points at."""
    found = re.fullmatch(r"'?(.+?)'?!\$([A-Z]+)\$(\d+):\$([A-Z]+)\$(\d+)", reference)
    _name, col, first, col_end, last = found.groups()
    return [c.value for row in sheet[f"{col}{first}:{col_end}{last}"] for c in row]


def test_xlsx_with_the_standings_line_chart():
    book = load_workbook(io.BytesIO(to_xlsx(["Place", "Team"], [[1, "Сови"], [2, "=1+1"]],
                                            "X1", chart=CHART,
                                            chart_title="Точки след всеки кръг")))
    assert book.sheetnames == ["X1", "Точки след всеки кръг"]
    sheet = book["Точки след всеки кръг"]
    (chart,) = sheet._charts
    assert chart.tagname == "lineChart"
    assert len(chart.series) == 2
    values = [cells(sheet, s.val.numRef.f) for s in chart.series]
    assert values == [[1, 3, 6], [0, 2, 2.5]]  # one point per round
    names = [sheet[s.tx.strRef.f.split("!")[1].replace("$", "")].value for s in chart.series]
    assert names == ["Сови", "=1+1"]
    assert cells(sheet, chart.series[0].cat.strRef.f
                 if chart.series[0].cat.strRef else chart.series[0].cat.numRef.f) == \
        ["R1", "R2", "R3"]
    assert sheet["C1"].data_type == "s" and sheet["C1"].quotePrefix  # never run


def test_xlsx_without_rounds_scored_has_no_chart():
    empty = {"type": "standings", "labels": [], "series": [{"name": "Сови", "points": []}]}
    book = load_workbook(io.BytesIO(to_xlsx(["Team"], [["Сови"]], "X1", chart=empty)))
    assert book.sheetnames == ["X1"] and book["X1"]._charts == []
