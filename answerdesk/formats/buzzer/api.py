"""The buzzer over the JSON API (OQ-4): the phone's sync exchange and its press.

The routes join the API blueprint when a format that plays with the buzzer loads
(its ``load`` imports this module). Both stamp the server's clock first thing, so
the time a request waited for the database does not count as network delay.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify

from ...access import bearer_token
from ...api.blueprint import bp
from ...api.schema import CODE, refused, replied
from ...bodies import request_body
from ...core.events import event_by_code
from ...core.formats import get as get_format
from ...errors import Conflict
from ...extensions import db
from ...models import QuestionGate
from ...web import api_team, body_as
from . import presses
from .replies import BuzzAccepted, ClockSynced


def _arming(event: Any, round_number: int, question_number: int,
            at_ms: int) -> presses.Arming | None:
    """The format's arming of the question, or None once a deadline the host set at the
    start (core's start, ``locks_at``) has passed."""
    fmt = get_format(event.format)
    if not fmt.buzzer:
        raise Conflict("This game is not played with a buzzer.")
    arming = fmt.buzzer_arming(event, round_number, question_number)
    if arming is None:
        return None
    locks_at = db.session.scalar(db.select(QuestionGate.locks_at).where(
        QuestionGate.question_id == arming.question_id))
    return None if locks_at is not None and at_ms >= presses.to_ms(locks_at) else arming


def _caller(code: str, press: bool) -> tuple[Any, presses.Phone | None]:
    """The event and the phone a request's token presses (or syncs) from: the team
    token's, or whatever the format says (``buzzer_phone``: OpenQuiz's players press
    and sync with their own tokens, each phone with its own clock estimate, OQ-1,
    OQ-4). None for an anonymous sync exchange."""
    event = event_by_code(code)  # an unknown code is a 404 for anonymous clocks too
    fmt = get_format(event.format)
    if fmt.buzzer_phones:
        return event, fmt.buzzer_phone(event, bearer_token(), press)
    if not press and not bearer_token():
        return event, None
    event, team = api_team(code)
    return event, presses.Phone.of_team(team)


@bp.post("/events/<code>/clock")
def clock_sync(code: str):
    """One sync exchange; with a phone's token it also feeds the server's estimate of
    that phone's clock."""
    server_ms = presses.now_ms()
    body = body_as(presses.ClockSync)
    phone = _caller(code, press=False)[1]
    reply = presses.sync(phone, body.client_ms, body.last, server_ms)
    return jsonify(reply)


@bp.post("/events/<code>/buzz")
def buzz(code: str):
    """OQ-4: a press with the phone's own press time; the order comes after the window."""
    received_ms = presses.now_ms()
    event, phone = _caller(code, press=True)
    assert phone is not None  # a press without a phone was refused by _caller
    body = body_as(presses.BuzzPressRequest)
    arming = _arming(event, body.round, body.question, received_ms)
    row = presses.press(arming, phone, body.pressed_at_ms, received_ms)
    assert arming is not None  # press refuses an unarmed buzzer
    # When the window closes would tell whether another team pressed first (issue 31):
    # the phone learns the order with everyone, from the state.
    return jsonify({"accepted": True, "round": arming.round_number,
                    "question": arming.question_number, "attempt": row.attempt,
                    "received_ms": received_ms}), 202


def openapi_paths() -> dict[str, Any]:
    """The buzzer's routes for the OpenAPI document (formats that use it describe them)."""
    return {
        "/api/events/{code}/clock": {"post": {
            "summary": "OQ-4 clock sync: the server's time for the phone's; with a phone's "
                       "token (in OpenQuiz a player's) the exchange also feeds the server's "
                       "own estimate of that phone's clock, kept per phone",
            "parameters": [CODE],
            "requestBody": request_body(presses.ClockSync),
            "responses": {
                "200": replied("The server's time (its estimate of the phone stays with it)",
                               ClockSynced),
                "400": refused("Invalid body"),
                "401": refused("Wrong team token"),
                "404": refused("No such event"),
            },
        }},
        "/api/events/{code}/buzz": {"post": {
            "summary": "OQ-4: press the buzzer; ordered by the phone's press time once the "
                       "one-second window after the first press has closed (see /state)",
            "security": [{"teamToken": []}],
            "parameters": [CODE],
            "requestBody": request_body(presses.BuzzPressRequest),
            "responses": {
                "202": replied("The press is in; the order follows when the window closes",
                               BuzzAccepted),
                "400": refused("Invalid body"),
                "401": refused("No or wrong team token"),
                "403": refused("OpenQuiz: not a player's own token, or banned by the host"),
                "404": refused("No such event"),
                "409": refused("Not armed, the team is out, already pressed, the window closed, "
                              "or the game has no buzzer"),
            },
        }},
    }

