"""An OpenQuiz game that plays every question type of OQ-3 end to end over the API,
named by rule: choices (the buzzer's winner chooses; a wrong choice returns the
question), choices for all (sealed, scored on closing), no-risk (OQ-5: a wrong answer
costs nothing), secret (handed by the team with the turn), auction (the highest stake
answers, for the stake); every refusal is translated and changes nothing."""

from __future__ import annotations

import pytest
from buzzgame import T0, Phone, install_server_clock, make_event, oq_player, start_question
from buzzgame import game_state as state
from buzzgame import host_post as host
from buzzgame import oq_scores as scores
from buzzgame import phone_post as post
from factories import Desk

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db

OPTIONS = {"А": "Искър", "Б": "Марица", "В": "Дунав"}


@pytest.fixture
def game(app, client, monkeypatch, english):
    clock = install_server_clock(monkeypatch)
    desk = Desk(client, *make_event(app, "oq", {1: 6, 4: 2}))
    with app.app_context():  # questions 2 and 3 come with options, as from a pack
        for q in event_by_code(desk.code).round(1).questions:
            if q.number in (2, 3):
                q.details, q.key = {"options": OPTIONS}, ["Б"]
        db.session.commit()
    phones = {name: Phone(client, desk.code, oq_player(client, desk.code, name), clock, skew,
                            20, 20)
              for name, skew in (("Альфа", 900), ("Бета", -400), ("Гама", 0))}
    for p in phones.values():
        p.sync(T0 - 30_000)
        p.sync(T0 - 28_000)
    return desk, phones, clock



def refused(resp, status: int, error: str, message: str | None = None) -> None:
    body = resp.get_json()
    assert (resp.status_code, body["error"]) == (status, error), body
    if message is not None:
        assert body["message"] == message


def unchanged(desk: Desk, before: dict, resp, status: int, error: str,
              message: str | None = None) -> None:
    """A refusal that changes nothing: the same scores and the same question in play."""
    refused(resp, status, error, message)
    now = state(desk)["oq"]
    assert (now["scores"], now["play"]) == (before["scores"], before["play"])


