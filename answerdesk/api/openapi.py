"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json."""

from __future__ import annotations

from typing import Any

from .. import bodies
from ..core import answers, formats, organiser, teams
from ..core.receipts import ReceiptCheck
from . import replies
from .replies import (
    CreatedEvent,
    JoinedTeam,
    RoundMoved,
    SaveReply,
    Sheet,
    SheetDelta,
    Standings,
    State,
)
from .schema import CODE, QUESTION, ROUND, refused, replied


def _host_action(verb: str, meaning: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": f"{verb} a round ({meaning})",
            "security": [{"hostPassword": []}],
            "parameters": [CODE, ROUND],
            "responses": {
                "200": replied("The round's new state", RoundMoved),
                "401": refused("No or wrong host password"),
                "404": refused("No such event or round"),
                "409": refused("The round cannot make this move"),
            },
        }
    }


def _play_paths() -> dict[str, Any]:
    """The paths of the question clock and of every registered format's own API routes,
    merged by path and method (two formats, or a format and core, may share a path with
    different methods: GET /clock reads the question clock, POST /clock syncs a buzzer)."""
    from ..core.formats import REGISTRY

    paths: dict[str, Any] = {}
    for source in (_clock_paths(), *(fmt.openapi_paths() for fmt in REGISTRY.values())):
        for path, methods in source.items():
            paths.setdefault(path, {}).update(methods)
    return paths


def _clock_paths() -> dict[str, Any]:
    """The question clock's routes (core, api/question_clock.py)."""
    from .question_clock import openapi_paths

    return openapi_paths()


def _state_parts() -> dict[str, Any]:
    """What formats add to GET /api/events/{code}/state (their public_state)."""
    from ..core.formats import REGISTRY

    parts: dict[str, Any] = {}
    for fmt in REGISTRY.values():
        parts.update(fmt.public_state_schema())
    return parts


def _sheets() -> list[Any]:
    """The team sheet's reply models: core's and each format's (Format.sheet_reply)."""
    from ..core.formats import REGISTRY

    models: list[Any] = [Sheet]
    for fmt in REGISTRY.values():
        model = fmt.sheet_reply()
        if model is not None and model not in models:
            models.append(model)
    return models


