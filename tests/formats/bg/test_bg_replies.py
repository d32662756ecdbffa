"""The Bulgarian quiz's replies are typed (issue 32, formats/bg/replies.py): the phone's
play part (GET /play) with jokers (BG-J1-J3), the wildcard (BG-R5.0) and a shoot-out
before and after it is decided (BG-S3), the sheet with what BG adds to it, and the team
routes' answers, fit their models strictly and the served OpenAPI document."""

from __future__ import annotations

from typing import get_args

import pytest
from replycheck import fits, served_document

from answerdesk.core.events import event_by_code
from answerdesk.formats.bg import shootout, wildcard
from answerdesk.formats.bg.programme import BG_SCENARIOS
from answerdesk.formats.bg.replies import (
    BgSheet,
    JokerPlayed,
    Play,
    RoundKind,
    Scenario,
    ShootoutSaved,
    WildcardChosen,
)
from answerdesk.packs.model import ROUND_KINDS

PLAY = "/api/events/{code}/play"
QUESTIONS = [("Година на Съединението?", "1885"), ("Височина на Мусала (м)?", "2925"),
             ("Дължина на Дунав в България (км)?", "471")]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def login(desk) -> None:
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})


def play_fits(document: dict, desk, token: str) -> dict:
    part = desk.client.get(f"/api/events/{desk.code}/play", headers=bearer(token)).get_json()
    fits(document, PLAY, "get", "200", part, Play)
    return part


def test_play_and_the_jokers_fit(desk):
    document = served_document(desk.client)
    a, _ = desk.join("A"), desk.join("B")
    assert play_fits(document, desk, a)["teams"] == ["B"]
    desk.host(2, "open")
    url = f"/api/events/{desk.code}/jokers"
    for body in ({"kind": "double", "round": 2, "question": 1},
                 {"kind": "first_letter", "round": 2, "question": 2, "confirm": True},
                 {"kind": "copy", "round": 2, "question": 3, "copy_of": "B"}):
        played = desk.client.post(url, json=body, headers=bearer(a))
        assert played.status_code == 201, played.get_json()
        fits(document, "/api/events/{code}/jokers", "post", "201", played.get_json(),
             JokerPlayed)
    assert len(play_fits(document, desk, a)["jokers"]["played"]) == 3


def test_the_wildcard_fits(desk, app):
    document = served_document(desk.client)
    tokens = {name: desk.join(name) for name in ("A", "B")}
    desk.host(4, "open")
    desk.save(tokens["A"], 4, 3, "Титаник")
    desk.host(4, "close")
    with app.app_context():
        wildcard.name_chooser(event_by_code(desk.code))
    assert play_fits(document, desk, tokens["B"])["wildcard"]["can_choose"] is True
    chosen = desk.client.post(f"/api/events/{desk.code}/wildcard", json={"scenario": "5.5"},
                              headers=bearer(tokens["B"]))
    fits(document, "/api/events/{code}/wildcard", "post", "200", chosen.get_json(),
         WildcardChosen)
    assert play_fits(document, desk, tokens["A"])["wildcard"]["scenario"] == "5.5"


def test_a_shootout_fits_before_and_after_it_is_decided(desk, app):
    document = served_document(desk.client)
    tokens = {name: desk.join(name) for name in ("A", "B")}
    desk.host(2, "open")
    for token in tokens.values():
        desk.save(token, 2, 1, "Левски")
    desk.host(2, "close")
    with app.app_context():
        shootout_id = shootout.start_shootout(event_by_code(desk.code), QUESTIONS).id
    saved = desk.client.put(f"/api/events/{desk.code}/shootout",
                            json={"numbers": [1885, 2925.5, None]}, headers=bearer(tokens["A"]))
    assert saved.status_code == 200
    fits(document, "/api/events/{code}/shootout", "put", "200", saved.get_json(),
         ShootoutSaved)
    waiting = play_fits(document, desk, tokens["A"])["shootout"]
    assert waiting["decided"] is False and waiting["missing"] == ["B"]
    assert desk.client.put(f"/api/events/{desk.code}/shootout", json={"numbers": [1, 2, 3]},
                           headers=bearer(tokens["B"])).status_code == 200
    with app.app_context():
        shootout.lock_shootout(event_by_code(desk.code), shootout_id)
    decided = play_fits(document, desk, tokens["B"])["shootout"]
    assert decided["decided"] is True and decided["order"]


