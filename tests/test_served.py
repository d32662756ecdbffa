"""The real app under gunicorn's threaded workers, over real HTTP (BG-E2)."""

from __future__ import annotations

import threading
import time

import pytest
import requests
import sqlalchemy as sa
from factories import ON_POSTGRES

from answerdesk.extensions import db

pytestmark = pytest.mark.slow


def api(base: str, code: str) -> str:
    return f"{base}/api/events/{code}"


def test_night_over_gunicorn(live_demo):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    join = requests.post(f"{api(base, code)}/teams", json={"name": "Сови", "players": 3})
    assert join.status_code == 201
    dup = requests.post(f"{api(base, code)}/teams", json={"name": "сОВИ"})
    assert dup.status_code == 409
    team = {"Authorization": f"Bearer {join.json()['token']}"}
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/open").status_code == 401
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/open",
                         headers=host).status_code == 200
    saved = requests.put(f"{api(base, code)}/answers/2/2", json={"text": "Марица"}, headers=team)
    assert saved.status_code == 200 and saved.json()["receipt"]
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/close",
                         headers=host).json()["state"] == "locked"
    late = requests.put(f"{api(base, code)}/answers/2/2", json={"text": "Дунав"}, headers=team)
    assert late.status_code == 409 and late.json()["round"] == 2
    sheet = requests.get(f"{api(base, code)}/sheet", headers=team).json()
    assert sheet["rounds"][0]["questions"][1]["answer"]["text"] == "Марица"
    standings = requests.get(f"{api(base, code)}/standings").json()["standings"]
    assert standings[0]["team"] == "Сови" and standings[0]["points"] == 2


def test_lock_race_loses_nothing_and_accepts_nothing_late(live_demo):
    """Saves racing the host's close: each is acknowledged-and-kept or refused. A save
    the database could not take in time is a 503 busy, sent again as the phone's
    queue does; any other answer, or an exception in a phone's thread, fails the test."""
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    tokens = [requests.post(f"{api(base, code)}/teams", json={"name": f"T{i}"}).json()["token"]
              for i in range(8)]
    requests.post(f"{base}/api/host/events/{code}/rounds/2/open", headers=host)
    acked: dict[tuple[str, int], str] = {}
    refused: list[int] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def phone(token: str) -> None:
        session = requests.Session()
        n = 0
        while not stop.is_set() and n < 200:
            n += 1
            text = f"answer {n}"
            q = n % 4 + 1
            while True:
                resp = session.put(f"{api(base, code)}/answers/2/{q}", json={"text": text},
                                   headers={"Authorization": f"Bearer {token}"}, timeout=60)
                if resp.status_code != 503:
                    break
                assert resp.json()["error"] == "busy" and resp.headers["Retry-After"]
                time.sleep(0.1)
            with lock:
                if resp.status_code == 200:
                    acked[(token, q)] = text
                elif resp.status_code == 409:
                    refused.append(n)
                    return
                else:
                    raise AssertionError(f"{resp.status_code} {resp.text[:300]}")

    def run(token: str) -> None:
        try:
            phone(token)
        except Exception as error:  # reported below: a thread's exception only warns
            with lock:
                errors.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=run, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    threading.Event().wait(0.5)
    while (closed := requests.post(f"{base}/api/host/events/{code}/rounds/2/close",
                                   headers=host, timeout=60)).status_code == 503:
        pass  # busy: the desk sends the close again
    assert closed.status_code == 200, closed.text
    stop.set()
    for t in threads:
        t.join(120)
    assert not [t for t in threads if t.is_alive()], "a phone's thread never ended"
    assert not errors, errors
    assert acked, "no save was acknowledged before the lock"
    for token in tokens:
        sheet = requests.get(f"{api(base, code)}/sheet",
                             headers={"Authorization": f"Bearer {token}"}).json()
        stored = {q["number"]: (q["answer"] or {}).get("text")
                  for q in sheet["rounds"][0]["questions"]}
        for (tok, q), text in acked.items():
            if tok == token:
                assert stored[q] == text  # the last acknowledged edit is the one kept


@pytest.mark.skipif(not ON_POSTGRES, reason="SQLite opens a file, not a server's backend")
def test_workers_open_their_request_connections_before_the_first_request(app, serve):
    """gunicorn.conf.py post_worker_init: each worker opens its request connections at
    start, so the cost of new PostgreSQL backends does not land on a night's first
    second (bench/README.md)."""
    count = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
    with app.app_context():
        before = db.session.scalar(sa.text(count))
        db.session.rollback()
        serve(workers=2, threads=16)
        deadline = time.monotonic() + 20
        while (now := db.session.scalar(sa.text(count))) < before + 2 * 8 \
                and time.monotonic() < deadline:
            db.session.rollback()
            time.sleep(0.2)
        assert now >= before + 2 * 8
