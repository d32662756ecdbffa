"""The start page `/`: the organiser logs in, sees the events, creates one (issue 14 §1)."""

from __future__ import annotations

import io
import re

from answerdesk import create_app
from answerdesk.extensions import db
from answerdesk.models import Event

PACK = ('answerdesk_pack: 1\ntitle: "Night"\nrounds:\n  - number: 2\n    questions:\n'
        '      - text: "Столицата на Австралия?"\n        key: ["Канбера"]\n')


def _log_in(app, client):
    resp = client.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]})
    assert resp.status_code == 302


def _events(app) -> list[Event]:
    with app.app_context():
        return list(db.session.scalars(db.select(Event)))


def test_start_page_asks_for_the_organiser_password(app, client, english):
    page = client.get("/").get_data(as_text=True)
    assert "Organiser password" in page and 'name="csrf_token"' in page
    wrong = client.post("/login", data={"password": "nope"})
    assert wrong.status_code == 401 and "Wrong password." in wrong.get_data(as_text=True)
    assert client.post("/events", data={"name": "X", "format": "bg"}).status_code == 401
    assert _events(app) == []


def test_organiser_creates_an_event_and_sees_the_password_once(app, client, demo, english):
    _log_in(app, client)
    page = client.get("/").get_data(as_text=True)
    assert demo[0] in page and "Демо куиз вечер" in page
    resp = client.post("/events", data={
        "name": "Пъб куиз 12 март", "date": "2026-03-12", "format": "bg",
        "screen_locale": "ru", "pack": (io.BytesIO(PACK.encode()), "night.yaml")},
        content_type="multipart/form-data")
    # POST-redirect-GET: the password travels in the fragment, never to the server again
    assert resp.status_code == 303
    location = resp.headers["Location"]
    password = re.search(r"#password=(\w+)$", location).group(1)
    page = client.get(location.split("#")[0]).get_data(as_text=True)
    assert password not in page and 'id="new-password"' in page and "start.js" in page
    event = next(e for e in _events(app) if e.name == "Пъб куиз 12 март")
    assert location.startswith(f"/events/{event.code}/created")
    assert (event.format, event.date.isoformat(), event.screen_locale) == (
        "bg", "2026-03-12", "ru")
    with app.app_context():
        event = db.session.get(Event, event.id)
        assert [(r.number, len(r.questions)) for r in event.rounds] == [(2, 1)]
    assert "shown only this once" in page
    assert len(_events(app)) == 2  # a refresh of the page that follows creates nothing
    listing = client.get("/").get_data(as_text=True)
    assert event.code in listing and password not in listing
    host = app.test_client()
    assert host.post(f"/host/{event.code}/login", data={"password": password}).status_code == 302


def test_reset_host_password_shows_a_new_one_once(app, client, demo):
    code, old = demo
    _log_in(app, client)
    page = client.post(f"/events/{code}/host-password").get_data(as_text=True)
    new = re.search(r'class="password"><code>(\w+)</code>', page).group(1)
    assert new != old
    host = app.test_client()
    assert host.post(f"/host/{code}/login", data={"password": old}).status_code == 200
    assert host.post(f"/host/{code}/login", data={"password": new}).status_code == 302
    assert new not in client.get("/").get_data(as_text=True)


def test_start_page_refusals_are_translated_and_change_nothing(app, client):
    _log_in(app, client)
    bad_pack = PACK + "        colour: red\n"
    cases = [
        ({"name": " ", "format": "bg"}, "Събитието трябва да има име"),
        ({"name": "X", "format": "whist"}, "whist"),
        ({"name": "X", "format": "bg", "date": "32.13.2026"}, "2026-03-14"),
        ({"name": "X", "format": "bg", "pack": (io.BytesIO(bad_pack.encode()), "n.yaml")},
         "ред 8"),
    ]
    for data, words in cases:
        resp = client.post("/events", data=data, content_type="multipart/form-data",
                           headers={"Accept-Language": "bg"})
        assert resp.status_code == 400, data
        assert words in resp.get_data(as_text=True), (data, resp.get_data(as_text=True))
        assert "Български пъб куиз</option>" in resp.get_data(as_text=True)  # the registry's
    assert _events(app) == []


def test_logout_ends_the_organiser_session(app, client, english):
    _log_in(app, client)
    assert "New event" in client.get("/").get_data(as_text=True)
    client.post("/logout")
    assert "Organiser password" in client.get("/").get_data(as_text=True)


def test_a_new_organiser_password_ends_old_sessions(db_uri, tmp_path):
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "t",
              "INSTANCE_PATH": str(tmp_path), "WTF_CSRF_ENABLED": False}
    first = create_app({**config, "ORGANISER_PASSWORD": "one-password"})
    client = first.test_client()
    client.post("/login", data={"password": "one-password"})
    cookie = client.get_cookie("session").value
    second = create_app({**config, "ORGANISER_PASSWORD": "another-one"})
    other = second.test_client()
    other.set_cookie("session", cookie)
    assert other.post("/events", data={"name": "X", "format": "bg"}).status_code == 401


def test_start_forms_need_the_csrf_token(db_uri, tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "t",
                      "INSTANCE_PATH": str(tmp_path), "ORGANISER_PASSWORD": "pw-123456"})
    client = app.test_client()
    assert client.post("/login", data={"password": "pw-123456"}).status_code == 400


def test_organiser_login_is_rate_limited(db_uri, tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "t",
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True,
                      "WTF_CSRF_ENABLED": False, "ORGANISER_PASSWORD": "pw-123456"})
    client = app.test_client()
    codes = [client.post("/login", data={"password": f"g{i}"}).status_code for i in range(12)]
    assert codes[:10] == [401] * 10 and codes[-1] == 429


def test_a_refused_form_comes_back_filled_in_and_names_the_pack_to_choose_again(
        app, client, english):
    _log_in(app, client)
    bad_pack = PACK + "        colour: red\n"
    resp = client.post("/events", data={
        "name": "Четвъртък", "date": "2026-05-07", "format": "oq", "screen_locale": "ru",
        "pack": (io.BytesIO(bad_pack.encode()), "night.yaml")},
        content_type="multipart/form-data")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 400 and 'id="problem"' in page and "line 8" in page
    assert 'value="Четвъртък"' in page and 'value="2026-05-07"' in page
    assert '<option value="oq" selected>' in page and '<option value="ru" selected>' in page
    assert "Choose the pack again: night.yaml" in page
    assert _events(app) == []


def test_a_large_pack_is_accepted_and_the_new_event_shows_the_imports_warnings(
        app, client, english):
    """Issue 29: the form takes a pack up to the Programme page's limit (a .siq with
    media is over the host forms' 1 MB), and the created event's page shows what the
    import warned about."""
    from pathlib import Path

    _log_in(app, client)
    siq = Path(__file__).parent / "data" / "packs" / "sigame" / "si-gametest-v4-media.siq"
    assert siq.stat().st_size > app.config.get("MAX_CONTENT_LENGTH", 1024 * 1024)
    resp = client.post("/events", data={"name": "SIQ", "format": "bg",
                                        "pack": (io.BytesIO(siq.read_bytes()), siq.name)},
                       content_type="multipart/form-data")
    assert resp.status_code == 303, resp.get_data(as_text=True)[:300]
    page = client.get(resp.headers["Location"].split("#")[0]).get_data(as_text=True)
    assert 'id="import-warnings"' in page and "<li>" in page.split('id="import-warnings"')[1]
