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


def state_version(desk) -> str:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["version"]


def test_the_state_version_tells_a_phone_when_to_fetch_play(desk):
    """static/widgets.js fetches /play only when the state's version moved (issue 33):
    it must move with every change /play shows and stand through the teams' saves."""
    a, b = desk.join("A"), desk.join("B")
    assert desk.host(2, "open").status_code == 200
    sheet = desk.sheet(a).get_json()
    version = state_version(desk)
    assert sheet["version"] == version  # the sheet says which version its part is of
    etag = play(desk, a).headers["ETag"]
    # Saves move neither the version nor the part.
    for text in ("Левски", "Ботев", "Вазов"):
        assert desk.save(b, 2, 1, text).status_code == 200
        assert desk.save(a, 2, 2, text).status_code == 200
    assert state_version(desk) == version
    assert play(desk, a, etag).status_code == 304
    # A team joins, a joker is played: each moves the version, and /play with it.
    for change in (lambda: desk.join("C"),
                   lambda: desk.client.post(f"/api/events/{desk.code}/jokers",
                                            json={"kind": "double", "round": 2, "question": 1},
                                            headers={"Authorization": f"Bearer {a}"})):
        change()
        moved = state_version(desk)
        assert moved != version
        fetched = play(desk, a, etag)
        assert fetched.status_code == 200
        version, etag = moved, fetched.headers["ETag"]


def test_a_save_can_carry_the_state_poll(desk):
    """PUT .../answers?with=state answers what GET /state answers, read after the save:
    a typing phone need not poll besides (static/sheet.js, issue 33)."""
    a = desk.join("A")
    assert desk.host(2, "open").status_code == 200
    plain = desk.save(a, 2, 1, "Левски")
    assert plain.status_code == 200 and "state" not in plain.get_json()
    carried = desk.client.put(f"/api/events/{desk.code}/answers/2/1?with=state",
                              json={"text": "Ботев"},
                              headers={"Authorization": f"Bearer {a}"})
    assert carried.status_code == 200
    body = carried.get_json()
    assert body["text"] == "Ботев"
    assert body["state"] == desk.client.get(f"/api/events/{desk.code}/state").get_json()
    assert {"number": 2, "state": "open"} in body["state"]["rounds"]
    # A refused save is the refusal alone (its "state" is the round's) and changes nothing.
    assert desk.host(2, "close").status_code == 200
    late = desk.client.put(f"/api/events/{desk.code}/answers/2/1?with=state",
                           json={"text": "Вазов"}, headers={"Authorization": f"Bearer {a}"})
    assert late.status_code == 409 and late.get_json()["state"] == "locked"
    shown = next(r for r in desk.sheet(a).get_json()["rounds"] if r["number"] == 2)
    assert shown["questions"][0]["answer"]["text"] == "Ботев"
