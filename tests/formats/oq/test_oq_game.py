"""An OpenQuiz game with a final, end to end over the API, named by rule: OQ-2 turn and
pick, OQ-4 the buzzer (fair order, rejection returns the question, a team out stays
out), OQ-5 ±value, ×2, hand edits, OQ-6 bans in turn, sealed bets, written answers."""

from __future__ import annotations

import pytest
from buzzgame import T0, Phone, install_server_clock, make_event, oq_player, start_question
from buzzgame import game_state as oq_state
from buzzgame import host_post as host
from buzzgame import oq_scores as scores
from buzzgame import phone_post as post
from factories import Desk


@pytest.fixture
def oq(app, client, monkeypatch, english):
    clock = install_server_clock(monkeypatch)
    desk = Desk(client, *make_event(app, "oq", {1: 5, 4: 3}))
    phones = {name: Phone(client, desk.code, oq_player(client, desk.code, name), clock, skew,
                            20, 20)
              for name, skew in (("Альфа", 1_500), ("Бета", -800), ("Гама", 0))}
    for p in phones.values():
        p.sync(T0 - 30_000)
        p.sync(T0 - 28_000)
    return desk, phones, clock



def test_oq_game_with_a_final(app, oq):
    desk, ph, clock = oq
    a, b, c = ph["Альфа"], ph["Бета"], ph["Гама"]
    # OQ-2: the turn starts with the first team; only it picks.
    assert oq_state(desk)["oq"]["turn"] == "Альфа"
    refused = post(b, "oq/pick", round=1, question=2)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "not_your_turn")
    assert post(a, "oq/pick", round=1, question=2).status_code == 200
    assert oq_state(desk)["oq"]["picked"] == {"round": 1, "question": 2}

    start_question(desk.client, desk.code, desk.password, 1, 2, clock=clock, at_ms=T0)
    assert b.press(T0 + 200, 1, 2).status_code == 202
    assert c.press(T0 + 260, 1, 2).status_code == 202
    clock.ms = T0 + 500
    early = host(desk, "oq/rounds/1/questions/2/judge", outcome="reject")
    assert (early.status_code, early.get_json()["message"]) == (
        409, "Nobody has won the buzzer yet.")
    clock.ms = T0 + 1_300
    assert oq_state(desk)["buzzer"]["order"][0]["team"] == "Бета"
    # OQ-4/OQ-5: rejected → −value, the question returns to the others.
    judged = host(desk, "oq/rounds/1/questions/2/judge", outcome="reject").get_json()
    assert judged == {"team": "Бета", "outcome": "reject", "points": -200, "returns": True}
    out = b.press(T0 + 1_400, 1, 2)
    assert (out.status_code, out.get_json()["error"]) == (409, "team_is_out")
    assert c.press(T0 + 1_500, 1, 2).status_code == 202
    clock.ms = T0 + 2_600
    buzzer = oq_state(desk)["buzzer"]
    assert (buzzer["attempt"], [o["team"] for o in buzzer["order"]]) == (2, ["Гама"])
    # OQ-5: accepted with ×2.
    judged = host(desk, "oq/rounds/1/questions/2/judge", outcome="accept", factor=2).get_json()
    assert (judged["points"], judged["returns"]) == (400, False)
    late = a.press(T0 + 2_700, 1, 2)
    assert (late.status_code, late.get_json()["error"]) == (409, "buzzer_not_armed")
    assert oq_state(desk)["oq"]["turn"] == "Гама"  # OQ-2: the turn passes to the team right

    assert post(c, "oq/pick", round=1, question=1).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0 + 10_000)
    assert a.press(T0 + 10_300, 1, 1).status_code == 202
    clock.ms = T0 + 11_400
    assert host(desk, "oq/rounds/1/questions/1/judge", outcome="timeout").get_json()[
        "points"] == -100  # OQ-5: timeout −value
    assert b.press(T0 + 11_500, 1, 1).status_code == 202
    clock.ms = T0 + 12_600
    assert host(desk, "oq/rounds/1/questions/1/judge", outcome="accept").get_json()[
        "points"] == 100
    # OQ-5: the host edits a score by hand.
    assert host(desk, "oq/scores", team="Альфа", points=300).get_json()["points"] == 200
    assert scores(desk) == {"Гама": 400, "Альфа": 200, "Бета": -100}

    # OQ-6: teams above 0 ban in turn (join order) until one theme remains.
    assert post(b, "oq/final/ban", theme=1).get_json()["error"] == "bet_refused"
    assert post(c, "oq/final/ban", theme=1).get_json()["error"] == "not_your_turn"
    assert post(a, "oq/final/ban", theme=1).get_json() == {"remaining": [2, 3]}
    assert post(c, "oq/final/ban", theme=3).get_json() == {"remaining": [2]}
    final = oq_state(desk)["oq"]["final"]
    assert {k: final[k] for k in ("banned", "remaining", "bets", "question", "open")} == {
        "banned": [1, 3], "remaining": [2], "bets": 0, "question": None, "open": False}
    # Sealed bets from 1 to the score; a team at 0 or below sits out.
    sits = post(b, "oq/final/bet", amount=10)
    assert (sits.status_code, sits.get_json()["message"]) == (
        409, "A team at 0 points or below sits the final out.")
    over = post(a, "oq/final/bet", amount=500)
    assert over.get_json()["message"] == (
        "The bet must be a whole number from 1 to the team's score (200).")
    assert post(a, "oq/final/bet", amount=200).status_code == 201
    assert post(a, "oq/final/bet", amount=100).status_code == 409
    assert post(c, "oq/final/bet", amount=100).status_code == 201
    assert post(a, "oq/final/answer", text="answer 4.2").status_code == 201
    assert post(c, "oq/final/answer", text="не знам").status_code == 201
    # The host judges them one by one: ±bet.
    assert host(desk, "oq/final/judge", team="Альфа", accepted=True).get_json()["points"] == 200
    assert host(desk, "oq/final/judge", team="Гама", accepted=False).get_json()["points"] == -100
    assert host(desk, "oq/final/judge", team="Гама", accepted=True).status_code == 409
    assert scores(desk) == {"Альфа": 400, "Гама": 300, "Бета": -100}


