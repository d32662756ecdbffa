"""Своя игра over the JSON API: a player's answer, claim and protest, the host's ВСЁ,
decisions, publication, warnings, protests, players in or out of competition and
theme authors (SI-0, SI-1.2, SI-1.3, SI-2.2, SI-2.2b, SI-2.4, SI-3). A question
opens through core's start (``POST /api/host/events/<code>/rounds/<r>/questions/<q>/start``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask import jsonify
from msgspec import Meta

from ...access import api_host
from ...api.blueprint import bp
from ...api.replies import Reply
from ...api.schema import CODE, QUESTION, ROUND, refused, replied
from ...bodies import N_, Body, request_body
from ...core import formats
from ...errors import DeskError
from ...web import DbInt, QuestionRef, api_team, body_as, committed
from . import game, players, protests, rules, themes
from .replies import (
    SiClaimSent,
    SiClosed,
    SiCompetitionSet,
    SiDecided,
    SiLists,
    SiProtestDecided,
    SiProtestRow,
    SiReceived,
    SiThemeSet,
    SiWarned,
)

_Q = "/host/events/<code>/si/rounds/<int:round_number>/questions/<int:question_number>"


def _own(event: Any) -> Any:
    return formats.require(event, "si", "Своя игра")


def _player(code: str) -> tuple[Any, Any]:
    event, team = api_team(code)
    return _own(event), team


def _host(code: str) -> Any:
    return _own(api_host(code))


class SiAnswer(QuestionRef):
    """SI-2.2: a player's private answer to a question (game.answer checks it too, for
    the host's desk)."""

    text: Annotated[str, Meta(min_length=1, max_length=500)]

    messages = {**QuestionRef.messages,
                "text": N_("The answer must be text of 1 to 500 characters.")}


class SiProtest(QuestionRef):
    """SI-3 СТОП: a player's protest of a question's published results."""

    text: Annotated[str, Meta(min_length=1, max_length=1000)]

    messages = {**QuestionRef.messages,
                "text": N_("The protest must be text of 1 to 1000 characters.")}


Mark = Literal["correct", "wrong", "none"]
MARK_REFUSAL = N_("mark must be correct, wrong or none.")


class SiDecision(Body):
    """The host's word on one player's answer (game.decide)."""

    player: str
    mark: Mark

    messages = {"mark": MARK_REFUSAL}


class SiPlayerRef(Body):
    """SI-1.3: the player the host warns (players.warn)."""

    player: str


class SiMarkChange(Body):
    """SI-3: one mark an upheld protest changes."""

    player: str
    mark: Mark


class SiProtestDecision(Body):
    """SI-3: upheld (with the marks it changes) or groundless (a warning if ``warn``);
    protests.decide_protest checks that the two go together."""

    upheld: bool
    changes: list[SiMarkChange] | None = None
    warn: bool = False

    messages = {"upheld": N_("upheld and warn must be true or false."),
                "warn": N_("upheld and warn must be true or false."),
                "changes": N_("changes must be a list of objects with player and mark.")}


class SiCompetition(Body):
    """SI-1.2: a player in or out of competition."""

    player: str
    in_competition: bool

    messages = {"in_competition": N_("in_competition must be true or false.")}


class SiThemeAuthor(Body):
    """SI-0: a theme's author (None or "": nobody)."""

    round: DbInt
    theme: Annotated[int, Meta(ge=1, le=rules.THEMES)]
    author: str | None = None

    messages = {"round": N_("%(field)s must be a whole number.")}

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        if field == "theme":
            return DeskError("theme must be a whole number from 1 to %(most)s.",
                             field=field, most=rules.THEMES)
        return super().refuse(field, body)


@bp.post("/events/<code>/si/answers")
def si_answer(code: str):
    """SI-2.2: one private answer; only the first counts."""
    event, team = _player(code)
    body = body_as(SiAnswer)
    row = committed(game.answer, event, team, body.round, body.question, body.text)
    return jsonify({"received_at": row.received_at.isoformat() + "Z", "late": row.late}), 201


@bp.post("/events/<code>/si/claims")
def si_claim(code: str):
    """SI-2.4 "ПРОПУСТИЛИ": the server's receipt time settles it."""
    event, team = _player(code)
    body = body_as(QuestionRef)
    return jsonify(committed(game.claim, event, team, body.round, body.question))


