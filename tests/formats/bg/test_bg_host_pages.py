"""The host's pages for the Bulgarian rules: wildcard, final round, jokers, shoot-out, league."""

from __future__ import annotations

from answerdesk.extensions import db
from answerdesk.formats.bg.models import Joker, Shootout


def login(desk) -> None:
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})


def test_rules_page_needs_login(desk):
    for page in ("/rules", "/disputes", "/league"):
        resp = desk.client.get(f"/host/{desk.code}{page}")
        assert resp.status_code == 302 and "/login" in resp.headers["Location"]


def test_bg_r5_0_host_names_last_team_and_chooses_for_it(desk):
    a, b = desk.join("A"), desk.join("B")
    desk.host(4, "open")
    desk.save(a, 4, 3, "Титаник")
    desk.host(4, "close")
    login(desk)
    desk.client.post(f"/host/{desk.code}/rules/wildcard/draw")
    page = desk.client.get(f"/host/{desk.code}/rules").get_data(as_text=True)
    assert 'id="wildcard-chooser">B<' in page
    desk.client.post(f"/host/{desk.code}/rules/wildcard/choose", data={"scenario": "5.4"})
    sheet = desk.client.get(f"/api/events/{desk.code}/sheet",
                            headers={"Authorization": f"Bearer {b}"}).get_json()
    assert sheet["play"]["wildcard"]["scenario"] == "5.4"
    desk.host(5, "open")
    r5 = next(r for r in desk.sheet(b).get_json()["rounds"] if r["number"] == 5)
    assert r5["points"] == 1 and len(r5["questions"]) == 10


def test_bg_r6_host_opens_locks_reveals_one_question(desk):
    token = desk.join("A")
    login(desk)
    desk.client.post(f"/host/{desk.code}/rules/final/1/open")
    assert desk.save(token, 6, 1, "Борис").status_code == 200
    desk.client.post(f"/host/{desk.code}/rules/final/1/lock")
    assert desk.save(token, 6, 1, "Крум").status_code == 409
    desk.client.post(f"/host/{desk.code}/rules/final/1/reveal")
    screen = desk.client.get(f"/e/{desk.code}/screen").get_data(as_text=True)
    assert "Борис I" in screen and 'id="screen-final"' in screen
    assert desk.standings()[0]["points"] == 5


def test_bg_j1_host_decides_a_second_answer_under_review(desk, app):
    token = desk.join("A")
    desk.host(2, "open")
    desk.client.post(f"/api/events/{desk.code}/jokers", json={
        "kind": "double", "round": 2, "question": 3},
        headers={"Authorization": f"Bearer {token}"})
    desk.save(token, 2, 3, "", fields={"text": "Германия", "second": "Австралия"})
    desk.host(2, "close")
    with app.app_context():
        joker = db.session.scalar(db.select(Joker))
        joker_id, outcome = joker.id, joker.second_outcome
    assert outcome in ("review", "wrong")
    login(desk)
    assert desk.standings()[0]["points"] == 0
    desk.client.post(f"/host/{desk.code}/rules/jokers/{joker_id}", data={"decision": "correct"})
    assert desk.standings()[0]["points"] == 1


def test_bg_s3_host_starts_and_locks_the_shootout(desk, app):
    a, b = desk.join("A"), desk.join("B")
    desk.host(2, "open")
    for token in (a, b):
        desk.save(token, 2, 2, "Марица")
    desk.host(2, "close")
    login(desk)
    page = desk.client.get(f"/host/{desk.code}/rules").get_data(as_text=True)
    assert f'action="/host/{desk.code}/rules/shootout"' in page
    desk.client.post(f"/host/{desk.code}/rules/shootout", data={
        "text1": "Q1", "answer1": "10", "text2": "Q2", "answer2": "20", "text3": "Q3",
        "answer3": "30"})
    desk.client.put(f"/api/events/{desk.code}/shootout", json={"numbers": [10, 20, 30]},
                    headers={"Authorization": f"Bearer {b}"})
    running = desk.client.get(f"/host/{desk.code}/rules").get_data(as_text=True)
    assert 'http-equiv="refresh"' in running  # the host watches the minute run out
    with app.app_context():
        shootout_id = db.session.scalar(db.select(Shootout.id))
    desk.client.post(f"/host/{desk.code}/rules/shootout/{shootout_id}/lock")
    assert [r["team"] for r in desk.standings()] == ["B", "A"]
    page = desk.client.get(f"/host/{desk.code}/rules").get_data(as_text=True)
    assert "B = " not in page and "1. B" in page and 'http-equiv="refresh"' not in page


def test_league_page_counts_the_event_and_merges(desk):
    desk.join("Сови")
    login(desk)
    desk.client.post(f"/host/{desk.code}/league", data={"action": "month", "month": "2025-03"})
    page = desk.client.get(f"/host/{desk.code}/league").get_data(as_text=True)
    assert "2025-03" in page and "Сови" in page
    bad = desk.client.post(f"/host/{desk.code}/league", data={"action": "month",
                                                               "month": "March"})
    assert bad.status_code == 400


def test_bg_j1_second_answer_on_all_answers_and_a_won_question_not_red(desk):
    """The double joker's second answer is on the host's "all answers"; once revealed,
    the phone shows the question it won as won, not in red."""
    token = desk.join("A")
    desk.host(2, "open")
    desk.client.post(f"/api/events/{desk.code}/jokers", json={
        "kind": "double", "round": 2, "question": 3},
        headers={"Authorization": f"Bearer {token}"})
    desk.save(token, 2, 3, "", fields={"text": "Германия", "second": "Австрия"})
    desk.host(2, "close")
    login(desk)
    page = desk.client.get(f"/host/{desk.code}/answers/2/3").get_data(as_text=True)
    assert "Германия" in page and 'class="second-answer"' in page and "Австрия</span>" in page
    desk.host(2, "reveal")
    r2 = next(r for r in desk.sheet(token).get_json()["rounds"] if r["number"] == 2)
    q3 = next(q for q in r2["questions"] if q["number"] == 3)
    assert (q3["verdict"], q3["second_verdict"]) == ("correct", "correct")
    assert desk.standings()[0]["points"] == 1  # BG-J1: 1 point instead of 2


def test_bg_g2b_a_start_penalty_from_the_settings_is_named_as_such(desk, english):
    """A handicap set in the event's settings (BG-G2b) is not called a winning streak
    (BG-M3) on the host's standings."""
    desk.join("Сови")
    login(desk)
    desk.client.post(f"/host/{desk.code}/settings", data={
        "max_players": "", "handicaps": "Сови: -3", "invited": ""})
    page = desk.client.get(f"/host/{desk.code}/standings").get_data(as_text=True)
    assert "handicap from the event's settings -3" in page
    assert "winning-streak" not in page
    assert desk.standings()[0]["points"] == -3


def test_a_new_event_without_a_pack_asks_for_questions(app, client):
    """Not "every round is played and revealed" on an evening that has no questions."""
    from answerdesk.core.events import create_event

    with app.app_context():
        event, password = create_event("Празна вечер")
        db.session.commit()
        code = event.code
    client.post(f"/host/{code}/login", data={"password": password})
    page = client.get(f"/host/{code}/").get_data(as_text=True)
    assert 'id="now-programme"' in page
    assert "Every round is played" not in page and "Всички кръгове" not in page
