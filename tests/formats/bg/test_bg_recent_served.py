"""GET /state from a read kept a moment per process (core/recent.py, issue 18), served
by gunicorn with two workers: a host's close reaches every worker within
STATE_CACHE_SECONDS. On the Bulgarian demo evening, since a gunicorn of its own serves
only the bundled formats (the neutral one of tests/factories.py is registered in the
test's process only); the in-process reads are tests/core/test_recent.py's."""

from __future__ import annotations

import time

import requests
from factories import Desk


def _round(state: dict, number: int) -> str:
    return next(r["state"] for r in state["rounds"] if r["number"] == number)


def test_a_host_close_reaches_every_worker_within_the_kept_time(serve, client, demo):
    """Under gunicorn, two workers: once the close is answered, every poll from
    STATE_CACHE_SECONDS on shows the round locked, whichever worker serves it (each
    kept read is at most that old). Phones poll every 3 s; the lock check of a save
    reads the database (tests/test_lean.py), never a kept read."""
    served = Desk(client, *demo)
    code, password = served.code, served.password
    server = serve(workers=2, threads=4)
    host = {"Authorization": f"Bearer {password}"}
    state_url = f"{server.url}/api/events/{code}/state"
    opened = requests.post(f"{server.url}/api/host/events/{code}/rounds/2/open",
                           headers=host, timeout=10)
    assert opened.status_code == 200
    # A new connection for each poll: the workers take turns accepting them.
    for _ in range(40):  # fill both workers' kept reads
        assert _round(requests.get(state_url, timeout=10).json(), 2) == "open"
    closed = requests.post(f"{server.url}/api/host/events/{code}/rounds/2/close",
                           headers=host, timeout=10)
    assert closed.status_code == 200
    time.sleep(0.6)  # STATE_CACHE_SECONDS (0.5) and a margin
    polls = [_round(requests.get(state_url, timeout=10).json(), 2) for _ in range(40)]
    assert polls == ["locked"] * 40
