"""JSON API: what the phone sheet itself uses, and what tests and tools call."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, request

from ..access import api_host, bearer_token, check_organiser_password
from ..core import answers, formats, organiser, projector, rounds, sheets, teams
from ..core.events import event_by_code
from ..database.readonly import reads_only
from ..errors import Unauthorized
from ..models import Event
from ..web import api_team, body_as, json_response, request_json
from .blueprint import bp
from .openapi import openapi_document


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.post("/events")
def create_event():
    """The organiser creates an event (issue 14 §1); the reply is the demo's JSON line."""
    if not check_organiser_password(bearer_token()):
        raise Unauthorized("The organiser password is required")
    body = body_as(organiser.NewEvent)
    event, password = organiser.create_new_event(
        body.name, body.format, body.date, body.screen_locale, actor="organiser:api")
    base = current_app.config["PUBLIC_URL"] or request.url_root
    return jsonify(organiser.event_line(event, password, base)), 201


@bp.post("/events/<code>/teams")
def join(code: str):
    event = event_by_code(code)
    body = body_as(teams.JoinRequest)
    team, token = teams.register_team(event, body.name, body.players)
    return jsonify(
        {"name": team.name, "players": team.players, "token": token, "event": event.code}
    ), 201


@bp.get("/events/<code>/sheet")
@reads_only
def sheet(code: str):
    """The team's sheet; with ``since`` and ``version`` (what the phone's last read
    said), only the answers changed since when nothing else can have (issue 33)."""
    since = request.args.get("since")
    if since is not None:
        changes = sheets.changes_by_token(code, bearer_token(), since,
                                          request.args.get("version"))
        if changes is not None:
            return json_response(changes)
    event, team = api_team(code)
    return jsonify(sheets.team_sheet(event, team))


def state_document(event: Event) -> dict[str, Any]:
    """What every phone and the projector see: GET /state (served by the lean
    sheets.state_by_code, the same bytes: tests/test_lean.py), and the live push's
    ``look``."""
    return sheets.public_state(event)


def save_reply(code: str, token: str | None, round_number: int, question_number: int,
               body: Any, *, with_state: bool) -> dict[str, Any]:
    """The phone's save's reply (also served by lean_routes.py); ``with_state``: it
    carries the state poll's too (read after the save's commit), so a typing phone need
    not poll besides (issue 33)."""
    payload = answers.save_by_token(code, token, round_number, question_number, body).to_json()
    if with_state:
        payload["state"] = sheets.state_by_code(code)
    return payload


@bp.get("/events/<code>/state")
def state(code: str):
    return json_response(sheets.state_by_code(code))


@bp.put("/events/<code>/answers/<int:round_number>/<int:question_number>")
def save_answer(code: str, round_number: int, question_number: int):
    return json_response(save_reply(code, bearer_token(), round_number, question_number,
                                    request_json(), with_state=request.args.get("with") == "state"))


@bp.get("/events/<code>/standings")
@reads_only
def event_standings(code: str):
    event = event_by_code(code)
    rows = formats.of(event).standings(event)
    return jsonify({
        "event": event.code,
        "standings": [
            {"team": r.name, "points": r.points, "place": r.place, "shared": r.shared,
             "shootout_needed": r.shootout_needed,
             "by_round": {str(k): v for k, v in sorted(r.by_round.items())}}
            for r in rows
        ],
    })


@bp.post("/host/events/<code>/rounds/<int:round_number>/open")
def open_round(code: str, round_number: int):
    event = api_host(code)
    rnd = rounds.open_round(event, round_number, actor="host:api")
    projector.follow(event, round_number)
    return jsonify({"round": rnd.number, "state": rnd.state})


@bp.post("/host/events/<code>/rounds/<int:round_number>/close")
def close_round(code: str, round_number: int):
    event = api_host(code)
    rnd = rounds.close_round(event, round_number, actor="host:api")
    projector.follow(event, round_number)
    return jsonify({"round": rnd.number, "state": rnd.state})


@bp.post("/host/events/<code>/rounds/<int:round_number>/reveal")
def reveal_round(code: str, round_number: int):
    event = api_host(code)
    rnd = rounds.reveal_round(event, round_number, actor="host:api")
    projector.follow(event, round_number)
    return jsonify({"round": rnd.number, "state": rnd.state})


from . import question_clock, receipts  # noqa: E402,F401  (register their routes on bp)