def test_oq4_reading_mode_press_during_the_reading_counts_two_seconds_later(app, oq):
    desk, ph, clock = oq
    a, b = ph["Альфа"], ph["Бета"]
    start_question(desk.client, desk.code, desk.password, 1, 3, clock=clock, at_ms=T0)
    clock.ms = T0 + 10
    reading = host(desk, "oq/rounds/1/questions/3/reading", seconds=1)
    assert reading.get_json() == {"reading_until_ms": T0 + 1_000}
    assert a.press(T0 + 800, 1, 3).status_code == 202  # during the reading
    assert b.press(T0 + 1_200, 1, 3).status_code == 202  # after it
    clock.ms = T0 + 2_000
    order = oq_state(desk)["buzzer"]["order"]
    assert [(o["team"], o["penalty_ms"], o["flags"]) for o in order] == [
        ("Бета", 0, []), ("Альфа", 2_000, ["reading"])]
    assert order[1]["margin_ms"] == 1_600


@pytest.mark.parametrize(("fmt", "rounds"), [("oq", [1, 2, 3, 4]), ("si", [1, 2, 3])])
def test_an_oq_or_si_event_is_created_over_the_api(app, client, fmt, rounds):
    resp = client.post("/api/events", json={"name": f"{fmt} night", "format": fmt},
                       headers={"Authorization": f"Bearer {app.config['ORGANISER_PASSWORD']}"})
    assert resp.status_code == 201, resp.get_json()
    state = client.get(f"/api/events/{resp.get_json()['code']}/state").get_json()
    assert [r["number"] for r in state["rounds"]] == rounds
    assert ("buzzer" in state) == (fmt == "oq") and ("si" in state) == (fmt == "si")
