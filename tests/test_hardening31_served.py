"""Issue 31, findings 1 and 2 under gunicorn, as `make run` serves them, on SQLite or on
PostgreSQL (DATABASE_URL): the in-process tests (tests/test_hardening31.py) again over
real sockets, real clocks and several worker processes.

Addresses: the host 127.0.0.1, a guesser 127.0.0.2, another venue address 127.0.0.3
(the whole 127/8 is loopback).
"""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import requests
from buzzgame import make_event, oq_player, start_question
from factories import ON_POSTGRES, PG_URL
from requests.adapters import HTTPAdapter

from answerdesk.formats.buzzer import timing

pytestmark = pytest.mark.slow

GUESSER, ELSEWHERE = "127.0.0.2", "127.0.0.3"


class _From(HTTPAdapter):
    """Connections from one source address."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def _session(source: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", _From(source))
    return session


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


# 1. A cheating phone always wins the OpenQuiz buzzer (OQ-4) ---------------------------------

class _Phone:
    """An OpenQuiz player's phone on the real clock: it syncs as static/buzzer.js does
    (each exchange reports the receipt of the one before) and presses."""

    def __init__(self, url: str, code: str, token: str) -> None:
        self.url, self.code = url, code
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.last: dict | None = None

    def sync(self) -> None:
        sent = _now_ms()
        resp = self.http.post(f"{self.url}/api/events/{self.code}/clock", timeout=30,
                              json={"client_ms": sent, **({"last": self.last} if self.last
                                                          else {})})
        assert resp.status_code == 200, resp.text
        self.last = {"client_ms": sent, "server_ms": resp.json()["server_ms"],
                     "received_ms": _now_ms()}

    def press(self, claimed_ms: int) -> dict:
        resp = self.http.post(f"{self.url}/api/events/{self.code}/buzz", timeout=30,
                              json={"round": 1, "question": 1, "pressed_at_ms": claimed_ms})
        assert resp.status_code == 202, resp.text
        return resp.json()


def test_31_1_served_a_cheating_claim_is_clamped_and_flagged(app, serve):
    """The issue's run over real sockets: an honest phone presses; the cheater presses
    half a second later and claims the question's opening moment. It counts no earlier
    than its arrival less its allowance (at most MAX_ALLOWANCE_MS + the margin), after
    the honest press, flagged for the host; nobody saw the honest press meanwhile."""
    code, password = make_event(app, "oq", {1: 5})
    server = serve(workers=2, threads=8)
    honest = _Phone(server.url, code, oq_player(server.url, code, "Честни"))
    cheat = _Phone(server.url, code, oq_player(server.url, code, "Хитрец"))
    for _ in range(6):
        honest.sync()
        cheat.sync()
        time.sleep(0.05)
    state = f"{server.url}/api/events/{code}/state"
    start_question(server.url, code, password, 1, 1)
    opened = _now_ms()  # the moment the cheater will claim: as the question opened
    quiet = requests.get(state, timeout=30).json()["buzzer"]
    time.sleep(0.3)
    honest_at = _now_ms()
    honest.press(honest_at)
    assert requests.get(state, timeout=30).json()["buzzer"] == quiet  # nothing to wait for
    time.sleep(max(0.0, 0.4 - (_now_ms() - honest_at) / 1000))  # within the 1 s window
    arrived = cheat.press(opened)["received_ms"]
    time.sleep(timing.WINDOW_MS / 1000 + 0.3)
    order = requests.get(state, timeout=30).json()["buzzer"]["order"]
    assert [o["team"] for o in order] == ["Честни", "Хитрец"], order
    assert "early_claim" in order[1]["flags"] and "early_claim" not in order[0]["flags"]
    bound = timing.MAX_ALLOWANCE_MS + timing.ALLOWANCE_MARGIN_MS
    assert arrived - bound <= order[1]["at_ms"] <= arrived - timing.ALLOWANCE_MARGIN_MS
    assert order[1]["at_ms"] > honest_at


# 2. Wrong host passwords stall every answer save ------------------------------------------

def _open_transactions(db_uri: str) -> int:
    """Transactions the server holds open right now: SQLite, whether its write lock is
    taken (a BEGIN IMMEDIATE of our own fails at once); PostgreSQL, the server's backends
    inside a transaction."""
    if ON_POSTGRES:
        import psycopg

        with psycopg.connect(PG_URL, autocommit=True) as conn:
            return int(conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL").fetchone()[0])
    conn = sqlite3.connect(db_uri.removeprefix("sqlite:///"), timeout=0,
                           isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        return 0
    except sqlite3.OperationalError:
        return 1
    finally:
        conn.close()


def _hashing(lock: Path) -> bool:
    """Whether the server is hashing a password in a lane right now: it holds the lane's
    flock (access._take_turn; credentials.lock, credentials-idle.lock)."""
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)  # releases ours, if we took it


def test_31_2_served_wrong_passwords_are_hashed_outside_any_transaction_and_limited(
        serve, demo, db_uri, tmp_path):
    """Guesses on several host routes over 2 workers: while the server hashes them, it
    holds no database transaction (SQLite's write lock is free); the address gets 10 in
    all, then 429s (the right password too), and another address is not affected."""
    code, password = demo
    server = serve(workers=2, threads=4, environ={"LIVE_CHECKER": "0", "TARPIT_SECONDS": "0.2"})
    routes = [f"/api/host/events/{code}/rounds/2/open",
              f"/api/host/events/{code}/rounds/1/questions/1/start",
              f"/api/host/events/{code}/rounds/1/close"]
    wrong = {"Authorization": "Bearer wrong-password"}
    statuses: list[int] = []

    def guess(n: int) -> None:
        with _session(GUESSER) as guesser:  # a connection of its own: either worker
            statuses.append(guesser.post(server.url + routes[n % len(routes)], json={},
                                         headers=wrong, timeout=60).status_code)

    guessers = [threading.Thread(target=guess, args=(n,)) for n in range(8)]
    for thread in guessers:
        thread.start()
    seen = []  # open transactions, each time the server was caught hashing
    while any(thread.is_alive() for thread in guessers):
        if any(_hashing(tmp_path / lane) for lane in ("credentials.lock",
                                                       "credentials-idle.lock")):
            seen.append(_open_transactions(db_uri))
        time.sleep(0.01)
    for thread in guessers:
        thread.join()
    # a guess that waited over 2 s for a hashing lane was a 429 (access.HASHING_WAIT),
    # not counted
    assert set(statuses) <= {401, 429} and 401 in statuses, statuses
    assert len(seen) >= 3 and not any(seen), seen
    left = 10 - statuses.count(401)
    with _session(GUESSER) as guesser:  # one at a time now: no wait for the lane
        tries = [guesser.post(server.url + routes[0], headers=wrong, timeout=60).status_code
                 for _ in range(left + 2)]
        assert tries == [401] * left + [429, 429]
        right = guesser.post(server.url + routes[0], timeout=60,
                             headers={"Authorization": f"Bearer {password}"})
        assert right.status_code == 429 and 1 <= int(right.headers["Retry-After"]) <= 60
    with _session(ELSEWHERE) as host:
        right = host.post(server.url + routes[0], timeout=60,
                          headers={"Authorization": f"Bearer {password}"})
        assert right.status_code == 200, right.text


def test_31_2_served_a_host_logs_in_while_guesses_and_saves_keep_the_server_busy(
        app, serve, demo, tmp_path):
    """A busy night under attack: phones saving without a pause, and a guesser sending
    wrong passwords on 8 connections. After its first, the guesser's checks hash in the
    idle lane (SCHED_IDLE, on CPU the saves leave idle), and a host at another address
    still logs in through the login form: no time is asserted, only that it completes
    and that the guesser was hashed in the idle lane meanwhile."""
    from answerdesk.core.events import event_by_code
    from answerdesk.core.rounds import open_round
    from answerdesk.extensions import db

    code, password = demo
    with app.test_request_context():  # not by the host's password: it would be remembered
        open_round(event_by_code(code), 2)
        db.session.commit()
    server = serve(workers=2, threads=8, environ={"LIVE_CHECKER": "0", "TARPIT_SECONDS": "0.2"})
    api = f"{server.url}/api/events/{code}"
    tokens = [requests.post(f"{api}/teams", json={"name": f"Phone {n}"}, timeout=60
                            ).json()["token"] for n in range(4)]
    stop, saved, guessed = threading.Event(), [], []

    def phone(token: str) -> None:
        with requests.Session() as http:
            while not stop.is_set():
                saved.append(http.put(f"{api}/answers/2/1", json={"text": "Канбера"},
                                      headers={"Authorization": f"Bearer {token}"},
                                      timeout=60).status_code)

    def guesser() -> None:
        with _session(GUESSER) as http:
            while not stop.is_set():
                guessed.append(http.post(f"{server.url}/api/host/events/{code}/rounds/2/open",
                                         headers={"Authorization": "Bearer wrong-password"},
                                         timeout=60).status_code)

    load = ([threading.Thread(target=phone, args=(token,)) for token in tokens]
            + [threading.Thread(target=guesser) for _ in range(8)])
    for thread in load:
        thread.start()
    try:
        idle_lane_seen, given_up = False, time.monotonic() + 300  # not a timing: no hang
        while not idle_lane_seen and guessed.count(401) < 10 and time.monotonic() < given_up:
            idle_lane_seen = _hashing(tmp_path / "credentials-idle.lock")
            time.sleep(0.01)
        assert idle_lane_seen, guessed
        with _session(ELSEWHERE) as host:
            form = host.get(f"{server.url}/host/{code}/login", timeout=60).text
            token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
            login = host.post(f"{server.url}/host/{code}/login", timeout=120,
                              data={"password": password, "csrf_token": token},
                              allow_redirects=False)
            assert login.status_code == 302, login.text
            assert host.get(f"{server.url}/host/{code}/", timeout=60).status_code == 200
    finally:
        stop.set()
        for thread in load:
            thread.join()
    assert saved and set(saved) == {200}
    assert set(guessed) <= {401, 429}
