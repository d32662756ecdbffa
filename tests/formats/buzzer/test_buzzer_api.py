"""The buzzer over the API (OQ-4): sync exchanges, presses ordered by the phone's own press
time after the one-second window, impossible claims and refusals."""

from __future__ import annotations

import pytest
from buzzgame import T0, Phone, install_server_clock, make_event, oq_player, start_question
from factories import Desk, row_counts

from answerdesk.extensions import db
from answerdesk.formats.buzzer import presses
from answerdesk.formats.buzzer.models import BuzzPress, BuzzSample


@pytest.fixture
def server_clock(monkeypatch):
    return install_server_clock(monkeypatch)


@pytest.fixture
def game(app, client, server_clock):
    code, password = make_event(app, "oq", {1: 5})
    desk = Desk(client, code, password)

    def phone(name: str, skew_ms: int, out_ms: int, back_ms: int) -> Phone:
        return Phone(client, code, oq_player(client, code, name), server_clock, skew_ms,
                     out_ms, back_ms)

    return desk, phone


def sync_a_while(phone: Phone, start_ms: int, jitter: list[tuple[int, int]]) -> dict:
    """Sync exchanges every 2 s, with the given (out, back) trips; the server's estimate
    of the phone's clock after them (kept by the server, never told to the phone)."""
    for i, (out, back) in enumerate(jitter):
        phone.sync(start_ms + i * 2_000, out, back)
    return server_estimate(phone)


def server_estimate(phone: Phone) -> dict:
    """The server's estimate of the phone that synced last (its newest sample's key)."""
    with phone.client.application.app_context():
        key = db.session.scalar(db.select(BuzzSample.phone).order_by(BuzzSample.id.desc())
                                .limit(1))
        est = presses.estimate_for(key, phone.clock.ms)
    return {} if est is None else {"offset_ms": est.offset_ms, "rtt_ms": est.rtt_ms}


def state(desk: Desk) -> dict:
    resp = desk.client.get(f"/api/events/{desk.code}/state")
    assert resp.status_code == 200
    return resp.get_json()["buzzer"]


def test_clock_exchange_answers_the_server_time(game, server_clock):
    desk, _ = game
    server_clock.ms = T0
    resp = desk.client.post(f"/api/events/{desk.code}/clock", json={"client_ms": 5})
    assert resp.status_code == 200
    assert resp.get_json() == {"server_ms": T0}


def test_server_estimates_each_phone_from_its_own_stamps(app, game):
    _, phone = game
    wifi = [(180, 20), (25, 24), (300, 15), (22, 22), (90, 200), (23, 25)]
    reply = sync_a_while(phone("Ahead", skew_ms=3_000, out_ms=0, back_ms=0), T0 - 20_000, wifi)
    # The lopsided slow trips would be off by up to 140 ms; the best ones by 1 ms.
    assert abs(reply["offset_ms"] - -3_000) <= 2
    assert reply["rtt_ms"] == 44


def test_a_receipt_the_server_did_not_see_possible_is_not_used(app, game):
    _, phone = game
    liar = phone("Liar", skew_ms=0, out_ms=20, back_ms=20)
    liar.sync(T0 - 10_000)
    # The phone claims it got the answer 5 s later than it did, to move its midpoint.
    liar.last["received_ms"] += 5_000
    reply = liar.sync(T0 - 9_000)
    assert "offset_ms" not in reply
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(BuzzSample).where(
            BuzzSample.client_receive_ms.is_not(None))) == 0


