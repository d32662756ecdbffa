"""OpenQuiz's replies are typed (issue 32, formats/oq/replies.py, formats/buzzer/replies.py):
its part of GET /state, the buzzer's, and its routes' answers, as a game with a final
sends them, fit their models strictly and the served OpenAPI document (OQ-1 to OQ-8)."""

from __future__ import annotations

from typing import get_args

import msgspec
import pytest
from buzzgame import T0, Phone, install_server_clock, make_event, oq_player, start_question
from buzzgame import game_state as oq_state
from buzzgame import host_post as host
from buzzgame import phone_post as post
from factories import Desk
from replycheck import fits, served_document, validates

from answerdesk.api.replies import Sheet, State
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.buzzer.replies import BuzzAccepted, BuzzState, ClockSynced
from answerdesk.formats.oq.replies import (
    MediaKind,
    OqBanned,
    OqBet,
    OqBidding,
    OqCall,
    OqCaptain,
    OqChoicesClosed,
    OqChosen,
    OqClock,
    OqHanded,
    OqInvite,
    OqMe,
    OqPlayerJoined,
    OqReading,
    OqReceived,
    OqRef,
    OqRemoved,
    OqRoomJoined,
    OqScoreSet,
    OqSold,
    OqSpeed,
    OqState,
    OqTyped,
    QuestionTypeName,
)
from answerdesk.formats.oq.replies import Outcome as ReplyOutcome
from answerdesk.formats.oq.replies import Speed as ReplySpeed
from answerdesk.formats.oq.rules import Outcome
from answerdesk.formats.oq.timers import Speed
from answerdesk.formats.oq.types import TYPES
from answerdesk.packs.model import MEDIA_KINDS

E = "/api/events/{code}/oq/"
H = "/api/host/events/{code}/oq/"
Q = "/api/host/events/{code}/oq/rounds/{round}/questions/{question}/"


@pytest.fixture
def oq(app, client, monkeypatch, english):
    clock = install_server_clock(monkeypatch)
    desk = Desk(client, *make_event(app, "oq", {1: 5, 4: 3}))
    phones = {name: Phone(client, desk.code, oq_player(client, desk.code, name), clock, 0,
                          20, 20) for name in ("Альфа", "Бета")}
    return desk, phones, clock


def state_fits(document: dict, desk: Desk) -> dict:
    """GET /state fits State, its "oq" part OqState and its "buzzer" part BuzzState."""
    state = oq_state(desk)
    fits(document, "/api/events/{code}/state", "get", "200", state, State)
    msgspec.convert(state["oq"], OqState, strict=True)
    msgspec.convert(state["buzzer"], BuzzState | None, strict=True)
    parts = document["components"]["schemas"]["State"]["properties"]
    validates(document, parts["oq"], state["oq"])
    validates(document, parts["buzzer"], state["buzzer"])
    return state


