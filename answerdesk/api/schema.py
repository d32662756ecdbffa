"""The OpenAPI building blocks every route's description shares: the path parameters
and the JSON responses (api/openapi.py, api/question_clock.py, each format's api.py)."""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA = {"$ref": "#/components/schemas/Error"}

CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"},
              "description": "The event's join code"}
ROUND = {"name": "round", "in": "path", "required": True,
               "schema": {"type": "integer", "minimum": 0}, "description": "Round number"}
QUESTION = {"name": "question", "in": "path", "required": True,
                  "schema": {"type": "integer", "minimum": 0}, "description": "Question number"}


def refused(description: str) -> dict[str, Any]:
    """A refusal: the Error schema (answerdesk/errors.py) under ``description``."""
    return {"description": description, "content": {"application/json": {"schema": ERROR_SCHEMA}}}


def answered(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON answer of ``schema`` under ``description``."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}
