"""OpenQuiz question types over the JSON API (OQ-3): a team's captain (OQ-1) chooses an
option, bids or passes in the auction, hands the secret question; the host sets a
question's type and closes the auction or the choices for all. The host judges through
api.py's judge."""

from __future__ import annotations

from typing import Annotated, Any

from flask import jsonify
from msgspec import Meta

from ...api.blueprint import bp
from ...api.schema import CODE, QUESTION, ROUND
from ...bodies import Body
from ...web import QuestionRef, body_as, committed
from . import typeplay, types
from .api import _Q, _captain, _host, op
from .replies import OqBidding, OqChoicesClosed, OqChosen, OqHanded, OqSold, OqTyped


class Choice(QuestionRef):
    """OQ-3 choices: the option chosen (the game checks it is one of the question's)."""

    option: str | None = None


class Stake(QuestionRef):
    """OQ-3 auction: the stake (the game checks it against the value and the score)."""

    amount: int | None = None


class Handing(QuestionRef):
    """OQ-3 secret: the team the question goes to, and a SIGame question's price."""

    team: str | None = None
    price: int | None = None


class TypeChoice(Body):
    """OQ-3: the type the host sets (typeplay.set_type refuses an unknown one, naming the
    types, and a choices type for a question with fewer than two options)."""

    type: Annotated[str, Meta(extra_json_schema={"enum": list(types.TYPES)})]


@bp.post("/events/<code>/oq/choose")
def oq_choose(code: str):
    """OQ-3: choose an option (choices: the buzzer's winner; choices for all: every team)."""
    event, team = _captain(code)
    body = body_as(Choice)
    return jsonify(committed(typeplay.choose, event, team, body.round, body.question,
                             body.option))


@bp.post("/events/<code>/oq/stake")
def oq_stake(code: str):
    """OQ-3 auction: a stake, from the question's value to the team's score."""
    event, team = _captain(code)
    body = body_as(Stake)
    return jsonify(committed(typeplay.stake, event, team, body.round, body.question,
                             body.amount))


@bp.post("/events/<code>/oq/pass")
def oq_pass(code: str):
    """OQ-3 auction: the team leaves the bidding."""
    event, team = _captain(code)
    body = body_as(QuestionRef)
    return jsonify(committed(typeplay.pass_auction, event, team, body.round, body.question))


@bp.post("/events/<code>/oq/secret")
def oq_secret(code: str):
    """OQ-3 secret: the team with the turn hands the question to a team (itself included)."""
    event, team = _captain(code)
    body = body_as(Handing)
    return jsonify(committed(typeplay.hand, event, team, body.round, body.question, body.team,
                             body.price))


@bp.post(f"{_Q}/type")
def oq_set_type(code: str, round_number: int, question_number: int):
    """OQ-3: the host sets a question's type before it is played."""
    event = _host(code)
    kind = committed(typeplay.set_type, event, round_number, question_number,
                     body_as(TypeChoice).type, "host:api")
    return jsonify({"type": kind.name})


@bp.post(f"{_Q}/choices/close")
def oq_close_choices(code: str, round_number: int, question_number: int):
    """OQ-3 choices for all: close; every choice scores ±value."""
    return jsonify(committed(typeplay.close_for_all, _host(code), round_number,
                             question_number, "host:api"))


@bp.post(f"{_Q}/auction/close")
def oq_close_auction(code: str, round_number: int, question_number: int):
    """OQ-3 auction: close the bidding; the highest stake answers, for the stake."""
    return jsonify(committed(typeplay.close_auction, _host(code), round_number,
                             question_number, "host:api"))


def openapi_paths() -> dict[str, Any]:
    """The routes above for the OpenAPI document."""
    at = [CODE, ROUND, QUESTION]
    q = "/api/host/events/{code}/oq/rounds/{round}/questions/{question}"
    return {
        "/api/events/{code}/oq/choose": op(
            "OQ-3: choose an option (choices: the buzzer's winner, judged at once; choices "
            "for all: every team once, sealed until closed)", "team", Choice, answer=OqChosen),
        "/api/events/{code}/oq/stake": op(
            "OQ-3 auction: a stake from the question's value, above the highest, to the "
            "team's score (or the whole score); refused from a team at 0", "team", Stake,
            answer=OqBidding),
        "/api/events/{code}/oq/pass": op("OQ-3 auction: leave the bidding", "team",
                                         QuestionRef, answer=OqBidding),
        "/api/events/{code}/oq/secret": op(
            "OQ-3 secret: the team with the turn hands the question to a team, itself "
            "included; a SIGame question plays for its own price (price: one of its "
            "choices; none given: the lowest)", "team", Handing, answer=OqHanded),
        f"{q}/type": op("OQ-3: set a question's type before it is played", "host",
                        TypeChoice, params=at, answer=OqTyped),
        f"{q}/choices/close": op("OQ-3 choices for all: close; right +value, wrong −value, "
                                 "no choice 0", "host", None, params=at,
                                 answer=OqChoicesClosed),
        f"{q}/auction/close": op("OQ-3 auction: close the bidding; the highest stake "
                                 "answers for the stake (nobody bid: the team with the "
                                 "turn, for the value)", "host", None, params=at,
                                 answer=OqSold),
    }
