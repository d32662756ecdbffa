"""Events of one's own over the API: POST /api/events with the organiser password
(issue 14 §1)."""

from __future__ import annotations

import pytest

from answerdesk import create_app
from answerdesk.extensions import db
from answerdesk.models import AuditEntry, Event


def _organiser(app) -> dict[str, str]:
    return {"Authorization": f"Bearer {app.config['ORGANISER_PASSWORD']}"}


def _count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Event.id)))


def test_api_creates_an_event_and_its_host_can_use_it(app, client):
    resp = client.post("/api/events", headers=_organiser(app), json={
        "name": "Пъб куиз", "format": "bg", "date": "2026-03-12", "screen_locale": "en"})
    assert resp.status_code == 201, resp.get_json()
    data = resp.get_json()
    assert set(data) == {"code", "host_password", "team_url", "host_url", "screen_url"}
    assert data["team_url"] == f"http://quiz.test/e/{data['code']}"
    assert data["screen_url"] == f"http://quiz.test/e/{data['code']}/screen"
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == data["code"]))
        assert (event.name, event.format, event.date.isoformat(), event.screen_locale) == (
            "Пъб куиз", "bg", "2026-03-12", "en")
        actions = set(db.session.scalars(db.select(AuditEntry.action)
                                         .where(AuditEntry.event_id == event.id)))
        assert {"event.create", "event.organise"} <= actions
    opened = client.post(f"/api/host/events/{data['code']}/rounds/2/open",
                         headers={"Authorization": f"Bearer {data['host_password']}"})
    assert opened.status_code == 200


def test_api_date_and_language_default(app, client):
    import datetime as dt

    data = client.post("/api/events", headers=_organiser(app),
                       json={"name": "Tonight", "format": "bg"}).get_json()
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == data["code"]))
        assert (event.date, event.screen_locale) == (dt.date.today(), "bg")


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"},
                                     {"Authorization": "Basic abc"}])
def test_api_without_the_organiser_password_is_401(app, client, headers, english):
    resp = client.post("/api/events", headers=headers, json={"name": "X", "format": "bg"})
    assert resp.status_code == 401
    assert resp.get_json()["message"] == "The organiser password is required"
    assert _count(app) == 0


@pytest.mark.parametrize(("body", "english_words", "russian_words"), [
    ({"name": "  ", "format": "bg"}, "The event needs a name", "название"),
    ({"format": "bg"}, "The event needs a name", "название"),
    ({"name": "X", "format": "whist"}, "Unknown format 'whist'", "whist"),
    ({"name": "X"}, "Unknown format", "формат"),
    ({"name": "X", "format": "bg", "date": "12.03.2026"}, "2026-03-14", "2026-03-14"),
    ({"name": "X", "format": "bg", "date": "2026-02-30"}, "2026-03-14", "2026-03-14"),
    ({"name": "X", "format": "bg", "date": 20260312}, "2026-03-14", "2026-03-14"),
    ({"name": "X", "format": "bg", "screen_locale": "de"}, "Unknown language", "язык"),
])
def test_api_refuses_bad_input_with_a_translated_400(app, client, body, english_words,
                                                     russian_words):
    for lang, words in (("en", english_words), ("ru", russian_words)):
        resp = client.post("/api/events", json=body, headers={
            **_organiser(app), "Accept-Language": lang})
        assert resp.status_code == 400, resp.get_json()
        assert words in resp.get_json()["message"], (lang, resp.get_json())
    assert _count(app) == 0


def test_api_body_must_be_json(app, client):
    resp = client.post("/api/events", headers=_organiser(app), data="name=x")
    assert resp.status_code == 400


def test_api_wrong_passwords_are_rate_limited(db_uri, tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "t",
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True,
                      "ORGANISER_PASSWORD": "right-one"})
    client = app.test_client()
    codes = [client.post("/api/events", json={"name": "X", "format": "bg"},
                         headers={"Authorization": f"Bearer guess{i}"}).status_code
             for i in range(25)]
    assert codes[:10] == [401] * 10  # access.CREDENTIAL_LIMIT, one rule for all (issue 31)
    assert codes[-1] == 429


def test_api_is_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").get_json()
    operation = doc["paths"]["/api/events"]["post"]
    assert operation["security"] == [{"organiserPassword": []}]
    assert {"201", "400", "401"} <= set(operation["responses"])
    schema = doc["components"]["schemas"]["NewEvent"]
    assert schema["required"] == ["name", "format"]
    assert "bg" in schema["properties"]["format"]["enum"]  # the registry's formats


def test_organiser_password_is_compared_in_constant_time(app, monkeypatch):
    import hmac

    from answerdesk import access

    calls = []
    real = hmac.compare_digest
    monkeypatch.setattr(access.hmac, "compare_digest",
                        lambda a, b: calls.append((a, b)) or real(a, b))
    with app.test_request_context():
        assert access.check_organiser_password(app.config["ORGANISER_PASSWORD"])
        assert not access.check_organiser_password("nope")
        assert not access.check_organiser_password(None)
    assert len(calls) == 2


@pytest.mark.slow
def test_api_creates_an_event_under_gunicorn(app, live_server):
    """The real app: an event made over the API is at once playable by its links."""
    import requests

    base = live_server.url
    resp = requests.post(f"{base}/api/events", json={"name": "Served", "format": "bg"},
                         headers=_organiser(app), timeout=10)
    assert resp.status_code == 201, resp.text
    data = resp.json()
    assert data["team_url"] == f"{base}/e/{data['code']}"
    assert requests.get(data["team_url"], timeout=10).status_code == 200
    joined = requests.post(f"{base}/api/events/{data['code']}/teams", json={"name": "Сови"},
                           timeout=10)
    assert joined.status_code == 201
    opened = requests.post(f"{base}/api/host/events/{data['code']}/rounds/2/open",
                           headers={"Authorization": f"Bearer {data['host_password']}"},
                           timeout=10)
    assert opened.status_code == 200
    wrong = requests.post(f"{base}/api/events", json={"name": "X", "format": "bg"},
                          headers={"Authorization": "Bearer nope"}, timeout=10)
    assert wrong.status_code == 401 and wrong.headers["Cache-Control"] == "no-store"
