"""The phones' /play poll, kept per team while the event's screen version stands
(issue 33): answered 304 to a phone that holds the current part, and never stale
after a change a phone must see (BG-J1 jokers, a team joining for the copy joker)."""

from __future__ import annotations


def play(desk, token, etag=None):
    headers = {"Authorization": f"Bearer {token}"}
    if etag:
        headers["If-None-Match"] = etag
    return desk.client.get(f"/api/events/{desk.code}/play", headers=headers)


def test_play_poll_is_conditional_and_follows_every_change(desk):
    a, b = desk.join("A"), desk.join("B")
    assert desk.host(2, "open").status_code == 200
    first = play(desk, a)
    assert first.status_code == 200 and first.get_json()["teams"] == ["B"]
    assert first.headers["ETag"] and "no-cache" in first.headers["Cache-Control"]
    assert "Authorization" in first.headers["Vary"]
    # Nothing moved: the phone keeps what it holds.
    assert play(desk, a, first.headers["ETag"]).status_code == 304
    # Another team's save is not the phone's business: still 304.
    assert desk.save(b, 2, 1, "Левски").status_code == 200
    assert play(desk, a, first.headers["ETag"]).status_code == 304
    # A team joins: the copy joker's list must show it at once.
    desk.join("C")
    joined = play(desk, a, first.headers["ETag"])
    assert joined.status_code == 200 and joined.get_json()["teams"] == ["B", "C"]
    assert joined.headers["ETag"] != first.headers["ETag"]
    # The team plays a joker (BG-J1): its phones see it on the next poll.
    before = joined.get_json()["jokers"]
    used = desk.client.post(f"/api/events/{desk.code}/jokers",
                            json={"kind": "double", "round": 2, "question": 1},
                            headers={"Authorization": f"Bearer {a}"})
    assert used.status_code == 201
    after = play(desk, a, joined.headers["ETag"])
    assert after.status_code == 200 and after.get_json()["jokers"] != before
    # Another team's part is its own, kept apart.
    other = play(desk, b, after.headers["ETag"])
    assert other.status_code == 200 and other.get_json()["teams"] == ["A", "C"]
    # The sheet carries the same part.
    assert desk.sheet(a).get_json()["play"] == after.get_json()