def openapi_document() -> dict[str, Any]:
    """The document; request bodies come from their Body classes (answerdesk/bodies.py),
    responses from their Reply classes (api/replies.py)."""
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "answerdesk API",
            "version": "1",
            "description": "Phones save answers; the host opens and closes rounds; "
            "anyone reads the standings. Rounds and questions are addressed by number.",
        },
        "paths": {
            "/api/events": {
                "post": {
                    "summary": "Create an event (the instance's organiser)",
                    "security": [{"organiserPassword": []}],
                    "requestBody": bodies.request_body(organiser.NewEvent),
                    "responses": {
                        "201": replied("The event's code, host password (shown once) and links",
                                       CreatedEvent),
                        "400": refused("Empty name, unknown format, bad date or language"),
                        "401": refused("No or wrong organiser password"),
                    },
                }
            },
            "/api/events/{code}/teams": {
                "post": {
                    "summary": "Join an event as a team (BG-G1 unique names)",
                    "parameters": [CODE],
                    "requestBody": bodies.request_body(teams.JoinRequest),
                    "responses": {
                        "201": replied("The team and its secret token", JoinedTeam),
                        "400": refused("Invalid name or players"),
                        "404": refused("No such event"),
                        "409": refused("The name is taken (also by a look-alike spelling)"),
                    },
                }
            },
            "/api/events/{code}/sheet": {
                "get": {
                    "summary": "The team's answer sheet: visible rounds, questions, saved answers",
                    "security": [{"teamToken": []}],
                    "parameters": [
                        CODE,
                        {"name": "since", "in": "query", "required": False,
                         "description": "The now of the phone's last read: with version, "
                         "only the answers changed since, when nothing else can have",
                         "schema": {"type": "string"}},
                        {"name": "version", "in": "query", "required": False,
                         "description": "The version of the sheet the phone holds",
                         "schema": {"type": "string"}}],
                    "responses": {
                        "200": replied("The sheet, or {delta: true, version, now, "
                                       "answers: [SavedAnswer]}; its format's model",
                                       *_sheets(), SheetDelta),
                        "401": refused("No or wrong team token"),
                        "404": refused("No such event"),
                    },
                }
            },
            "/api/events/{code}/state": {
                "get": {
                    "summary": "Round states, polled by phones to notice opens and locks",
                    "parameters": [CODE],
                    "responses": {
                        "200": replied("Round states, the question clock's marker, the "
                                       "screen version and the format's part", State),
                        "404": refused("No such event"),
                    },
                }
            },
            "/api/events/{code}/answers/{round}/{question}": {
                "put": {
                    "summary": "Save (or change) the team's answer while the round is open",
                    "security": [{"teamToken": []}],
                    "parameters": [CODE, ROUND, QUESTION,
                                   {"name": "with", "in": "query", "required": False,
                                    "description": "state: the answer also carries what "
                                    "GET /state answers (its key state), read after the save",
                                    "schema": {"type": "string", "enum": ["state"]}}],
                    "requestBody": bodies.request_body(answers.AnswerRequest),
                    "responses": {
                        "200": replied("The saved answer with its server time and receipt",
                                       SaveReply),
                        "400": refused("Invalid body"),
                        "401": refused("No or wrong team token"),
                        "404": refused("No such event, round or question"),
                        "409": refused("The round is locked (BG-E2); the answer was not saved"),
                    },
                }
            },
            "/api/events/{code}/standings": {
                "get": {
                    "summary": "Teams with points and place (BG-S1, BG-S2)",
                    "parameters": [CODE],
                    "responses": {
                        "200": replied("Standings", Standings),
                        "404": refused("No such event"),
                    },
                }
            },
            "/api/host/events/{code}/rounds/{round}/open": _host_action("Open", "answers accepted"),
            "/api/host/events/{code}/rounds/{round}/close": _host_action(
                "Close", "BG-E2 lock, then the checker runs"),
            "/api/host/events/{code}/rounds/{round}/reveal": _host_action(
                "Reveal", "BG-E3 correct answers shown"),
            "/api/host/events/{code}/receipts/{round}/{question}": {
                "get": {
                    "summary": "Check a receipt code a team shows in a dispute (BG-E2)",
                    "security": [{"hostPassword": []}],
                    "parameters": [CODE, ROUND, QUESTION,
                                   {"name": "team", "in": "query", "required": True,
                                    "schema": {"type": "string"}},
                                   {"name": "code", "in": "query", "required": True,
                                    "schema": {"type": "string"}}],
                    "responses": {
                        "200": replied("Whether this server issued the code, with text and time",
                                       ReceiptCheck),
                        "400": refused("team or code missing"),
                        "401": refused("No or wrong host password"),
                        "404": refused("No such event, team, round or question"),
                    },
                }
            },
            **_play_paths(),
        },
        "components": {
            "securitySchemes": {
                "teamToken": {"type": "http", "scheme": "bearer",
                              "description": "The token returned when the team joined"},
                "hostPassword": {"type": "http", "scheme": "bearer",
                                 "description": "The event's host password"},
                "organiserPassword": {"type": "http", "scheme": "bearer",
                                      "description": "The instance's organiser password "
                                      "(ORGANISER_PASSWORD)"},
            },
            "schemas": {},
        },
    }
    state_parts = _state_parts()  # the formats' public_state; may name replies of theirs
    schemas = document["components"]["schemas"]
    # after the paths named them: the request bodies' and the replies' classes
    schemas.update(bodies.components())
    made = replies.components()
    if made.keys() & schemas.keys():
        raise ValueError(f"a reply and a request body share a name: {made.keys() & schemas.keys()}")
    schemas.update(made)
    schemas["State"]["properties"].update(state_parts)
    schemas["NewEvent"]["properties"]["format"]["enum"] = formats.names()  # the registry's
    return document