@bp.post(f"{_Q}/close")
def si_close(code: str, round_number: int, question_number: int):
    """SI-2.2b ВСЁ: the checker proposes for the answers received until now."""
    rows = committed(game.close, _host(code), round_number, question_number, "host:api")
    return jsonify({"answers": [{"player": r.team.name, "text": r.text, "late": r.late,
                                 "proposed": r.proposed, "reason": r.proposed_reason}
                                for r in rows]})


@bp.post(f"{_Q}/decide")
def si_decide(code: str, round_number: int, question_number: int):
    """The host's word on one answer (correct, wrong, none)."""
    event = _host(code)
    body = body_as(SiDecision)
    row = committed(game.decide, event, round_number, question_number, body.player, body.mark,
                    "host:api")
    return jsonify({"player": row.team.name, "decision": row.decision})


@bp.post(f"{_Q}/publish")
def si_publish(code: str, round_number: int, question_number: int):
    """SI-2.4: the lists "+3 Вася, Ира / −3 Женя" to the projector and the phones."""
    lists = committed(game.publish, _host(code), round_number, question_number,
                       "host:api")
    return jsonify({"lists": lists.lines()})


@bp.post("/host/events/<code>/si/warnings")
def si_warn(code: str):
    """SI-1.3: a warning; the second removes the player and annuls the points."""
    event = _host(code)
    row = committed(players.warn, event, body_as(SiPlayerRef).player, "host:api")
    return jsonify({"warnings": row.warnings,
                    "removed": row.warnings >= rules.WARNINGS_TO_REMOVE})


@bp.post("/events/<code>/si/protests")
def si_protest(code: str):
    """SI-3 СТОП: a player in competition protests published results."""
    event, team = _player(code)
    body = body_as(SiProtest)
    row = committed(protests.protest, event, team, body.round, body.question, body.text)
    return jsonify(_protest_json(row)), 201


def _protest_json(row: Any) -> dict[str, Any]:
    return {"id": row.id, "player": row.team.name, "state": row.state, "warned": row.warned}


@bp.post("/host/events/<code>/si/protests/<int:protest_id>/hear")
def si_hear(code: str, protest_id: int):
    """SI-3 СТОЮ: the host acknowledges; no question starts until it is decided."""
    return jsonify(_protest_json(committed(protests.hear, _host(code), protest_id, "host:api")))


@bp.post("/host/events/<code>/si/protests/<int:protest_id>/decide")
def si_decide_protest(code: str, protest_id: int):
    """SI-3: upheld (marks changed, results republished) or groundless (a warning)."""
    event = _host(code)
    body = body_as(SiProtestDecision)
    changes = [{"player": c.player, "mark": c.mark} for c in body.changes or []]
    return jsonify(committed(protests.decide_protest, event, protest_id, body.upheld, changes,
                             body.warn, "host:api"))


@bp.post("/host/events/<code>/si/competition")
def si_competition(code: str):
    """SI-1.2: put a player in or out of competition."""
    event = _host(code)
    body = body_as(SiCompetition)
    row = committed(players.set_competition, event, body.player, body.in_competition, "host:api")
    return jsonify({"player": body.player, "in_competition": row.in_competition})


@bp.post("/host/events/<code>/si/themes")
def si_theme(code: str):
    """SI-0: name a theme's author (or nobody)."""
    event = _host(code)
    body = body_as(SiThemeAuthor)
    row = committed(themes.set_author, event, body.round, body.theme, body.author, "host:api")
    return jsonify({"round": body.round, "theme": row.theme,
                    "author": row.author.name if row.author else None})


