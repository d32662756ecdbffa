"""ЧГК's routes read typed bodies (issue 32, formats/chgk/api.py): a wrong type, a
missing field or a number out of range is refused with the translated 400 naming the
field, and changes nothing; the OpenAPI document describes each body by its class."""

from __future__ import annotations

import pytest
from factories import row_counts

G = "/api/host/events/{code}/chgk/games/1/"


@pytest.fixture
def evening(chgk, english):
    tokens = {name: chgk.join(name) for name in ("Сова", "Ёж")}
    chgk.log_in()  # the host's session: one password check for the whole test
    return chgk, tokens


def call(chgk, method: str, path: str, body, token: str | None = None, lang: str = "en"):
    headers = {"Accept-Language": lang}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return chgk.client.open(path.format(code=chgk.code), method=method, json=body,
                            headers=headers)


BIDS = "A bid must be a whole number of credits."
TABLE = "action must be 'answer', 'leave' or 'decisive'"


@pytest.mark.parametrize(("method", "path", "body", "field", "error", "message"), [
    ("POST", G + "auction", {"bids": [30]}, "bids", "bad_request",
     "bids must be an object of team name → credits"),
    ("POST", G + "auction", {}, "bids", "bad_request",
     "bids must be an object of team name → credits"),
    ("POST", G + "auction", {"bids": {"Сова": "30"}}, "bids", "bid_refused", BIDS),
    ("POST", G + "auction", {"bids": {"Сова": 2.5}}, "bids", "bid_refused", BIDS),
    ("POST", G + "table", {"team": "Сова", "action": "seat"}, "action", "bad_request", TABLE),
    ("POST", G + "table", {"action": "leave"}, "team", "bad_request", "team is missing"),
    ("POST", G + "table", {"team": "Сова", "action": "answer", "question": "3",
                           "correct": True}, "question", "bad_request",
     "question must be a whole number"),
    ("POST", G + "table", {"team": "Сова", "action": "answer", "question": 3,
                           "correct": "yes"}, "correct", "bad_request",
     "correct must be true or false"),
    ("PUT", "/api/host/events/{code}/chgk/leagues", {"team": "Сова", "league": "major"},
     "league", "bad_request", "The league must be 'favourites' or 'contenders'."),
    ("PUT", "/api/host/events/{code}/chgk/leagues", {"league": "favourites"}, "team",
     "bad_request", "team is missing"),
    ("PUT", "/api/events/{code}/chgk/bid", {"bid": "20"}, "bid", "bid_refused", BIDS),
    ("PUT", "/api/events/{code}/chgk/bid", {"bid": True}, "bid", "bid_refused", BIDS),
    ("PUT", "/api/events/{code}/chgk/bid", {}, "bid", "bid_refused", BIDS),
])
def test_a_bad_body_is_refused_naming_its_field_and_changes_nothing(
        app, evening, method, path, body, field, error, message) -> None:
    chgk, tokens = evening
    before = row_counts(app)
    refused = call(chgk, method, path, body, tokens["Сова"] if "/host/" not in path else None)
    assert refused.status_code == 400, refused.get_json()
    assert refused.get_json()["error"] == error
    assert refused.get_json()["field"] == field
    assert refused.get_json()["message"] == message
    assert row_counts(app) == before


def test_the_refusal_is_translated_and_good_bodies_still_pass(evening) -> None:
    chgk, tokens = evening
    refused = call(chgk, "PUT", "/api/events/{code}/chgk/bid", {"bid": "20"}, tokens["Ёж"],
                   "ru")
    assert refused.status_code == 400 and refused.get_json()["field"] == "bid"
    assert refused.get_json()["message"] not in (BIDS, "")
    league = call(chgk, "PUT", "/api/host/events/{code}/chgk/leagues",
                  {"team": "Сова", "league": "favourites"})
    assert league.get_json() == {"team": "Сова", "league": "favourites"}
    assert call(chgk, "PUT", "/api/events/{code}/chgk/bid", {"bid": 20},
                tokens["Ёж"]).get_json()["bid"] == 20
    auction = call(chgk, "POST", G + "auction", {"bids": {"Сова": 30}})
    assert auction.status_code == 200 and auction.get_json()["winner"] == "Сова"


def test_the_document_describes_the_bodies_by_their_classes(evening) -> None:
    chgk, _ = evening
    document = chgk.client.get("/api/openapi.json").get_json()
    paths, schemas = document["paths"], document["components"]["schemas"]
    for path, method, name in (
            ("/api/host/events/{code}/chgk/games/{number}/auction", "post", "SealedBids"),
            ("/api/host/events/{code}/chgk/games/{number}/table", "post", "TableCall"),
            ("/api/host/events/{code}/chgk/leagues", "put", "LeagueChoice"),
            ("/api/events/{code}/chgk/bid", "put", "PhoneBid")):
        body = paths[path][method]["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{name}"}, path
    assert schemas["PhoneBid"]["properties"]["bid"] == {"type": "integer", "minimum": 1}
    assert set(schemas["TableCall"]["properties"]["action"]["enum"]) == {
        "answer", "leave", "decisive"}
    assert schemas["SealedBids"]["properties"]["bids"]["additionalProperties"] == {
        "type": "integer", "minimum": 1}
