"""The host's OpenQuiz play page (OQ-3): the question in play by its type (the buzzer's
order, the auction, the choices, who answers alone), the host's calls on it, and each
board question's type, set before it is played."""

from __future__ import annotations

from typing import Any

from flask import Response, redirect, render_template, request, url_for

from ...access import host_required
from ...core import formats, rounds
from ...errors import DeskError
from ...host.blueprint import bp
from ...models import Event
from ...web import committed
from ..buzzer import presses
from . import control, game, typeplay, types
from .programme import FINAL


@bp.app_context_processor
def _oq_globals() -> dict[str, Any]:
    """The type table for the phone's and the host's pages (labels in the catalogues)."""
    return {"oq_types": types.TYPES}


def _own(event: Event) -> Event:
    return formats.require(event, "oq", "OpenQuiz")


def _playing(event: Event) -> Event:
    """The host's calls are play: refused in a stopped or paused game (OQ-8), as on the API."""
    control.guard(_own(event), presses.now_ms())
    return event


def _where() -> tuple[int, int]:
    values = [request.form.get(name, "").strip() for name in ("round", "question")]
    if not all(v.isdigit() for v in values):
        raise DeskError("round and question must be whole numbers.")
    return int(values[0]), int(values[1])


def _back() -> Response:
    return redirect(url_for("host.oq_play", code=request.view_args["code"]))


@bp.get("/oq/play")
@host_required
def oq_play(event: Event):
    _own(event)
    armed = game.latest_arming(event)
    board = [(rnd, [(q, game.kind_of(q), game.value_of(rnd, q), game._gate(q) is not None)
                    for q in rnd.questions]) for rnd in event.rounds if rnd.kind != FINAL]
    return render_template("oq/play.html", event=event, play=typeplay.public_play(event),
                           oq=game.public(event), board=board,
                           buzzer=presses.buzz_state(armed, presses.now_ms()) if armed else None)


@bp.post("/oq/play/type")
@host_required
def oq_play_type(event: Event):
    committed(typeplay.set_type, _own(event), *_where(), request.form.get("type"), "host")
    return _back()


@bp.post("/oq/play/judge")
@host_required
def oq_play_judge(event: Event):
    factor = {"1": 1.0, "2": 2.0, "0.5": 0.5}.get(request.form.get("factor", "1"), "?")
    committed(typeplay.judge, _playing(event), *_where(), request.form.get("outcome"), factor,
              "host")
    return _back()


@bp.post("/oq/play/close")
@host_required
def oq_play_close(event: Event):
    """Close the auction or the choices for all, whichever the question is."""
    rnd_number, number = _where()
    _, question = rounds.question_of(_playing(event), rnd_number, number)
    close = typeplay.close_auction if game.kind_of(question).bidding else typeplay.close_for_all
    committed(close, event, rnd_number, number, "host")
    return _back()
