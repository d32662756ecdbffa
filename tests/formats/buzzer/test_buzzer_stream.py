"""Server push (docs/live-push.md): an SSE stream's ``look`` carries the public state
(what GET /state answers) whenever a host action or a press changed the game, and when
the buzzer window closed by the time alone; a change made by another worker or another
app server reaches it through the database; nothing is lost; a stream ends after its
lifetime and resumes from Last-Event-ID; a full process sends phones back to polling."""

from __future__ import annotations

import json
import queue
import threading
import time

import pytest
import requests
from buzzgame import make_event, oq_player, start_question

from answerdesk.formats.buzzer import stream

pytestmark = pytest.mark.slow


def listen(url: str, into: queue.Queue, stop: threading.Event,
           headers: dict[str, str] | None = None) -> None:
    """Put (arrival, version, state) of every ``look`` in ``into``."""
    with requests.get(url, stream=True, timeout=30, headers=headers) as resp:
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        for line in resp.iter_lines(decode_unicode=True):
            if line.startswith("data: "):
                data = json.loads(line[6:])
                into.put((time.monotonic(), data["version"], data["state"]))
            if stop.is_set():
                return


def opened(url: str, headers: dict[str, str] | None = None) -> tuple[queue.Queue,
                                                                      threading.Event]:
    got: queue.Queue = queue.Queue()
    stop = threading.Event()
    threading.Thread(target=listen, args=(url, got, stop, headers), daemon=True).start()
    return got, stop


def points(state: dict, team: str) -> int:
    return next(s["points"] for s in state["oq"]["scores"] if s["team"] == team)


def edit(server_url: str, code: str, password: str, team: str, by: int) -> None:
    resp = requests.post(f"{server_url}/api/host/events/{code}/oq/scores",
                         json={"team": team, "points": by}, timeout=10,
                         headers={"Authorization": f"Bearer {password}"})
    assert resp.status_code == 200, resp.text


def test_sse_says_look_on_host_actions_presses_and_the_window_close(app, serve):
    """OQ-4: the press, then the window's close with nobody writing, reach the phone."""
    code, password = make_event(app, "oq", {1: 5})
    server = serve(workers=2, threads=8)
    team = oq_player(server.url, code, "Алфа")  # OQ-1: a player presses, with their token
    got, stop = opened(f"{server.url}/api/events/{code}/stream")
    first = got.get(timeout=10)[1]

    edit(server.url, code, password, "Алфа", 5)
    _, edited, state = got.get(timeout=10)
    assert edited != first and points(state, "Алфа") == 5

    start_question(server.url, code, password, 1, 1)
    started = got.get(timeout=10)[1]  # the host's start (core's endpoint) is news too
    assert started != edited
    press = requests.post(f"{server.url}/api/events/{code}/buzz", timeout=5,
                          headers={"Authorization": f"Bearer {team}"},
                          json={"round": 1, "question": 1,
                                "pressed_at_ms": int(time.time() * 1000)})
    assert press.status_code == 202
    pressed = got.get(timeout=10)[1]
    assert pressed.endswith(".0")
    _, closed, state = got.get(timeout=10)  # nobody acted: the window closed by the time
    assert closed.endswith(".1") and closed.rsplit(".", 1)[0] == pressed.rsplit(".", 1)[0]
    assert [o["team"] for o in state["buzzer"]["order"]] == ["Алфа"]
    polled = requests.get(f"{server.url}/api/events/{code}/state", timeout=5).json()
    assert (state["buzzer"], state["oq"]) == (polled["buzzer"], polled["oq"])
    stop.set()


def test_a_host_action_on_one_app_server_reaches_a_stream_on_another(app, serve):
    """Two gunicorn servers on one database, one worker each: the stream's process
    never handled the host's request, and still pushes the new state."""
    code, password = make_event(app, "oq", {1: 5})
    phones = serve(workers=1, threads=8)
    desk = serve(workers=1, threads=8)
    requests.post(f"{desk.url}/api/events/{code}/teams",
                  json={"name": "Бета", "players": 2}, timeout=5).raise_for_status()
    got, stop = opened(f"{phones.url}/api/events/{code}/stream")
    assert points(got.get(timeout=10)[2], "Бета") == 0

    edit(desk.url, code, password, "Бета", 7)
    _, _, state = got.get(timeout=10)
    assert points(state, "Бета") == 7
    assert state["oq"] == requests.get(f"{phones.url}/api/events/{code}/state",
                                       timeout=5).json()["oq"]
    stop.set()


def test_no_update_is_lost_however_fast_the_host_acts(app, serve):
    """Twelve edits sent back to back over two workers: the stream may merge some
    (it sends the state, not each change), but its states only grow and the last
    holds all twelve."""
    code, password = make_event(app, "oq", {1: 5})
    server = serve(workers=2, threads=8)
    requests.post(f"{server.url}/api/events/{code}/teams",
                  json={"name": "Гама", "players": 2}, timeout=5).raise_for_status()
    got, stop = opened(f"{server.url}/api/events/{code}/stream")
    seen = [points(got.get(timeout=10)[2], "Гама")]
    for _ in range(12):
        edit(server.url, code, password, "Гама", 1)
    while seen[-1] != 12:
        seen.append(points(got.get(timeout=10)[2], "Гама"))
    assert seen == sorted(seen) and seen[0] == 0
    stop.set()


def test_a_stream_ends_after_its_lifetime_and_resumes_from_last_event_id(app, client):
    """LIVE_STREAM_SECONDS (0.2 s in the suite) ends the stream; EventSource then
    reconnects with Last-Event-ID: nothing is sent again unless the game moved."""
    code, password = make_event(app, "oq", {1: 5})
    started = time.monotonic()
    body = client.get(f"/api/events/{code}/stream").get_data(as_text=True)
    assert time.monotonic() - started < 30  # it ended, after 0.2 s on an idle machine
    assert body.startswith(": connected\nretry: 1000\n\n") and body.count("event: look") == 1
    version = body.split("\nid: ", 1)[1].split("\n", 1)[0]
    assert json.loads(body.split("\ndata: ", 1)[1].split("\n", 1)[0])["version"] == version
    assert app.extensions["live_push"].listeners == {}  # the ended stream is uncounted

    again = client.get(f"/api/events/{code}/stream", headers={"Last-Event-ID": version})
    assert "event: look" not in again.get_data(as_text=True)

    team = client.post(f"/api/events/{code}/teams", json={"name": "Делта", "players": 2})
    assert team.status_code == 201
    edited = client.post(f"/api/host/events/{code}/oq/scores", json={"team": "Делта",
                         "points": 4}, headers={"Authorization": f"Bearer {password}"})
    assert edited.status_code == 200
    resumed = client.get(f"/api/events/{code}/stream", headers={"Last-Event-ID": version})
    data = resumed.get_data(as_text=True).split("\ndata: ", 1)[1].split("\n", 1)[0]
    assert points(json.loads(data)["state"], "Делта") == 4


def test_a_full_process_sends_the_phone_back_to_polling(app, client):
    """A process whose threads for streams are taken answers at once with a later
    retry and no stream; the phone polls GET /state meanwhile (buzzer.js, every 2 s)."""
    code, _ = make_event(app, "oq", {1: 5})
    app.config["LIVE_STREAM_LIMIT"] = 0
    resp = client.get(f"/api/events/{code}/stream")
    assert resp.get_data(as_text=True) == f"retry: {stream.BUSY_RETRY_MS}\n\n"
    assert resp.mimetype == "text/event-stream"
    state = client.get(f"/api/events/{code}/state")
    assert state.status_code == 200 and state.get_json()["oq"]["scores"] == []
