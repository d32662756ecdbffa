"""OpenQuiz over the JSON API: the pick, the host's judgement and edits, the final
(OQ-2, OQ-4, OQ-5, OQ-6); players, captains, kick and ban, speed and pauses (OQ-1,
OQ-7, OQ-8). The buzzer's own routes are formats/buzzer/api.py.

Every route passes control.guard first: a stopped game takes nothing, a paused one
no play, and an answer timer run out is applied before anything else."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import quote, urlencode

from flask import jsonify, url_for
from flask_limiter.util import get_remote_address
from msgspec import Meta

from ...access import api_host, bearer_token
from ...api.blueprint import bp
from ...api.replies import Reply
from ...api.schema import CODE, QUESTION, ROUND, refused, replied
from ...bodies import N_, Body, request_body
from ...core import formats
from ...core.events import event_by_code
from ...qr import qr_svg
from ...web import DbInt, QuestionRef, body_as, committed
from ..buzzer import presses
from . import bans, control, game, joining, players, typeplay
from .replies import (
    OqBanned,
    OqBet,
    OqCall,
    OqCaptain,
    OqClock,
    OqInvite,
    OqMe,
    OqPlayerJoined,
    OqReading,
    OqReceived,
    OqRef,
    OqRemoved,
    OqRoomJoined,
    OqScoreSet,
    OqSpeed,
)

_Q = "/host/events/<code>/oq/rounds/<int:round_number>/questions/<int:question_number>"


def _own(event: Any) -> Any:
    return formats.require(event, "oq", "OpenQuiz")


def _player(code: str, play: bool = True) -> tuple[Any, Any]:
    """The event and team of a player's own token (OQ-1: the team token alone does not
    play), once the game allows it."""
    event, team, _ = players.acting(code, bearer_token())
    control.guard(_own(event), presses.now_ms(), play)
    return event, team


def _captain(code: str) -> tuple[Any, Any]:
    """OQ-1: as ``_player``, refused unless it is the captain's token."""
    event, team, player = players.acting(code, bearer_token())
    control.guard(_own(event), presses.now_ms())
    players.require_captain(team, player)
    return event, team


def _host(code: str, play: bool = True) -> Any:
    event = _own(api_host(code))
    control.guard(event, presses.now_ms(), play)
    return event


@bp.post("/events/<code>/oq/pick")
def oq_pick(code: str):
    """OQ-2: the team with the turn picks a question on the board."""
    event, team = _captain(code)
    body = body_as(QuestionRef)
    question = committed(game.pick, event, team, body.round, body.question)
    return jsonify({"round": question.round.number, "question": question.number})


class Judgement(Body):
    """OQ-4/OQ-5: the host's call on the buzzer winner's answer (game.call checks that
    ×2 and ×0.5 go with an accepted answer only)."""

    outcome: Literal["accept", "reject", "timeout"]
    factor: Annotated[float, Meta(extra_json_schema={"enum": [1, 2, 0.5]})] = 1.0

    messages = {"outcome": N_("outcome must be accept, reject or timeout."),
                "factor": N_("factor must be 1, 2 or 0.5.")}


@bp.post(f"{_Q}/judge")
def oq_judge(code: str, round_number: int, question_number: int):
    """OQ-4/OQ-5: accept (×1, ×2, ×0.5), reject or timeout the buzzer winner's answer."""
    event = _host(code)  # the password before the body: an outsider learns nothing
    body = body_as(Judgement)
    return jsonify(committed(typeplay.judge, event, round_number, question_number,
                              body.outcome, body.factor, "host:api"))


class Reading(Body):
    """OQ-4 reading mode: how long presses count 2 s later."""

    seconds: Annotated[int, Meta(ge=0, le=600)]

    messages = {"seconds": N_("seconds must be a whole number from 0 to 600.")}


@bp.post(f"{_Q}/reading")
def oq_reading(code: str, round_number: int, question_number: int):
    """OQ-4 reading mode: presses during the reading get the 2 s penalty."""
    event = _host(code)
    armed = committed(game.reading, event, round_number, question_number,
                      body_as(Reading).seconds, "host:api")
    return jsonify({"reading_until_ms": armed.reading_until_ms})


class ScoreEdit(Body):
    """OQ-5: the host edits a team's score by hand."""

    team: str
    points: Annotated[int, Meta(ge=-1_000_000, le=1_000_000)]

    messages = {"points": N_("points must be a whole number.")}


