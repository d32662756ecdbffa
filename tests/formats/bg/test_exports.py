"""The BG results export carries the standings over the rounds as a line chart (issue 19),
with the same teams and running totals the desk's and the projector's chart show."""

from __future__ import annotations

import io
import re

from openpyxl import load_workbook


def test_results_xlsx_has_the_standings_chart_one_line_per_team(desk):
    a, b = desk.join("Сови"), desk.join("Орли")
    desk.join("Лисици")
    for rnd, answers in ((1, {a: "вярно"}), (2, {a: "Марица", b: "Марица"})):
        desk.host(rnd, "open")
        for token, text in answers.items():
            desk.save(token, rnd, 2 if rnd == 2 else 1, text)
        desk.host(rnd, "close")
    desk.client.get("/lang/bg")
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    resp = desk.client.get(f"/host/{desk.code}/export/results.xlsx")
    assert resp.status_code == 200
    book = load_workbook(io.BytesIO(resp.data))
    sheet = book["Точки след всеки кръг"]
    (chart,) = sheet._charts
    assert len(chart.series) == 3
    rows = {r[0]: r[1:] for r in sheet.iter_rows(values_only=True)}
    teams = rows.pop(None)
    assert [sheet[s.tx.strRef.f.split("!")[1].replace("$", "")].value
            for s in chart.series] == list(teams)
    for series in chart.series:
        first, last = re.findall(r"\$(\d+)", series.val.numRef.f)
        assert int(last) - int(first) + 1 == 2  # a point per scored round
    assert list(rows) == ["Кръг 1", "Кръг 2"]
    points = {team: [rows[label][i] for label in rows] for i, team in enumerate(teams)}
    standings = {r["team"]: r["by_round"] for r in desk.standings()}
    for team, by_round in standings.items():
        assert points[team] == [by_round.get("1", 0),
                                by_round.get("1", 0) + by_round.get("2", 0)]
    assert points["Сови"][-1] == 1 + 2
