"""Server push (docs/live-push.md): under gunicorn's threaded workers an SSE stream says
``look`` when a host action or a press changed the game, and when the buzzer window
closed by the time alone; another worker's change reaches it through the database."""

from __future__ import annotations

import json
import queue
import threading
import time

import pytest
import requests
from buzzgame import make_event, start_question

pytestmark = pytest.mark.slow


def listen(url: str, into: queue.Queue, stop: threading.Event) -> None:
    with requests.get(url, stream=True, timeout=30) as resp:
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        for line in resp.iter_lines(decode_unicode=True):
            if line.startswith("data: "):
                into.put((time.monotonic(), json.loads(line[6:])["version"]))
            if stop.is_set():
                return


def test_sse_says_look_on_host_actions_presses_and_the_window_close(app, serve):
    code, password = make_event(app, "oq", {1: 5})
    server = serve(workers=2, threads=8)
    team = requests.post(f"{server.url}/api/events/{code}/teams",
                         json={"name": "Алфа", "players": 3}, timeout=5).json()["token"]
    got: queue.Queue = queue.Queue()
    stop = threading.Event()
    thread = threading.Thread(target=listen, args=(f"{server.url}/api/events/{code}/stream",
                                                   got, stop), daemon=True)
    thread.start()
    first = got.get(timeout=10)[1]

    resp = requests.post(f"{server.url}/api/host/events/{code}/oq/scores",
                         json={"team": "Алфа", "points": 5}, timeout=5,
                         headers={"Authorization": f"Bearer {password}"})
    assert resp.status_code == 200
    done = time.monotonic()
    at, edited = got.get(timeout=5)
    assert edited != first and at - done < 0.5  # a poll (50 ms) away, with room for a busy CPU

    start_question(server.url, code, password, 1, 1)
    started = got.get(timeout=5)[1]  # the host's start (core's endpoint) is news too
    assert started != edited
    press = requests.post(f"{server.url}/api/events/{code}/buzz", timeout=5,
                          headers={"Authorization": f"Bearer {team}"},
                          json={"round": 1, "question": 1,
                                "pressed_at_ms": int(time.time() * 1000)})
    assert press.status_code == 202
    pressed = got.get(timeout=5)[1]
    assert pressed.endswith(".0")
    closed = got.get(timeout=5)[1]  # nobody acted: the window closed by the time alone
    assert closed.endswith(".1") and closed.rsplit(".", 1)[0] == pressed.rsplit(".", 1)[0]
    state = requests.get(f"{server.url}/api/events/{code}/state", timeout=5).json()
    assert [o["team"] for o in state["buzzer"]["order"]] == ["Алфа"]
    stop.set()
