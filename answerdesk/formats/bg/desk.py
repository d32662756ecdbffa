"""The host's pages for the Bulgarian rules: wildcard, final round, jokers, shoot-out,
disputes, the monthly league and the exports."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from ...access import desk_required, host_required
from ...core import disputes, projector
from ...core.paper import team_of
from ...core.spreadsheets import FILE_TYPES, results_xlsx
from ...core.states import RoundState
from ...errors import DeskError, NotFound
from ...extensions import db
from ...host.blueprint import bp
from ...host.desk import paper_page
from ...models import Event, Team
from ...packs import PackError
from ...packs.native import dump_questions, load_scenario_set
from ...packs.translated import say
from . import champions, exports, final, jokers, league, paper, shootout, wildcard
from .programme import BG_SCENARIOS, FINAL_ROUND
from .standings import event_standings

FINAL_ACTIONS = {"open": final.open_question, "lock": final.lock_question,
                 "reveal": final.reveal_question}


def screen_rules(event: Event) -> dict:
    """What the projector shows of the rules: the R5 draw, the final question, shoot-outs."""
    final_round = event.round(FINAL_ROUND)
    shootouts = [shootout.shootout_json(s) for s in shootout.event_shootouts(event)[-1:]]
    current = None
    if final_round is not None and final.is_one_at_a_time(final_round) and not shootouts:
        # The last question opened stays on screen through its lock and its answer,
        # also once it has closed the round (BG-R6.1).
        opened = final.gates(final_round)
        shown = [q for q in final_round.questions if q.id in opened]
        if shown:
            current = (shown[-1], opened[shown[-1].id])
    drawn = wildcard.wildcard_json(event)
    fifth = event.round(5)
    if not (drawn and drawn.get("chooser") and fifth is not None
            and fifth.state == RoundState.DRAFT):
        drawn = None
    return {"wildcard": drawn, "final": current, "shootouts": shootouts,
            "stage": bool(drawn or current or shootouts)}


@bp.app_context_processor
def _rules_globals() -> dict:
    return {"bg_screen": screen_rules}


def _back(anchor: str = "") -> BaseResponse:
    return redirect(url_for("host.rules", code=(request.view_args or {})["code"]) + anchor)


@bp.get("/rules")
@host_required
def rules(event: Event):
    final_round = event.round(FINAL_ROUND)
    return render_template(
        "host/rules.html", event=event,
        wildcard=wildcard.wildcard_json(event), scenarios=BG_SCENARIOS,
        final_round=final_round,
        gates=final.gates(final_round) if final_round else {},
        jokers=jokers.event_jokers(event),
        shootouts=[(s, shootout.shootout_json(s)) for s in shootout.event_shootouts(event)],
        shootout_ready=shootout.played_out(event),
        standings=event_standings(event),
    )


@bp.post("/rules/wildcard/draw")
@host_required
def wildcard_draw(event: Event):
    row = wildcard.name_chooser(event)
    flash(_("%(team)s chooses the wildcard scenario",
            team=row.chooser.name if row.chooser else ""))
    projector.follow(event)  # BG-R5.0: the room sees who chooses
    return _back("#wildcard")


@bp.post("/rules/wildcard/choose")
@host_required
def wildcard_choose(event: Event):
    wildcard.choose_scenario(event, request.form.get("scenario", ""), actor="host")
    projector.follow(event)
    return _back("#wildcard")


@bp.get("/rules/wildcard/sets")
@host_required
def wildcard_sets(event: Event):
    return _sets_page(event)


def _sets_page(event: Event, status: int = 200, **context):
    sets = wildcard.scenario_specs(event)
    texts = {name: dump_questions(sets.get(name, [])) for name in BG_SCENARIOS}
    texts.update(context.pop("typed", {}))
    return render_template("host/wildcard_sets.html", event=event, scenarios=BG_SCENARIOS,
                           texts=texts, counts={k: len(v) for k, v in sets.items()},
                           say=say, **context), status


@bp.post("/rules/wildcard/sets/<scenario>")
@host_required
def wildcard_set_save(event: Event, scenario: str):
    """BG-R5: the host types (or fixes) a scenario's questions, as a pack's YAML list."""
    if scenario not in BG_SCENARIOS:
        raise NotFound("No such scenario")
    text = request.form.get("questions", "")
    try:
        specs = load_scenario_set(text, scenario) if text.strip() else []
    except PackError as err:
        return _sets_page(event, 422, error=err, failed=scenario, typed={scenario: text})
    wildcard.set_scenario_set(event, scenario, wildcard.typed_questions(event, specs))
    flash(_("Scenario %(scenario)s: %(count)s questions saved", scenario=scenario,
            count=len(specs)))
    return redirect(url_for("host.wildcard_sets", code=event.code) + f"#set-{scenario}")


@bp.post("/rules/final/<int:number>/<action>")
@host_required
def final_action(event: Event, number: int, action: str):
    if action not in FINAL_ACTIONS:
        raise DeskError("Unknown action '%(action)s'", action=action)
    FINAL_ACTIONS[action](event, number, actor="host")
    projector.follow(event)  # the final's question and its answer go up at once
    return _back("#final")


@bp.post("/rules/jokers/<int:joker_id>")
@host_required
def joker_decide(event: Event, joker_id: int):
    jokers.decide_second(event, joker_id, request.form.get("decision", ""))
    return _back("#jokers")


@bp.post("/rules/shootout")
@host_required
def shootout_start(event: Event):
    questions = [(request.form.get(f"text{i}", ""), request.form.get(f"answer{i}", ""))
                 for i in (1, 2, 3)]
    shootout.start_shootout(event, questions)
    projector.follow(event)
    return _back("#shootout")


@bp.post("/rules/shootout/<int:shootout_id>/lock")
@host_required
def shootout_lock(event: Event, shootout_id: int):
    shootout.lock_shootout(event, shootout_id)
    projector.follow(event)
    return _back("#shootout")


def _paper_entry(event: Event, enter: Callable[..., object],
                 done: Callable[[str], str]) -> BaseResponse | tuple:
    """BG-E1: enter a paper team's joker or numbers; a refusal comes back beside the form
    (changing nothing), a success goes back to the team's sheet."""
    team = team_of(event, request.form.get("team", type=int) or 0)
    round_number = request.form.get("round", "")
    try:
        enter(event, team, request.form, g.actor)
    except DeskError as error:
        return paper_page(event, team.id, round_number, status=error.status,
                          part_error=error.message)
    flash(done(team.name))
    return redirect(url_for("host.paper_entry", code=event.code, team=team.id,
                            round=round_number) + "#paper-part")


