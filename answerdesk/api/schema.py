"""The OpenAPI building blocks every route's description shares: the path parameters
and the JSON responses (api/openapi.py, api/question_clock.py, each format's api.py)."""

from __future__ import annotations

from typing import Any

from .replies import Error, OpenReply, Reply, reply

ERROR_SCHEMA = reply(Error)

CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"},
              "description": "The event's join code"}
ROUND = {"name": "round", "in": "path", "required": True,
               "schema": {"type": "integer", "minimum": 0}, "description": "Round number"}
QUESTION = {"name": "question", "in": "path", "required": True,
                  "schema": {"type": "integer", "minimum": 0}, "description": "Question number"}


def refused(description: str) -> dict[str, Any]:
    """A refusal: the Error schema (answerdesk/errors.py) under ``description``."""
    return {"description": description, "content": {"application/json": {"schema": ERROR_SCHEMA}}}


def replied(description: str, *models: type[Reply | OpenReply]) -> dict[str, Any]:
    """A JSON answer of the reply ``models`` (api/replies.py; several: any one of them)
    under ``description``, its schema generated from the classes."""
    refs = [reply(model) for model in models]
    schema = refs[0] if len(refs) == 1 else {"anyOf": refs}
    return {"description": description, "content": {"application/json": {"schema": schema}}}