def test_oq4_first_on_its_own_clock_wins_though_its_press_arrives_last(app, game, server_clock):
    """The issue's test: three phones, different clock offsets and network delays."""
    desk, phone = game
    far = phone("Далече", skew_ms=+3_000, out_ms=290, back_ms=40)  # slow Wi-Fi, clock ahead
    near = phone("Близо", skew_ms=-5_000, out_ms=20, back_ms=20)  # clock 5 s behind
    mid = phone("Средата", skew_ms=0, out_ms=90, back_ms=60)
    cheat = phone("Хитрец", skew_ms=0, out_ms=30, back_ms=30)
    for p in (far, near, mid, cheat):
        sync_a_while(p, T0 - 30_000, [(p.out_ms, p.back_ms)] * 4)
        sync_a_while(p, T0 - 20_000, [(20, 20)] * 2)  # a couple of quick trips each
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=server_clock,
                   at_ms=T0)

    assert near.press(T0 + 350).status_code == 202  # arrives T0+370: first arrival
    assert mid.press(T0 + 400).status_code == 202  # arrives T0+490
    # Claims a press 500 ms before the question opened: it cannot have seen it yet.
    assert cheat.press(T0 + 570, claimed_ms=cheat.local(T0 - 500)).status_code == 202
    resp = far.press(T0 + 300)  # pressed first, arrives T0+590: last, inside the window
    assert resp.status_code == 202
    assert "window_closes_ms" not in resp.get_json()  # it would tell of the others' presses

    server_clock.ms = T0 + 1_200  # the window is still open: no order, no sign of presses
    assert state(desk)["state"] == "armed"
    assert state(desk)["order"] == [] and state(desk)["window_closes_ms"] is None
    server_clock.ms = T0 + 1_371
    buzzer = state(desk)
    assert buzzer["state"] == "closed"
    order = [(b["team"], b["behind_first_ms"], b["margin_ms"], b["flags"])
             for b in buzzer["order"]]
    assert [team for team, *_ in order] == ["Далече", "Близо", "Средата", "Хитрец"]
    assert order[0][3] == [] and abs(order[1][2] - 50) <= 25  # "2nd by 50 ms", within a trip
    assert order[3][3] == ["before_question"]  # counted at its arrival, flagged for the host


def teammate(desk: Desk, team: str, name: str, clock, skew_ms: int) -> Phone:
    """OQ-1: another player of an OpenQuiz team, on a phone of their own."""
    return Phone(desk.client, desk.code, oq_player(desk.client, desk.code, team, name), clock,
                 skew_ms, 20, 20)


@pytest.mark.parametrize("presser", ["ahead", "on_time"])
def test_oq4_each_phone_of_a_team_is_placed_by_its_own_clock(app, game, server_clock, presser):
    """OQ-4, "the server keeps its own estimate per phone": two phones of one OpenQuiz
    team, clocks 400 ms apart, each sync; whichever presses is converted with its own
    estimate, not a blend of its team's phones."""
    desk, phone = game
    on_time = phone("Альфа", skew_ms=0, out_ms=20, back_ms=20)
    ahead = teammate(desk, "Альфа", "Вася", server_clock, skew_ms=+400)
    rival = phone("Бета", skew_ms=0, out_ms=20, back_ms=20)
    for p in (on_time, ahead, rival):
        reply = sync_a_while(p, T0 - 30_000, [(20, 20)] * 4)
        assert abs(reply["offset_ms"] + p.skew_ms) <= 1  # the phone's own offset
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=server_clock,
                   at_ms=T0)
    pressing = {"ahead": ahead, "on_time": on_time}[presser]
    pressing.out_ms = 80  # pressed first, arrives T0+180: after the rival's press
    assert pressing.press(T0 + 100).status_code == 202
    assert rival.press(T0 + 150).status_code == 202  # arrives T0+170
    server_clock.ms = T0 + 1_200
    order = [(b["team"], b["behind_first_ms"], b["flags"]) for b in state(desk)["order"]]
    assert [team for team, *_ in order] == ["Альфа", "Бета"]
    assert order[0][2] == [] and order[1][2] == []
    assert abs(order[1][1] - 50) <= 25  # "2nd by 50 ms", within a trip


def test_oq4_a_phone_without_its_own_samples_counts_at_arrival(app, game, server_clock):
    """OQ-4: a phone that never synced gets no teammate's estimate: its press counts at
    its arrival, flagged ``no_sync`` for the host, as a team's press without samples."""
    desk, phone = game
    synced = phone("Альфа", skew_ms=0, out_ms=20, back_ms=20)
    silent = teammate(desk, "Альфа", "Вася", server_clock, skew_ms=0)
    rival = phone("Бета", skew_ms=0, out_ms=20, back_ms=20)
    for p in (synced, rival):
        sync_a_while(p, T0 - 30_000, [(20, 20)] * 4)
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=server_clock,
                   at_ms=T0)
    silent.out_ms = 300
    assert silent.press(T0 + 100).status_code == 202  # arrives T0+400
    assert rival.press(T0 + 150).status_code == 202  # arrives T0+170
    server_clock.ms = T0 + 1_200
    order = [(b["team"], b["at_ms"], b["flags"]) for b in state(desk)["order"]]
    assert order == [("Бета", T0 + 150, []), ("Альфа", T0 + 400, ["no_sync"])]
    with app.app_context():
        row = db.session.scalar(db.select(BuzzPress).where(BuzzPress.claimed_ms == T0 + 100))
        assert (row.offset_ms, row.rtt_ms, row.samples) == (None, None, 0)


