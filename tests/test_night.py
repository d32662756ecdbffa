"""A quiz night end to end through the JSON API (issue: foundation).

Rule ids: BG-G1 unique names, BG-E2 lock, BG-E3 reveal, BG-S1/S2 standings, BG-G3 no leaks.
"""

from __future__ import annotations

import pytest

from answerdesk.extensions import db
from answerdesk.models import Answer, AuditEntry, Verdict


def test_bg_g1_join_returns_token_and_team(desk):
    resp = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "Сови", "players": 5})
    assert resp.status_code == 201
    body = resp.get_json()
    assert body["name"] == "Сови" and body["players"] == 5
    assert len(body["token"]) >= 24


@pytest.mark.parametrize("second", ["Авто", "  авто ", "АВТО", "Aвтo", "AВТO"])
def test_bg_g1_duplicate_and_lookalike_names_refused(desk, english, second):
    desk.join("Авто")
    resp = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": second})
    assert resp.status_code == 409
    body = resp.get_json()
    assert body["error"] == "name_taken"
    assert "another" in body["message"]


def test_bg_g1_different_names_both_join(desk):
    desk.join("Авто")
    desk.join("Авто 2")
    assert len(desk.standings()) == 2


@pytest.mark.parametrize("payload, field", [
    ({"name": ""}, "name"), ({"name": "x" * 61}, "name"),
    ({"name": "ok", "players": 0}, "players"), ({"name": "ok", "players": "many"}, "players"),
])
def test_join_bad_input_is_a_clear_400(desk, payload, field):
    resp = desk.client.post(f"/api/events/{desk.code}/teams", json=payload)
    assert resp.status_code == 400
    assert resp.get_json()["field"] == field


def test_join_unknown_event_is_404(client, demo):
    resp = client.post("/api/events/NOSUCH/teams", json={"name": "A"})
    assert resp.status_code == 404


def test_sheet_hides_draft_rounds_and_keys(desk):
    token = desk.join("Сови")
    sheet = desk.sheet(token).get_json()
    assert sheet["rounds"] == []
    desk.host(2, "open")
    sheet = desk.sheet(token).get_json()
    assert [r["number"] for r in sheet["rounds"]] == [2]
    text = str(sheet)
    assert "Левски" not in text and "Марица" not in text  # BG-G3: no key before reveal


