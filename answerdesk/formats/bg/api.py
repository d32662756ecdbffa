"""Team API beyond answers: jokers (BG-J1-J3), the wildcard choice (BG-R5.0), the
shoot-out (BG-S3), and the small payload phones poll for them."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, request

from ...api.blueprint import bp
from ...database import reads_only
from ...errors import DeskError
from ...web import api_team, json_body
from . import jokers, play, shootout, wildcard


def _int(body: dict, name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000:
        raise DeskError("%(field)s must be a whole number from 0 to 1000", field=name)
    return value


@bp.get("/events/<code>/play")
@reads_only
def play_state(code: str):
    """Polled by every phone every 9 s: answered 304 while the phone holds the current
    part (the browser's fetch sends If-None-Match itself and hands the script the
    kept body), so a 300-team night sends 3 KB a poll only when something moved."""
    event, team = api_team(code)
    tag, part = play.tagged_play(event, team)
    if tag is not None and tag in request.if_none_match:
        response = current_app.response_class(status=304)
    else:
        response = jsonify(part)  # the sheet's key order: widgets.js compares the two
    if tag is not None:
        response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Authorization")
    return response


@bp.post("/events/<code>/jokers")
def play_joker(code: str):
    _, team = api_team(code)
    body = json_body()
    joker = jokers.play_joker(
        team, str(body.get("kind", "")), _int(body, "round"), _int(body, "question"),
        copy_of=body.get("copy_of"), confirmed=body.get("confirm") is True,
    )
    return jsonify({"kind": joker.kind, "round": body["round"], "question": body["question"],
                    "hint": joker.hint,
                    "copy_of": joker.target.name if joker.target else None}), 201


@bp.post("/events/<code>/wildcard")
def choose_scenario(code: str):
    event, team = api_team(code)
    rnd = wildcard.choose_scenario(event, str(json_body().get("scenario", "")), team=team)
    return jsonify({"round": rnd.number, "kind": rnd.kind, "check_mode": rnd.check_mode,
                    "points": rnd.points})


@bp.put("/events/<code>/shootout")
def shootout_numbers(code: str):
    event, team = api_team(code)
    row = shootout.save_numbers(event, team, json_body().get("numbers"))
    return jsonify({"numbers": row.numbers,
                    "saved_at": row.saved_at.isoformat(timespec="milliseconds") + "Z"})


def openapi_paths() -> dict[str, Any]:
    """This module's routes for the OpenAPI document (api/openapi.py)."""
    from ...api.openapi import _CODE, _error, _ok

    team = [{"teamToken": []}]
    body = {"type": "object"}

    def post(summary: str, schema: dict[str, Any], ok: str, method: str = "post",
             status: str = "200") -> dict[str, Any]:
        return {method: {
            "summary": summary, "security": team, "parameters": [_CODE],
            "requestBody": {"required": True,
                            "content": {"application/json": {"schema": schema}}},
            "responses": {status: _ok(ok, body), "400": _error("Invalid request"),
                          "401": _error("No or wrong team token"),
                          "404": _error("No such event, round, question or team"),
                          "409": _error("Not allowed now (rule refused, or locked)")},
        }}

    return {
        "/api/events/{code}/play": {"get": {
            "summary": "Jokers left and played, the wildcard, the shoot-out, final-round states",
            "security": team, "parameters": [_CODE],
            "responses": {"200": _ok("The team's play state", body),
                          "401": _error("No or wrong team token"),
                          "404": _error("No such event")},
        }},
        "/api/events/{code}/jokers": post(
            "Play a joker on a question (BG-J1 double, BG-J2 copy, BG-J3 first letter)",
            {"type": "object", "required": ["kind", "round", "question"], "properties": {
                "kind": {"enum": ["double", "copy", "first_letter"]},
                "round": {"type": "integer"}, "question": {"type": "integer"},
                "copy_of": {"type": "string"}, "confirm": {"type": "boolean"}}},
            "The joker played (with the first letter for BG-J3)", status="201"),
        "/api/events/{code}/wildcard": post(
            "The last team chooses the wildcard scenario (BG-R5.0)",
            {"type": "object", "required": ["scenario"], "properties": {
                "scenario": {"enum": ["5.1", "5.2", "5.3", "5.4", "5.5"]}}},
            "Round 5 with the scenario's check mode and points"),
        "/api/events/{code}/shootout": post(
            "A tied team's three shoot-out numbers (BG-S3)",
            {"type": "object", "required": ["numbers"], "properties": {
                "numbers": {"type": "array", "minItems": 3, "maxItems": 3,
                            "items": {"type": ["number", "string", "null"]}}}},
            "The numbers saved", method="put"),
    }