def test_each_phone_keeps_its_own_latest_samples(app, game, server_clock):
    """Old exchanges are pruned per phone: a busy phone never pushes out a teammate's."""
    desk, phone = game
    busy = phone("Альфа", skew_ms=0, out_ms=20, back_ms=20)
    quiet = teammate(desk, "Альфа", "Вася", server_clock, skew_ms=+400)
    sync_a_while(quiet, T0 - 60_000, [(20, 20)] * 3)
    reply = sync_a_while(busy, T0 - 50_000, [(20, 20)] * (presses.KEPT_SAMPLES + 4))
    assert abs(reply["offset_ms"]) <= 1
    with app.app_context():
        kept = db.session.execute(db.select(BuzzSample.phone, db.func.count()).group_by(
            BuzzSample.phone)).all()
        assert sorted(n for _, n in kept) == [3, presses.KEPT_SAMPLES]
    quiet.sync(T0 - 5_000)
    assert abs(server_estimate(quiet)["offset_ms"] + 400) <= 1


def test_oq4_refusals_change_nothing(app, game, server_clock, english):
    desk, phone = game
    a = phone("A", skew_ms=0, out_ms=10, back_ms=10)
    b = phone("B", skew_ms=0, out_ms=10, back_ms=10)
    server_clock.ms = T0
    early = a.press(T0 - 100)
    assert early.status_code == 409
    assert early.get_json()["error"] == "buzzer_not_armed"
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=server_clock,
                   at_ms=T0)
    assert a.press(T0 + 100).status_code == 202
    again = a.press(T0 + 200)
    assert again.status_code == 409
    assert again.get_json()["message"] == "Your team already pressed for this question."
    late = b.press(T0 + 1_200)  # arrives 1 110 ms after the first press
    assert late.status_code == 409
    assert late.get_json() == {"error": "window_closed",
                               "message": "Too late: the buzzer window has closed."}
    bad = a.client.post(f"/api/events/{desk.code}/buzz", headers=a.auth,
                        json={"round": 1, "question": 1, "pressed_at_ms": "soon"})
    assert bad.status_code == 400
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(BuzzPress)) == 1


def test_refusals_are_translated(app, game, server_clock):
    desk, phone = game
    a = phone("A", skew_ms=0, out_ms=10, back_ms=10)
    resp = a.client.post(f"/api/events/{desk.code}/buzz", headers={
        **a.auth, "Accept-Language": "ru"}, json={"round": 1, "question": 1,
                                                  "pressed_at_ms": T0})
    assert resp.status_code == 409
    assert resp.get_json()["message"] == "Кнопка для этого вопроса ещё не включена."


def test_a_buzzer_question_opens_through_core_start_and_keeps_a_deadline_if_set(
        app, game, server_clock, english):
    """Core's start shapes a buzzer question by the format's hook: armed at the buzzer's
    clock, no deadline; the seconds the host sets are OpenQuiz's press timer (OQ-4.1):
    once they ran out with no press the question is over and nobody presses."""
    desk, phone = game
    a = phone("A", skew_ms=0, out_ms=10, back_ms=10)
    b = phone("B", skew_ms=0, out_ms=10, back_ms=10)
    opened = start_question(desk.client, desk.code, desk.password, 1, 1, clock=server_clock,
                            at_ms=T0)
    assert opened["locks_at"] is None and opened["opens_at"].startswith("2027-01-15T08:00:00")
    assert state(desk)["armed_ms"] == T0
    timed = desk.client.post(f"/api/host/events/{desk.code}/rounds/1/questions/2/start",
                             json={"seconds": 2, "grace": 0},
                             headers={"Authorization": f"Bearer {desk.password}"})
    assert timed.status_code == 409  # question 1 runs until the host's call
    assert a.press(T0 + 100).status_code == 202
    server_clock.ms = T0 + 1_200
    assert desk.client.post(f"/api/host/events/{desk.code}/oq/rounds/1/questions/1/judge",
                            json={"outcome": "accept"},
                            headers={"Authorization": f"Bearer {desk.password}"}
                            ).status_code == 200
    server_clock.ms = T0 + 5_000
    timed = desk.client.post(f"/api/host/events/{desk.code}/rounds/1/questions/2/start",
                             json={"seconds": 2, "grace": 0},
                             headers={"Authorization": f"Bearer {desk.password}"}).get_json()
    assert timed["seconds"] == 2 and timed["locks_at"] is None
    late = b.press(T0 + 7_100, 1, 2)  # arrives after the deadline the host set
    assert (late.status_code, late.get_json()["error"]) == (409, "buzzer_not_armed")