def test_oq3_every_question_type_plays_by_its_rules(app, game):
    desk, ph, clock = game
    a, b, c = ph["Альфа"], ph["Бета"], ph["Гама"]
    host(desk, "oq/scores", team="Альфа", points=1000)
    host(desk, "oq/scores", team="Бета", points=1200)
    q = "oq/rounds/1/questions"

    # OQ-3 choices: the first to buzz chooses; a wrong choice costs the value and
    # returns the question to the others; the right one is judged at once.
    assert post(a, "oq/pick", round=1, question=2).status_code == 200
    assert state(desk)["oq"]["play"] == {
        "round": 1, "question": 2, "type": "choices", "value": 200, "state": "picked",
        # issue 29: the text and the options reach the phones once the host starts it
        "options": None, "theme": None, "text": None, "media": [],
        "answering": None, "auction": None, "choices": [],
        "answer": None,  # OQ-2: shown once the question is over
        "prices": None}  # OQ-3.4: a secret question's own prices
    start_question(desk.client, desk.code, desk.password, 1, 2, clock=clock, at_ms=T0)
    shown = state(desk)["oq"]["play"]
    assert (shown["options"], shown["text"]) == (OPTIONS, "Q1.2")
    assert b.press(T0 + 200, 1, 2).status_code == 202
    assert a.press(T0 + 300, 1, 2).status_code == 202
    clock.ms = T0 + 1_300
    before = state(desk)["oq"]
    unchanged(desk, before, post(a, "oq/choose", round=1, question=2, option="Б"), 409,
              "choice_refused", "Only the team that won the buzzer chooses.")
    unchanged(desk, before, post(b, "oq/choose", round=1, question=2, option="Г"), 409,
              "choice_refused", "Choose one of the options shown: А, Б, В.")
    unchanged(desk, before, host(desk, f"{q}/2/judge", outcome="accept"), 409,
              "wrong_question_type",
              "A choice is judged by the option chosen: the host calls only a timeout.")
    assert post(b, "oq/choose", round=1, question=2, option="А").get_json() == {
        "option": "А", "sealed": False, "team": "Бета", "outcome": "reject", "points": -200,
        "returns": True}
    before = state(desk)["oq"]
    unchanged(desk, before, post(b, "oq/choose", round=1, question=2, option="Б"), 409,
              "choice_refused", "Your team has already answered this question.")
    assert a.press(T0 + 1_400, 1, 2).status_code == 202
    clock.ms = T0 + 2_500
    chose = post(a, "oq/choose", round=1, question=2, option="б").get_json()
    assert (chose["option"], chose["points"], chose["returns"]) == ("Б", 200, False)
    assert state(desk)["oq"]["play"]["choices"] == [{"team": "Бета", "option": "А"},
                                                    {"team": "Альфа", "option": "Б"}]
    assert state(desk)["oq"]["turn"] == "Альфа"

    # OQ-3 choices for all: no buzzer; each team chooses once, sealed until the host
    # closes; then right +value, wrong −value, no choice 0.
    assert host(desk, f"{q}/3/type", type="choices_all").get_json() == {"type": "choices_all"}
    assert post(a, "oq/pick", round=1, question=3).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 3, clock=clock, at_ms=T0 + 10_000)
    clock.ms = T0 + 10_500
    refused(a.press(T0 + 10_400, 1, 3), 409, "buzzer_not_armed")
    assert state(desk)["buzzer"] is None
    assert post(a, "oq/choose", round=1, question=3, option="Б").get_json() == {
        "option": "Б", "sealed": True}
    assert post(c, "oq/choose", round=1, question=3, option="А").status_code == 200
    before = state(desk)["oq"]
    assert before["play"]["choices"] == [{"team": "Альфа", "option": None},
                                         {"team": "Гама", "option": None}]
    unchanged(desk, before, post(a, "oq/choose", round=1, question=3, option="В"), 409,
              "choice_refused", "Your team has already answered this question.")
    unchanged(desk, before, host(desk, f"{q}/3/judge", outcome="accept"), 409,
              "wrong_question_type",
              "Every team's choice is judged when the host closes the question.")
    assert host(desk, f"{q}/3/choices/close").get_json() == {
        "choices": {"Альфа": "Б", "Гама": "А"}, "points": {"Альфа": 300, "Гама": -300}}
    refused(post(b, "oq/choose", round=1, question=3, option="Б"), 409, "conflict",
            "Question 3 is not being played.")
    assert state(desk)["oq"]["play"]["choices"][1] == {"team": "Гама", "option": "А"}
    assert scores(desk) == {"Альфа": 1500, "Бета": 1000, "Гама": -300}

    # OQ-3/OQ-5 no-risk: with the buzzer; a wrong answer (or a timeout) costs nothing
    # and the question returns to the others.
    assert host(desk, f"{q}/4/type", type="norisk").status_code == 200
    assert post(a, "oq/pick", round=1, question=4).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 4, clock=clock, at_ms=T0 + 20_000)
    assert b.press(T0 + 20_100, 1, 4).status_code == 202
    clock.ms = T0 + 21_200
    assert host(desk, f"{q}/4/judge", outcome="reject").get_json()["points"] == 0
    assert c.press(T0 + 21_300, 1, 4).status_code == 202
    clock.ms = T0 + 22_400
    assert host(desk, f"{q}/4/judge", outcome="timeout").get_json()["points"] == 0
    assert a.press(T0 + 22_500, 1, 4).status_code == 202
    clock.ms = T0 + 23_600
    assert host(desk, f"{q}/4/judge", outcome="accept").get_json()["points"] == 400
    assert scores(desk) == {"Альфа": 1900, "Бета": 1000, "Гама": -300}

    # OQ-3 secret: the team with the turn hands it to a team; that team alone answers,
    # ±value, and the question does not return.
    assert host(desk, f"{q}/5/type", type="secret").status_code == 200
    assert post(a, "oq/pick", round=1, question=5).status_code == 200
    before = state(desk)["oq"]
    unchanged(desk, before, post(b, "oq/secret", round=1, question=5, team="Бета"), 409,
              "secret_refused", "Only the team with the turn hands the secret question.")
    unchanged(desk, before, post(a, "oq/secret", round=1, question=5, team="Делта"), 404,
              "not_found")
    unchanged(desk, before, host(desk, f"{q}/5/judge", outcome="accept"), 409, "conflict",
              "Question 5 is not being played.")
    assert post(a, "oq/secret", round=1, question=5, team="Бета").get_json() == {
        "team": "Бета"}
    refused(post(a, "oq/secret", round=1, question=5, team="Гама"), 409, "secret_refused",
            "The secret question was already handed to a team.")
    start_question(desk.client, desk.code, desk.password, 1, 5, clock=clock, at_ms=T0 + 30_000)
    clock.ms = T0 + 30_500
    refused(c.press(T0 + 30_400, 1, 5), 409, "buzzer_not_armed")
    assert state(desk)["oq"]["play"]["answering"] == "Бета"
    assert host(desk, f"{q}/5/judge", outcome="reject").get_json() == {
        "team": "Бета", "outcome": "reject", "points": -500, "returns": False}
    assert state(desk)["oq"]["play"]["state"] == "done"
    assert state(desk)["oq"]["turn"] == "Альфа"

    # OQ-3 auction: stakes from the value to the score (or all in), each above the
    # highest; a team at 0 or below does not bid; the highest answers for its stake.
    assert host(desk, f"{q}/6/type", type="auction").status_code == 200
    assert post(a, "oq/pick", round=1, question=6).status_code == 200
    assert post(a, "oq/pick", round=1, question=1).status_code == 200  # a change of mind
    assert post(a, "oq/pick", round=1, question=6).status_code == 200
    before = state(desk)["oq"]
    unchanged(desk, before, post(b, "oq/stake", round=1, question=6, amount=600), 409,
              "stake_refused", "The stake cannot be above your team's score (500).")
    unchanged(desk, before, post(c, "oq/stake", round=1, question=6, amount=100), 409,
              "stake_refused", "A team at 0 points or below cannot bid.")
    unchanged(desk, before, post(a, "oq/stake", round=1, question=6, amount=50), 409,
              "stake_refused", "The stake must be at least 100, or your whole score.")
    assert post(a, "oq/stake", round=1, question=6, amount=300).get_json() == {
        "highest": 300, "leader": "Альфа", "passed": [], "closed": False}
    refused(post(a, "oq/pick", round=1, question=1), 409, "conflict",
            "Question 6 is still being settled: play it first.")
    refused(post(b, "oq/stake", round=1, question=6, amount=300), 409, "stake_refused",
            "The stake must be above the highest so far (300).")
    assert post(b, "oq/stake", round=1, question=6, amount=500).status_code == 200  # all in
    refused(post(b, "oq/pass", round=1, question=6), 409, "stake_refused",
            "Your team holds the highest stake: it cannot pass.")
    assert post(a, "oq/stake", round=1, question=6, amount=800).status_code == 200
    assert post(c, "oq/pass", round=1, question=6).get_json()["closed"] is False
    refused(post(c, "oq/stake", round=1, question=6, amount=900), 409, "stake_refused",
            "Your team has passed this auction.")
    assert post(b, "oq/pass", round=1, question=6).get_json() == {
        "highest": 800, "leader": "Альфа", "passed": ["Гама", "Бета"], "closed": True}
    refused(host(desk, f"{q}/6/auction/close"), 409, "stake_refused", "The auction is closed.")
    play = state(desk)["oq"]["play"]
    assert (play["type"], play["answering"], play["value"]) == ("auction", "Альфа", 800)
    start_question(desk.client, desk.code, desk.password, 1, 6, clock=clock, at_ms=T0 + 40_000)
    clock.ms = T0 + 40_500
    assert host(desk, f"{q}/6/judge", outcome="accept", factor=0.5).get_json()["points"] == 400
    assert scores(desk) == {"Альфа": 2300, "Бета": 500, "Гама": -300}
    refused(host(desk, f"{q}/1/type", type="lottery"), 409, "wrong_question_type",
            "The type must be one of: buzzer, choices, choices_all, norisk, secret, auction.")
    refused(host(desk, f"{q}/6/type", type="buzzer"), 409, "conflict",
            "Question 6 was already played.")


