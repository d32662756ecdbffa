"""The host's desk: review queue, all answers, paper entry, projector, audit, corrections.

Both the host and the assistant work here; the assistant (own password) can
judge and type paper sheets but cannot correct scores, undo, or set passwords.
Views parse the form, call one service and render; pages refresh themselves
by polling ``live`` (a version read from the database, so any worker answers).
"""

from __future__ import annotations

from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from .. import live
from ..access import desk_required
from ..core import (
    assistants,
    audit,
    charts,
    corrections,
    formats,
    labels,
    paper,
    projector,
    review,
    undo,
)
from ..core.rounds import question_of
from ..core.states import RoundState
from ..database.readonly import reads_only
from ..extensions import db
from ..models import Event, Team
from ..web import committed
from .blueprint import bp


def wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _ids(values: list[str]) -> list[int]:
    return [int(i) for v in values for i in v.split(",") if i.strip().isdigit()]


# ------------------------------------------------------------------ review queue


def _queue_context(event: Event) -> dict[str, Any]:
    version = live.version(event.id)  # before what it labels (live.py)
    items = review.review_queue(event, checker_wait=current_app.config["LIVE_CHECK_WAIT"])
    return {"event": event, "items": items, "answers": sum(len(i.verdict_ids) for i in items),
            "distribution": charts.answer_distribution(sorted({i.question_id for i in items})),
            "version": version, "role": g.actor}


@bp.get("/review")
@reads_only
@desk_required()
def review_queue(event: Event):
    return render_template("host/review.html", **_queue_context(event))


@bp.get("/review/items")
@reads_only
@desk_required()
def review_items(event: Event):
    return render_template("host/_review_items.html", **_queue_context(event))


@bp.post("/review")
@desk_required()
def decide(event: Event):
    ids = _ids(request.form.getlist("verdicts"))
    decision = request.form.get("decision", "")
    if decision == "add":
        result = review.add_to_key(event, ids, actor=g.actor)
    else:
        result = review.decide(event, ids, decision, actor=g.actor)
    if wants_json():
        return jsonify({"decided": result.decided, "conflicts": result.conflicts,
                        "queue": review.queue_size(event)})
    flash(_("%(n)s answers decided.", n=result.decided))
    for conflict in result.conflicts:
        flash(_("Already decided by the other judge: %(c)s", c=conflict))
    if request.form.get("back") == "desk":
        return redirect(url_for("host.dashboard", code=event.code))
    return redirect(url_for("host.review_queue", code=event.code))


@bp.get("/live")
@reads_only
@desk_required()
def live_state(event: Event):
    """What desk pages poll; cheap enough for every two seconds."""
    return jsonify({"version": live.version(event.id), "queue": review.queue_size(event)})


# ------------------------------------------------------------------ all answers


@bp.get("/answers")
@desk_required()
def answers_index(event: Event):
    ready = [r for r in event.rounds if r.questions and r.state != RoundState.DRAFT]
    rnd = next((r for r in reversed(ready) if r.state == RoundState.LOCKED), None) or \
        (ready[-1] if ready else next((r for r in event.rounds if r.questions), None))
    if rnd is None:
        abort(404)
    return redirect(url_for("host.question_answers", code=event.code, number=rnd.number,
                            question=rnd.questions[0].number))


def _answers_context(event: Event, number: int, question_number: int) -> dict[str, Any]:
    version = live.version(event.id)  # before what it labels (live.py)
    rnd, question = question_of(event, number, question_number)
    only = request.args.get("verdict", "all")
    if only not in review.VERDICT_FILTERS:
        only = "all"
    rows = review.question_answers(event, rnd, question)
    counts = {f: 0 for f in review.VERDICT_FILTERS}
    for row in rows:
        counts["all"] += 1
        counts["decided"] += bool(row.decision)
        counts["unanswered"] += not row.text
        if row.final in counts:
            counts[row.final] += 1
    shown = rows if only == "all" else review.question_answers(event, rnd, question, only)
    return {"event": event, "rnd": rnd, "question": question, "rows": shown, "only": only,
            "counts": counts, "filters": review.VERDICT_FILTERS, "version": version,
            "role": g.actor}


@bp.get("/answers/<int:number>/<int:question>")
@desk_required()
def question_answers(event: Event, number: int, question: int):
    return render_template("host/answers.html", **_answers_context(event, number, question))


@bp.get("/answers/<int:number>/<int:question>/rows")
@desk_required()
def question_answer_rows(event: Event, number: int, question: int):
    return render_template("host/_answer_rows.html", **_answers_context(event, number, question))


@bp.post("/answers/<int:number>/<int:question>")
@desk_required()
def override(event: Event, number: int, question: int):
    """One click: the host's word on one team's answer, replacing any earlier one."""
    result = review.decide(event, _ids(request.form.getlist("verdict")),
                           request.form.get("decision", ""), actor=g.actor, override=True)
    if wants_json():
        return jsonify({"decided": result.decided})
    return redirect(url_for("host.question_answers", code=event.code, number=number,
                            question=question, verdict=request.form.get("only", "all")))


# ------------------------------------------------------------------ paper fallback


@bp.get("/paper")
@desk_required()
def paper_entry(event: Event):
    return paper_page(event, request.args.get("team"), request.args.get("round"))


