"""access.py: one place decides what a host, an assistant or a caller may do."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import re
import threading
import time
from pathlib import Path

import pytest

from answerdesk import access
from answerdesk.core.assistants import new_assistant_password
from answerdesk.core.events import event_by_code
from answerdesk.errors import RateLimited, Unauthorized
from answerdesk.extensions import db


@pytest.fixture
def event_and_passwords(app, demo):
    code, host_password = demo
    with app.test_request_context():
        event = event_by_code(code)
        assistant_password = new_assistant_password(event, actor="host")
        db.session.commit()
    return code, host_password, assistant_password


def test_the_password_decides_the_role_and_logout_forgets_it(app, event_and_passwords):
    code, host_password, assistant_password = event_and_passwords
    with app.test_request_context():
        event = event_by_code(code)
        assert access.log_in(event, "wrong") is None
        assert access.desk_role(event) is None and not access.has_host_session()
        assert access.log_in(event, assistant_password) == "assistant"
        assert access.desk_role(event) == "assistant" and not access.host_logged_in(event)
        assert access.log_in(event, host_password) == "host"
        assert access.host_logged_in(event) and access.has_host_session()
        access.log_out(event)
        db.session.commit()
        assert access.desk_role(event) is None


def test_the_host_api_takes_the_host_password_as_bearer_only(app, event_and_passwords):
    code, host_password, assistant_password = event_and_passwords
    headers = {"Authorization": f"Bearer {host_password}"}
    with app.test_request_context(headers=headers):
        assert access.api_host(code).code == code
    for token in (assistant_password, "wrong"):
        with app.test_request_context(headers={"Authorization": f"Bearer {token}"}):
            with pytest.raises(Unauthorized):
                access.api_host(code)


# The hashing lanes (issue 31, finding 2) -----------------------------------------------------

@pytest.fixture
def hashed_in(monkeypatch):
    """The scheduling policy of the thread each password hash ran on, in order; no
    password is remembered as right, so every check hashes."""
    policies: list[int] = []
    real = access.password_matches

    def spy(stored: str, password: str) -> bool:
        policies.append(os.sched_getscheduler(threading.get_native_id()))
        return real(stored, password)

    monkeypatch.setattr(access, "password_matches", spy)
    monkeypatch.setattr(access, "_KNOWN_RIGHT", {})
    return policies


def test_an_address_that_guessed_wrong_hashes_under_sched_idle(strict_app, hashed_in):
    """An address's first check of the minute hashes at nice 10 (a host logging in gets
    CPU); once it has given a wrong password, its checks, the right password's too, hash
    under SCHED_IDLE on CPU the saves leave idle; another address is not affected."""
    code, password = strict_app.config["DEMO"]
    route = f"/api/host/events/{code}/rounds/2/open"

    def call(address: str, given: str) -> int:
        access._KNOWN_RIGHT.clear()  # hashed again, not remembered
        return strict_app.test_client().post(
            route, environ_base={"REMOTE_ADDR": address},
            headers={"Authorization": f"Bearer {given}"}).status_code

    assert [call("10.0.0.5", "wrong"), call("10.0.0.5", "wrong"),
            call("10.0.0.5", password)] == [401, 401, 200]
    assert call("10.0.0.6", password) == 200
    assert [policy == os.SCHED_IDLE for policy in hashed_in] == [False, True, True, False]


def _hash_in_a_worker(instance: str, guessed: bool, log: str, start_at: float) -> None:
    """A gunicorn worker's share of the lane test: three checks from this process, each
    hash written to ``log`` as "lane pid began ended"."""
    from flask import Flask

    lane = "idle" if guessed else "first"

    def slow_hash(stored: str, password: str) -> bool:
        began = time.monotonic()
        time.sleep(0.15)
        with open(log, "a") as out:
            out.write(f"{lane} {os.getpid()} {began} {time.monotonic()}\n")
        return False

    access._has_guessed = lambda counter: guessed
    access.password_matches = slow_hash
    time.sleep(max(0.0, start_at - time.time()))
    worker = Flask("worker", instance_path=instance)
    worker.config["SECRET_KEY"] = "test-secret"
    with worker.app_context():
        for n in range(3):
            access.right_password("stored", f"guess {n}")


@pytest.mark.parametrize("guessed", [False, True], ids=["first lane", "idle lane"])
def test_two_workers_never_hash_in_one_lane_at_once(tmp_path, guessed):
    """Each lane is one hash at a time on the whole server (an flock in the instance
    folder), however many worker processes check passwords together."""
    log = tmp_path / "hashes.log"
    start_at = time.time() + 3
    spawn = multiprocessing.get_context("spawn")
    workers = [spawn.Process(target=_hash_in_a_worker,
                             args=(str(tmp_path), guessed, str(log), start_at))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    hashes = sorted((float(began), float(ended), pid)
                    for _, pid, began, ended in (line.split() for line in
                                                 log.read_text().splitlines()))
    assert len(hashes) == 6 and len({pid for *_, pid in hashes}) == 2
    for (_, ended, _), (began, _, _) in zip(hashes, hashes[1:], strict=False):
        assert began >= ended


def _woken() -> int:
    """How often the calling thread has given up the CPU to wait (Linux)."""
    status = Path("/proc/thread-self/status").read_text()
    return int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", status).group(1))


def test_a_check_waits_for_a_busy_lane_asleep_then_is_a_429(tmp_path, monkeypatch):
    """A check waiting for a lane another worker holds sleeps until it is its turn or
    HASHING_WAIT runs out (a 429): it does not poll (a thread polling every 20 ms took a
    worker's GIL from the saves 50 times a second)."""
    from flask import Flask

    monkeypatch.setattr(access, "HASHING_WAIT", 1.0)
    worker = Flask("worker", instance_path=str(tmp_path))
    worker.config["SECRET_KEY"] = "test-secret"
    other_worker = os.open(tmp_path / access.FIRST_LANE, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(other_worker, fcntl.LOCK_EX)
    try:
        with worker.app_context():
            access._hasher(access.FIRST_LANE)  # the thread started before the count
            before = _woken()
            with pytest.raises(RateLimited):
                access.right_password("stored", "guess")
            woken = _woken() - before
    finally:
        os.close(other_worker)
    assert woken <= 5, woken
