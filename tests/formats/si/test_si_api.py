"""Своя игра's host routes read typed bodies (issue 32, formats/si/api.py): a wrong type,
a missing field or a number out of range is refused with the translated 400 naming the
field, and changes nothing; the OpenAPI document describes each body by its class."""

from __future__ import annotations

import pytest
from buzzgame import make_event
from factories import Desk, row_counts

Q = "si/rounds/1/questions/1"


@pytest.fixture
def si(app, client, english) -> Desk:
    desk = Desk(client, *make_event(app, "si", {1: 25}))
    for name in ("Вася", "Ира"):
        desk.join(name, players=1)
    return desk


def host(desk: Desk, path: str, body, lang: str = "en"):
    return desk.client.post(f"/api/host/events/{desk.code}/{path}", json=body, headers={
        "Authorization": f"Bearer {desk.password}", "Accept-Language": lang})


@pytest.mark.parametrize(("path", "body", "field", "message"), [
    (f"{Q}/decide", {"player": "Вася", "mark": "maybe"}, "mark",
     "mark must be correct, wrong or none."),
    (f"{Q}/decide", {"mark": "correct"}, "player", "player is missing"),
    (f"{Q}/decide", {"player": 5, "mark": "correct"}, "player", "player must be text"),
    ("si/warnings", {}, "player", "player is missing"),
    ("si/warnings", {"player": ["Вася"]}, "player", "player must be text"),
    ("si/protests/1/decide", {"upheld": "yes"}, "upheld",
     "upheld and warn must be true or false."),
    ("si/protests/1/decide", {"upheld": False, "warn": 1}, "warn",
     "upheld and warn must be true or false."),
    ("si/protests/1/decide", {"upheld": True, "changes": "all"}, "changes",
     "changes must be a list of objects with player and mark."),
    ("si/protests/1/decide", {"upheld": True, "changes": [{"player": "Вася", "mark": "yes"}]},
     "changes", "changes must be a list of objects with player and mark."),
    ("si/competition", {"player": "Вася", "in_competition": "no"}, "in_competition",
     "in_competition must be true or false."),
    ("si/competition", {"in_competition": False}, "player", "player is missing"),
    ("si/themes", {"round": 1, "theme": 6}, "theme",
     "theme must be a whole number from 1 to 5."),
    ("si/themes", {"round": 1, "theme": 0}, "theme",
     "theme must be a whole number from 1 to 5."),
    ("si/themes", {"round": "1", "theme": 2}, "round", "round must be a whole number."),
    ("si/themes", {"round": 2**40, "theme": 2}, "round", "round must be a whole number."),
    ("si/themes", {"round": 1, "theme": 2, "author": 7}, "author", "author must be text"),
])
def test_a_bad_body_is_refused_naming_its_field_and_changes_nothing(
        app, si, path, body, field, message) -> None:
    before = row_counts(app)
    refused = host(si, path, body)
    assert refused.status_code == 400, refused.get_json()
    assert refused.get_json()["field"] == field
    assert refused.get_json()["message"] == message
    assert row_counts(app) == before


def test_the_refusal_is_translated_and_a_good_body_still_passes(app, si) -> None:
    refused = host(si, "si/competition", {"player": "Вася", "in_competition": "no"}, "ru")
    assert refused.status_code == 400 and refused.get_json()["field"] == "in_competition"
    assert refused.get_json()["message"] != "in_competition must be true or false."
    assert host(si, "si/warnings", {"player": "Ира", "extra": 1}).get_json() == {
        "warnings": 1, "removed": False}
    assert host(si, "si/competition", {"player": "Вася", "in_competition": False}).get_json(
        ) == {"player": "Вася", "in_competition": False}
    assert host(si, "si/themes", {"round": 1, "theme": 2, "author": "Ира"}).get_json() == {
        "round": 1, "theme": 2, "author": "Ира"}


def test_an_outsider_learns_nothing_from_a_bad_body(si) -> None:
    """The host's password is checked before the body."""
    resp = si.client.post(f"/api/host/events/{si.code}/si/warnings", json={"player": 5},
                          headers={"Authorization": "Bearer wrong"})
    assert resp.status_code == 401


def test_the_document_describes_the_bodies_by_their_classes(si) -> None:
    document = si.client.get("/api/openapi.json").get_json()
    paths, schemas = document["paths"], document["components"]["schemas"]
    for path, name in (("/api/host/events/{code}/si/warnings", "SiPlayerRef"),
                       ("/api/host/events/{code}/si/competition", "SiCompetition"),
                       ("/api/host/events/{code}/si/themes", "SiThemeAuthor"),
                       ("/api/host/events/{code}/si/protests/{protest}/decide",
                        "SiProtestDecision"),
                       ("/api/host/events/{code}/si/rounds/{round}/questions/{question}/decide",
                        "SiDecision")):
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{name}"}
    assert schemas["SiThemeAuthor"]["properties"]["theme"] == {
        "type": "integer", "minimum": 1, "maximum": 5}
    assert schemas["SiProtestDecision"]["required"] == ["upheld"]
    assert set(schemas["SiDecision"]["properties"]["mark"]["enum"]) == {"correct", "wrong", "none"}
