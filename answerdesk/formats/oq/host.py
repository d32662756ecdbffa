"""The host's OpenQuiz room: speed, pause, the teams with their players and captains,
kick and ban (OQ-1, OQ-7, OQ-8). Thin views over control.py, players.py, joining.py
and bans.py; each form posts and comes back here."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...access import host_required
from ...core import formats
from ...core.text import team_name_key
from ...host.blueprint import bp
from ...models import Event
from ...web import committed
from ..buzzer import presses
from . import bans, control, joining, players


def _back() -> BaseResponse:
    """Back to the page the form was on: the room, or the play page (speed, pause)."""
    page = "host.oq_play" if request.form.get("back") == "play" else "host.oq_room"
    return redirect(url_for(page, code=(request.view_args or {})["code"]))


@bp.get("/oq")
@host_required
def oq_room(event: Event):
    formats.require(event, "oq", "OpenQuiz")
    now = presses.now_ms()
    teams = players.room_state(event)
    joined = {team_name_key(t["team"]) for t in teams}
    return render_template("host/oq.html", event=event, teams=teams,
                           clock=control.clock_state(event, now), now_ms=now,
                           banned=bans.banned_list(event), reserved=joining.reserved(event),
                           joined=[team_name_key(name) in joined
                                   for name in joining.reserved(event)])


@bp.post("/oq/reserve")
@host_required
def oq_room_reserve(event: Event):
    """OQ-1, issue 31: the teams the game lets in."""
    committed(joining.set_reserved, formats.require(event, "oq", "OpenQuiz"),
              request.form.get("teams", ""), "host:desk")
    return _back()


@bp.post("/oq/reserve/add")
@host_required
def oq_room_reserve_add(event: Event):
    """OQ-1, issue 31: one more team the game lets in."""
    committed(joining.add_reserved, formats.require(event, "oq", "OpenQuiz"),
              request.form.get("team"), "host:desk")
    return _back()


@bp.post("/oq/reserve/remove")
@host_required
def oq_room_reserve_remove(event: Event):
    """OQ-1: one team off the list."""
    committed(joining.remove_reserved, formats.require(event, "oq", "OpenQuiz"),
              request.form.get("team"), "host:desk")
    return _back()


@bp.post("/oq/speed")
@host_required
def oq_room_speed(event: Event):
    committed(control.set_speed, formats.require(event, "oq", "OpenQuiz"),
              request.form.get("speed"), presses.now_ms(), "host:desk")
    return _back()


@bp.post("/oq/pause")
@host_required
def oq_room_pause(event: Event):
    committed(control.set_paused, formats.require(event, "oq", "OpenQuiz"),
              request.form.get("paused") == "1", presses.now_ms(), "host:desk")
    return _back()


@bp.post("/oq/captain")
@host_required
def oq_room_captain(event: Event):
    committed(players.host_transfer, formats.require(event, "oq", "OpenQuiz"),
              request.form.get("team"), request.form.get("player"), presses.now_ms())
    return _back()


@bp.post("/oq/remove")
@host_required
def oq_room_remove(event: Event):
    committed(bans.remove, formats.require(event, "oq", "OpenQuiz"),
              request.form.get("kind"), request.form.get("team"),
              request.form.get("player") or None, request.form.get("ban") == "1",
              presses.now_ms(), "host:desk")
    return _back()


@bp.post("/oq/unban")
@host_required
def oq_room_unban(event: Event):
    """OQ-8: lift a ban; the team or player may join again."""
    index = request.form.get("index", "")
    committed(bans.unban, formats.require(event, "oq", "OpenQuiz"),
              int(index) if index.isdigit() else index)
    return _back()
