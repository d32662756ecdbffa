"""Request slots (answerdesk/slots.py): under gunicorn.conf.py's REQUEST_SLOTS an
ordinary request holds one of them while it runs and gives it back at its end, even
when it fails; a live-push stream, which waits for most of its life, holds none."""

from __future__ import annotations

from buzzgame import make_event


def test_a_request_takes_a_slot_and_gives_it_back(app, client):
    app.config["REQUEST_SLOTS"] = 1
    assert client.get("/api/openapi.json").status_code == 200
    slots = app.extensions["request_slots"]
    assert client.get("/api/events/NOSUCH/state").status_code == 404  # a refusal, too
    assert client.get("/api/openapi.json").status_code == 200  # one slot: it came back
    assert slots.acquire(blocking=False)
    slots.release()


def test_a_stream_takes_no_slot(app, client):
    code, _ = make_event(app, "oq", {1: 1})
    app.config["REQUEST_SLOTS"] = 1
    assert client.get("/api/openapi.json").status_code == 200
    slots = app.extensions["request_slots"]
    assert slots.acquire(blocking=False)  # the only slot is taken ...
    try:
        body = client.get(f"/api/events/{code}/stream").get_data(as_text=True)
        assert "event: look" in body  # ... and the stream still ran
    finally:
        slots.release()


def test_without_slots_nothing_is_limited(app, client):
    assert "REQUEST_SLOTS" not in app.config
    assert client.get("/api/openapi.json").status_code == 200
    assert "request_slots" not in app.extensions
