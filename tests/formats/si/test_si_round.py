"""A Своя игра round end to end over the API, named by rule: SI-2.2 one private answer
(only the first counts), SI-2.2b ВСЁ, the checker proposes and the host decides, SI-2.4
the lists and ±value, "ПРОПУСТИЛИ" settled by receipt times, SI-1.3 warnings."""

from __future__ import annotations

import pytest
from buzzgame import make_event, start_question
from factories import Desk


@pytest.fixture
def si(app, client, english):
    desk = Desk(client, *make_event(app, "si", {1: 25, 2: 25}))
    tokens = {name: desk.join(name, players=1) for name in ("Вася", "Ира", "Женя", "Петя")}
    return desk, tokens


def send(desk: Desk, token: str, rnd: int, q: int, text: str):
    return desk.client.post(f"/api/events/{desk.code}/si/answers",
                            json={"round": rnd, "question": q, "text": text},
                            headers={"Authorization": f"Bearer {token}"})


def host(desk: Desk, rnd: int, q: int, action: str, **body):
    return desk.client.post(
        f"/api/host/events/{desk.code}/si/rounds/{rnd}/questions/{q}/{action}", json=body,
        headers={"Authorization": f"Bearer {desk.password}"})


def si_state(desk: Desk) -> dict:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["si"]


def scores(desk: Desk) -> dict[str, tuple[int, bool]]:
    return {s["player"]: (s["points"], s["removed"]) for s in si_state(desk)["scores"]}


def test_si_round(app, si):
    desk, t = si
    assert send(desk, t["Вася"], 1, 3, "answer 1.3").status_code == 409  # SI-2.2: not open
    start_question(desk.client, desk.code, desk.password, 1, 3)
    assert si_state(desk)["current"] == {"round": 1, "question": 3, "theme": 1,
                                         "theme_name": None, "value": 3,
                                         "state": "open", "answer": None, "lists": []}
    # SI-2.2: one answer each, privately; only the first counts.
    assert send(desk, t["Вася"], 1, 3, "answer 1.3").status_code == 201
    second = send(desk, t["Вася"], 1, 3, "something else")
    assert second.status_code == 409
    assert second.get_json()["error"] == "only_first_counts"
    assert send(desk, t["Ира"], 1, 3, "answr 1.3").status_code == 201  # a typo: still right
    assert send(desk, t["Женя"], 1, 3, "Ленинград").status_code == 201

    # SI-2.2b ВСЁ: the checker proposes; later answers are late.
    closed = host(desk, 1, 3, "close").get_json()["answers"]
    assert {a["player"]: a["proposed"] for a in closed} == {
        "Вася": "correct", "Ира": "correct", "Женя": "wrong"}
    late = send(desk, t["Петя"], 1, 3, "answer 1.3")
    assert (late.status_code, late.get_json()["late"]) == (201, True)

    # SI-2.4: the lists, ±value, on the projector and every phone.
    assert host(desk, 1, 3, "publish").get_json()["lists"] == ["+3 Вася, Ира", "−3 Женя"]
    current = si_state(desk)["current"]
    assert (current["state"], current["answer"]) == ("published", "answer 1.3")
    assert current["lists"] == ["+3 Вася, Ира", "−3 Женя"]
    assert scores(desk) == {"Вася": (3, False), "Ира": (3, False), "Женя": (-3, False),
                            "Петя": (0, False)}

    # ПРОПУСТИЛИ: the claim goes to the host and changes nothing until the host decides;
    # a late answer's claim ends as "0 Петя" when the host says so.
    claim = desk.client.post(f"/api/events/{desk.code}/si/claims", json={
        "round": 1, "question": 3}, headers={"Authorization": f"Bearer {t['Петя']}"})
    assert claim.get_json()["on_time"] is False
    assert si_state(desk)["current"]["lists"] == ["+3 Вася, Ира", "−3 Женя"]
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    assert desk.client.post(f"/host/{desk.code}/si/claim", data={
        "round": "1", "question": "3", "player": "Петя", "mark": "late"}).status_code == 302
    assert host(desk, 1, 3, "publish").get_json()["lists"] == [
        "+3 Вася, Ира", "−3 Женя", "0 Петя"]
    # An on-time answer the host set aside: the claim never overrides the host, who
    # decides it again.
    assert host(desk, 1, 3, "decide", player="Ира", mark="none").status_code == 200
    assert host(desk, 1, 3, "publish").get_json()["lists"] == ["+3 Вася", "−3 Женя", "0 Петя"]
    claim = desk.client.post(f"/api/events/{desk.code}/si/claims", json={
        "round": 1, "question": 3}, headers={"Authorization": f"Bearer {t['Ира']}"})
    assert claim.get_json()["on_time"] is True
    assert si_state(desk)["current"]["lists"] == ["+3 Вася", "−3 Женя", "0 Петя"]
    assert host(desk, 1, 3, "decide", player="Ира", mark="correct").status_code == 200
    assert host(desk, 1, 3, "publish").get_json()["lists"] == [
        "+3 Вася, Ира", "−3 Женя", "0 Петя"]

    # The next question: 5 points (SI-1.1, round 1, fifth of the theme).
    start_question(desk.client, desk.code, desk.password, 1, 5)
    send(desk, t["Женя"], 1, 5, "answer 1.5")
    host(desk, 1, 5, "close")
    host(desk, 1, 5, "publish")
    assert scores(desk)["Женя"] == (2, False)

    # SI-1.3: the second warning removes the player and annuls the points.
    warn = desk.client.post(f"/api/host/events/{desk.code}/si/warnings", json={"player": "Женя"},
                            headers={"Authorization": f"Bearer {desk.password}"})
    assert warn.get_json() == {"warnings": 1, "removed": False}
    warn = desk.client.post(f"/api/host/events/{desk.code}/si/warnings", json={"player": "Женя"},
                            headers={"Authorization": f"Bearer {desk.password}"})
    assert warn.get_json() == {"warnings": 2, "removed": True}
    assert scores(desk)["Женя"] == (0, True)
    start_question(desk.client, desk.code, desk.password, 2, 1)
    refused = send(desk, t["Женя"], 2, 1, "answer 2.1")
    assert (refused.status_code, refused.get_json()["error"]) == (409, "player_removed")