def test_answers_saved_changed_and_versioned(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    first = desk.save(token, 2, 1, "Левски")
    assert first.status_code == 200
    assert first.get_json()["version"] == 1 and first.get_json()["receipt"]
    second = desk.save(token, 2, 1, "Васил Левски")
    assert second.get_json()["version"] == 2
    answer = desk.sheet(token).get_json()["rounds"][0]["questions"][0]["answer"]
    assert answer["text"] == "Васил Левски" and answer["saved_at"].endswith("Z")


def test_replayed_edit_changes_nothing(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    assert desk.save(token, 2, 1, "Ботев", seq=20).get_json()["version"] == 1
    assert desk.save(token, 2, 1, "Левски", seq=10).get_json()["text"] == "Ботев"
    assert desk.save(token, 2, 1, "Ботев", seq=20).get_json()["version"] == 1


def test_phone_edits_are_each_stored_and_audited_once(desk, app):
    """The phone numbers its edits (seq): each change is kept, versioned and audited
    with what it replaced; the same text again only moves seq on."""
    token = desk.join("Сови")
    desk.host(2, "open")
    texts = ["Лев", "Левски", "Васил Левски"]
    for seq, text in enumerate(texts, 1):
        saved = desk.save(token, 2, 1, text, seq=seq).get_json()
        assert (saved["text"], saved["version"]) == (text, seq)
    assert desk.save(token, 2, 1, "Васил Левски", seq=4).get_json()["version"] == 3
    assert desk.save(token, 2, 1, "Левски", seq=3).get_json()["text"] == "Васил Левски"
    answer = desk.sheet(token).get_json()["rounds"][0]["questions"][0]["answer"]
    assert (answer["text"], answer["version"]) == ("Васил Левски", 3)
    with app.app_context():
        stored = db.session.scalars(db.select(Answer)).one()
        assert (stored.text, stored.version, stored.client_seq) == ("Васил Левски", 3, 4)
        entries = db.session.scalars(
            db.select(AuditEntry).where(AuditEntry.action == "answer.save")
            .order_by(AuditEntry.id)
        ).all()
        assert [e.after["text"] for e in entries] == texts
        assert [e.before and e.before["text"] for e in entries] == [None, *texts[:2]]
        assert {e.subject for e in entries} == {"R2Q1 Сови"}


def test_bg_e2_save_after_lock_refused_and_earlier_answer_kept(desk, english):
    token = desk.join("Сови")
    desk.host(2, "open")
    assert desk.save(token, 2, 1, "Левски").status_code == 200
    assert desk.host(2, "close").get_json()["state"] == "locked"
    late = desk.save(token, 2, 1, "Ботев")
    assert late.status_code == 409
    body = late.get_json()
    assert body["error"] == "round_locked" and body["round"] == 2
    assert "Round 2" in body["message"]
    answer = desk.sheet(token).get_json()["rounds"][0]["questions"][0]["answer"]
    assert answer["text"] == "Левски"


def test_save_to_draft_round_refused(desk):
    token = desk.join("Сови")
    assert desk.save(token, 3, 1, "Колизеум").status_code == 409


def test_save_unknown_question_is_404(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    assert desk.save(token, 2, 99, "x").status_code == 404


def test_answer_too_long_refused_with_message(desk, english):
    token = desk.join("Сови")
    desk.host(2, "open")
    resp = desk.save(token, 2, 1, "я" * 501)
    assert resp.status_code == 400 and "too long" in resp.get_json()["message"]


def test_control_characters_stripped(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    assert desk.save(token, 2, 1, "Лев\x00ски\u200b").get_json()["text"] == "Левски"


def test_verdicts_and_standings_after_close(desk, app):
    a, b, c = desk.join("Сови"), desk.join("Бухали"), desk.join("Орли")
    desk.host(2, "open")
    desk.save(a, 2, 1, "Васил Левски")
    desk.save(a, 2, 2, "Марица")
    desk.save(b, 2, 1, "Левски")
    desk.save(b, 2, 2, "не знам")
    desk.save(c, 2, 1, "Ботев")
    desk.host(2, "close")
    with app.app_context():
        outcomes = {
            a.text: v.outcome
            for a, v in db.session.execute(db.select(Answer, Verdict).join(Verdict))
        }
    assert outcomes["Васил Левски"] == "correct"
    assert outcomes["Марица"] == "correct"
    assert outcomes["не знам"] == "wrong"
    assert outcomes["Ботев"] == "wrong"
    table = {row["team"]: row for row in desk.standings()}
    assert table["Сови"]["points"] == 4 and table["Сови"]["place"] == 1
    assert table["Бухали"]["points"] == 2 and table["Бухали"]["place"] == 2
    assert table["Орли"]["points"] == 0 and table["Орли"]["place"] == 3
    assert table["Сови"]["by_round"] == {"2": 4}


def test_bg_s2_equal_points_share_place(desk):
    a, b, c = desk.join("A"), desk.join("B"), desk.join("C")
    desk.host(2, "open")
    for token in (a, b):
        desk.save(token, 2, 2, "Марица")
    desk.save(c, 2, 2, "Дунав")
    desk.host(2, "close")
    places = {row["team"]: (row["place"], row["shared"]) for row in desk.standings()}
    assert places == {"A": (1, True), "B": (1, True), "C": (3, False)}


def test_bg_e3_reveal_shows_key_and_verdict_to_team(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 2, "Марица")
    assert desk.host(2, "reveal").status_code == 409  # must be locked first
    desk.host(2, "close")
    assert desk.host(2, "reveal").get_json()["state"] == "revealed"
    q2 = desk.sheet(token).get_json()["rounds"][0]["questions"][1]
    assert q2["correct_answer"] == "Марица" and q2["verdict"] == "correct"


def test_team_a_cannot_read_or_change_team_b(desk):
    a, b = desk.join("A"), desk.join("B")
    desk.host(2, "open")
    desk.save(b, 2, 1, "Левски")
    sheet_a = desk.sheet(a).get_json()
    assert sheet_a["team"]["name"] == "A"
    assert sheet_a["rounds"][0]["questions"][0]["answer"] is None
    desk.save(a, 2, 1, "Ботев")
    sheet_b = desk.sheet(b).get_json()
    assert sheet_b["rounds"][0]["questions"][0]["answer"]["text"] == "Левски"


def test_token_is_scoped_to_its_event(desk, app, client):
    from answerdesk.formats.bg.demo import create_demo_event

    token = desk.join("A")
    with app.app_context():
        other, _ = create_demo_event()
        db.session.commit()
        other_code = other.code
    resp = client.get(f"/api/events/{other_code}/sheet",
                      headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 401


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"},
                                     {"Authorization": "Basic abc"}])
def test_sheet_and_save_refuse_without_valid_token(desk, headers):
    desk.host(2, "open")
    assert desk.client.get(f"/api/events/{desk.code}/sheet", headers=headers).status_code == 401
    resp = desk.client.put(f"/api/events/{desk.code}/answers/2/1", json={"text": "x"},
                           headers=headers)
    assert resp.status_code == 401


@pytest.mark.parametrize("action", ["open", "close", "reveal"])
def test_host_api_refuses_without_password(desk, action):
    assert desk.client.post(f"/api/host/events/{desk.code}/rounds/2/{action}").status_code == 401
    assert desk.host(2, action, password="not-the-password").status_code == 401
    token = desk.join("A")
    assert desk.host(2, action, password=token).status_code == 401


def test_every_change_is_audited(desk, app):
    token = desk.join("A")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Левски")
    desk.save(token, 2, 1, "Ботев")
    desk.host(2, "close")
    with app.app_context():
        actions = [e.action for e in db.session.scalars(
            db.select(AuditEntry).order_by(AuditEntry.id))]
        change = db.session.scalars(
            db.select(AuditEntry).where(AuditEntry.action == "answer.save")
            .order_by(AuditEntry.id.desc())).first()
    assert actions[-5:] == ["team.join", "round.open", "answer.save", "answer.save",
                            "round.close"]
    assert change.before["text"] == "Левски" and change.after["text"] == "Ботев"


def test_openapi_document_lists_every_route(client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    for path in ("/api/events/{code}/teams", "/api/events/{code}/sheet",
                 "/api/events/{code}/answers/{round}/{question}",
                 "/api/events/{code}/standings",
                 "/api/host/events/{code}/rounds/{round}/open",
                 "/api/host/events/{code}/rounds/{round}/close"):
        assert path in doc["paths"]
    from openapi_spec_validator import validate
    validate(doc)


def test_question_with_its_own_value_scores_it(desk, app):
    """A pack's per-question price (SIGame, Своя игра) beats the round's points."""
    from answerdesk.models import Question, Round

    with app.app_context():
        question = db.session.scalar(
            db.select(Question).join(Round).where(Round.number == 2, Question.number == 2))
        question.points = 30
        db.session.commit()
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Левски")
    desk.save(token, 2, 2, "Марица")
    desk.host(2, "close")
    assert desk.standings()[0]["points"] == 2 + 30
