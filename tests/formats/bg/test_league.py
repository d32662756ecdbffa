"""The monthly league (BG-M1-M4), teams across events (BG-G1 folding, merges), exports."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from openpyxl import load_workbook
from werkzeug.security import generate_password_hash

from answerdesk.core.events import create_event, event_by_code
from answerdesk.extensions import db
from answerdesk.formats.bg import league
from answerdesk.formats.bg.demo import (
    DEMO_LEAGUE,
    add_sample_questions,
    create_demo_event,
    play_sample,
)
from answerdesk.formats.bg.standings import event_standings

START = dt.date(2025, 3, 3)


def edition(app, shares: dict[str, float], day: int, month: str = "2025-03"):
    """An evening played with these shares of right answers, counted in ``month``."""
    with app.app_context():
        event, _ = create_event(f"Вечер {day}", date=START + dt.timedelta(days=day))
        add_sample_questions(event)
        play_sample(event, shares)
        db.session.commit()
        league.add_to_month(event, month)
        return event.code


def rows(app, code: str) -> dict[str, tuple[int, float, int]]:
    with app.app_context():
        return {r.name: (r.place, r.points, r.handicap)
                for r in event_standings(event_by_code(code))}


def month(app, name: str = "2025-03") -> league.MonthTable:
    with app.app_context():
        return league.month_table(name)


def points_of(table: league.MonthTable) -> dict[str, tuple[int, tuple]]:
    return {line.name: (line.points, line.by_edition) for line in table.lines}


def test_bg_m1_m2_first_edition_twelve_then_ten_down_to_one(app):
    edition(app, {f"T{i}": 1 - i / 20 for i in range(12)}, 0)
    edition(app, {f"T{i}": 1 - i / 20 for i in range(12)}, 7)
    table = points_of(month(app))
    assert table["T0"] == (22, (12, 10))
    assert table["T1"] == (18, (9, 9))
    assert table["T9"] == (2, (1, 1))
    assert table["T10"] == (0, (0, 0)) and table["T11"] == (0, (0, 0))


def test_bg_m1_shared_place_shares_its_points(app):
    edition(app, {"A": 1.0, "B": 0.5, "C": 0.5, "D": 0.2}, 0)
    table = points_of(month(app))
    assert table["B"][0] == table["C"][0] == 9  # sharing 2nd: both get 9
    assert table["D"][0] == 7


def test_bg_m_editions_numbered_by_date_in_their_month(app):
    late = edition(app, {"A": 1.0}, 14)
    early = edition(app, {"A": 1.0}, 0)
    with app.app_context():
        assert league.edition_of(event_by_code(early)).number == 1
        assert league.edition_of(event_by_code(late)).number == 2


def test_bg_m3_three_edition_streak_gives_minus_four_in_the_next(app):
    for day in (0, 7, 14):
        edition(app, {"Сови": 1.0, "Орли": 0.5}, day)
    fourth = edition(app, {"Сови": 1.0, "Орли": 0.5}, 21)
    full = rows(app, fourth)
    assert full["Сови"][2] == -4 and full["Орли"][2] == 0
    assert full["Сови"][:2] == (1, 41 - 4)  # all 41 points right, minus 4: still first
    fifth = edition(app, {"Сови": 1.0, "Орли": 0.5}, 28)
    assert rows(app, fifth)["Сови"][2] == -6


def test_bg_m3_two_wins_give_minus_two(app):
    edition(app, {"A": 1.0, "B": 0.5}, 0)
    edition(app, {"A": 1.0, "B": 0.5}, 7)
    assert rows(app, edition(app, {"A": 1.0, "B": 0.5}, 14))["A"][2] == -2


def test_bg_m3_streak_team_skipping_the_next_edition_gets_nothing_after(app):
    for day in (0, 7, 14):
        edition(app, {"Сови": 1.0, "Орли": 0.5}, day)
    skipped = edition(app, {"Орли": 1.0, "Бухали": 0.5}, 21)
    assert "Сови" not in rows(app, skipped)
    after = edition(app, {"Сови": 1.0, "Орли": 0.5}, 28)
    assert rows(app, after)["Сови"][2] == 0


def test_bg_m3_streak_runs_across_months(app):
    edition(app, {"A": 1.0, "B": 0.5}, 0, month="2025-03")
    nxt = edition(app, {"A": 1.0, "B": 0.5}, 30, month="2025-04")
    assert rows(app, nxt)["A"][2] == 0
    assert rows(app, edition(app, {"A": 1.0, "B": 0.5}, 37, month="2025-04"))["A"][2] == -2


def test_bg_m4_tied_teams_are_all_monthly_winners(app):
    edition(app, {"A": 1.0, "B": 0.5}, 0)             # A 12, B 9
    edition(app, {"B": 1.0, "A": 0.5}, 7)             # B 10, A 9
    edition(app, {"B": 1.0, "C": 0.7, "A": 0.5}, 14)  # B 10, A 8
    table = month(app)
    assert points_of(table)["A"][0] == points_of(table)["B"][0] == 29
    assert table.winners == ["A", "B"] and table.vice_champions == []


def test_bg_m4_vice_champion_when_the_winner_already_holds_the_title(app):
    edition(app, {"A": 1.0, "B": 0.5, "C": 0.2}, 0, month="2025-03")
    assert month(app, "2025-03").winners == ["A"]
    assert month(app, "2025-03").vice_champions == []
    edition(app, {"A": 1.0, "B": 0.5, "C": 0.2}, 30, month="2025-04")
    april = month(app, "2025-04")
    assert april.winners == ["A"] and april.vice_champions == ["B"]
    titles = {line.name: line.title for line in april.lines}
    assert titles == {"A": league.WINNER, "B": league.VICE, "C": None}


def test_bg_m_teams_recognised_by_folded_name_and_merged_spellings(app):
    edition(app, {"Сови": 1.0, "Орли": 0.5}, 0)
    edition(app, {"Coви": 1.0, "Орли": 0.5}, 7)  # Latin C and o: the same team
    edition(app, {"Совите": 1.0, "Орли": 0.5}, 14)
    table = points_of(month(app))
    assert table["Coви"] == (22, (12, 10, None)) and table["Совите"][0] == 10
    with app.app_context():
        league.merge_teams("Совите", "Сови")
    table = points_of(month(app))
    assert table["Сови"] == (32, (12, 10, 10)) and len(table) == 2
    fourth = edition(app, {"Сови": 1.0, "Орли": 0.5}, 21)
    assert rows(app, fourth)["Сови"][2] == -4


def test_bg_m_merge_of_an_unknown_spelling_refused(app):
    edition(app, {"Сови": 1.0}, 0)
    with app.app_context(), pytest.raises(Exception, match="No team"):
        league.merge_teams("Никой", "Сови")


def test_demo_month_has_four_editions_and_a_table_in_its_own_league(app):
    with app.app_context():
        event, _ = create_demo_event(month=True)
        db.session.commit()
        month = league.month_of(event.date)
        table = league.month_table(month, DEMO_LEAGUE)
        assert [e.number for e in table.editions] == [1, 2, 3, 4]
        assert table.lines[0].points == 32 and table.winners
        assert league.edition_of(event).handicaps == {"сови": -4}
        assert league.month_table(month).editions == [] and league.months() == []


def test_a_real_month_never_shows_the_demo_editions(app):
    """Issue 14 §5: the demo's played editions stay in the demo's league (BG-M1-M3)."""
    with app.app_context():
        demo_event, _ = create_demo_event(month=True)
        real, _ = create_event("Пъб куиз", date=demo_event.date)
        add_sample_questions(real)
        play_sample(real, {"Сови": 1.0, "Котки": 0.5})
        db.session.commit()
        league.add_to_month(real)
        table = league.month_table(league.month_of(real.date))
        assert [e.event_id for e in table.editions] == [real.id]
        assert [(line.name, line.points) for line in table.lines] == [("Сови", 12),
                                                                     ("Котки", 9)]
        # Сови won all three demo editions, but not in this league: no BG-M3 streak here
        assert league.edition_of(real).handicaps is None
        assert league.edition_of(demo_event).league == DEMO_LEAGUE


def login(client, code, password):
    client.post(f"/host/{code}/login", data={"password": password})


def test_exports_event_results_csv_and_xlsx_with_points_per_round(desk):
    a = desk.join("Сови")
    desk.join("Орли")
    desk.host(2, "open")
    desk.save(a, 2, 2, "Марица")
    desk.host(2, "close")
    login(desk.client, desk.code, desk.password)
    resp = desk.client.get(f"/host/{desk.code}/export/results.csv?lang=en")
    assert resp.status_code == 200 and "attachment" in resp.headers["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(resp.data.decode("utf-8-sig"))))
    assert lines[0][:5] == ["Place", "Team", "Players", "R1", "R2"]
    assert lines[1][:5] == ["1", "Сови", "4", "0", "2"] and lines[1][-1] == "2"
    xlsx = desk.client.get(f"/host/{desk.code}/export/results.xlsx")
    sheet = load_workbook(io.BytesIO(xlsx.data)).active
    assert sheet["B2"].value == "Сови" and sheet["E2"].value == 2


def test_exports_month_table_csv_and_xlsx(app, client):
    edition(app, {"Сови": 1.0, "Орли": 0.5}, 0)
    code = edition(app, {"Орли": 1.0, "Сови": 0.5}, 7)
    with app.app_context():
        event_by_code(code).host_password_hash = generate_password_hash("pw")
        db.session.commit()
    login(client, code, "pw")
    resp = client.get(f"/host/{code}/export/month/2025-03.csv?lang=en")
    lines = list(csv.reader(io.StringIO(resp.data.decode("utf-8-sig"))))
    assert lines[0][0] == "Place" and lines[0][-2:] == ["Points", "Title"]
    assert lines[1][1:] == ["Сови", "12", "9", "21", "Monthly winner"]
    xlsx = client.get(f"/host/{code}/export/month/2025-03.xlsx")
    sheet = load_workbook(io.BytesIO(xlsx.data)).active
    assert sheet["B3"].value == "Орли" and sheet["E3"].value == 19
    page = client.get(f"/host/{code}/league").get_data(as_text=True)
    assert "Сови" in page and "21" in page


def test_bg_m_merge_of_two_teams_of_one_event_refused(app):
    edition(app, {"Сови": 1.0, "Совите": 0.5}, 0)
    with app.app_context(), pytest.raises(Exception, match="same event"):
        league.merge_teams("Совите", "Сови")
