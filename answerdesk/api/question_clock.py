"""The question clock over the API: the host starts a question, anyone reads the clock."""

from __future__ import annotations

from typing import Annotated, Any

from flask import jsonify, request
from msgspec import Meta

from ..access import api_host
from ..bodies import Body, request_body
from ..core import clock
from ..core.events import event_by_code
from ..database.readonly import reads_only
from ..web import body_as
from .blueprint import bp
from .replies import CurrentClock, QuestionClock
from .schema import CODE, QUESTION, ROUND, refused, replied

#: Whole seconds; the range is documented here and refused by clock.start_question with
#: its own message.
Seconds = Annotated[int, Meta(extra_json_schema={"minimum": 0, "maximum": clock.MAX_SECONDS})]


class QuestionStart(Body):
    """POST .../questions/{question}/start: the clock's length (core/clock.py checks the
    range, 0 to MAX_SECONDS); none given: the format's own."""

    seconds: Seconds | None = None
    grace: Seconds | None = None


@bp.post("/host/events/<code>/rounds/<int:round_number>/questions/<int:question_number>/start")
def start_question(code: str, round_number: int, question_number: int):
    """Start a question (CHGK-1.1: it locks by itself at the deadline returned; the
    event's format may run it without one, Format.start_question)."""
    event = api_host(code)
    body = body_as(QuestionStart) if request.get_data() else QuestionStart()
    gate = clock.start_question(event, round_number, question_number,
                                seconds=body.seconds, grace=body.grace, actor="host:api")
    return jsonify(clock.clock_json(gate, round_number, question_number))


@bp.get("/events/<code>/clock")
@reads_only
def current_clock(code: str):
    """The clock of the latest started question, for phones and the projector."""
    return jsonify({"clock": clock.current(event_by_code(code))})


def openapi_paths() -> dict[str, Any]:
    """This module's routes for the OpenAPI document (api/openapi.py)."""
    return {
        "/api/host/events/{code}/rounds/{round}/questions/{question}/start": {"post": {
            "summary": "Start a question of a round played question by question. On the "
                       "clock (CHGK-1.1: 60 s, then 10 s to hand in) answers are refused "
                       "from the deadline on, with nobody closing it; a game whose host "
                       "closes each question (Своя игра's ВСЁ, the buzzer games) runs it "
                       "without a deadline (null) unless seconds or grace are sent",
            "security": [{"hostPassword": []}],
            "parameters": [CODE, ROUND, QUESTION],
            "requestBody": request_body(QuestionStart, required=False),
            "responses": {
                "200": replied("The question's clock and deadline", QuestionClock),
                "400": refused("Invalid seconds or grace"),
                "401": refused("No or wrong host password"),
                "404": refused("No such event, round or question"),
                "409": refused("Another question still runs, this one was already started, "
                              "the round is not played question by question, or the "
                              "game's rules refuse it now (e.g. SI-3: a protest is heard)"),
            },
        }},
        "/api/events/{code}/clock": {"get": {
            "summary": "The clock of the latest started question (null before the first)",
            "parameters": [CODE],
            "responses": {
                "200": replied("The clock", CurrentClock),
                "404": refused("No such event"),
            },
        }},
    }