def test_oq3_secret_may_be_kept_and_the_auction_closed_by_the_host(app, game):
    desk, ph, clock = game
    a, b = ph["Альфа"], ph["Бета"]
    q = "oq/rounds/1/questions"
    host(desk, "oq/scores", team="Бета", points=700)
    host(desk, f"{q}/1/type", type="secret")
    assert post(a, "oq/pick", round=1, question=1).status_code == 200
    assert post(a, "oq/secret", round=1, question=1, team="Альфа").get_json() == {
        "team": "Альфа"}  # OQ-3: "itself included"
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0)
    clock.ms = T0 + 100
    assert host(desk, f"{q}/1/judge", outcome="timeout").get_json()["points"] == -100
    # The turn stays with Альфа (nobody was right): it picks the auction; Бета bids,
    # the host closes the bidding and Бета answers for its stake.
    host(desk, f"{q}/4/type", type="auction")
    assert post(a, "oq/pick", round=1, question=4).status_code == 200
    refused(post(a, "oq/stake", round=1, question=4, amount=400), 409, "stake_refused",
            "A team at 0 points or below cannot bid.")
    assert post(b, "oq/stake", round=1, question=4, amount=450).status_code == 200
    assert host(desk, f"{q}/4/auction/close").get_json() == {"team": "Бета", "value": 450}
    start_question(desk.client, desk.code, desk.password, 1, 4, clock=clock, at_ms=T0 + 5_000)
    clock.ms = T0 + 5_100
    assert host(desk, f"{q}/4/judge", outcome="reject").get_json()["points"] == -450
    assert scores(desk) == {"Бета": 250, "Альфа": -100, "Гама": 0}


def test_oq3_an_auction_nobody_bids_on_is_played_by_the_team_with_the_turn(app, game):
    desk, ph, clock = game
    a = ph["Альфа"]
    q = "oq/rounds/1/questions"
    host(desk, f"{q}/5/type", type="auction")
    assert post(a, "oq/pick", round=1, question=5).status_code == 200
    refused(host(desk, f"{q}/2/auction/close"), 409, "wrong_question_type")
    assert host(desk, f"{q}/5/auction/close").get_json() == {"team": "Альфа", "value": 500}
    start_question(desk.client, desk.code, desk.password, 1, 5, clock=clock, at_ms=T0)
    clock.ms = T0 + 100
    assert host(desk, f"{q}/5/judge", outcome="accept", factor=2).get_json()["points"] == 1000
