"""Typed request bodies (issue 32, answerdesk/bodies.py): every JSON body a route reads
is a Body class; a wrong one is refused with the translated 400 naming the field and
changes nothing; the OpenAPI document's request bodies are generated from the classes."""

from __future__ import annotations

import msgspec
import pytest

from answerdesk.api.openapi import openapi_document
from answerdesk.bodies import Body, read
from answerdesk.core.answers import AnswerRequest
from answerdesk.core.events import event_by_code
from answerdesk.errors import DeskError
from answerdesk.extensions import db
from answerdesk.models import Answer, Team


def _bodies() -> list[type[Body]]:
    found, pending = [], list(Body.__subclasses__())
    while pending:
        model = pending.pop()
        found.append(model)
        pending.extend(model.__subclasses__())
    return found


def test_every_body_class_reads_and_has_a_schema(app) -> None:
    """A class msgspec cannot build (a constraint on the wrong type) fails here, not on a
    phone; every one a route reads is named in the document."""
    document = openapi_document()
    bodies = _bodies()
    assert {"AnswerRequest", "NewEvent", "JoinRequest", "QuestionRef", "JokerPlay",
            "Judgement", "SiAnswer", "QuestionStart"} <= {m.__name__ for m in bodies}
    for model in bodies:
        with pytest.raises(DeskError):
            read(model, [])
        msgspec.json.schema(model)
        assert model.__name__ in document["components"]["schemas"], model.__name__


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"text": "a", "seq": -1}, "seq", "seq must be a non-negative whole number"),
    ({"text": "a", "seq": True}, "seq", "seq must be a non-negative whole number"),
    ({"text": 7}, "text", "text must be text"),
    ({"text": "a", "fields": 3}, "fields", "fields must be an object"),
])
def test_a_bad_save_names_its_field(app, body, field, message) -> None:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        with pytest.raises(DeskError) as refused:
            read(AnswerRequest, body)
    assert refused.value.details == {"field": field}
    assert refused.value.message == message


def test_the_generic_refusals_name_the_field_in_every_language(app, desk, client) -> None:
    """OQ-4's outcome, a joker's kind, a join's players: typed at the boundary."""
    token = desk.join("Алфа")
    for lang, message in (("en", "players must be a whole number"),
                          ("bg", "players"), ("ru", "players")):
        reply = client.post(f"/api/events/{desk.code}/teams", json={"name": "Б", "players": "3"},
                            headers={"Accept-Language": lang})
        assert reply.status_code == 400
        assert reply.get_json()["field"] == "players"
        assert message in reply.get_json()["message"]
    reply = client.post(f"/api/events/{desk.code}/jokers", json={"kind": "triple", "round": 1,
                                                                 "question": 1},
                        headers={"Authorization": f"Bearer {token}", "Accept-Language": "ru"})
    assert reply.status_code == 400
    assert reply.get_json()["field"] == "kind"
    assert reply.get_json()["message"] == (
        "kind должно быть одним из: copy, double, first_letter")
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Team).where(
            Team.event_id == event_by_code(desk.code).id)) == 1


def test_a_refused_save_changes_nothing(app, desk, client) -> None:
    token = desk.join("Алфа")
    desk.host(1, "open")
    with app.app_context():
        before = db.session.scalar(db.select(db.func.count()).select_from(Answer))
    reply = client.put(f"/api/events/{desk.code}/answers/1/1", json={"text": "a", "seq": "7"},
                       headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 400 and reply.get_json()["field"] == "seq"
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Answer)) == before


def test_the_document_takes_its_request_bodies_from_the_classes(app) -> None:
    document = openapi_document()
    save = document["paths"]["/api/events/{code}/answers/{round}/{question}"]["put"]
    assert save["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AnswerRequest"}
    schema = document["components"]["schemas"]["AnswerRequest"]
    generated = msgspec.json.schema_components(
        [AnswerRequest], ref_template="#/components/schemas/{name}")[1]["AnswerRequest"]
    assert generated.pop("required") == []  # nothing required: left out of the document
    assert schema == generated
    assert schema["properties"]["seq"]["anyOf"][0]["minimum"] == 0


def test_two_bodies_of_one_name_are_refused_in_the_document(monkeypatch) -> None:
    """The document names a body's schema by its class's name: a second class of that
    name (another format's) must not silently describe the first one's routes."""
    from answerdesk import bodies

    monkeypatch.setattr(bodies, "_NAMED", dict(bodies._NAMED))  # the document's own stay

    def made() -> type[Body]:
        class TwinBody(Body):
            value: int
        return TwinBody

    first, second = made(), made()
    assert bodies.request_body(first)["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TwinBody"}
    assert bodies.request_body(first) == bodies.request_body(first)
    with pytest.raises(ValueError, match="two request bodies named TwinBody"):
        bodies.request_body(second)


def test_a_nested_missing_field_is_named_by_its_path(app) -> None:
    inner = msgspec.defstruct("Inner", [("x", int)], bases=(Body,))
    outer = msgspec.defstruct("Outer", [("inner", inner), ("items", list[inner], [])],
                              bases=(Body,))

    for body, field in (({}, "inner"), ({"inner": {}}, "inner.x"),
                        ({"inner": {"x": 1}, "items": [{}]}, "items[0].x")):
        with app.test_request_context(headers={"Accept-Language": "en"}):
            with pytest.raises(DeskError) as refused:
                read(outer, body)
            assert refused.value.details == {"field": field}
            assert refused.value.message == f"{field} is missing"


def test_every_request_body_in_the_document_is_a_body_class(app) -> None:
    """No route's body is described by hand any more: each is a Body class's schema."""
    document = openapi_document()
    described = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            name = schema.get("$ref", "").removeprefix("#/components/schemas/")
            assert name in document["components"]["schemas"], (method, path, schema)
            described += 1
    assert described >= 40