@bp.post("/paper/joker")
@desk_required()
def paper_joker(event: Event):
    return _paper_entry(event, paper.play_joker,
                        lambda name: _("%(team)s: joker played.", team=name))


@bp.post("/paper/shootout")
@desk_required()
def paper_shootout(event: Event):
    return _paper_entry(event, paper.save_numbers,
                        lambda name: _("%(team)s: shoot-out numbers saved.", team=name))


@bp.get("/disputes")
@host_required
def dispute_page(event: Event):
    disputes.refuse_unless_offered(event)
    locked = [r for r in event.rounds
              if r.state in (RoundState.LOCKED, RoundState.REVEALED) or final.is_one_at_a_time(r)]
    return render_template("host/disputes.html", event=event, rounds=locked,
                           decisions=disputes.decisions(event))


@bp.post("/disputes")
@host_required
def dispute_decide(event: Event):
    disputes.refuse_unless_offered(event)
    form = request.form
    kind = form.get("kind", "")
    try:
        round_number, question_number = int(form["round"]), int(form["question"])
    except (KeyError, ValueError):
        raise DeskError("Choose the round and the question") from None
    reason = form.get("reason", "")
    if kind == disputes.UPHOLD:
        team_id = form.get("team", "")
        team = db.session.get(Team, int(team_id)) if team_id.isdigit() else None
        if team is None:
            raise NotFound("No such team")
        disputes.uphold(event, round_number, question_number, team, reason)
    elif kind == disputes.ACCEPT:
        disputes.accept_answer(event, round_number, question_number, form.get("answer", ""),
                               reason)
    elif kind == disputes.ANNUL:
        disputes.annul(event, round_number, question_number, reason)
    else:
        raise DeskError("Unknown decision '%(decision)s'", decision=kind)
    flash(_("Decision recorded"))
    return redirect(url_for("host.dispute_page", code=event.code))


@bp.get("/league")
@host_required
def league_page(event: Event):
    edition = league.edition_of(event)
    name = edition.league if edition else ""
    month = request.args.get("month") or (edition.month if edition else league.month_of(
        event.date))
    return render_template("host/league.html", event=event, edition=edition, month=month,
                           league_name=name, table=league.month_table(month, name),
                           months=league.months(name))


@bp.post("/league")
@host_required
def league_update(event: Event):
    action = request.form.get("action")
    if action == "month":
        league.add_to_month(event, request.form.get("month") or None)
    elif action == "merge":
        league.merge_teams(request.form.get("spelling", ""), request.form.get("into", ""),
                           event=event)
    elif action == "refresh":
        league.refresh_handicaps()
    else:
        raise DeskError("Unknown action '%(action)s'", action=action)
    flash(_("League updated"))
    return redirect(url_for("host.league_page", code=event.code))


@bp.post("/league/champions")
@host_required
def champions_quiz(event: Event):
    """BG-M5: the yearly champions' quiz of this event's league, from the year's titles;
    its host password is shown once, here."""
    edition = league.edition_of(event)
    name = edition.league if edition else ""
    year = request.form.get("year", "").strip()
    try:
        created, password, invitations = champions.create_champions_quiz(year, name)
    except DeskError as err:
        flash(err.message)
        return redirect(url_for("host.league_page", code=event.code))
    return render_template("host/champions.html", event=event, created=created,
                           password=password, invitations=invitations, year=year), 201


def _file(data: bytes, kind: str, name: str) -> Response:
    return Response(data, mimetype=FILE_TYPES[kind], headers={
        "Content-Disposition": f'attachment; filename="{name}.{kind}"'})


@bp.get("/export/results.<kind>")
@host_required
def export_results(event: Event, kind: str):
    if kind not in FILE_TYPES:
        raise NotFound("Export as csv or xlsx")
    data = (exports.to_csv(*exports.event_results(event)) if kind == "csv"
            else results_xlsx(event, *exports.event_results(event)))
    return _file(data, kind, f"results-{event.code}")


@bp.get("/export/month/<month>.<kind>")
@host_required
def export_month(event: Event, month: str, kind: str):
    if kind not in FILE_TYPES or not league.MONTH.match(month):
        raise NotFound("Export a month like 2025-03 as csv or xlsx")
    edition = league.edition_of(event)
    header, rows = exports.month_results(
        league.month_table(month, edition.league if edition else ""))
    data = (exports.to_csv(header, rows) if kind == "csv"
            else exports.to_xlsx(header, rows, month))
    return _file(data, kind, f"league-{month}")
