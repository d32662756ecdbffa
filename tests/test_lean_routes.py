"""The lean routes (answerdesk/lean_routes.py, issue 33): the phone's save and state
poll served below Flask's request machinery answer exactly what their Flask views
answer, refusals included, and leave every other request to Flask."""

from __future__ import annotations

import json
import threading

import pytest
from factories import Desk

from answerdesk import create_app
from answerdesk.lean_routes import LeanRoutes, install
from answerdesk.slots import _slots


def _lean(app) -> LeanRoutes:
    lean = app.wsgi_app
    assert isinstance(lean, LeanRoutes)
    return lean


def _flask_only(app):
    """The same app answering through Flask's own wsgi_app (what a lean route stands in
    for): the reference every lean answer is held to."""
    lean = _lean(app)
    app.wsgi_app = lean.inner
    return lean


def _headers(response) -> list[tuple[str, str]]:
    return sorted((k, v) for k, v in response.headers.items()
                  if k not in ("Content-Length", "Date"))


def _saved(response) -> dict:
    body = response.get_json()
    body.pop("saved_at")
    body.pop("receipt")
    return body


@pytest.fixture
def opened(desk: Desk) -> Desk:
    assert desk.host(2, "open").status_code == 200
    return desk


def test_a_save_and_a_state_poll_are_served_lean_as_flask_serves_them(app, opened: Desk):
    first, second = opened.join("Lean"), opened.join("Flask")
    lean = _lean(app)
    url = f"/api/events/{opened.code}/answers/2/1"
    served = lean.served
    by_lean = [opened.client.put(url + query, json={"text": "Левски"},
                                 headers={"Authorization": f"Bearer {first}"})
               for query in ("", "?with=state")]
    state_lean = opened.client.get(f"/api/events/{opened.code}/state")
    assert lean.served == served + 3
    _flask_only(app)
    by_flask = [opened.client.put(url + query, json={"text": "Левски"},
                                  headers={"Authorization": f"Bearer {second}"})
                for query in ("", "?with=state")]
    state_flask = opened.client.get(f"/api/events/{opened.code}/state")
    assert lean.served == served + 3
    for mine, reference in zip(by_lean, by_flask, strict=True):
        assert mine.status_code == reference.status_code == 200
        assert _headers(mine) == _headers(reference)
        assert _saved(mine) == _saved(reference)
        assert int(mine.headers["Content-Length"]) == len(mine.data)
    assert "state" in by_lean[1].get_json()
    assert by_lean[1].get_json()["state"] == by_flask[1].get_json()["state"]
    assert state_lean.data == state_flask.data
    assert _headers(state_lean) == _headers(state_flask)
    assert state_lean.headers["Cache-Control"] == "no-store"
    assert state_lean.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("language", ["bg", "ru", "en"])
def test_refusals_read_as_flask_words_them(app, opened: Desk, language: str):
    """A wrong token, a locked round, a bad body, no such event: Flask's own error
    handlers answer them, in the phone's language, with the same status and headers."""
    token = opened.join("Refused")
    assert opened.host(1, "close").status_code in (200, 409)
    cases = [
        ("PUT", f"/api/events/{opened.code}/answers/2/1", {"text": "x"}, "wrong-token"),
        ("PUT", f"/api/events/{opened.code}/answers/1/1", {"text": "x"}, token),
        ("PUT", f"/api/events/{opened.code}/answers/2/1", {"text": 5}, token),
        ("PUT", f"/api/events/{opened.code}/answers/2/99", {"text": "x"}, token),
        ("PUT", f"/api/events/{opened.code}/answers/2/1", {"text": "\ud800"}, token),
        ("GET", "/api/events/NOSUCH/state", None, None),
        ("PUT", "/api/events/NOSUCH/answers/2/1", {"text": "x"}, token),
    ]

    def send(method, url, body, bearer):
        headers = {"Accept-Language": language}
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        return opened.client.open(url, method=method, headers=headers,
                                   **({} if body is None else {"json": body}))

    lean = _lean(app)
    served = lean.served
    mine = [send(*case) for case in cases]
    _flask_only(app)
    reference = [send(*case) for case in cases]
    assert lean.served == served
    for case, a, b in zip(cases, mine, reference, strict=True):
        assert a.status_code == b.status_code >= 400, case
        assert a.get_json() == b.get_json(), case
        assert _headers(a) == _headers(b), case


@pytest.mark.parametrize("request_kwargs", [
    {"method": "PUT", "query_string": "with=play", "json": {"text": "x"}},
    {"method": "PUT", "data": b'{"text": "x"}', "content_type": "text/plain"},
    {"method": "PUT", "data": b'{"text": ', "content_type": "application/json"},
    {"method": "PUT", "data": b"[" * 5000, "content_type": "application/json"},
    {"method": "PUT", "data": b"", "content_type": "application/json"},
    {"method": "PUT", "data": json.dumps({"text": "x" * 70_000}).encode(),
     "content_type": "application/json"},
    {"method": "POST", "json": {"text": "x"}},
    {"method": "HEAD"},
])
def test_what_a_lean_route_does_not_know_goes_to_flask(app, opened: Desk, request_kwargs):
    token = opened.join("Odd")
    lean = _lean(app)
    served = lean.served
    url = f"/api/events/{opened.code}/answers/2/1"
    if request_kwargs["method"] == "HEAD":
        url = f"/api/events/{opened.code}/state"
    mine = opened.client.open(url, headers={"Authorization": f"Bearer {token}"},
                              **request_kwargs)
    assert lean.served == served
    _flask_only(app)
    reference = opened.client.open(url, headers={"Authorization": f"Bearer {token}"},
                                   **request_kwargs)
    assert mine.status_code == reference.status_code
    assert mine.get_json(silent=True) == reference.get_json(silent=True)