SHEET = "/api/events/{code}/sheet"


def sheet_fits(document: dict, desk, token: str) -> dict:
    sheet = desk.sheet(token).get_json()
    fits(document, SHEET, "get", "200", sheet, BgSheet)
    return sheet


def test_the_sheet_with_what_bg_adds_fits(desk):
    """What play.decorate_event and play.decorate add to core's sheet is BgSheet's:
    the widgets, a double joker's second verdict on a revealed round (BG-J1), «От 1 до
    10»'s used numbers (BG-R5.4), the final one question at a time with its gate and
    its revealed answer (BG-R6.1), and the play part."""
    document = served_document(desk.client)
    a, b = desk.join("A"), desk.join("B")
    desk.host(2, "open")
    opened = sheet_fits(document, desk, a)
    assert opened["rounds"][0]["questions"][0]["widget"] == {"kind": "text"}
    desk.client.post(f"/api/events/{desk.code}/jokers", json={
        "kind": "double", "round": 2, "question": 3}, headers=bearer(a))
    desk.save(a, 2, 3, "", fields={"text": "Германия", "second": "Австралия"})
    desk.host(2, "close")
    desk.host(2, "reveal")
    revealed = sheet_fits(document, desk, a)["rounds"][0]["questions"][2]
    assert "second_verdict" in revealed and revealed["verdict"] in ("correct", "wrong",
                                                                     "review", "partial")
    desk.host(4, "open")
    desk.save(a, 4, 3, "Титаник")
    desk.host(4, "close")
    login(desk)
    desk.client.post(f"/host/{desk.code}/rules/wildcard/draw")
    desk.client.post(f"/host/{desk.code}/rules/wildcard/choose", data={"scenario": "5.4"})
    desk.host(5, "open")
    assert desk.save(a, 5, 2, "", fields={"number": "7"}).status_code == 200
    r5 = next(r for r in sheet_fits(document, desk, a)["rounds"] if r["number"] == 5)
    assert r5["used_numbers"] == {"7": 2}
    desk.host(5, "close")
    desk.client.post(f"/host/{desk.code}/rules/final/1/open")
    final = sheet_fits(document, desk, b)["rounds"][-1]
    assert [(q["number"], q["state"]) for q in final["questions"]] == [(1, "open")]
    desk.save(b, 6, 1, "Борис")
    desk.client.post(f"/host/{desk.code}/rules/final/1/lock")
    desk.client.post(f"/host/{desk.code}/rules/final/1/reveal")
    shown = sheet_fits(document, desk, b)["rounds"][-1]["questions"][0]
    assert shown["correct_answer"] and shown["verdict"] == "correct"


def test_a_value_outside_the_sheets_model_is_caught(desk):
    """The conversion can fail: a widget of a kind no check mode draws, a gate's state
    that is no state, an unknown key."""
    document = served_document(desk.client)
    token = desk.join("A")
    desk.host(2, "open")
    sheet = sheet_fits(document, desk, token)
    question = sheet["rounds"][0]["questions"][0]
    for wrong in ({"widget": {"kind": "slider"}}, {"state": "ajar"}, {"points": 2}):
        broken = {**sheet, "rounds": [{**sheet["rounds"][0],
                                       "questions": [{**question, **wrong}]}]}
        with pytest.raises(AssertionError):
            fits(document, SHEET, "get", "200", broken, BgSheet)


def test_the_scenarios_and_round_kinds_are_the_programmes():
    """BG-R5.0's scenarios and the rounds' kinds the replies list are the code's tables."""
    assert set(get_args(Scenario)) == set(BG_SCENARIOS)
    assert set(get_args(RoundKind)) == set(ROUND_KINDS)
