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

import psycopg
import pytest
import requests
from buzzgame import T0, install_server_clock, make_event, oq_player, start_question
from factories import ON_POSTGRES, PG_URL
from sqlalchemy import event as sa_event

from answerdesk.core import formats
from answerdesk.extensions import db
from answerdesk.formats.buzzer import stream
from answerdesk.models import AuditEntry, Event

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
    """OQ-4: the window's close with nobody writing reaches the phone; the press itself
    does not (issue 31: no phone may learn that another pressed before the close)."""
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
    _, closed, state = got.get(timeout=10)  # nobody acted: the window closed by the time
    assert closed.endswith(".1") and closed != started
    assert [o["team"] for o in state["buzzer"]["order"]] == ["Алфа"]
    polled = requests.get(f"{server.url}/api/events/{code}/state", timeout=5).json()
    assert (state["buzzer"], state["oq"]) == (polled["buzzer"], polled["oq"])
    stop.set()


def until(got: queue.Queue, done, seconds: float = 90) -> dict:
    """The first pushed state for which ``done`` holds (generous: a loaded machine)."""
    ends = time.monotonic() + seconds
    while True:
        state = got.get(timeout=max(0.1, ends - time.monotonic()))[2]
        if done(state):
            return state


def test_timers_run_out_on_a_phone_that_only_listens(app, serve):
    """OQ-4.1 and OQ-4 with no request after the host's start and the press: the stream
    applies the press timer's close and the answer timer's timeout at their deadlines
    and pushes them (speed fast: 15 s to answer; the host gives 1 s to press, which a
    returned question has again)."""
    code, password = make_event(app, "oq", {1: 5})
    server = serve(workers=2, threads=8)
    alfa = oq_player(server.url, code, "Алфа")
    oq_player(server.url, code, "Бета")  # the question returns to Бета after the timeout
    requests.post(f"{server.url}/api/host/events/{code}/oq/speed", json={"speed": "fast"},
                  headers={"Authorization": f"Bearer {password}"},
                  timeout=10).raise_for_status()
    got, stop = opened(f"{server.url}/api/events/{code}/stream")

    start_question(server.url, code, password, 1, 1, seconds=1, grace=0)
    state = until(got, lambda s: (s["oq"]["play"] or {}).get("state") == "done")
    assert state["oq"]["play"]["answer"] and state["buzzer"] is None  # OQ-4.1: closed
    assert state["oq"]["clock"]["press"] is None and points(state, "Алфа") == 0

    start_question(server.url, code, password, 1, 2, seconds=1, grace=0)
    press = requests.post(f"{server.url}/api/events/{code}/buzz", timeout=5,
                          headers={"Authorization": f"Bearer {alfa}"},
                          json={"round": 1, "question": 2,
                                "pressed_at_ms": int(time.time() * 1000)})
    assert press.status_code == 202
    answering = until(got, lambda s: s["oq"]["clock"]["answer"] is not None)
    assert answering["oq"]["clock"]["answer"]["seconds"] == 15  # OQ-7: fast ×0.5
    timed_out = until(got, lambda s: points(s, "Алфа") != 0)  # OQ-4: the timeout, −value
    assert points(timed_out, "Алфа") < 0 and timed_out["oq"]["clock"]["answer"] is None
    closed = timed_out if (timed_out["oq"]["play"] or {}).get("state") == "done" else until(
        got, lambda s: (s["oq"]["play"] or {}).get("state") == "done")
    assert closed["oq"]["play"]["question"] == 2 and points(closed, "Бета") == 0
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


def _entries(*codes: str) -> list[int]:
    """Add an audit entry to each event (as a host action writes one), not flushed yet:
    the events' ids."""
    ids = [db.session.scalar(db.select(Event.id).where(Event.code == code)) for code in codes]
    for event_id in ids:
        db.session.add(AuditEntry(event_id=event_id, actor="host", action="test.edit"))
    return ids


