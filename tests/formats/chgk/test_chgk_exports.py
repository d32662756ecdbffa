"""The ЧГК evening export carries the standings over the games as a line chart, as the
BG results do (issue 19): the same code (core.spreadsheets.results_xlsx), one series per
team, one point per game played, each point the running total of the game points
(CHGK-3.2) the desk's chart shows."""

from __future__ import annotations

import io
import re

from openpyxl import load_workbook

from answerdesk.core.events import event_by_code
from answerdesk.formats.chgk import game

SECONDS, GRACE = 60, 10


def _points(chgk, fake_clock, plays: dict[tuple[int, int], dict[str, str]]) -> None:
    """Start each (game, sector), let the named teams write its right answer, then let
    the clock lock it (CHGK-1.1)."""
    for (number, sector), tokens in plays.items():
        started = chgk.start(number, sector)
        assert started.status_code == 200, started.get_json()
        fake_clock.advance(5)
        for token in tokens.values():
            saved = chgk.save(token, number, sector, chgk.answers[number][sector - 1])
            assert saved.status_code == 200, saved.get_json()
        fake_clock.advance(SECONDS + GRACE)


def test_evening_xlsx_has_the_standings_chart_one_series_per_team_one_point_per_game(
        chgk, app, fake_clock):
    teams = {name: chgk.join(name) for name in ("Сова", "Ёж", "Лиса")}
    chgk.log_in()
    _points(chgk, fake_clock, {
        (1, 1): {n: teams[n] for n in ("Сова", "Ёж")},
        (1, 2): {"Сова": teams["Сова"]},
        (2, 1): {n: teams[n] for n in ("Ёж", "Лиса")},
        (2, 2): {"Ёж": teams["Ёж"]},
        (2, 3): {},  # its start locks and checks 2.2 (CHGK-1.1)
    })
    with app.app_context():
        by_game = {r.name: r.by_round for r in game.standings_rows(event_by_code(chgk.code))}
    assert by_game == {"Сова": {1: 2, 2: 0}, "Ёж": {1: 1, 2: 2}, "Лиса": {1: 0, 2: 1}}

    resp = chgk.client.get(f"/host/{chgk.code}/chgk/export/evening.xlsx?lang=en")
    assert resp.status_code == 200
    book = load_workbook(io.BytesIO(resp.data))
    assert book.sheetnames == [chgk.code, "Points after each round"]
    assert [c.value for c in book[chgk.code][1]][:3] == ["Place", "Team", "League"]
    sheet = book["Points after each round"]
    (chart,) = sheet._charts
    assert chart.tagname == "lineChart"
    assert len(chart.series) == 3  # one per team
    names = [sheet[s.tx.strRef.f.split("!")[1].replace("$", "")].value for s in chart.series]
    assert sorted(names) == sorted(teams)
    for series in chart.series:
        first, last = re.findall(r"\$(\d+)", series.val.numRef.f)
        assert int(last) - int(first) + 1 == 2  # one point per game played
    rows = {r[0]: r[1:] for r in sheet.iter_rows(values_only=True)}
    assert rows.pop(None) == tuple(names)
    assert list(rows) == ["Game 1", "Game 2"]  # ЧГК plays games (Format.chart_round)
    running = {name: [rows[label][i] for label in rows] for i, name in enumerate(names)}
    assert running == {"Сова": [2, 2], "Ёж": [1, 3], "Лиса": [0, 1]}


def test_season_xlsx_stays_a_plain_table(chgk):
    """The season spans many evenings: no chart of one evening's games on it."""
    chgk.join("Сова")
    chgk.log_in()
    season = chgk.client.get(f"/host/{chgk.code}/chgk/export/season.xlsx")
    assert season.status_code == 200
    book = load_workbook(io.BytesIO(season.data))
    assert len(book.sheetnames) == 1 and book.active._charts == []
