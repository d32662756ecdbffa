"""Team API beyond answers: jokers (BG-J1-J3), the wildcard choice (BG-R5.0), the
shoot-out (BG-S3), and the small payload phones poll for them."""

from __future__ import annotations

from flask import jsonify, request

from .. import jokers, play, shootout, wildcard
from ..errors import DeskError
from ..web import api_team
from . import bp


def _body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise DeskError("The request body must be a JSON object")
    return body


def _int(body: dict, name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise DeskError(f"{name} must be a whole number", field=name)
    return value


@bp.get("/events/<code>/play")
def play_state(code: str):
    event, team = api_team(code)
    return jsonify(play.play_json(event, team))


@bp.post("/events/<code>/jokers")
def play_joker(code: str):
    _, team = api_team(code)
    body = _body()
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
    rnd = wildcard.choose_scenario(event, str(_body().get("scenario", "")), team=team)
    return jsonify({"round": rnd.number, "kind": rnd.kind, "check_mode": rnd.check_mode,
                    "points": rnd.points})


@bp.put("/events/<code>/shootout")
def shootout_numbers(code: str):
    event, team = api_team(code)
    row = shootout.save_numbers(event, team, _body().get("numbers"))
    return jsonify({"numbers": row.numbers,
                    "saved_at": row.saved_at.isoformat(timespec="milliseconds") + "Z"})
