"""OpenQuiz's routes read typed bodies (issue 32, formats/oq/api.py): a wrong type, a
missing field or a number out of range is refused with the translated 400 naming the
field, and changes nothing; the OpenAPI document describes each body by its class."""

from __future__ import annotations

import pytest
from buzzgame import install_server_clock, make_event, oq_player
from factories import Desk, row_counts

READING = "rounds/1/questions/1/reading"


@pytest.fixture
def oq(app, client, monkeypatch, english) -> tuple[Desk, dict[str, str]]:
    install_server_clock(monkeypatch)
    desk = Desk(client, *make_event(app, "oq", {1: 5, 4: 3}))
    captain = oq_player(client, desk.code, "Сови", "Ира")
    mate = oq_player(client, desk.code, "Сови", "Вася")
    return desk, {"captain": captain, "mate": mate, "team": desk.join("Лисици", players=3)}


def call(desk: Desk, path: str, body, token: str | None = None, lang: str = "en"):
    headers = {"Accept-Language": lang}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return desk.client.post(path.format(code=desk.code), json=body, headers=headers)


E = "/api/events/{code}/oq/"
H = "/api/host/events/{code}/oq/"
#: The phone shows it: the player's words, not the field's kind.
BET = "The bet must be a whole number from 1 to the team's score."

BAD = [
    (E + "final/ban", "captain", {"theme": "1"}, "theme", "theme must be a whole number"),
    (E + "final/ban", "captain", {}, "theme", "theme is missing"),
    (E + "final/ban", "captain", {"theme": -1}, "theme", "theme is out of range"),
    (E + "final/bet", "captain", {"amount": "10"}, "amount", BET),
    (E + "final/bet", "captain", {"amount": 1.5}, "amount", BET),
    (E + "final/bet", "captain", {"amount": 0}, "amount", BET),
    (E + "final/bet", "captain", {"amount": None}, "amount", BET),  # an empty field
    (E + "final/answer", "mate", {"text": ""}, "text",
     "The answer must be text of 1 to 500 characters."),
    (E + "final/answer", "mate", {"text": "x" * 501}, "text",
     "The answer must be text of 1 to 500 characters."),
    (E + "final/answer", "mate", {"text": 5}, "text",
     "The answer must be text of 1 to 500 characters."),
    (E + "players", "team", {"name": 5}, "name", "name must be text"),
    (E + "players", "team", {}, "name", "name is missing"),
    (E + "players", "team", {"name": "Маша", "previous": 7}, "previous",
     "previous must be text"),
    (E + "join", None, {"team": "Гарвани"}, "player", "player is missing"),
    (E + "join", None, {"team": 1, "player": "Оля"}, "team", "team must be text"),
    (E + "join", None, {"team": "Гарвани", "player": "Оля", "previous": ["x"]}, "previous",
     "previous must be text"),
    (E + "captain", "captain", {"player": None}, "player", "player must be text"),
    (E + "captain", "captain", {}, "player", "player is missing"),
    (H + "captain", "host", {"team": "Сови"}, "player", "player is missing"),
    (H + "captain", "host", {"team": 3, "player": "Вася"}, "team", "team must be text"),
    (H + READING, "host", {"seconds": 601}, "seconds",
     "seconds must be a whole number from 0 to 600."),
    (H + READING, "host", {"seconds": -1}, "seconds",
     "seconds must be a whole number from 0 to 600."),
    (H + READING, "host", {"seconds": "5"}, "seconds",
     "seconds must be a whole number from 0 to 600."),
    (H + READING, "host", {}, "seconds", "seconds must be a whole number from 0 to 600."),
]


@pytest.mark.parametrize(("path", "who", "body", "field", "message"), BAD)
def test_a_bad_body_is_refused_naming_its_field_and_changes_nothing(
        app, oq, path, who, body, field, message) -> None:
    desk, tokens = oq
    token = desk.password if who == "host" else tokens.get(who or "")
    before = row_counts(app)
    refused = call(desk, path, body, token)
    assert refused.status_code == 400, refused.get_json()
    assert refused.get_json()["field"] == field
    assert refused.get_json()["message"] == message
    assert row_counts(app) == before


def test_the_refusal_is_translated_and_good_bodies_still_pass(app, oq) -> None:
    desk, tokens = oq
    for lang in ("bg", "ru"):
        refused = call(desk, E + "players", {"name": 5}, tokens["team"], lang)
        assert refused.status_code == 400 and refused.get_json()["field"] == "name"
        assert refused.get_json()["message"] not in ("name must be text", "")
    joined = call(desk, E + "players", {"name": "Маша", "unknown": True}, tokens["team"])
    assert joined.status_code == 201 and joined.get_json()["captain"] is True
    passed = call(desk, E + "captain", {"player": "Вася"}, tokens["captain"])
    assert passed.get_json() == {"team": "Сови", "captain": "Вася"}
    back = call(desk, H + "captain", {"team": "Сови", "player": "Ира"}, desk.password)
    assert back.get_json() == {"team": "Сови", "captain": "Ира"}
    room = call(desk, E + "join", {"team": "Гарвани", "player": "Оля", "invite": None})
    assert room.status_code == 201 and room.get_json()["team"] == "Гарвани"


def test_the_document_describes_the_bodies_by_their_classes(oq) -> None:
    desk, _ = oq
    document = desk.client.get("/api/openapi.json").get_json()
    paths, schemas = document["paths"], document["components"]["schemas"]
    for path, name in (("/api/events/{code}/oq/final/ban", "FinalBan"),
                       ("/api/events/{code}/oq/final/bet", "FinalBet"),
                       ("/api/events/{code}/oq/final/answer", "FinalAnswer"),
                       ("/api/events/{code}/oq/players", "PlayerJoin"),
                       ("/api/events/{code}/oq/join", "RoomJoin"),
                       ("/api/events/{code}/oq/captain", "CaptainPass"),
                       ("/api/host/events/{code}/oq/captain", "HostCaptainPass"),
                       ("/api/host/events/{code}/oq/rounds/{round}/questions/{question}/"
                        "reading", "Reading")):
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{name}"}, path
    assert schemas["Reading"]["properties"]["seconds"] == {
        "type": "integer", "minimum": 0, "maximum": 600}
    assert schemas["FinalAnswer"]["properties"]["text"] == {
        "type": "string", "minLength": 1, "maxLength": 500}
    assert set(schemas["RoomJoin"]["required"]) == {"team", "player"}