def paper_page(event: Event, team_id: Any, round_number: Any, posted: Any = None,
               errors: Any = None, status: int = 200, part_error: str | None = None):
    """The paper screen; ``part_error`` is a refusal of the format's part below the sheet
    (BG: a joker or shoot-out numbers), shown there."""
    teams = db.session.scalars(
        db.select(Team).where(Team.event_id == event.id).order_by(Team.name_key)
    ).all()
    rounds = [r for r in event.rounds if r.questions]
    team = next((t for t in teams if str(t.id) == str(team_id)), None)
    rnd = next((r for r in rounds if str(r.number) == str(round_number)), None)
    if rnd is None:
        rnd = next((r for r in rounds if r.state == RoundState.OPEN), None) or \
            next((r for r in reversed(rounds) if r.state != RoundState.DRAFT), None)
    sheet = paper.paper_grid(event, team, rnd, posted, errors) if team and rnd else None
    fmt = formats.of(event)
    panel = fmt.paper_panel(event, team, rnd) if team and rnd and fmt.paper_part else {}
    return render_template("host/paper.html", event=event, teams=teams, rounds=rounds,
                           team=team, rnd=rnd, sheet=sheet, role=g.actor,
                           paper_part=fmt.paper_part if panel else None, panel=panel,
                           part_error=part_error), status


@bp.post("/paper")
@desk_required()
def paper_save(event: Event):
    """BG-E1: refused lines come back with the host's typing and the reason beside them;
    the lines accepted are saved all the same (committed before the 400 page)."""
    team = paper.team_of(event, request.form.get("team", type=int) or 0)
    number = request.form.get("round", type=int) or 0
    sheet = paper.read_sheet(event, number, request.form)
    result = committed(paper.enter_sheet, event, team, number, sheet, actor=g.actor)
    flash(_("%(team)s: %(n)s paper answers saved.", team=team.name, n=result.changed))
    if result.errors:
        return paper_page(event, team.id, number, sheet, result.errors, status=400)
    following = db.session.scalar(
        db.select(Team.id).where(Team.event_id == event.id, Team.name_key > team.name_key)
        .order_by(Team.name_key).limit(1)
    )
    return redirect(url_for("host.paper_entry", code=event.code, round=number,
                            team=following or team.id))


@bp.post("/paper/team")
@desk_required()
def paper_team(event: Event):
    """A team that plays on paper only still needs a name in the standings."""
    from ..core.teams import register_team

    team, _token = register_team(event, request.form.get("name"),
                                 request.form.get("players") or 1)
    return redirect(url_for("host.paper_entry", code=event.code, team=team.id,
                            round=request.form.get("round", "")))


# ------------------------------------------------------------------ projector


@bp.route("/projector", methods=["GET", "POST"])
@desk_required()
def projector_control(event: Event):
    if request.method == "POST":
        projector.show(event, request.form.get("view", ""),
                       request.form.get("round", type=int), actor=g.actor,
                       step=request.form.get("step", 0, type=int),
                       media=request.form.get("media", ""))
        if wants_json():
            return jsonify({"version": live.version(event.id)})
        if request.form.get("back") == "desk":
            return redirect(url_for("host.dashboard", code=event.code))
        return redirect(url_for("host.projector_control", code=event.code))
    state = projector.screen_state(event)
    chosen = projector.screen_round(event, state)
    return render_template("host/projector.html", event=event, state=state, chosen=chosen,
                           screen_q=projector.screen_question(chosen, state),
                           command=state.media, question_media=projector.question_media,
                           role=g.actor)


# ------------------------------------------------------------------ audit, corrections


@bp.get("/audit")
@desk_required()
def audit_log(event: Event):
    action = request.args.get("action", "")
    return render_template("host/audit.html", event=event,
                           entries=audit.entries(event, action=action), action=action,
                           undone=audit.undone_ids(event), undoable=undo.undoable,
                           role=g.actor)


@bp.get("/audit.csv")
@desk_required()
def audit_csv(event: Event):
    return Response(
        audit.to_csv(event), mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="audit-{event.code}.csv"'},
    )


@bp.post("/audit/<int:entry_id>/undo")
@desk_required(host_only=True)
def audit_undo(event: Event, entry_id: int):
    entry = undo.undo(event, entry_id, actor=g.actor)
    flash(_("Undone: %(what)s", what=labels.audit_line(entry).sentence))
    back = request.form.get("back", "")
    if not back.startswith(f"/host/{event.code}/"):
        back = url_for("host.audit_log", code=event.code)
    return redirect(back)


@bp.route("/corrections", methods=["GET", "POST"])
@desk_required(host_only=True)
def score_corrections(event: Event):
    if request.method == "POST":
        corrections.add_correction(event, request.form.get("team", type=int) or 0,
                                   request.form.get("points", ""), request.form.get("reason"),
                                   actor=g.actor)
        return redirect(url_for("host.score_corrections", code=event.code))
    teams = db.session.scalars(
        db.select(Team).where(Team.event_id == event.id).order_by(Team.name_key)
    ).all()
    return render_template("host/corrections.html", event=event, teams=teams,
                           entries=audit.entries(event, action="score.correct"),
                           undone=audit.undone_ids(event), role=g.actor)


@bp.route("/assistant", methods=["GET", "POST"])
@desk_required(host_only=True)
def assistant(event: Event):
    """The host makes (or replaces) the assistant's password; it is shown once."""
    password = None
    if request.method == "POST":
        password = assistants.new_assistant_password(event, actor=g.actor)
    return render_template("host/assistant.html", event=event, password=password, role=g.actor)
