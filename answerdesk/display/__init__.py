"""The projector screen: no login, follows the host's desk, shows nothing secret."""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, url_for

from .. import live
from ..core.charts import standings_series
from ..core.events import event_by_code
from ..core.formats import of
from ..core.projector import (
    question_media,
    reveal_page,
    screen_question,
    screen_round,
    screen_state,
    standings_with_moves,
)
from ..core.states import RoundState
from ..core.widgets import option_texts
from ..database.readonly import reads_only
from ..extensions import db
from ..models import Event, Round

bp = Blueprint("display", __name__)


def _screen_context(event: Event) -> dict:
    version = live.screen_version(event.id)  # before what it labels (live.py)
    rounds = db.session.scalars(
        db.select(Round).where(Round.event_id == event.id).order_by(Round.number)
    ).all()
    current = next((r for r in rounds if r.state == RoundState.OPEN), None)
    last_locked = max(
        (r for r in rounds if r.state in (RoundState.LOCKED, RoundState.REVEALED)),
        key=lambda r: r.locked_at or r.opened_at, default=None,
    )
    game = of(event)
    rows = game.screen_standings(event)  # BG-E3: only what the room has seen
    state = screen_state(event)
    chosen = screen_round(event, state)
    question = screen_question(chosen, state)
    if state.view in ("reveal", "locked") and (chosen is None or chosen.state == RoundState.OPEN):
        chosen = None
    view = state.view if (chosen is not None or state.view == "standings") else "auto"
    return {
        "event": event,
        # The format's moment (a question on its clock, a shoot-out) holds the automatic
        # view alone: one thing at a time.
        "stage": view == "auto" and game.screen_stage(event),
        "state": state,
        "view": view,
        "chosen": chosen,
        "question": question,
        "media": question_media(question),
        "revealed": reveal_page(chosen, state),
        "options": option_texts(question) if question is not None else {},
        "option_texts": option_texts,  # BG-R1: a revealed choice reads "Б) Марица"
        "command": state.media,
        "current": current,
        "last_locked": last_locked,
        "standings": standings_with_moves(event, rows),
        "chart": standings_series(rows, game.chart_round, game.chart_caption),
        "join_url": url_for("team.join", code=event.code, _external=True),
        "version": version,
    }


@bp.get("/e/<code>/screen")
@reads_only
def screen(code: str):
    event = event_by_code(code)
    own = of(event).screen_page
    if own:  # a game with a projector page of its own (OpenQuiz's board and buzzer)
        return redirect(url_for(own, code=event.code))
    return render_template("display/screen.html", **_screen_context(event))


@bp.get("/e/<code>/screen/live")
@reads_only
def screen_live(code: str):
    return render_template("display/_live.html", **_screen_context(event_by_code(code)))


@bp.get("/e/<code>/screen/version")
@reads_only
def screen_version(code: str):
    """What the projector polls: the fragment is fetched only when this moves."""
    event = event_by_code(code)
    return jsonify({"version": live.screen_version(event.id)})