def test_only_an_event_whose_format_pushes_live_is_notified(app):
    """A Bulgarian quiz has no stream to tell: a write of its events names no event;
    OpenQuiz and Своя игра (Format.live_push) name theirs."""
    bg, _ = make_event(app, "bg", {1: 2})
    oq, _ = make_event(app, "oq", {1: 2})
    si, _ = make_event(app, "si", {1: 2})
    with app.app_context():
        bg_id, oq_id, si_id = _entries(bg, oq, si)
        assert stream.notified_events(db.session) == {oq_id, si_id}
        db.session.rollback()
        _entries(bg)
        assert stream.notified_events(db.session) == set()
        db.session.rollback()


@pytest.mark.skipif(not ON_POSTGRES, reason="LISTEN/NOTIFY is PostgreSQL's")
def test_a_bulgarian_quiz_write_sends_no_notify_and_a_buzzer_game_names_its_event(app):
    """PostgreSQL commits notifying transactions one at a time (one lock for the whole
    cluster): only writes of a game that pushes notify, with the event's id as payload,
    so watchers skip the events they do not watch (bench/README.md, issue 18)."""
    bg, _ = make_event(app, "bg", {1: 2})
    oq, password = make_event(app, "oq", {1: 2})
    listener = psycopg.connect(PG_URL.replace("postgresql+psycopg", "postgresql"),
                               autocommit=True)
    try:
        listener.execute(f"LISTEN {stream.CHANNEL}")
        with app.app_context():
            _entries(bg)
            db.session.commit()
        assert [n.payload for n in listener.notifies(timeout=0.5)] == []
        client = app.test_client()
        client.post(f"/api/events/{oq}/teams", json={"name": "Гама", "players": 2})
        edited = client.post(f"/api/host/events/{oq}/oq/scores", json={"team": "Гама",
                             "points": 2}, headers={"Authorization": f"Bearer {password}"})
        assert edited.status_code == 200
        with app.app_context():
            oq_id = db.session.scalar(db.select(Event.id).where(Event.code == oq))
        got = {n.payload for n in listener.notifies(timeout=2, stop_after=1)}
        got |= {n.payload for n in listener.notifies(timeout=0.2)}
        assert got == {str(oq_id)}
    finally:
        listener.close()


class _Hints:
    """A hint the test controls: the event ids it is handed, one batch per wait."""

    def __init__(self) -> None:
        self.batches: queue.Queue = queue.Queue()
        self.closed = threading.Event()

    def wait(self, seconds: float) -> set[int]:
        try:
            return self.batches.get(timeout=seconds)
        except queue.Empty:
            return set()

    def close(self) -> None:
        self.closed.set()


def test_a_hint_for_an_event_not_watched_here_reads_nothing(app, monkeypatch):
    """The watcher reads the version of a hinted event it watches, of every event on a
    hint without an id (SQLite's data_version), and nothing for another event's."""
    hints, reads = _Hints(), queue.Queue()
    monkeypatch.setattr(stream, "_hint", lambda engine: hints)
    monkeypatch.setattr(stream, "POLL_SECONDS", 60)
    watcher = stream.Watcher(app)
    monkeypatch.setattr(watcher, "_read", lambda watched: (
        reads.put(sorted(watched)), {e: time.monotonic() + 60 for e in watched})[1])
    woken = watcher.watch(7, None)
    assert reads.get(timeout=10) == [7]  # a new stream's event is read at once
    hints.batches.put({8})
    with pytest.raises(queue.Empty):
        reads.get(timeout=0.5)
    hints.batches.put({8, 7})
    assert reads.get(timeout=10) == [7]
    hints.batches.put({stream.EVERY_EVENT})
    assert reads.get(timeout=10) == [7]
    watcher.unwatch(7, woken)
    assert hints.closed.wait(10)  # no stream left: the hint's connection is closed