def test_the_state_and_the_routes_fit_their_replies(app, client, oq):
    desk, ph, clock = oq
    a, b = ph["Альфа"], ph["Бета"]
    document = served_document(client)
    assert document["components"]["schemas"]["State"]["properties"]["oq"] == {
        "$ref": "#/components/schemas/OqState"}
    assert state_fits(document, desk)["buzzer"] is None

    synced = client.post(f"/api/events/{desk.code}/clock", json={"client_ms": T0},
                         headers=a.auth)
    fits(document, "/api/events/{code}/clock", "post", "200", synced.get_json(), ClockSynced)
    picked = post(a, "oq/pick", round=1, question=2)
    fits(document, E + "pick", "post", "200", picked.get_json(), OqRef)
    assert state_fits(document, desk)["oq"]["picked"] == {"round": 1, "question": 2}

    start_question(desk.client, desk.code, desk.password, 1, 2, clock=clock, at_ms=T0)
    # the sheet keeps only the started question; OpenQuiz adds no key to core's
    sheet = desk.sheet(desk.join("Гама", players=2)).get_json()
    fits(document, "/api/events/{code}/sheet", "get", "200", sheet, Sheet)
    assert [[q["number"] for q in r["questions"]] for r in sheet["rounds"]] == [[2]]
    reading = host(desk, "oq/rounds/1/questions/2/reading", seconds=0)
    fits(document, Q + "reading", "post", "200", reading.get_json(), OqReading)
    pressed = b.press(T0 + 200, 1, 2)
    assert pressed.status_code == 202
    fits(document, "/api/events/{code}/buzz", "post", "202", pressed.get_json(), BuzzAccepted)
    assert state_fits(document, desk)["buzzer"]["state"] == "armed"  # the window is open
    clock.ms = T0 + 1_300
    state = state_fits(document, desk)
    assert state["buzzer"]["order"][0]["team"] == "Бета"
    assert state["oq"]["play"]["state"] == "open" and state["oq"]["clock"]["answer"]
    assert host(desk, "oq/rounds/1/questions/2/judge", outcome="accept").status_code == 200
    assert state_fits(document, desk)["oq"]["play"]["state"] == "done"

    edited = host(desk, "oq/scores", team="Альфа", points=300)
    fits(document, H + "scores", "post", "200", edited.get_json(), OqScoreSet)
    speed = host(desk, "oq/speed", speed="fast")
    fits(document, H + "speed", "post", "200", speed.get_json(), OqSpeed)
    paused = host(desk, "oq/pause", paused=True)
    fits(document, H + "pause", "post", "200", paused.get_json(), OqClock)
    assert state_fits(document, desk)["oq"]["clock"]["paused"] is True
    fits(document, H + "pause", "post", "200",
         host(desk, "oq/pause", paused=False).get_json(), OqClock)

    # OQ-6: bans, sealed bets, written answers, the host's word
    banned = post(a, "oq/final/ban", theme=1)
    fits(document, E + "final/ban", "post", "200", banned.get_json(), OqBanned)
    assert post(b, "oq/final/ban", theme=3).status_code == 200
    bet = post(a, "oq/final/bet", amount=100)
    fits(document, E + "final/bet", "post", "201", bet.get_json(), OqBet)
    assert post(b, "oq/final/bet", amount=100).status_code == 201
    answered = post(a, "oq/final/answer", text="answer 4.2")
    fits(document, E + "final/answer", "post", "201", answered.get_json(), OqReceived)
    judged = host(desk, "oq/final/judge", team="Альфа", accepted=True)
    fits(document, H + "final/judge", "post", "200", judged.get_json(), OqScoreSet)
    final = state_fits(document, desk)["oq"]["final"]
    assert final["results"] and final["question"]


def test_the_room_routes_fit_their_replies(app, client, oq):
    """OQ-1 and OQ-8: joining, the invitation, whose phone, the captaincy, a kick."""
    desk, ph, _ = oq
    document = served_document(client)
    joined = client.post(f"/api/events/{desk.code}/oq/join",
                         json={"team": "Гарвани", "player": "Оля"})
    assert joined.status_code == 201
    fits(document, E + "join", "post", "201", joined.get_json(), OqRoomJoined)
    captain = {"Authorization": f"Bearer {joined.get_json()['token']}"}
    invite = client.get(f"/api/events/{desk.code}/oq/invite", headers=captain)
    fits(document, E + "invite", "get", "200", invite.get_json(), OqInvite)
    team_token = desk.join("Сови", players=3)
    player = client.post(f"/api/events/{desk.code}/oq/players", json={"name": "Ира"},
                         headers={"Authorization": f"Bearer {team_token}"})
    assert player.status_code == 201
    fits(document, E + "players", "post", "201", player.get_json(), OqPlayerJoined)
    mate = client.post(f"/api/events/{desk.code}/oq/join", json={
        "team": "Гарвани", "player": "Петя", "invite": joined.get_json()["invite"]})
    assert mate.status_code == 201
    for token in (joined.get_json()["token"], team_token):
        me = client.get(f"/api/events/{desk.code}/oq/me",
                        headers={"Authorization": f"Bearer {token}"})
        fits(document, E + "me", "get", "200", me.get_json(), OqMe)
    passed = client.post(f"/api/events/{desk.code}/oq/captain", json={"player": "Петя"},
                         headers=captain)
    fits(document, E + "captain", "post", "200", passed.get_json(), OqCaptain)
    back = host(desk, "oq/captain", team="Гарвани", player="Оля")
    fits(document, H + "captain", "post", "200", back.get_json(), OqCaptain)
    kicked = host(desk, "oq/remove", kind="player", team="Гарвани", player="Петя", ban=True)
    fits(document, H + "remove", "post", "200", kicked.get_json(), OqRemoved)
    assert state_fits(document, desk)["oq"]["teams"]