@pytest.mark.parametrize("path", [
    "/api/events/{code}/answers/2/0001",
    "/api/events/{code}/answers/2/9999999999",
    "/api/events/{code}/answers/2/1/",
    "/api/events/{code}%00/answers/2/1",
    "/api/events/{lower}/answers/2/1",
])
def test_paths_flask_reads_otherwise_go_to_flask_or_agree(app, opened: Desk, path: str):
    """Numbers beyond nine digits, a trailing slash, a NUL byte: Flask's converters
    and hooks decide those. A lower-case code or a leading zero is read alike by both."""
    token = opened.join("Paths")
    url = path.format(code=opened.code, lower=opened.code.lower())
    answer = opened.client.put(url, json={"text": "Ботев"},
                               headers={"Authorization": f"Bearer {token}"})
    _flask_only(app)
    reference = opened.client.put(url, json={"text": "Ботев"},
                                  headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == reference.status_code
    if answer.status_code == 200:
        assert _saved(answer) == _saved(reference)
    else:
        assert answer.get_json() == reference.get_json()


def test_a_lean_request_waits_for_a_request_slot(app, opened: Desk):
    """REQUEST_SLOTS holds for lean requests as for any (slots.py)."""
    app.config["REQUEST_SLOTS"] = 1
    with app.app_context():
        slots = _slots()
    assert slots is not None
    slots.acquire()
    done = threading.Event()
    answers = []

    def poll():
        answers.append(opened.client.get(f"/api/events/{opened.code}/state").status_code)
        done.set()

    thread = threading.Thread(target=poll)
    thread.start()
    assert not done.wait(0.5)
    slots.release()
    assert done.wait(10)
    thread.join()
    assert answers == [200]


def test_a_proxy_in_front_sees_first(db_uri, tmp_path, monkeypatch):
    """With PROXY_COUNT, ProxyFix wraps the lean routes too: they see the client's
    address and scheme."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    monkeypatch.setenv("PROXY_COUNT", "1")
    app = create_app({"SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "t",
                      "INSTANCE_PATH": str(tmp_path), "TESTING": True})
    assert isinstance(app.wsgi_app, ProxyFix)
    assert isinstance(app.wsgi_app.app, LeanRoutes)


def test_an_endpoint_with_a_rate_limit_cannot_be_served_lean(db_uri, tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "t",
                      "INSTANCE_PATH": str(tmp_path), "TESTING": True})
    app.extensions["answerdesk_limited"].add("api.state")
    with pytest.raises(RuntimeError, match="api.state"):
        install(app)


def test_with_csrf_and_limits_on_a_save_is_served_lean(strict_app):
    """The app as served (CSRF on, rate limits on): the phone's save needs no CSRF token
    through Flask (the API's blueprint is exempt), so none through its lean route."""
    client = strict_app.test_client()
    code, password = strict_app.config["DEMO"]
    desk = Desk(client, code, password)
    assert desk.host(2, "open").status_code == 200
    token = desk.join("Strict")
    lean = _lean(strict_app)
    served = lean.served
    assert desk.save(token, 2, 1, "Левски").status_code == 200
    assert lean.served == served + 1
    _flask_only(strict_app)
    assert desk.save(token, 2, 2, "Левски").status_code == 200


def test_a_phones_reread_of_its_teams_changes_is_served_lean_as_flask_serves_it(
        app, opened: Desk):
    token = opened.join("Reread")
    held = opened.sheet(token).get_json()
    assert opened.save(token, 2, 1, "Левски").status_code == 200
    url = f"/api/events/{opened.code}/sheet"
    query = {"since": held["now"], "version": held["version"]}
    auth = {"Authorization": f"Bearer {token}"}
    lean = _lean(app)
    served = lean.served
    mine = opened.client.get(url, query_string=query, headers=auth)
    assert lean.served == served + 1
    # What the lean route leaves to Flask: the whole sheet, asked or due (another
    # version), and a query with more in it (Flask's view reads the delta from it).
    for odd, whole in (({}, True), ({**query, "version": "old"}, True),
                       ({**query, "lang": "en"}, False)):
        answer = opened.client.get(url, query_string=odd, headers=auth)
        assert answer.status_code == 200 and ("delta" not in answer.get_json()) == whole
    assert lean.served == served + 1
    _flask_only(app)
    reference = opened.client.get(url, query_string=query, headers=auth)
    assert mine.get_json()["delta"] is True
    assert [a["text"] for a in mine.get_json()["answers"]] == ["Левски"]
    for answer in (mine, reference):
        assert answer.get_json().pop("now")
    strip = [{k: v for k, v in r.get_json().items() if k != "now"} for r in (mine, reference)]
    assert strip[0] == strip[1]
    assert _headers(mine) == _headers(reference)


def test_what_a_lean_read_flushed_is_committed_as_flask_commits_it(app, opened: Desk,
                                                                  monkeypatch):
    """OpenQuiz's state settles a timer that ran out (a write inside a read): the
    request boundary commits it, on a lean route as after Flask's views."""
    from answerdesk import lean_routes
    from answerdesk.core import audit
    from answerdesk.core.events import event_by_code
    from answerdesk.extensions import db
    from answerdesk.models import AuditEntry

    def settling(code: str) -> dict:
        audit.record(event_by_code(code), "clock", "test.settled", "R2")
        db.session.flush()
        return {"settled": True}

    monkeypatch.setattr(lean_routes, "plain_state_by_code", settling)
    lean = _lean(app)
    served = lean.served
    assert opened.client.get(f"/api/events/{opened.code}/state").get_json() == {
        "settled": True}
    assert lean.served == served + 1
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(AuditEntry.id)).where(
            AuditEntry.action == "test.settled")) == 1
