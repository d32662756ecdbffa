"""Checks that a real JSON response fits its reply model (answerdesk/api/replies.py and
the formats' replies.py) and the schema the served OpenAPI document gives for it
(issue 32: the document cannot drift from what the routes send)."""

from __future__ import annotations

from typing import Any

import msgspec
from jsonschema import Draft202012Validator


def served_document(client) -> dict[str, Any]:
    return client.get("/api/openapi.json").get_json()


def schema_of(document: dict[str, Any], path: str, method: str,
              status: str = "200") -> dict[str, Any]:
    response = document["paths"][path][method]["responses"][status]
    return response["content"]["application/json"]["schema"]


def validates(document: dict[str, Any], schema: dict[str, Any], body: Any) -> None:
    """``body`` is valid under ``schema`` (which may name the document's components)."""
    errors = [e.message for e in Draft202012Validator(
        {**schema, "components": document["components"]}).iter_errors(body)]
    assert not errors, errors


def fits(document: dict[str, Any], path: str, method: str, status: str, body: Any,
         *models: type) -> None:
    """``body`` validates against the documented schema and converts strictly into one
    of ``models`` (a Reply allows no key but its fields)."""
    try:
        validates(document, schema_of(document, path, method, status), body)
    except AssertionError as error:
        raise AssertionError((path, status, str(error))) from None
    refused = []
    for model in models:
        try:
            msgspec.convert(body, model, strict=True)
            return
        except msgspec.ValidationError as error:
            refused.append(f"{model.__name__}: {error}")
    raise AssertionError(refused)
