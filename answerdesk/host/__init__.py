"""The host's pages: log in, open and close rounds, judge the review queue."""

from __future__ import annotations

from flask import current_app, redirect, render_template, request, url_for

from .. import live
from ..access import host_required, log_in, log_out, refuse_over_credential_limit
from ..core import formats, projector, review, rounds
from ..core.answer_counts import answered_teams, question_counts, who_has_answered
from ..core.charts import event_standings_chart
from ..core.events import event_by_code
from ..database.readonly import reads_only
from ..errors import DeskError
from ..models import Event
from ..web import safe_next
from .blueprint import bp

ROUND_ACTIONS = {"open": rounds.open_round, "close": rounds.close_round,
                 "reveal": rounds.reveal_round}


@bp.route("/login", methods=["GET", "POST"])
def login(code: str):
    if request.method == "POST":
        refuse_over_credential_limit()  # before the event's read begins a transaction
    event = event_by_code(code)
    error = None
    if request.method == "POST":
        role = log_in(event, request.form.get("password", ""))
        if role == "host":
            return redirect(safe_next(request.args.get("next"),
                                      url_for("host.dashboard", code=event.code), "/host/"))
        if role == "assistant":
            return redirect(url_for("host.review_queue", code=event.code))
        error = "wrong_password"
    return render_template("host/login.html", event=event, error=error)


@bp.post("/logout")
def logout(code: str):
    event = event_by_code(code)
    log_out(event)
    return redirect(url_for("host.login", code=event.code))


@bp.get("/")
@reads_only
@host_required
def dashboard(event: Event):
    version = live.version(event.id)  # before what it labels (live.py)
    questions = question_counts(event)
    step = rounds.next_step(event)
    return render_template(
        "host/dashboard.html",
        event=event,
        questions=questions,
        answered=who_has_answered(event, questions),
        queue_size=review.queue_size(event),
        chart=event_standings_chart(event),
        step=step,
        items=review.review_queue(event, checker_wait=current_app.config["LIVE_CHECK_WAIT"])[:3],
        screen=projector.screen_state(event),
        version=version, distribution={}, answers=0, back="desk",
        answered_now=_answered_now(event, step),
    )


def _answered_now(event: Event, step: tuple | None) -> tuple[int, int] | None:
    """How many teams have answered at least one question of the desk's round."""
    if step is None:
        return None
    rnd = step[0]
    return answered_teams(rnd), len(event.teams)


@bp.post("/rounds/<int:number>/<action>")
@host_required
def round_action(event: Event, number: int, action: str):
    if action not in ROUND_ACTIONS:
        raise DeskError("Unknown action '%(action)s'", action=action)
    ROUND_ACTIONS[action](event, number, actor="host")
    projector.follow(event, number)
    return redirect(url_for("host.dashboard", code=event.code))


@bp.get("/standings")
@reads_only
@host_required
def standings(event: Event):
    rows = formats.of(event).standings(event)
    return render_template("host/standings.html", event=event, rows=rows)


from . import desk, packs, receipts, settings  # noqa: E402,F401  (register their routes on bp)
