"""The ЧГК evening over the JSON API: the host's records and everyone's standings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask import jsonify
from msgspec import Meta

from ...access import api_host
from ...api.blueprint import bp
from ...api.replies import Reply
from ...api.schema import CODE, refused, replied
from ...bodies import N_, Body, request_body
from ...core.events import event_by_code
from ...database.readonly import reads_only
from ...errors import BidRefused, DeskError
from ...web import DbInt, api_team, body_as
from . import game
from .replies import AuctionRun, AuctionStatus, ChgkStandings, GamePart, LeagueSet, SectorDrawn

_HOST = "/host/events/<code>/chgk/games/<int:number>"

#: A bid in credits: rules.auction and game.hand_in_bid refuse one outside 1 … the
#: team's credits, naming them.
Credits = Annotated[int, Meta(extra_json_schema={"minimum": 1})]
WHOLE_CREDITS = N_("A bid must be a whole number of credits.")


class SealedBids(Body):
    """CHGK-4.3-4.5: the sealed bids by team name, entered together at the desk."""

    bids: dict[str, Credits]

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        if isinstance(body, dict) and isinstance(body.get(field), dict):  # a bid is wrong
            return BidRefused(WHOLE_CREDITS, field=field)
        return DeskError(N_("bids must be an object of team name → credits"), field=field)


class TableCall(Body):
    """CHGK-3.1-3.4: the Central Table's verdict on a question, a leave or the Decisive
    Round (game.table_action asks for question and correct unless it is a leave)."""

    team: str
    action: Literal["answer", "leave", "decisive"]
    question: DbInt | None = None
    correct: bool | None = None

    messages = {"action": N_("action must be 'answer', 'leave' or 'decisive'"),
                "question": N_("question must be a whole number"),
                "correct": N_("correct must be true or false")}


class LeagueChoice(Body):
    """CHGK-2.2: the league a team plays in."""

    team: str
    league: Literal["favourites", "contenders"]

    messages = {"league": N_("The league must be 'favourites' or 'contenders'.")}


class PhoneBid(Body):
    """CHGK-4.4: a team's sealed bid from its phone (game.hand_in_bid: 1 … its credits)."""

    bid: Credits

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        return BidRefused(WHOLE_CREDITS, field=field)


@bp.post(f"{_HOST}/draw")
def draw(code: str, number: int):
    """CHGK-1.6: spin the top for the next question of the game."""
    result = game.draw_sector(api_host(code), number, actor="host:api")
    return jsonify({"game": number, "seed": result.seed, "pointer": result.pointer,
                    "sector": result.sector})


@bp.post(f"{_HOST}/auction")
def auction(code: str, number: int):
    """CHGK-4.3-4.5: the sealed bids, entered together."""
    event = api_host(code)
    result = game.run_auction(event, number, body_as(SealedBids).bids, actor="host:api")
    return jsonify({"game": number, "winner": result.winner, "bids": result.bids,
                    "tied": list(result.tied), "seed": result.seed})


@bp.post(f"{_HOST}/table")
def table(code: str, number: int):
    """CHGK-3.1-3.4: the Central Table's verdict, a leave or the Decisive Round."""
    event = api_host(code)
    body = body_as(TableCall)
    game.table_action(event, number, body.team, body.action, body.question, body.correct,
                      actor="host:api")
    return jsonify(game.standings_json(event)["games"][str(number)])


@bp.put("/host/events/<code>/chgk/leagues")
def league(code: str):
    """CHGK-2.2: a team's league."""
    event = api_host(code)
    body = body_as(LeagueChoice)
    game.set_league(event, body.team, body.league, actor="host:api")
    return jsonify({"team": body.team, "league": body.league})


@bp.get("/events/<code>/chgk/auction")
@reads_only
def auction_status(code: str):
    """CHGK-4: the team's credits and whether it may hand in a sealed bid now."""
    event, team = api_team(code)
    return jsonify(game.bid_status(event, team))


@bp.put("/events/<code>/chgk/bid")
def hand_in_bid(code: str):
    """CHGK-4.4: the team's sealed bid (1 … its credits), from its phone."""
    event, team = api_team(code)
    return jsonify(game.hand_in_bid(event, team, body_as(PhoneBid).bid,
                                    actor=f"team:{team.name}"))


@bp.get("/events/<code>/chgk/standings")
@reads_only
def standings(code: str):
    """CHGK-2.4-2.7: games, evening (all teams and per league), sectors, table, auctions."""
    return jsonify(game.standings_json(event_by_code(code)))


def openapi_paths() -> dict[str, Any]:
    """This module's routes for the OpenAPI document (api/openapi.py)."""
    host: list[dict[str, list[str]]] = [{"hostPassword": []}]
    number = {"name": "number", "in": "path", "required": True,
              "schema": {"type": "integer", "minimum": 0}, "description": "Game (1 or 2)"}

    def post(summary: str, body: type[Body] | None, answer: type[Reply], method: str = "post",
             params: list | None = None) -> dict[str, Any]:
        op: dict[str, Any] = {
            "summary": summary, "security": host,
            "parameters": params if params is not None else [CODE, number],
            "responses": {"200": replied("Done", answer), "400": refused("Invalid request"),
                          "401": refused("No or wrong host password"),
                          "404": refused("No such event, game or team"),
                          "409": refused("Refused by the rules (nothing changed)")},
        }
        if body is not None:
            op["requestBody"] = request_body(body)
        return {method: op}

    base = "/api/host/events/{code}/chgk/games/{number}"
    return {
        f"{base}/draw": post("CHGK-1.6: spin the top; the sector drawn is recorded", None,
                            SectorDrawn),
        f"{base}/auction": post("CHGK-4.3-4.5: sealed bids by team name; bids burn",
                                SealedBids, AuctionRun),
        f"{base}/table": post("CHGK-3.1-3.4: Central Table answer, leave or Decisive Round",
                              TableCall, GamePart),
        "/api/host/events/{code}/chgk/leagues": post("CHGK-2.2: a team's league", LeagueChoice,
                                                     LeagueSet, "put", [CODE]),
        "/api/events/{code}/chgk/auction": {"get": {
            "summary": "CHGK-4: the team's credits and whether it may bid now",
            "security": [{"teamToken": []}], "parameters": [CODE],
            "responses": {"200": replied("Auction status", AuctionStatus),
                          "401": refused("No team token")}}},
        "/api/events/{code}/chgk/bid": {"put": {
            "summary": "CHGK-4.4: the team's sealed bid from its phone (replaces an earlier one)",
            "security": [{"teamToken": []}], "parameters": [CODE],
            "requestBody": request_body(PhoneBid),
            "responses": {"200": replied("Bid handed in", AuctionStatus),
                          "400": refused("Outside 1..credits, or a Contender in game 2"),
                          "401": refused("No team token"),
                          "409": refused("The Central Table is taken")}}},
        "/api/events/{code}/chgk/standings": {"get": {
            "summary": "CHGK-2.4-2.7: game and evening rankings, series points, credits",
            "parameters": [CODE],
            "responses": {"200": replied("Standings", ChgkStandings),
                          "404": refused("No such event"),
                          "409": refused("Not a ЧГК evening")}}},
    }
