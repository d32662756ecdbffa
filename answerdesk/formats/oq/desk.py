"""The host's OpenQuiz play page (OQ-3): the question in play by its type (the buzzer's
order, the auction, the choices, who answers alone), the host's calls on it, and each
board question's type, set before it is played."""

from __future__ import annotations

from typing import Any

from flask import Response, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from ...access import host_required
from ...core import clock, formats, rounds
from ...core.spreadsheets import FILE_TYPES, place_label, results_xlsx, to_csv
from ...errors import Conflict, DeskError, NotFound
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


def _back() -> BaseResponse:
    return redirect(url_for("host.oq_play", code=(request.view_args or {})["code"]))


@bp.get("/oq/play")
@host_required
def oq_play(event: Event):
    _own(event)
    armed = game.latest_arming(event)
    board = [(rnd, [(q, game.kind_of(q), game.value_of(rnd, q), game._gate(q) is not None)
                    for q in rnd.questions]) for rnd in event.rounds if rnd.kind != FINAL]
    # The page's copy of the state (oq_desk.js reloads when /state differs from it) is
    # read first, and the play and scores are drawn from that same read: drawn from a
    # read of their own, a stake committed between the two (PostgreSQL reads each
    # statement afresh) showed "—" under a copy that already held it, and the page
    # never reloaded. Whatever else is read later is as new or newer.
    state = formats.of(event).public_state(event)
    now = presses.now_ms()
    found = typeplay.current(event)
    return render_template("oq/play.html", event=event, play=state["oq"]["play"],
                           oq=state["oq"], board=board,
                           question=found[1] if found else None,
                           clock=control.clock_state(event, now),
                           final=game.final_desk(event), state=state,
                           buzzer=presses.buzz_state(armed, now) if armed else None)


@bp.post("/oq/play/start")
@host_required
def oq_play_start(event: Event):
    """OQ-2/OQ-4: start the picked question (its text to everyone, the buzzer armed);
    an auction closes first, a secret question is handed first (OQ-3)."""
    found = typeplay.current(_playing(event))
    if found is None or game._gate(found[1]) is not None:
        raise Conflict("No question is picked: the captain with the turn picks one first.")
    rnd, question = found
    kind, play = game.kind_of(question), game._play(question)
    if (kind.bidding or kind.handed) and (play is None or play.answering_team_id is None):
        raise Conflict("Settle the auction or the secret question's hand-over first.")
    clock.start_question(event, rnd.number, question.number, actor="host")
    return _back()


@bp.post("/oq/play/reading")
@host_required
def oq_play_reading(event: Event):
    """OQ-4 reading mode: presses in the first seconds count 2 s later."""
    seconds = request.form.get("seconds", "")
    committed(game.reading, _playing(event), *_where(),
              int(seconds) if seconds.isdigit() else seconds, "host")
    return _back()


@bp.post("/oq/play/score")
@host_required
def oq_play_score(event: Event):
    """OQ-5: the host changes a team's score by hand, with the reason (audit log)."""
    points = request.form.get("points", "").strip()
    number = int(points) if points.lstrip("+-").isdigit() else points
    committed(game.edit_score, _own(event), request.form.get("team"), number, "host",
              request.form.get("reason"))
    return _back()


@bp.post("/oq/play/final/open")
@host_required
def oq_play_final_open(event: Event):
    """OQ-6: the host moves the game to the final (bans, then bets) from the board."""
    final = next((r for r in _playing(event).rounds if r.kind == FINAL), None)
    if final is None:
        raise Conflict("This game has no final.")
    rounds.open_round(event, final.number, actor="host")
    return _back()


@bp.post("/oq/play/final")
@host_required
def oq_play_final(event: Event):
    """OQ-6: the host judges one team's written final answer (±bet)."""
    committed(game.judge_final, _playing(event), request.form.get("team"),
              request.form.get("accepted") == "1", "host")
    return _back()


@bp.post("/oq/play/type")
@host_required
def oq_play_type(event: Event):
    """OQ-3: a question's type; a choice question the pack gave no options takes the
    host's, typed beside it."""
    typed = request.form.get("options", "").strip()
    name = request.form.get("type")

    def set_type(event: Event, round_number: int, number: int) -> None:
        if typed and name in types.TYPES and types.TYPES[name].choosing:
            typeplay.set_options(event, round_number, number, typed, "host")
        typeplay.set_type(event, round_number, number, name, "host")

    committed(set_type, _own(event), *_where())
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


@bp.get("/oq/results.<kind>")
@host_required
def oq_results(event: Event, kind: str):
    """OQ-5: the night's places and points as a file, headers in the reader's language."""
    if kind not in FILE_TYPES:
        raise NotFound("Export the results as csv or xlsx")
    rows = game.standings(_own(event))
    numbers = sorted({n for r in rows for n in r.by_round})
    header = [gettext("Place"), gettext("Team"), gettext("Points")] + [
        gettext("By hand") if n == 0 else gettext("Round %(round)s", round=n) for n in numbers]
    table = [[place_label(r.place, r.shared), r.name, r.points]
             + [r.by_round.get(n, 0) for n in numbers] for r in rows]
    data = to_csv(header, table) if kind == "csv" else results_xlsx(event, header, table)
    return Response(data, mimetype=FILE_TYPES[kind], headers={
        "Content-Disposition": f'attachment; filename="openquiz-{event.code}.{kind}"'})