class FinalJudgement(Body):
    """OQ-6: the host's word on one team's final answer (±its bet)."""

    team: str
    accepted: bool

    messages = {"accepted": N_("accepted must be true or false.")}


class Removal(Body):
    """OQ-8: the host kicks (or bans) a team or a player."""

    kind: Literal["team", "player"]
    team: str
    player: str | None = None
    ban: bool = False

    messages = {"kind": N_("kind must be team or player."),
                "ban": N_("ban must be true or false.")}


class Speed(Body):
    """OQ-7: every timer slow ×1.5, normal ×1 or fast ×0.5."""

    speed: Literal["slow", "normal", "fast"]

    messages = {"speed": N_("speed must be slow, normal or fast.")}


class Pause(Body):
    """OQ-8: pause (timers stand still) or resume."""

    paused: bool

    messages = {"paused": N_("paused must be true or false.")}


class FinalBan(Body):
    """OQ-6: the final theme a finalist bans (game.ban: one of those left)."""

    theme: DbInt


class FinalBet(Body):
    """OQ-6: the sealed bet (game.bet: at most the team's score)."""

    amount: Annotated[int, Meta(ge=1, description="1 to the team's score")]

    messages = {"amount": N_("The bet must be a whole number from 1 to the team's score.")}


class FinalAnswer(Body):
    """OQ-6: the team's written answer to the final question."""

    text: Annotated[str, Meta(min_length=1, max_length=500)]

    messages = {"text": N_("The answer must be text of 1 to 500 characters.")}


#: joining.join_player and join_room clean a name and refuse an empty or a long one.
PlayerName = Annotated[str, Meta(description=(
    f"1 to {joining.MAX_PLAYER_NAME} characters, spaces around it dropped"))]


class PlayerJoin(Body):
    """OQ-1: a player joins the team of the token; ``previous``: the player token this
    phone held (a banned player's is refused, OQ-8)."""

    name: PlayerName
    previous: str | None = None


class RoomJoin(Body):
    """OQ-1, the phone's join form: the team's name and the player's; ``invite``: the
    team's invitation, needed to join a team that exists already."""

    team: Annotated[str, Meta(description=(
        "At most MAX_TEAM_NAME_LENGTH characters (60 unless the instance sets another)"))]
    player: PlayerName
    invite: Annotated[str | None, Meta(description=(
        "the team's invitation; needed to join a team that exists already"))] = None
    previous: str | None = None


class CaptainPass(Body):
    """OQ-1: the player the captain hands the captaincy to."""

    player: str


class HostCaptainPass(Body):
    """OQ-1: the team and the player the host hands its captaincy to."""

    team: str
    player: str


@bp.post("/host/events/<code>/oq/scores")
def oq_edit(code: str):
    """OQ-5: the host edits a team's score by hand."""
    event = _host(code, play=False)
    body = body_as(ScoreEdit)
    total = committed(game.edit_score, event, body.team, body.points, "host:api")
    return jsonify({"team": body.team, "points": total})


@bp.post("/events/<code>/oq/final/ban")
def oq_ban(code: str):
    """OQ-6: ban a final theme, in turn."""
    event, team = _captain(code)
    left = committed(game.ban, event, team, body_as(FinalBan).theme)
    return jsonify({"remaining": [q.number for q in left]})


@bp.post("/events/<code>/oq/final/bet")
def oq_bet(code: str):
    """OQ-6: the sealed bet, 1 to the team's score."""
    event, team = _captain(code)
    row = committed(game.bet, event, team, body_as(FinalBet).amount)
    return jsonify({"amount": row.amount}), 201


@bp.post("/events/<code>/oq/final/answer")
def oq_final_answer(code: str):
    """OQ-6: the team's written answer to the final question."""
    event, team = _player(code)
    committed(game.final_answer, event, team, body_as(FinalAnswer).text)
    return jsonify({"received": True}), 201


@bp.post("/host/events/<code>/oq/final/judge")
def oq_final_judge(code: str):
    """OQ-6: the host judges the final answers one by one (±bet)."""
    event = _host(code)
    body = body_as(FinalJudgement)
    gained = committed(game.judge_final, event, body.team, body.accepted, "host:api")
    return jsonify({"team": body.team, "points": gained})