@pytest.mark.skipif(not ON_POSTGRES, reason="LISTEN/NOTIFY is PostgreSQL's")
def test_the_listen_connection_is_closed_when_no_stream_is_left(app, client):
    """A LISTEN connection nobody reads makes PostgreSQL's notification queue grow and
    every NOTIFY slower: a process with no stream left keeps none."""
    code, _ = make_event(app, "oq", {1: 5})

    def listening() -> int:
        with app.app_context():
            return db.session.scalar(db.text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                f" AND query = 'LISTEN {stream.CHANNEL}' AND pid <> pg_backend_pid()"))

    app.config["LIVE_STREAM_SECONDS"] = 2
    body: list[str] = []
    reading = threading.Thread(target=lambda: body.append(
        client.get(f"/api/events/{code}/stream").get_data(as_text=True)))
    reading.start()
    deadline = time.monotonic() + 10
    while listening() == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert listening() >= 1
    reading.join(30)
    assert "event: look" in body[0]
    deadline = time.monotonic() + 10
    while listening() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert listening() == 0


def test_a_second_flush_of_an_event_not_in_the_session_reads_no_format(app):
    """An event's format never changes: _pushes reads it once per event and app, so the
    next flush of that event (a host action on PostgreSQL) asks the database nothing."""
    oq, _ = make_event(app, "oq", {1: 2})
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    with app.app_context():
        oq_id = db.session.scalar(db.select(Event.id).where(Event.code == oq))
        sa_event.listen(db.engine, "before_cursor_execute", count)
        try:
            for _ in range(2):
                db.session.add(AuditEntry(event_id=oq_id, actor="host", action="test.edit"))
                statements.clear()
                assert stream.notified_events(db.session) == {oq_id}
                read = list(statements)
                db.session.rollback()
        finally:
            sa_event.remove(db.engine, "before_cursor_execute", count)
    assert read == []  # the second: remembered from the first
    assert app.extensions["live_push_formats"] == {oq_id: "oq"}


def _pushed(watcher: stream.Watcher, event_id: int) -> dict | None:
    with watcher.lock:
        latest = watcher.latest.get(event_id)
    return json.loads(latest[1].split("\ndata: ", 1)[1])["state"] if latest else None


def _until(check, seconds: float = 30) -> None:
    ends = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < ends, "not within the (generous) time"
        time.sleep(0.02)


def test_the_watcher_applies_a_timer_at_its_deadline_and_a_game_without_timers_costs_nothing(
        app, monkeypatch):
    """OQ-4.1 on the test's clock: the watcher learns the press timer's deadline from the
    state it rendered, applies it once the clock passes it and renders the closed
    question; a Bulgarian quiz watched alongside has no timer and is never settled."""
    clock = install_server_clock(monkeypatch)
    clock.ms = T0
    oq, password = make_event(app, "oq", {1: 2})
    bg, _ = make_event(app, "bg", {1: 2})
    start_question(app.test_client(), oq, password, 1, 1, clock=clock, at_ms=T0,
                   seconds=5, grace=0)
    settled: list[int] = []
    monkeypatch.setattr(type(formats.get("bg")), "settle_timers",
                        lambda self, event: settled.append(event.id))
    with app.app_context():
        ids = dict(db.session.execute(db.select(Event.code, Event.id)).all())
    watcher = stream.Watcher(app)
    woken = {ids[code]: watcher.watch(ids[code], None) for code in (oq, bg)}
    try:
        _until(lambda: _pushed(watcher, ids[oq]) and _pushed(watcher, ids[bg]))
        assert _pushed(watcher, ids[oq])["oq"]["play"]["state"] == "open"
        assert watcher.timers == {ids[oq]: T0 + 5_000}  # none for the Bulgarian quiz
        clock.ms = T0 + 4_999
        time.sleep(3 * stream.POLL_SECONDS)
        assert _pushed(watcher, ids[oq])["oq"]["play"]["state"] == "open"
        clock.ms = T0 + 5_000
        _until(lambda: _pushed(watcher, ids[oq])["oq"]["play"]["state"] == "done")
        assert _pushed(watcher, ids[oq])["oq"]["clock"]["press"] is None
        assert ids[oq] not in watcher.timers and settled == []
    finally:
        for event_id, event_woken in woken.items():
            watcher.unwatch(event_id, event_woken)