def openapi_paths() -> dict[str, Any]:
    """The routes above for the OpenAPI document."""
    def host(summary: str, ok: type[Reply], request: dict[str, Any] | None = None,
             ) -> dict[str, Any]:
        op: dict[str, Any] = {
            "summary": summary, "security": [{"hostPassword": []}],
            "parameters": [CODE, ROUND, QUESTION],
            "responses": {"200": replied("Done", ok), "400": refused("Invalid body"),
                          "401": refused("No or wrong host password"),
                          "404": refused("No such event, question or player"),
                          "409": refused("Not in this state")}}
        if request:
            op["requestBody"] = request
        return {"post": op}

    player_ops = {"400": refused("Invalid body"), "401": refused("No or wrong player token"),
                  "404": refused("No such event or question"),
                  "409": refused("Refused: see the message")}
    host_ops = {"400": refused("Invalid body"), "401": refused("No or wrong host password"),
                "404": refused("No such event, round, protest or player"),
                "409": refused("Not in this state")}
    protest_id = {"name": "protest", "in": "path", "required": True,
                "schema": {"type": "integer", "minimum": 0}}
    q = "/api/host/events/{code}/si/rounds/{round}/questions/{question}"
    return {
        "/api/events/{code}/si/answers": {"post": {
            "summary": "SI-2.2: send one private answer; only the first counts; after ВСЁ "
                       "it is received as late", "security": [{"teamToken": []}],
            "parameters": [CODE],
            "requestBody": request_body(SiAnswer),
            "responses": {"201": replied("Received", SiReceived), **player_ops}}},
        "/api/events/{code}/si/claims": {"post": {
            "summary": "SI-2.4 ПРОПУСТИЛИ: claim an answer missing from the lists",
            "security": [{"teamToken": []}], "parameters": [CODE],
            "requestBody": request_body(QuestionRef),
            "responses": {"200": replied("Sent to the host with the server's receipt time against "
                                         "the ВСЁ; the host decides", SiClaimSent),
                          **player_ops}}},
        f"{q}/close": host("SI-2.2b ВСЁ: close the question; the checker proposes",
                           SiClosed),
        f"{q}/decide": host("The host decides one answer", SiDecided,
                            request_body(SiDecision)),
        f"{q}/publish": host("SI-2.4: publish the lists", SiLists),
        "/api/events/{code}/si/protests": {"post": {
            "summary": "SI-3 СТОП: protest a question's published results (players in "
                       "competition, until the next theme starts)",
            "security": [{"teamToken": []}], "parameters": [CODE],
            "requestBody": request_body(SiProtest),
            "responses": {"201": replied("Filed", SiProtestRow), **player_ops}}},
        "/api/host/events/{code}/si/protests/{protest}/hear": {"post": {
            "summary": "SI-3 СТОЮ: acknowledge a protest; no question starts until decided",
            "security": [{"hostPassword": []}], "parameters": [CODE, protest_id],
            "responses": {"200": replied("Heard", SiProtestRow), **host_ops}}},
        "/api/host/events/{code}/si/protests/{protest}/decide": {"post": {
            "summary": "SI-3: uphold (set marks, republish) or reject (a warning if asked; "
                       "a repeated groundless protest always earns one)",
            "security": [{"hostPassword": []}], "parameters": [CODE, protest_id],
            "requestBody": request_body(SiProtestDecision),
            "responses": {"200": replied("Decided", SiProtestDecided), **host_ops}}},
        "/api/host/events/{code}/si/competition": {"post": {
            "summary": "SI-1.2: put a player in or out of competition (out: plays, not "
                       "ranked)", "security": [{"hostPassword": []}], "parameters": [CODE],
            "requestBody": request_body(SiCompetition),
            "responses": {"200": replied("Set", SiCompetitionSet), **host_ops}}},
        "/api/host/events/{code}/si/themes": {"post": {
            "summary": "SI-0: name a theme's author (null: nobody); the author plays the "
                       "theme only by answering its most expensive question",
            "security": [{"hostPassword": []}], "parameters": [CODE],
            "requestBody": request_body(SiThemeAuthor),
            "responses": {"200": replied("Set", SiThemeSet), **host_ops}}},
        "/api/host/events/{code}/si/warnings": {"post": {
            "summary": "SI-1.3: warn a player; the second warning removes and annuls",
            "security": [{"hostPassword": []}], "parameters": [CODE],
            "requestBody": request_body(SiPlayerRef),
            "responses": {"200": replied("The player's warnings", SiWarned),
                          "400": refused("Invalid body"),
                          "401": refused("No or wrong host password"),
                          "404": refused("No such event or player")}}},
    }
