"""The host's pages: log in, open and close rounds, judge the review queue."""

from __future__ import annotations

from flask import current_app, redirect, render_template, request, url_for

from .. import live
from ..access import host_required, log_in, log_out, refuse_over_credential_limit
from ..core import formats, projector, review, rounds
from ..core.answer_counts import question_counts, who_has_answered
from ..core.charts import desk_standings_chart
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


#: Review items the desk for the night shows (the review page has them all).
DESK_ITEMS = 3


@bp.get("/")
@reads_only
@host_required
def dashboard(event: Event):
    version = live.version(event.id)  # before what it labels (live.py)
    questions = question_counts(event)
    step = rounds.next_step(event)
    answered = who_has_answered(event, questions)
    items, queue_size = review.queue_head(
        event, DESK_ITEMS, checker_wait=current_app.config["LIVE_CHECK_WAIT"])
    return render_template(
        "host/dashboard.html",
        event=event,
        questions=questions,
        answered=answered.rows,
        queue_size=queue_size,
        chart=desk_standings_chart(event),
        step=step,
        items=items,
        screen=projector.screen_state(event),
        version=version, distribution={}, answers=0, back="desk",
        # How many teams have answered at least one question of the desk's round.
        answered_now=(answered.teams_by_round.get(step[0].number, 0), len(answered.rows))
        if step else None,
    )


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
