"""JSON API: what the phone sheet itself uses, and what tests and tools call."""

from __future__ import annotations

from flask import jsonify

from ..access import api_host
from ..core import answers, formats, rounds, sheets, teams
from ..core.events import event_by_code
from ..database import reads_only
from ..errors import DeskError
from ..web import api_team, api_team_ref, json_body
from .blueprint import bp
from .openapi import openapi_document


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.post("/events/<code>/teams")
def join(code: str):
    event = event_by_code(code)
    body = json_body()
    team, token = teams.register_team(event, body.get("name"), body.get("players", 1))
    return jsonify(
        {"name": team.name, "players": team.players, "token": token, "event": event.code}
    ), 201


@bp.get("/events/<code>/sheet")
@reads_only
def sheet(code: str):
    event, team = api_team(code)
    return jsonify(sheets.team_sheet(event, team))


@bp.get("/events/<code>/state")
@reads_only
def state(code: str):
    return jsonify({"rounds": sheets.round_states(event_by_code(code))})


@bp.put("/events/<code>/answers/<int:round_number>/<int:question_number>")
def save_answer(code: str, round_number: int, question_number: int):
    team = api_team_ref(code, queue_for=round_number)
    body = json_body()
    seq = body.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool) or seq < 0):
        raise DeskError("seq must be a non-negative whole number")
    result = answers.save_answer(
        team, round_number, question_number, body.get("text", ""),
        fields=body.get("fields"), seq=seq,
    )
    return jsonify(result.to_json())


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
    return jsonify({"round": rnd.number, "state": rnd.state})


@bp.post("/host/events/<code>/rounds/<int:round_number>/close")
def close_round(code: str, round_number: int):
    event = api_host(code)
    rnd = rounds.close_round(event, round_number, actor="host:api")
    return jsonify({"round": rnd.number, "state": rnd.state})


@bp.post("/host/events/<code>/rounds/<int:round_number>/reveal")
def reveal_round(code: str, round_number: int):
    event = api_host(code)
    rnd = rounds.reveal_round(event, round_number, actor="host:api")
    return jsonify({"round": rnd.number, "state": rnd.state})


from . import receipts  # noqa: E402,F401  (register their routes on bp)
