"""Request slots (answerdesk/slots.py): under gunicorn.conf.py's REQUEST_SLOTS an
ordinary request holds one of them while it runs and gives it back at its end, even
when it fails; a live-push stream, which waits for most of its life, holds none."""

from __future__ import annotations

import threading

from buzzgame import make_event


def test_a_request_takes_a_slot_and_gives_it_back(app, client):
    app.config["REQUEST_SLOTS"] = 1
    assert client.get("/api/openapi.json").status_code == 200
    slots = app.extensions["request_slots"]
    assert client.get("/api/events/NOSUCH/state").status_code == 404  # a refusal, too
    assert client.get("/api/openapi.json").status_code == 200  # one slot: it came back
    assert slots.acquire(blocking=False)
    slots.release()


def test_an_open_stream_holds_no_slot(app, client):
    """One slot: while a stream is open (its first lines read, the rest not yet), an
    ordinary request still gets the slot; the stream took it only for its reads."""
    code, _ = make_event(app, "oq", {1: 1})
    app.config.update(REQUEST_SLOTS=1, LIVE_STREAM_SECONDS=30)
    resp = client.get(f"/api/events/{code}/stream", buffered=False)
    lines = iter(resp.response)
    assert next(lines).startswith(b": connected")
    assert b"event: look" in next(lines)  # the stream is open and waits
    got: list[int] = []
    asked = threading.Thread(target=lambda: got.append(
        app.test_client().get("/api/openapi.json").status_code), daemon=True)
    asked.start()
    asked.join(30)
    assert got == [200]
    resp.close()
    assert app.extensions["live_push"].listeners == {}


def test_without_slots_nothing_is_limited(app, client):
    assert "REQUEST_SLOTS" not in app.config
    assert client.get("/api/openapi.json").status_code == 200
    assert "request_slots" not in app.extensions
