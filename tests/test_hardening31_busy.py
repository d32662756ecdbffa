"""Issue 31: a write the database cannot take in time is refused as busy: a 503 with a
translated JSON body, a code and Retry-After, which the phone's queue resends
(static/sheet.js), and nothing changes (answerdesk/errors.py Busy, database.busy.is_busy).

The database's lock is held from another connection, as a long write of another
process would: SQLite's write lock (BEGIN IMMEDIATE), PostgreSQL's tables (LOCK TABLE);
DATABASE_LOCK_TIMEOUT is shortened so the wait runs out quickly.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
import pytest
import requests
from factories import ON_POSTGRES, PG_URL

BUSY = {
    "bg": "Сървърът е зает: нищо не е променено. Опитайте отново след малко.",
    "ru": "Сервер занят: ничего не изменено. Попробуйте ещё раз через мгновение.",
    "en": "The server is busy: nothing was changed. Try again in a moment.",
}


# the phone's notice while the server asks it to wait (the browser asks for English)
KEPT = "The server is busy: your answer is kept on this phone and will be sent in a moment."


@pytest.fixture
def short_wait(monkeypatch):
    """Writes wait 0.4 s for the lock (the app below and any gunicorn it serves)."""
    monkeypatch.setenv("DATABASE_LOCK_TIMEOUT", "0.4")


@contextmanager
def holding_the_lock(db_uri: str) -> Iterator[Callable[[], tuple]]:
    """Another connection holds the database's write lock; yields a counter of the rows
    of the tables a save and a round's close write (read through that connection)."""
    if ON_POSTGRES:
        conn = psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"))
        conn.execute('LOCK TABLE answer, audit_entry, round IN EXCLUSIVE MODE')
    else:
        conn = sqlite3.connect(db_uri.removeprefix("sqlite:///"), isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")

    def counts() -> tuple:
        return tuple(conn.execute(sql).fetchone() for sql in (
            "SELECT count(*) FROM answer", "SELECT count(*) FROM audit_entry",
            "SELECT number, state FROM round WHERE number = 2"))

    try:
        yield counts
    finally:
        conn.rollback()
        conn.close()


def _assert_busy(resp, language: str) -> None:
    assert resp.status_code == 503, resp.text
    assert resp.headers["Content-Type"].startswith("application/json")
    assert resp.headers["Retry-After"] == "1"
    body = resp.json()
    assert body["error"] == "busy"
    assert body["message"] == BUSY[language]


def test_31_busy_save_and_close_are_503s_to_resend_under_gunicorn(short_wait, serve, demo,
                                                                   db_uri):
    """Phones' saves (the lean path) and the host's close (the ORM's) while another
    connection holds the lock: 503 busy in the phone's language, nothing written; once
    the lock is free the same requests go through."""
    code, password = demo
    server = serve(workers=2, threads=4)
    api = f"{server.url}/api/events/{code}"
    host = {"Authorization": f"Bearer {password}"}
    token = requests.post(f"{api}/teams", json={"name": "Сови"}, timeout=30).json()["token"]
    assert requests.post(f"{server.url}/api/host/events/{code}/rounds/2/open", headers=host,
                         timeout=30).status_code == 200
    team = {"Authorization": f"Bearer {token}"}
    assert requests.put(f"{api}/answers/2/1", json={"text": "Канбера", "seq": 1},
                        headers=team, timeout=30).status_code == 200
    with holding_the_lock(db_uri) as counts:
        before = counts()
        for n, language in enumerate(("bg", "ru", "en"), start=2):
            _assert_busy(requests.put(f"{api}/answers/2/{n}", json={"text": "Марица", "seq": n},
                                      headers={**team, "Accept-Language": language},
                                      timeout=30), language)
        # an edit of an answer already kept, and the state carried with it
        _assert_busy(requests.put(f"{api}/answers/2/1?with=state", json={"text": "Сидни",
                                                                         "seq": 9},
                                  headers={**team, "Accept-Language": "en"}, timeout=30), "en")
        _assert_busy(requests.post(f"{server.url}/api/host/events/{code}/rounds/2/close",
                                   headers={**host, "Accept-Language": "en"}, timeout=30),
                     "en")
        assert counts() == before
    saved = requests.put(f"{api}/answers/2/1", json={"text": "Сидни", "seq": 9}, headers=team,
                         timeout=30)
    assert saved.status_code == 200 and saved.json()["text"] == "Сидни"
    assert requests.post(f"{server.url}/api/host/events/{code}/rounds/2/close", headers=host,
                         timeout=30).json()["state"] == "locked"


def test_31_busy_host_form_is_a_page_with_retry_after(short_wait, app, client, demo, db_uri):
    """A host page's form refused as busy: the error page, translated, with Retry-After."""
    code, password = demo
    client.post(f"/host/{code}/login", data={"password": password})
    with holding_the_lock(db_uri) as counts:
        before = counts()
        resp = client.post(f"/host/{code}/rounds/2/open", headers={"Accept-Language": "en"})
        assert counts() == before
    assert resp.status_code == 503
    assert resp.headers["Retry-After"] == "1"
    assert resp.mimetype == "text/html"
    assert BUSY["en"] in resp.get_data(as_text=True)


@pytest.mark.skipif(ON_POSTGRES, reason="SQLite's writer queue")
def test_31_the_writer_queues_wait_runs_out_as_a_503(short_wait, app, demo, db_uri):
    """A save waiting behind another in the writer queue (the worker's thread lock) for
    longer than DATABASE_LOCK_TIMEOUT is refused as busy, not left to SQLite's own
    waiting (a "database is locked" 500 five seconds later): the first save waits on
    the queue's file lock, held here as another worker's transaction would hold it."""
    code, password = demo
    phone = app.test_client()
    token = phone.post(f"/api/events/{code}/teams", json={"name": "Сови"}).get_json()["token"]
    assert phone.post(f"/api/host/events/{code}/rounds/2/open",
                      headers={"Authorization": f"Bearer {password}"}).status_code == 200
    fd = os.open(db_uri.removeprefix("sqlite:///") + "-writer", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    replies: list = []
    done = threading.Event()

    def save(question: int) -> None:
        resp = app.test_client().put(f"/api/events/{code}/answers/2/{question}",
                                     json={"text": "Канбера"},
                                     headers={"Authorization": f"Bearer {token}",
                                              "Accept-Language": "en"})
        replies.append((question, resp.status_code, resp.headers.get("Retry-After"),
                        resp.get_json()))
        done.set()

    threads = [threading.Thread(target=save, args=(q,)) for q in (1, 2)]
    try:
        for t in threads:
            t.start()
        assert done.wait(20), "neither save came back: the queue's wait did not run out"
        ((question, status, retry, body),) = replies
        assert (status, retry, body["error"], body["message"]) == (503, "1", "busy", BUSY["en"])
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
        for t in threads:
            t.join(20)
    (other,) = [r for r in replies if r[0] != question]
    assert other[1] == 200  # the one that held the queue's place went through
    sheet = phone.get(f"/api/events/{code}/sheet",
                      headers={"Authorization": f"Bearer {token}"}).get_json()
    (round_two,) = [r for r in sheet["rounds"] if r["number"] == 2]
    answered = [q["number"] for q in round_two["questions"] if q["answer"]]
    assert answered == [other[0]]


def test_31_what_counts_as_busy():
    """Lock waits that ran out and lost races are busy; other database errors are not."""
    from answerdesk.database.busy import is_busy

    assert is_busy(sqlite3.OperationalError("database is locked")) is False  # no code: unknown
    locked = sqlite3.OperationalError("database is locked")
    locked.sqlite_errorcode = 5
    assert is_busy(locked)
    readonly = sqlite3.OperationalError("attempt to write a readonly database")
    readonly.sqlite_errorcode = 8
    assert not is_busy(readonly)
    for error in (psycopg.errors.LockNotAvailable("lock timeout"),
                  psycopg.errors.SerializationFailure("could not serialize"),
                  psycopg.errors.DeadlockDetected("deadlock detected")):
        assert is_busy(error)
    assert not is_busy(psycopg.errors.UndefinedTable("no such table"))


def test_31_busy_phone_keeps_its_answer_and_sends_it_again(short_wait, page, live_demo, db_uri):
    """The phone sheet in a real browser: a save answered busy (503) stays queued on the
    phone, shown as waiting, not refused, the network badge saying the server is busy
    and the answer kept; once the lock is free the phone sends it again and the server
    keeps it (static/sheet.js, static/phone.js)."""
    from playwright.sync_api import expect

    base, code, password = live_demo
    token = requests.post(f"{base}/api/events/{code}/teams", json={"name": "Сови"},
                          timeout=30).json()["token"]
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/open", timeout=30,
                         headers={"Authorization": f"Bearer {password}"}).status_code == 200
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/e/{code}/sheet#token={token}")
    field = page.locator("input[data-key='2/1']")
    expect(field).to_be_visible(timeout=15_000)
    status = page.locator(".question", has=field).locator(".status")
    with holding_the_lock(db_uri):
        with page.expect_response(lambda r: "/answers/2/1" in r.url and r.status == 503,
                                  timeout=20_000):
            field.fill("Левски")
        expect(status).to_have_class("status waiting")
        # the server's own Retry-After: the phone says it is waiting, not refused
        # (static/phone.js; tests/test_hardening31_retry_browser.py times the wait)
        expect(page.locator("#net")).to_have_class("net busy")
        expect(page.locator("#net")).to_have_text(KEPT)
        queued = page.evaluate(f"localStorage.getItem('answerdesk:queue:{code}:{token}')")
        assert "Левски" in queued
    expect(status).to_have_class("status saved", timeout=30_000)
    sheet = requests.get(f"{base}/api/events/{code}/sheet", timeout=30,
                         headers={"Authorization": f"Bearer {token}"}).json()
    (round_two,) = [r for r in sheet["rounds"] if r["number"] == 2]
    assert round_two["questions"][0]["answer"]["text"] == "Левски"
