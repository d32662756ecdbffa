"""The question clock over the API (CHGK-1.1, CHGK-1.5): start → 200 with the deadline;
answers 200 before S + G seconds and 409 after, with nobody closing anything."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.models import QuestionGate

pytestmark = pytest.mark.usefixtures("english")


def start(desk, rnd: int, q: int, password: str | None = None, **body):
    return desk.start(rnd, q, password, **body)


def _parse(stamp: str) -> dt.datetime:
    return dt.datetime.fromisoformat(stamp.removesuffix("Z"))


def test_chgk_1_1_start_returns_the_deadline_and_answers_lock_by_themselves(chgk, app):
    token = chgk.join("Знатоки")
    assert chgk.save(token, 1, 3, "Гоголь").status_code == 409  # not started yet
    resp = start(chgk, 1, 3, seconds=1, grace=1)
    assert resp.status_code == 200, resp.get_json()
    clock = resp.get_json()
    assert (clock["round"], clock["question"], clock["seconds"], clock["grace"]) == (1, 3, 1, 1)
    assert _parse(clock["locks_at"]) - _parse(clock["opens_at"]) == dt.timedelta(seconds=2)
    assert _parse(clock["answer_until"]) - _parse(clock["opens_at"]) == dt.timedelta(seconds=1)
    # CHGK-1.5: an early answer, then an edit of the same card before the lock.
    assert chgk.save(token, 1, 3, "Гогль").status_code == 200
    saved = chgk.save(token, 1, 3, "Гоголь")
    assert saved.status_code == 200 and saved.get_json()["version"] == 2
    time.sleep(max(0.0, (_parse(clock["locks_at"]) - dt.datetime.now(dt.UTC)
                         .replace(tzinfo=None)).total_seconds()) + 0.05)
    late = chgk.save(token, 1, 3, "Гоголь Николай")
    assert late.status_code == 409
    assert late.get_json()["error"] == "round_locked"
    assert "locked" in late.get_json()["message"]
    with app.app_context():
        gate = db.session.scalar(db.select(QuestionGate))
        assert gate.state == "open"  # nobody recorded the lock: the time alone refused it
    sheet = chgk.sheet(token).get_json()
    card = sheet["rounds"][0]["questions"]
    assert [q["number"] for q in card] == [3]
    assert card[0]["answer"]["text"] == "Гоголь" and card[0]["clock"]["state"] == "locked"


def test_chgk_1_1_default_clock_is_60_plus_10_and_refusals_change_nothing(chgk, app):
    resp = start(chgk, 1, 1)
    assert resp.status_code == 200
    assert (resp.get_json()["seconds"], resp.get_json()["grace"]) == (60, 10)
    second = start(chgk, 1, 2)
    assert second.status_code == 409 and "still running" in second.get_json()["message"]
    assert start(chgk, 1, 1).status_code == 409
    assert start(chgk, 1, 13).status_code == 404
    assert start(chgk, 1, 2, password="wrong").status_code == 401
    assert start(chgk, 1, 2, seconds=-1).status_code == 400
    assert start(chgk, 1, 2, seconds="60").status_code == 400
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(QuestionGate.id))) == 1


def test_chgk_1_1_clock_refusal_is_translated(chgk):
    start(chgk, 1, 1)
    resp = chgk.client.post(
        f"/api/host/events/{chgk.code}/rounds/1/questions/2/start?lang=ru",
        headers={"Authorization": f"Bearer {chgk.password}", "Accept-Language": "ru"})
    assert resp.status_code == 409
    assert resp.get_json()["message"] == "Вопрос 1 раунда 1 ещё идёт."


def test_chgk_1_1_event_sets_its_own_clock_for_a_faster_practice(make_chgk):
    practice = make_chgk(seconds=20, grace=3)
    clock = start(practice, 1, 1).get_json()
    assert (clock["seconds"], clock["grace"]) == (20, 3)
    assert _parse(clock["locks_at"]) - _parse(clock["opens_at"]) == dt.timedelta(seconds=23)


def test_chgk_1_1_clock_is_read_by_anyone(chgk, app):
    assert chgk.client.get(f"/api/events/{chgk.code}/clock").get_json() == {"clock": None}
    start(chgk, 2, 5, seconds=30, grace=5)
    clock = chgk.client.get(f"/api/events/{chgk.code}/clock").get_json()["clock"]
    assert (clock["round"], clock["question"], clock["state"]) == (2, 5, "open")
    with app.app_context():
        assert event_by_code(chgk.code).round(2).state == "open"


def test_chgk_1_1_api_event_created_by_the_organiser_locks_by_the_clock(app, client,
                                                                        chgk_pack_bytes):
    """Issue 14: POST /api/events creates a chgk event; its host starts a question; a
    team's answer is 200 before S + G seconds and 409 after, with nobody closing."""
    from answerdesk.packs import parse_pack
    from answerdesk.packs.importer import import_pack

    created = client.post("/api/events", json={"name": "ЧГК", "format": "chgk"},
                          headers={"Authorization": f"Bearer {app.config['ORGANISER_PASSWORD']}"})
    assert created.status_code == 201, created.get_json()
    code, password = created.get_json()["code"], created.get_json()["host_password"]
    with app.app_context():
        event = event_by_code(code)
        assert event.format == "chgk" and [r.number for r in event.rounds] == [1, 2]
        import_pack(event, parse_pack(chgk_pack_bytes, "chgk.txt"), "test")
        db.session.commit()
    token = client.post(f"/api/events/{code}/teams", json={"name": "Сова", "players": 4}
                        ).get_json()["token"]
    team = {"Authorization": f"Bearer {token}"}
    started = client.post(f"/api/host/events/{code}/rounds/1/questions/9/start",
                          json={"seconds": 1, "grace": 1},
                          headers={"Authorization": f"Bearer {password}"})
    assert started.status_code == 200
    locks_at = _parse(started.get_json()["locks_at"])
    assert client.put(f"/api/events/{code}/answers/1/9", json={"text": "Есенин"},
                      headers=team).status_code == 200
    time.sleep(max(0.0, (locks_at - dt.datetime.now(dt.UTC).replace(tzinfo=None))
                   .total_seconds()) + 0.05)
    late = client.put(f"/api/events/{code}/answers/1/9", json={"text": "Блок"}, headers=team)
    assert late.status_code == 409 and late.get_json()["error"] == "round_locked"