def test_the_question_types_replies_fit(app, client, monkeypatch, english):
    """OQ-3: a choice judged at once, choices for all sealed then closed, a secret handed,
    an auction staked, passed and closed by the host; OQ-4/OQ-5 the host's call."""
    clock = install_server_clock(monkeypatch)
    desk = Desk(client, *make_event(app, "oq", {1: 6}))
    with app.app_context():  # questions 2 and 3 come with options, as from a pack
        for q in event_by_code(desk.code).round(1).questions:
            if q.number in (2, 3):
                q.details, q.key = {"options": {"А": "Искър", "Б": "Марица"}}, ["Б"]
        db.session.commit()
    ph = {name: Phone(client, desk.code, oq_player(client, desk.code, name), clock, 0, 20, 20)
          for name in ("Альфа", "Бета")}
    a, b = ph["Альфа"], ph["Бета"]
    document = served_document(client)
    host(desk, "oq/scores", team="Альфа", points=1000)
    host(desk, "oq/scores", team="Бета", points=1000)

    assert post(a, "oq/pick", round=1, question=2).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 2, clock=clock, at_ms=T0)
    assert b.press(T0 + 200, 1, 2).status_code == 202
    clock.ms = T0 + 1_300
    chosen = post(b, "oq/choose", round=1, question=2, option="А")
    assert chosen.get_json()["returns"] is True
    fits(document, E + "choose", "post", "200", chosen.get_json(), OqChosen)
    assert a.press(T0 + 1_400, 1, 2).status_code == 202
    clock.ms = T0 + 2_500
    assert post(a, "oq/choose", round=1, question=2, option="Б").status_code == 200

    typed = host(desk, "oq/rounds/1/questions/3/type", type="choices_all")
    fits(document, Q + "type", "post", "200", typed.get_json(), OqTyped)
    assert post(a, "oq/pick", round=1, question=3).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 3, clock=clock, at_ms=T0 + 10_000)
    sealed = post(a, "oq/choose", round=1, question=3, option="Б")
    assert sealed.get_json() == {"option": "Б", "sealed": True}
    fits(document, E + "choose", "post", "200", sealed.get_json(), OqChosen)
    closed = host(desk, "oq/rounds/1/questions/3/choices/close")
    fits(document, Q + "choices/close", "post", "200", closed.get_json(), OqChoicesClosed)

    host(desk, "oq/rounds/1/questions/4/type", type="secret")
    assert post(a, "oq/pick", round=1, question=4).status_code == 200
    handed = post(a, "oq/secret", round=1, question=4, team="Бета")
    fits(document, E + "secret", "post", "200", handed.get_json(), OqHanded)
    start_question(desk.client, desk.code, desk.password, 1, 4, clock=clock, at_ms=T0 + 20_000)
    clock.ms = T0 + 20_500
    judged = host(desk, "oq/rounds/1/questions/4/judge", outcome="accept", factor=2)
    assert judged.get_json()["returns"] is False
    fits(document, Q + "judge", "post", "200", judged.get_json(), OqCall)

    host(desk, "oq/rounds/1/questions/5/type", type="auction")
    turn = state_fits(document, desk)["oq"]["turn"]
    assert post(ph[turn], "oq/pick", round=1, question=5).status_code == 200
    staked = post(a, "oq/stake", round=1, question=5, amount=600)
    fits(document, E + "stake", "post", "200", staked.get_json(), OqBidding)
    assert state_fits(document, desk)["oq"]["play"]["auction"]["leader"] == "Альфа"
    sold = host(desk, "oq/rounds/1/questions/5/auction/close")
    assert sold.get_json() == {"team": "Альфа", "value": 600}
    fits(document, Q + "auction/close", "post", "200", sold.get_json(), OqSold)
    start_question(desk.client, desk.code, desk.password, 1, 5, clock=clock, at_ms=T0 + 30_000)
    clock.ms = T0 + 30_500
    assert host(desk, "oq/rounds/1/questions/5/judge", outcome="timeout").status_code == 200

    host(desk, "oq/rounds/1/questions/6/type", type="auction")
    turn = state_fits(document, desk)["oq"]["turn"]
    assert post(ph[turn], "oq/pick", round=1, question=6).status_code == 200
    assert post(a, "oq/stake", round=1, question=6, amount=700).status_code == 200
    passed = post(b, "oq/pass", round=1, question=6)
    assert passed.get_json()["closed"] is True
    fits(document, E + "pass", "post", "200", passed.get_json(), OqBidding)


def test_the_question_types_and_media_kinds_are_the_codes():
    """OQ-3's types and the media kinds the replies list are the code's tables."""
    assert set(get_args(QuestionTypeName)) == set(TYPES)
    assert set(get_args(MediaKind)) == set(MEDIA_KINDS)


def test_the_hosts_outcomes_and_the_speeds_are_the_rules():
    """OQ-2's outcomes in the judge's reply and OQ-7's speeds are the rules' enums."""
    assert set(get_args(ReplyOutcome)) == set(Outcome)
    assert set(get_args(ReplySpeed)) == set(Speed)
