"""An event's own limits and handicaps (BG-G2b) and its invitation list (BG-M5)."""

from __future__ import annotations

import pytest
from factories import set_keys

from answerdesk.core import limits
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.models import AuditEntry, Team


@pytest.fixture
def desk(app, plain_desk):
    """Core's limits on the neutral format (factories.PlainQuiz), not on a game's evening;
    its round 2's second question asks for Марица."""
    with app.app_context():
        set_keys(event_by_code(plain_desk.code), {(2, 2): ["Марица"]})
    return plain_desk


def _host(desk) -> None:
    assert desk.client.post(f"/host/{desk.code}/login",
                            data={"password": desk.password}).status_code == 302


def _settings(desk, **form):
    data = {"max_players": "", "handicaps": "", "invited": "", **form}
    return desk.client.post(f"/host/{desk.code}/settings", data=data)


def test_bg_g2b_join_over_the_players_limit_is_refused(app, desk):
    _host(desk)
    assert _settings(desk, max_players="5").status_code == 302
    resp = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "Сови",
                                                                    "players": 6},
                            headers={"Accept-Language": "en"})
    assert resp.status_code == 400
    assert resp.get_json()["message"] == "This event allows at most 5 players per team"
    ru = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "Сови", "players": 6},
                          headers={"Accept-Language": "ru"})
    assert "не больше 5" in ru.get_json()["message"]
    desk.join("Сови", players=5)
    with app.app_context():
        assert [t.name for t in db.session.scalars(db.select(Team))] == ["Сови"]


def test_bg_g2b_paper_team_over_the_limit_is_refused_too(app, desk):
    _host(desk)
    _settings(desk, max_players="3")
    resp = desk.client.post(f"/host/{desk.code}/paper/team", data={"name": "Хартия",
                                                                   "players": "4"},
                            headers={"Accept-Language": "bg"})
    assert resp.status_code == 400 and "най-много 3" in resp.get_data(as_text=True)


def test_bg_g2b_handicaps_count_in_the_standings(app, desk):
    a, b = desk.join("Сови"), desk.join("Орли")
    _host(desk)
    # BG-G1 folding: "  СОВИ " names the team Сови
    assert _settings(desk, handicaps="  СОВИ : -3\nОрли: 2\nНикой: -1\n").status_code == 302
    desk.host(2, "open")
    desk.save(a, 2, 2, "Марица")
    desk.save(b, 2, 2, "Дунав")
    desk.host(2, "close")
    points = {row["team"]: row["points"] for row in desk.standings()}
    assert points == {"Сови": -1, "Орли": 2}
    assert [row["team"] for row in desk.standings()] == ["Орли", "Сови"]
    page = desk.client.get(f"/host/{desk.code}/settings").get_data(as_text=True)
    assert "СОВИ: -3" in page and "Никой: -1" in page
    with app.app_context():
        event = event_by_code(desk.code)
        assert sorted(limits.team_handicaps(event).values()) == [-3, 2]
        assert db.session.scalar(db.select(AuditEntry.action).where(
            AuditEntry.action == "event.limits")) == "event.limits"


def test_bg_g2b_bad_settings_are_refused_translated_and_change_nothing(app, desk):
    _host(desk)
    _settings(desk, max_players="6", handicaps="Сови: -2")
    cases = [
        ({"max_players": "0"}, "players limit"),
        ({"max_players": "шест"}, "players limit"),
        ({"handicaps": "Сови -2"}, "Line 1"),
        ({"handicaps": "Орли: 1\nСови: много"}, "Line 2"),
        ({"handicaps": "Сови: 1\nсови: 2"}, "named twice"),
        ({"handicaps": "Сови: 5000"}, "Line 1"),
    ]
    for form, words in cases:
        resp = _settings(desk, **{"max_players": "6", "handicaps": "Сови: -2", **form},
                         )
        assert resp.status_code == 400, form
        assert words in desk.client.post(
            f"/host/{desk.code}/settings?lang=en",
            data={"max_players": "6", "handicaps": "Сови: -2", "invited": "", **form},
            headers={"Accept-Language": "en"}).get_data(as_text=True), form
    with app.app_context():
        event = event_by_code(desk.code)
        assert (event.max_players, event.handicaps) == (6, [{"name": "Сови", "points": -2}])


def test_bg_m5_invitation_list_lets_only_invited_teams_join(app, desk):
    _host(desk)
    _settings(desk, invited="Сови\nОрли\n")
    desk.join("сОВИ")
    resp = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "Котки"},
                            headers={"Accept-Language": "en"})
    assert resp.status_code == 403
    assert resp.get_json()["message"] == (
        "This event is by invitation only and 'Котки' is not on the list")
    _settings(desk, invited="")
    desk.join("Котки")