@bp.post("/events/<code>/oq/players")
def oq_join_player(code: str):
    """OQ-1: a player joins the team of the token; the first is its captain."""
    event, team, _ = players.who(code, bearer_token())
    body = body_as(PlayerJoin)
    player, token = committed(joining.join_player, _own(event), team, body.name,
                              presses.now_ms(), body.previous,
                              joining.address_key(get_remote_address()))
    return jsonify({"team": team.name, "player": player.name, "captain": player.captain,
                    "token": token}), 201


@bp.post("/events/<code>/oq/join")
def oq_join(code: str):
    """OQ-1, the phone's join form: a team's name and the player's; a new team is made
    with them as its captain, an existing one of fewer than 3 takes them in with its
    invitation."""
    event = _own(event_by_code(code))
    body = body_as(RoomJoin)
    team, player, token = committed(joining.join_room, event, body.team, body.player,
                                    body.previous, presses.now_ms(), body.invite,
                                    joining.address_key(get_remote_address()))
    return jsonify({"team": team.name, "player": player.name, "captain": player.captain,
                    "token": token, "invite": joining.invitation(team)}), 201


@bp.get("/events/<code>/oq/invite")
def oq_invite(code: str):
    """OQ-1: the team's invitation for a player's phone to show: the link that opens the
    phone page with it filled in (in the fragment, which never reaches the server's
    logs) and its QR code, drawn here (nothing is fetched from outside)."""
    event, team, _ = players.acting(code, bearer_token())
    _own(event)
    invite = joining.invitation(team)
    link = url_for("team.phone", code=event.code, _external=True) + "#" + urlencode(
        {"team": team.name, "invite": invite}, quote_via=quote)
    return jsonify({"team": team.name, "invite": invite, "url": link,
                    "qr": str(qr_svg(link, scale=5))})


@bp.get("/events/<code>/oq/me")
def oq_me(code: str):
    """OQ-1: whose phone this is: the player of the token, their team and its captain."""
    event, team, player = players.who(code, bearer_token())
    _own(event)
    return jsonify(players.me(team, player))


@bp.post("/events/<code>/oq/captain")
def oq_pass_captaincy(code: str):
    """OQ-1: the captain hands the captaincy to another player of the team."""
    event, team, player = players.acting(code, bearer_token())
    target = committed(players.transfer, _own(event), team, player,
                       body_as(CaptainPass).player, presses.now_ms())
    return jsonify({"team": team.name, "captain": target.name})


@bp.post("/host/events/<code>/oq/captain")
def oq_host_captaincy(code: str):
    """OQ-1: the host hands a team's captaincy to another of its players."""
    event = _own(api_host(code))
    body = body_as(HostCaptainPass)
    target = committed(players.host_transfer, event, body.team, body.player, presses.now_ms())
    return jsonify({"team": body.team, "captain": target.name})


@bp.post("/host/events/<code>/oq/remove")
def oq_remove(code: str):
    """OQ-8: the host kicks (or bans) a team or a player."""
    event = _own(api_host(code))
    body = body_as(Removal)
    return jsonify(committed(bans.remove, event, body.kind, body.team, body.player,
                             body.ban, presses.now_ms()))


@bp.post("/host/events/<code>/oq/speed")
def oq_speed(code: str):
    """OQ-7: slow ×1.5, normal ×1, fast ×0.5 of every timer."""
    speed = committed(control.set_speed, _own(api_host(code)), body_as(Speed).speed,
                      presses.now_ms())
    return jsonify({"speed": str(speed)})


@bp.post("/host/events/<code>/oq/pause")
def oq_pause(code: str):
    """OQ-8: pause (timers stand still; an hour per game) or resume."""
    return jsonify(committed(control.set_paused, _own(api_host(code)),
                             body_as(Pause).paused, presses.now_ms()))


