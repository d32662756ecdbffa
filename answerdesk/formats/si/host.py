"""The host's Своя игра desk: open a question (through core's start, as the API does),
ВСЁ, decide, publish; hear and decide protests (SI-3); put players in or out of
competition (SI-1.2) and warn them (SI-1.3); name theme authors (SI-0).

Everything the page shows is read from the database on each load, so a reload
loses nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Response, redirect, render_template, request, url_for

from ...access import host_required
from ...core import clock, formats
from ...errors import DeskError
from ...host.blueprint import bp
from ...models import Event
from ...web import committed
from . import game


def _back(anchor: str = "") -> Response:
    target = url_for("host.si_desk", code=request.view_args["code"])
    return redirect(target + (f"#{anchor}" if anchor else ""))


def _own(event: Event) -> Event:
    return formats.require(event, "si", "Своя игра")


def _number(name: str) -> int:
    value = request.form.get(name, "").strip()
    if not value.isdigit():
        raise DeskError("%(field)s must be a whole number", field=name)
    return int(value)


def _board(event: Event) -> list[dict[str, Any]]:
    """Each round's themes: their name, their author and their questions with value and
    whether they were played."""
    authors = game.authors(event)
    return [{"number": rnd.number, "themes": [
        {**theme, "author": authors.get((rnd.number, theme["number"]))}
        for theme in game.board(event, rnd.number)]} for rnd in event.rounds]


@bp.get("/si")
@host_required
def si_desk(event: Event):
    _own(event)
    latest = game.current_question(event)
    return render_template(
        "host/si.html", event=event, board=_board(event), current=latest,
        scores=game.scores(event), warnings=game.warnings(event),
        protests=game.protests(event), marks=("correct", "wrong", "none"))


@bp.post("/si/open")
@host_required
def si_open(event: Event):
    """The open button without script: the same core start as the API's."""
    _own(event)
    clock.start_question(event, _number("round"), _number("question"))
    return _back("current")


@bp.post("/si/close")
@host_required
def si_close_desk(event: Event):
    committed(game.close, _own(event), _number("round"), _number("question"), "host")
    return _back("current")


@bp.post("/si/decide")
@host_required
def si_decide_desk(event: Event):
    committed(game.decide, _own(event), _number("round"), _number("question"),
              request.form.get("player"), request.form.get("mark"), "host")
    return _back("current")


@bp.post("/si/publish")
@host_required
def si_publish_desk(event: Event):
    committed(game.publish, _own(event), _number("round"), _number("question"), "host")
    return _back("current")


@bp.post("/si/protests/<int:protest_id>/hear")
@host_required
def si_hear_desk(event: Event, protest_id: int):
    committed(game.hear, _own(event), protest_id, "host")
    return _back("protests")


@bp.post("/si/protests/<int:protest_id>/decide")
@host_required
def si_decide_protest_desk(event: Event, protest_id: int):
    upheld = request.form.get("upheld") == "yes"
    changes = ([{"player": request.form.get("player"), "mark": request.form.get("mark")}]
               if upheld else [])
    committed(game.decide_protest, _own(event), protest_id, upheld, changes,
              request.form.get("warn") == "yes", "host")
    return _back("protests")


@bp.post("/si/competition")
@host_required
def si_competition_desk(event: Event):
    committed(game.set_competition, _own(event), request.form.get("player"),
              request.form.get("in_competition") == "yes", "host")
    return _back("players")


@bp.post("/si/warn")
@host_required
def si_warn_desk(event: Event):
    committed(game.warn, _own(event), request.form.get("player"), "host")
    return _back("players")


@bp.post("/si/author")
@host_required
def si_author_desk(event: Event):
    committed(game.set_author, _own(event), _number("round"), _number("theme"),
              request.form.get("author") or None, "host")
    return _back(f"round-{request.form.get('round', '')}")
