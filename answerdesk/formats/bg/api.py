"""Team API beyond answers: jokers (BG-J1-J3), the wildcard choice (BG-R5.0), the
shoot-out (BG-S3), and the small payload phones poll for them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask import current_app, jsonify, request
from msgspec import Meta

from ...api.blueprint import bp
from ...api.replies import Reply
from ...api.schema import CODE, refused, replied
from ...bodies import N_, Body, request_body
from ...database.readonly import reads_only
from ...errors import DeskError
from ...web import api_team, body_as
from . import jokers, play, shootout, wildcard
from .programme import BG_SCENARIOS
from .replies import JokerPlayed, Play, ShootoutSaved, WildcardChosen

Number = Annotated[int, Meta(ge=0, le=1000)]


class JokerPlay(Body):
    """POST /api/events/{code}/jokers: a joker on a question (BG-J1-J3)."""

    kind: Literal["double", "copy", "first_letter"]
    round: Number
    question: Number
    #: BG-J2: the team whose answer is copied.
    copy_of: str | None = None
    #: BG-J2: the phone confirmed the copy after seeing whose it is.
    confirm: bool = False

    messages = {"round": N_("%(field)s must be a whole number from 0 to 1000"),
                "question": N_("%(field)s must be a whole number from 0 to 1000")}


class ScenarioChoice(Body):
    """BG-R5.0: the scenario the last team chooses (wildcard.choose_scenario refuses an
    unknown one, naming the choices)."""

    scenario: Annotated[str, Meta(extra_json_schema={"enum": list(BG_SCENARIOS)})]

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        if isinstance(body, dict) and field not in body:  # none chosen: say which there are
            return DeskError("Unknown scenario '%(scenario)s'; choose one of %(choices)s",
                             scenario="", choices=", ".join(BG_SCENARIOS))
        return super().refuse(field, body)


class ShootoutNumbers(Body):
    """BG-S3: a tied team's three numbers (shootout.save_numbers reads each one)."""

    numbers: Annotated[list[int | float | str | None], Meta(min_length=3, max_length=3)]

    messages = {"numbers": N_("Send the three numbers as a list")}


@bp.get("/events/<code>/play")
@reads_only
def play_state(code: str):
    """Fetched by a phone when the state's version moved (and every 3 s while a
    shoot-out waits for its outcome, static/widgets.js): answered 304 while the phone
    holds the current part (the browser's fetch sends If-None-Match itself and hands
    the script the kept body)."""
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
    body = body_as(JokerPlay)
    joker = jokers.play_joker(team, body.kind, body.round, body.question,
                              copy_of=body.copy_of, confirmed=body.confirm)
    return jsonify({"kind": joker.kind, "round": body.round, "question": body.question,
                    "hint": joker.hint,
                    "copy_of": joker.target.name if joker.target else None}), 201


@bp.post("/events/<code>/wildcard")
def choose_scenario(code: str):
    event, team = api_team(code)
    rnd = wildcard.choose_scenario(event, body_as(ScenarioChoice).scenario, team=team)
    return jsonify({"round": rnd.number, "kind": rnd.kind, "check_mode": rnd.check_mode,
                    "points": rnd.points})


@bp.put("/events/<code>/shootout")
def shootout_numbers(code: str):
    event, team = api_team(code)
    row = shootout.save_numbers(event, team, body_as(ShootoutNumbers).numbers)
    return jsonify({"numbers": row.numbers,
                    "saved_at": row.saved_at.isoformat(timespec="milliseconds") + "Z"})


def openapi_paths() -> dict[str, Any]:
    """This module's routes for the OpenAPI document (api/openapi.py)."""
    team: list[dict[str, list[str]]] = [{"teamToken": []}]

    def post(summary: str, body: type[Body], ok: str, answer: type[Reply],
             method: str = "post", status: str = "200") -> dict[str, Any]:
        return {method: {
            "summary": summary, "security": team, "parameters": [CODE],
            "requestBody": request_body(body),
            "responses": {status: replied(ok, answer), "400": refused("Invalid request"),
                          "401": refused("No or wrong team token"),
                          "404": refused("No such event, round, question or team"),
                          "409": refused("Not allowed now (rule refused, or locked)")},
        }}

    return {
        "/api/events/{code}/play": {"get": {
            "summary": "Jokers left and played, the wildcard, the shoot-out, final-round states",
            "security": team, "parameters": [CODE],
            "responses": {"200": replied("The team's play state", Play),
                          "401": refused("No or wrong team token"),
                          "404": refused("No such event")},
        }},
        "/api/events/{code}/jokers": post(
            "Play a joker on a question (BG-J1 double, BG-J2 copy, BG-J3 first letter)",
            JokerPlay, "The joker played (with the first letter for BG-J3)", JokerPlayed,
            status="201"),
        "/api/events/{code}/wildcard": post(
            "The last team chooses the wildcard scenario (BG-R5.0)",
            ScenarioChoice, "Round 5 with the scenario's check mode and points", WildcardChosen),
        "/api/events/{code}/shootout": post(
            "A tied team's three shoot-out numbers (BG-S3)",
            ShootoutNumbers, "The numbers saved", ShootoutSaved, method="put"),
    }
