"""OQ-3's host route reads a typed body (issue 32, formats/oq/typeapi.py): a question
type that is not text, or none, is refused with the translated 400 naming the field and
changes nothing; an unknown type keeps the game's own refusal, naming the types."""

from __future__ import annotations

import pytest
from buzzgame import install_server_clock, make_event
from factories import Desk, row_counts

Q = "/api/host/events/{code}/oq/rounds/1/questions/1"


@pytest.fixture
def oq(app, client, monkeypatch, english) -> Desk:
    install_server_clock(monkeypatch)
    return Desk(client, *make_event(app, "oq", {1: 5}))


def set_type(desk: Desk, body, lang: str = "en"):
    return desk.client.post(Q.format(code=desk.code) + "/type", json=body, headers={
        "Authorization": f"Bearer {desk.password}", "Accept-Language": lang})


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"type": 3}, "type", "type must be text"),
    ({"type": None}, "type", "type must be text"),
    ({}, "type", "type is missing"),
    ({"kind": "secret"}, "type", "type is missing"),
])
def test_a_bad_type_is_refused_naming_its_field_and_changes_nothing(
        app, oq, body, field, message) -> None:
    before = row_counts(app)
    refused = set_type(oq, body)
    assert refused.status_code == 400
    assert refused.get_json()["field"] == field
    assert refused.get_json()["message"] == message
    assert row_counts(app) == before
    assert set_type(oq, {"type": "secret"}).get_json() == {"type": "secret"}


def test_an_unknown_type_names_the_types_in_the_readers_language(oq) -> None:
    refused = set_type(oq, {"type": "lottery"}, "ru")
    assert (refused.status_code, refused.get_json()["error"]) == (409, "wrong_question_type")
    assert "secret" in refused.get_json()["message"]


def test_the_document_describes_the_body_and_the_routes_that_read_none(oq) -> None:
    document = oq.client.get("/api/openapi.json").get_json()
    q = "/api/host/events/{code}/oq/rounds/{round}/questions/{question}"
    body = document["paths"][f"{q}/type"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TypeChoice"}
    typed = document["components"]["schemas"]["TypeChoice"]["properties"]["type"]
    assert typed["type"] == "string" and "secret" in typed["enum"]
    for closes in ("choices/close", "auction/close"):
        assert "requestBody" not in document["paths"][f"{q}/{closes}"]["post"]
