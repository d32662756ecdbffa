"""The host's pages: login, CSRF, rounds, review queue, standings (foundation)."""

from __future__ import annotations

import re

from answerdesk.extensions import db
from answerdesk.models import Verdict


def login(client, code: str, password: str):
    return client.post(f"/host/{code}/login", data={"password": password})


def test_host_pages_need_login(desk):
    for page in ("/", "/review", "/standings"):
        resp = desk.client.get(f"/host/{desk.code}{page}")
        assert resp.status_code == 302 and "/login" in resp.headers["Location"]


def test_wrong_password_refused(desk):
    resp = login(desk.client, desk.code, "nope")
    assert resp.status_code == 200 and b'role="alert"' in resp.data
    assert desk.client.get(f"/host/{desk.code}/").status_code == 302


def test_host_opens_and_closes_rounds_from_dashboard(desk):
    assert login(desk.client, desk.code, desk.password).status_code == 302
    page = desk.client.get(f"/host/{desk.code}/").get_data(as_text=True)
    assert "Я, това го знам бре!" in page
    desk.client.post(f"/host/{desk.code}/rounds/2/open")
    token = desk.join("Сови")
    desk.save(token, 2, 1, "Левски")
    page = desk.client.get(f"/host/{desk.code}/").get_data(as_text=True)
    assert "Сови" in page and "1/4" in page  # who has answered
    desk.client.post(f"/host/{desk.code}/rounds/2/close")
    assert desk.save(token, 2, 1, "Ботев").status_code == 409


def test_host_session_of_one_event_does_not_open_another(desk, app):
    from answerdesk.formats.bg.demo import create_demo_event

    login(desk.client, desk.code, desk.password)
    with app.app_context():
        other, _ = create_demo_event()
        db.session.commit()
        code = other.code
    assert desk.client.get(f"/host/{code}/").status_code == 302
    assert desk.client.post(f"/api/host/events/{code}/rounds/1/open").status_code == 401


def test_review_queue_groups_identical_answers_and_decides_once(desk, app):
    tokens = [desk.join(n) for n in ("A", "B", "C")]
    desk.host(2, "open")  # R6 takes answers one question at a time (BG-R6): use R2
    for token, text in zip(tokens, ("Симеон", "симеон!", "Крум"), strict=True):
        assert desk.save(token, 2, 1, text).status_code == 200
    desk.host(2, "close")
    with app.app_context():
        for verdict in db.session.scalars(db.select(Verdict)):
            verdict.outcome = "review"  # force: this test is about the queue
        db.session.commit()
    login(desk.client, desk.code, desk.password)
    page = desk.client.get(f"/host/{desk.code}/review").get_data(as_text=True)
    assert page.count('class="review-item"') == 2
    ids = re.search(r'name="verdicts" value="([\d,]+)"', page).group(1)
    assert len(ids.split(",")) == 2  # "Симеон" and "симеон!" are one item
    desk.client.post(f"/host/{desk.code}/review", data={"verdicts": ids, "decision": "correct"})
    page = desk.client.get(f"/host/{desk.code}/review").get_data(as_text=True)
    assert page.count('class="review-item"') == 1
    points = {r["team"]: r["points"] for r in desk.standings()}
    assert points == {"A": 2, "B": 2, "C": 0}


def test_partial_refused_where_round_has_none(desk, app):
    token = desk.join("A")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Левски")
    desk.host(2, "close")
    login(desk.client, desk.code, desk.password)
    with app.app_context():
        vid = db.session.scalar(db.select(Verdict.id))
    resp = desk.client.post(f"/host/{desk.code}/review",
                            data={"verdicts": str(vid), "decision": "partial"})
    assert resp.status_code == 400


def test_standings_page_and_projector(desk):
    token = desk.join("<b>Сови</b>")
    desk.host(2, "open")
    desk.save(token, 2, 2, "Марица")
    screen = desk.client.get(f"/e/{desk.code}/screen").get_data(as_text=True)
    assert "Answers are open" in screen or "Round 2" in screen or "Я, това" in screen
    assert "&lt;b&gt;Сови&lt;/b&gt;" in screen and "<b>Сови</b>" not in screen
    desk.host(2, "close")
    desk.host(2, "reveal")
    live = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert "Левски" in live and "Марица" not in live  # BG-E3: the first answer, then steps
    login(desk.client, desk.code, desk.password)
    desk.client.post(f"/host/{desk.code}/projector", data={"view": "reveal", "round": 2,
                                                          "step": 1})
    live = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert "Марица" in live
    page = desk.client.get(f"/host/{desk.code}/standings").get_data(as_text=True)
    assert "&lt;b&gt;Сови&lt;/b&gt;" in page


def test_projector_hides_key_of_open_round(desk):
    desk.host(2, "open")
    screen = desk.client.get(f"/e/{desk.code}/screen").get_data(as_text=True)
    assert "Марица" not in screen


def test_csrf_protects_host_forms(app, demo):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    code, password = demo
    assert client.post(f"/host/{code}/login", data={"password": password}).status_code == 400
    page = client.get(f"/host/{code}/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post(f"/host/{code}/login", data={"password": password, "csrf_token": token})
    assert resp.status_code == 302
    assert client.post(f"/host/{code}/rounds/2/open").status_code == 400


def test_logout(desk):
    login(desk.client, desk.code, desk.password)
    desk.client.post(f"/host/{desk.code}/logout")
    assert desk.client.get(f"/host/{desk.code}/").status_code == 302
