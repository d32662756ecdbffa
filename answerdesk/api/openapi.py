"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json."""

from __future__ import annotations

from typing import Any

from ..bodies import components, request_body
from ..core import answers, formats, organiser, teams
from .schema import CODE, QUESTION, ROUND, answered, refused


def _host_action(verb: str, meaning: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": f"{verb} a round ({meaning})",
            "security": [{"hostPassword": []}],
            "parameters": [CODE, ROUND],
            "responses": {
                "200": answered("The round's new state",
                                {"$ref": "#/components/schemas/RoundState"}),
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


def openapi_document() -> dict[str, Any]:
    """The document; request bodies come from their Body classes (answerdesk/bodies.py)."""
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
                    "requestBody": request_body(organiser.NewEvent),
                    "responses": {
                        "201": answered("The event's code, host password (shown once) and links",
                                   {"$ref": "#/components/schemas/CreatedEvent"}),
                        "400": refused("Empty name, unknown format, bad date or language"),
                        "401": refused("No or wrong organiser password"),
                    },
                }
            },
            "/api/events/{code}/teams": {
                "post": {
                    "summary": "Join an event as a team (BG-G1 unique names)",
                    "parameters": [CODE],
                    "requestBody": request_body(teams.JoinRequest),
                    "responses": {
                        "201": answered("The team and its secret token",
                                   {"$ref": "#/components/schemas/JoinedTeam"}),
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
                        "200": answered("The sheet, or {delta: true, version, now, "
                                        "answers: [SavedAnswer]}",
                                        {"anyOf": [{"$ref": "#/components/schemas/Sheet"},
                                                   {"$ref": "#/components/schemas/SheetDelta"}]}),
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
                        "200": answered("Round states", {"type": "object", "properties": {
                            "rounds": {"type": "array",
                                       "items": {"$ref": "#/components/schemas/RoundState"}},
                            "question": {"type": ["object", "null"], "description":
                                         "The question started last on the clock: round, "
                                         "question, state (open or locked by the time)"},
                            "version": {"type": "string", "description":
                                        "Moves with every change the room may see but a "
                                        "phone's save (a joker, the wildcard, a team "
                                        "joining): the phone fetches /play only then"},
                            **_state_parts()}}),
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
                    "requestBody": request_body(answers.AnswerRequest),
                    "responses": {
                        "200": answered("The saved answer with its server time and receipt",
                                   {"$ref": "#/components/schemas/SavedAnswer"}),
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
                        "200": answered("Standings", {"$ref": "#/components/schemas/Standings"}),
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
                        "200": answered("Whether this server issued the code, with text and time",
                                   {"$ref": "#/components/schemas/ReceiptCheck"}),
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
            "schemas": {
                "Error": {"type": "object", "required": ["error", "message"], "properties": {
                    "error": {"type": "string"}, "message": {"type": "string"}}},
                "CreatedEvent": {"type": "object",
                                 "required": ["code", "host_password", "team_url", "host_url",
                                              "screen_url"],
                                 "properties": {
                                     "code": {"type": "string"},
                                     "host_password": {"type": "string"},
                                     "team_url": {"type": "string"},
                                     "host_url": {"type": "string"},
                                     "screen_url": {"type": "string"}}},
                "JoinedTeam": {"type": "object", "properties": {
                    "name": {"type": "string"}, "players": {"type": "integer"},
                    "token": {"type": "string"}, "event": {"type": "string"}}},
                "SavedAnswer": {"type": "object", "properties": {
                    "round": {"type": "integer"}, "question": {"type": "integer"},
                    "text": {"type": "string"}, "fields": {},
                    "source": {"type": "string", "enum": ["phone", "paper"]},
                    "version": {"type": "integer"},
                    "saved_at": {"type": "string", "format": "date-time"},
                    "receipt": {"type": "string"},
                    "state": {"type": "object", "description":
                              "With ?with=state: what GET /state answers"}}},
                "SheetDelta": {"type": "object", "properties": {
                    "delta": {"type": "boolean", "const": True},
                    "version": {"type": "string"}, "now": {"type": "string"},
                    "answers": {"type": "array",
                                "items": {"$ref": "#/components/schemas/SavedAnswer"}}}},
                "ReceiptCheck": {"type": "object", "properties": {
                    "valid": {"type": "boolean"}, "team": {"type": "string"},
                    "round": {"type": "integer"}, "question": {"type": "integer"},
                    "text": {"type": ["string", "null"]},
                    "saved_at": {"type": ["string", "null"], "format": "date-time"},
                    "current": {"type": "boolean"}}},
                "RoundState": {"type": "object", "properties": {
                    "number": {"type": "integer"}, "round": {"type": "integer"},
                    "state": {"type": "string",
                              "enum": ["draft", "open", "locked", "revealed"]}}},
                "Sheet": {"type": "object", "properties": {
                    "event": {"type": "object"}, "team": {"type": "object"},
                    "states": {"type": "array"},
                    "version": {"type": "string", "description":
                                "The screen version the sheet was read under (GET /state)"},
                    "rounds": {"type": "array", "items": {"type": "object"}}}},
                "Standings": {"type": "object", "properties": {
                    "event": {"type": "string"},
                    "standings": {"type": "array", "items": {"type": "object", "properties": {
                        "team": {"type": "string"}, "points": {"type": "number"},
                        "place": {"type": "integer"}, "shared": {"type": "boolean"},
                        "shootout_needed": {"type": "boolean"},
                        "by_round": {"type": "object"}}}}}},
            },
        },
    }
    schemas = document["components"]["schemas"]
    schemas.update(components())  # after the paths named them
    schemas["NewEvent"]["properties"]["format"]["enum"] = formats.names()  # the registry's
    return document
