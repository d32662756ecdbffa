"""BG-M5: the yearly champions' quiz from the year's monthly titles (BG-M4), with
per-team starting handicaps the organiser edits before the event (BG-G2b)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from answerdesk.core.events import create_event, event_by_code
from answerdesk.errors import DeskError
from answerdesk.extensions import db
from answerdesk.formats.bg import champions, league
from answerdesk.formats.bg.demo import add_sample_questions, create_demo_event, play_sample
from answerdesk.models import Event


def _played(app, day: dt.date, shares: dict[str, float], league_name: str = "") -> None:
    with app.app_context():
        event, _ = create_event(f"Вечер {day}", date=day)
        add_sample_questions(event)
        play_sample(event, shares)
        db.session.commit()
        league.add_to_month(event, league_name=league_name)


@pytest.fixture
def year_2025(app):
    """March: Сови win; April: Сови win again and keep the title, so the next team,
    Бухали, become vice-champions (BG-M4); December 2024 and the demo's league (its
    own titles) invite nobody to 2025's quiz."""
    _played(app, dt.date(2025, 3, 4), {"Сови": 1.0, "Орли": 0.8, "Котки": 0.2})
    _played(app, dt.date(2025, 4, 8), {"Сови": 1.0, "Бухали": 0.8, "Орли": 0.5})
    _played(app, dt.date(2024, 12, 2), {"Лъвове": 1.0, "Котки": 0.5})
    with app.app_context():
        create_demo_event(month=True)
        db.session.commit()


def test_bg_m5_invitations_come_from_the_years_titles(app, year_2025):
    with app.app_context():
        titles = {i.name: i.titles for i in champions.year_titles("2025")}
    assert titles == {"Сови": ["2025-03 winner", "2025-04 winner"],
                      "Бухали": ["2025-04 vice-champion"]}


def test_bg_m5_quiz_invites_only_title_holders_with_editable_handicaps(app, client, year_2025):
    with app.app_context():
        event, password, _ = champions.create_champions_quiz("2025",
                                                             date=dt.date(2026, 1, 10))
        db.session.commit()
        code = event.code
        assert event.invited == ["Сови", "Бухали"]
        assert event.handicaps == [{"name": "Сови", "points": 0},
                                   {"name": "Бухали", "points": 0}]
    client.post(f"/host/{code}/login", data={"password": password})
    page = client.get(f"/host/{code}/settings").get_data(as_text=True)
    assert "Сови: 0" in page
    client.post(f"/host/{code}/settings", data={
        "max_players": "", "handicaps": "Сови: -4\nБухали: 2",
        "invited": "Сови\nБухали"})
    for name in ("Сови", "Бухали"):
        assert client.post(f"/api/events/{code}/teams", json={"name": name}).status_code == 201
    refused = client.post(f"/api/events/{code}/teams", json={"name": "Орли"},
                          headers={"Accept-Language": "ru"})
    assert refused.status_code == 403 and "только по приглашениям" in refused.get_json()[
        "message"]
    standings = {r["team"]: r["points"] for r in client.get(
        f"/api/events/{code}/standings").get_json()["standings"]}
    assert standings == {"Сови": -4, "Бухали": 2}


def test_bg_m5_a_year_without_titles_is_refused(app, year_2025):
    with app.app_context():
        with pytest.raises(DeskError, match="No monthly titles in 2023"):
            champions.create_champions_quiz("2023")
        with pytest.raises(DeskError, match="year must look like 2025"):
            champions.year_titles("25")
        assert db.session.scalar(db.select(db.func.count(Event.id)).where(
            Event.name.like("Годишен%"))) == 0


def test_bg_m5_league_page_button_creates_the_quiz(app, client, year_2025, english):
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.date == dt.date(2025, 4, 8)))
        code = event.code
        from werkzeug.security import generate_password_hash

        event.host_password_hash = generate_password_hash("pw")
        db.session.commit()
    client.post(f"/host/{code}/login", data={"password": "pw"})
    page = client.get(f"/host/{code}/league").get_data(as_text=True)
    assert 'id="champions-quiz"' in page
    resp = client.post(f"/host/{code}/league/champions", data={"year": "2025"})
    assert resp.status_code == 201
    text = resp.get_data(as_text=True)
    assert "Годишен шампионски куиз 2025" in text and "Monthly vice-champion" in text
    with app.app_context():
        quiz = db.session.scalar(db.select(Event).where(Event.name.like("Годишен%")))
        assert quiz.invited == ["Сови", "Бухали"]
    nobody = client.post(f"/host/{code}/league/champions", data={"year": "2019"},
                         follow_redirects=True)
    assert "No monthly titles in 2019" in nobody.get_data(as_text=True)


def test_bg_m5_cli_prints_the_event_line_with_the_invited(app, year_2025):
    result = app.test_cli_runner().invoke(args=["champions-quiz", "--year", "2025",
                                                "--date", "2026-01-10"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"code", "host_password", "team_url", "host_url", "screen_url"} <= set(data)
    assert data["invited"]["Сови"] == ["2025-03 winner", "2025-04 winner"]
    with app.app_context():
        assert event_by_code(data["code"]).date == dt.date(2026, 1, 10)
    demo = app.test_cli_runner().invoke(args=["champions-quiz", "--year",
                                              str(dt.date.today().year), "--league", "Демо"])
    assert demo.exit_code == 0, demo.output
    assert "Сови" in json.loads(demo.output)["invited"]
    bad = app.test_cli_runner().invoke(args=["champions-quiz", "--year", "2023"])
    assert bad.exit_code != 0 and "No monthly titles in 2023" in bad.output