@pytest.mark.parametrize(("path", "body", "field", "message"), [
    ("clock", {}, "client_ms", "client_ms must be a whole number of milliseconds."),
    ("clock", {"client_ms": "5"}, "client_ms",
     "client_ms must be a whole number of milliseconds."),
    ("clock", {"client_ms": -1}, "client_ms",
     "client_ms must be a whole number of milliseconds."),
    ("clock", {"client_ms": 2**53}, "client_ms",
     "client_ms must be a whole number of milliseconds."),
    ("clock", {"client_ms": T0, "last": 5}, "last",
     "last must be an object with client_ms, server_ms and received_ms."),
    ("clock", {"client_ms": T0, "last": {"client_ms": T0, "server_ms": T0}},
     "last.received_ms", "last.received_ms must be a whole number of milliseconds."),
    ("clock", {"client_ms": T0, "last": {"client_ms": 1.5, "server_ms": T0,
                                         "received_ms": T0}},
     "last.client_ms", "last.client_ms must be a whole number of milliseconds."),
    ("buzz", {"round": 1, "question": 1}, "pressed_at_ms",
     "pressed_at_ms must be a whole number of milliseconds."),
    ("buzz", {"round": 1, "question": 1, "pressed_at_ms": True}, "pressed_at_ms",
     "pressed_at_ms must be a whole number of milliseconds."),
    ("buzz", {"round": "1", "question": 1, "pressed_at_ms": T0}, "round",
     "round and question must be whole numbers."),
    ("buzz", {"round": 1, "question": -1, "pressed_at_ms": T0}, "question",
     "round and question must be whole numbers."),
    ("buzz", {"round": 1, "pressed_at_ms": T0}, "question",
     "round and question must be whole numbers."),
])
def test_a_bad_body_is_refused_naming_its_field_and_changes_nothing(
        app, game, server_clock, english, path, body, field, message) -> None:
    """Issue 32: the sync's and the press's bodies are typed at the boundary
    (presses.ClockSync, BuzzPressRequest): a bad one is the translated 400 naming the
    field, before any sample or press is stored."""
    desk, phone = game
    a = phone("A", skew_ms=0, out_ms=10, back_ms=10)
    a.sync(T0 - 10_000)
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=server_clock, at_ms=T0)
    server_clock.ms = T0 + 100
    before = row_counts(app)
    refused = a.client.post(f"/api/events/{desk.code}/{path}", headers=a.auth, json=body)
    assert refused.status_code == 400, refused.get_json()
    assert refused.get_json()["field"] == field
    assert refused.get_json()["message"] == message
    assert row_counts(app) == before
    assert a.press(T0 + 100).status_code == 202  # the same phone's good press is taken


def test_the_document_describes_the_sync_and_the_press_by_their_classes(game) -> None:
    desk, _ = game
    document = desk.client.get("/api/openapi.json").get_json()
    paths, schemas = document["paths"], document["components"]["schemas"]
    for path, name in (("/api/events/{code}/clock", "ClockSync"),
                       ("/api/events/{code}/buzz", "BuzzPressRequest")):
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{name}"}
    assert schemas["BuzzPressRequest"]["properties"]["pressed_at_ms"] == {
        "type": "integer", "minimum": 0, "maximum": presses.MAX_MS}
    assert set(schemas["ClockExchange"]["required"]) == {"client_ms", "server_ms",
                                                        "received_ms"}