def op(summary: str, who: str, model: type[Body] | None, answer: type[Reply], ok: str = "200",
       params: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One POST of OpenQuiz's routes for the OpenAPI document (a team's or the host's):
    its body the Body class the route reads (answerdesk/bodies.py), None: it reads none;
    ``answer``: its reply (replies.py)."""
    post: dict[str, Any] = {
        "summary": summary,
        "security": [] if who == "none" else [
            {"teamToken" if who == "team" else "hostPassword": []}],
        "parameters": params or [CODE],
        "responses": {ok: replied("Done", answer), "400": refused("Invalid body"),
                      "401": refused("No or wrong token or password"),
                      "403": refused("Not the team's captain, or banned by the host"),
                      "404": refused("No such event, question or team"),
                      "409": refused("Refused: see the message")}}
    if model is not None:
        post["requestBody"] = request_body(model)
    return {"post": post}


def _join_op() -> dict[str, Any]:
    """The join form's route for the OpenAPI document: no token; the invitation to join
    an existing team; the refusal without it (OQ-1)."""
    joined = op(
        "OQ-1, the phone's join form (no token): a new team with the player as its captain, "
        "or an existing team of fewer than 3 with its invitation (invite: the code its "
        "players' phones show, or the team token); previous: the player token this phone "
        "held (a banned player's is refused)", "none", RoomJoin, OqRoomJoined, ok="201")
    responses = joined["post"]["responses"]
    responses["201"] = replied("The player's own token, and the team's invitation",
                               OqRoomJoined)
    responses["403"] = refused("invitation_required: the team exists and the invitation is "
                              "missing or wrong; banned: banned by the host")
    return joined


def openapi_paths() -> dict[str, Any]:
    """The routes above for the OpenAPI document."""
    return {
        "/api/events/{code}/oq/pick": op("OQ-2: the team with the turn picks a question",
                                         "team", QuestionRef, answer=OqRef),
        "/api/host/events/{code}/oq/rounds/{round}/questions/{question}/judge": op(
            "OQ-4/OQ-5: accept (+value ×factor), reject or timeout (−value; the question "
            "returns to the others)", "host", Judgement, params=[CODE, ROUND, QUESTION],
            answer=OqCall),
        "/api/host/events/{code}/oq/rounds/{round}/questions/{question}/reading": op(
            "OQ-4 reading mode: presses in the first seconds get a 2 s penalty", "host",
            Reading, params=[CODE, ROUND, QUESTION], answer=OqReading),
        "/api/host/events/{code}/oq/scores": op("OQ-5: edit a team's score by hand", "host",
                                                ScoreEdit, answer=OqScoreSet),
        "/api/events/{code}/oq/final/ban": op("OQ-6: ban a final theme in turn", "team",
                                              FinalBan, answer=OqBanned),
        "/api/events/{code}/oq/final/bet": op("OQ-6: the sealed bet (1 to the score)", "team",
                                              FinalBet, ok="201", answer=OqBet),
        "/api/events/{code}/oq/final/answer": op("OQ-6: the written final answer", "team",
                                                 FinalAnswer, ok="201", answer=OqReceived),
        "/api/events/{code}/oq/players": op(
            "OQ-1: a player joins the team of the token and gets a token of their own; the "
            "first is the captain", "team", PlayerJoin, ok="201", answer=OqPlayerJoined),
        "/api/events/{code}/oq/join": _join_op(),
        "/api/events/{code}/oq/invite": {"get": {
            "summary": "OQ-1: the team's invitation for a player's phone to show: the code, "
                       "the phone page's link with it in the fragment, its QR code (SVG)",
            "security": [{"teamToken": []}], "parameters": [CODE],
            "responses": {"200": replied("The invitation", OqInvite),
                "401": refused("No or wrong token"),
                "403": refused("The team token alone (join as a player), or banned")}}},
        "/api/events/{code}/oq/me": {"get": {
            "summary": "OQ-1: the player of the token (null for the team token), the team, "
                       "its players and captain", "security": [{"teamToken": []}],
            "parameters": [CODE],
            "responses": {"200": replied("The phone's player", OqMe),
                          "401": refused("No or wrong token"),
                          "403": refused("Banned by the host")}}},
        "/api/events/{code}/oq/captain": op("OQ-1: the captain hands on the captaincy", "team",
                                            CaptainPass, answer=OqCaptain),
        "/api/host/events/{code}/oq/captain": op("OQ-1: the host hands on a team's captaincy",
                                                 "host", HostCaptainPass, answer=OqCaptain),
        "/api/host/events/{code}/oq/remove": op(
            "OQ-8: kick a team or a player (ban: they cannot join again)", "host",
            Removal, answer=OqRemoved),
        "/api/host/events/{code}/oq/speed": op(
            "OQ-7: slow ×1.5, normal ×1, fast ×0.5 of every timer", "host",
            Speed, answer=OqSpeed),
        "/api/host/events/{code}/oq/pause": op(
            "OQ-8: pause (timers stand still; one hour per game) or resume", "host",
            Pause, answer=OqClock),
        "/api/host/events/{code}/oq/final/judge": op("OQ-6: judge one final answer (±bet)",
                                                     "host", FinalJudgement, answer=OqScoreSet),
    }
