"""The host's Своя игра desk: open a question (through core's start, as the API does),
ВСЁ, decide, publish; hear and decide protests (SI-3); put players in or out of
competition (SI-1.2) and warn them (SI-1.3); name theme authors (SI-0).

Everything the page shows is read from the database on each load, so a reload
loses nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Response, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from ...access import host_required
from ...core import audit, clock, formats
from ...core.spreadsheets import FILE_TYPES, Table, place_label, results_xlsx, to_csv
from ...core.teams import hash_token, team_named
from ...errors import DeskError, NotFound
from ...extensions import db
from ...host.blueprint import bp
from ...models import Event
from ...web import committed
from . import game, players, protests, rules, scores, screens, themes


def _back(anchor: str = "") -> BaseResponse:
    target = url_for("host.si_desk", code=(request.view_args or {})["code"])
    return redirect(target + (f"#{anchor}" if anchor else ""))


def _on_desk(anchor: str, action: Callable[..., Any], *args: Any) -> BaseResponse:
    """Run a desk action at the request boundary; a refusal (undecided answers, a
    question still running …) brings the host back to the desk with its message,
    nothing changed."""
    try:
        committed(action, *args)
    except DeskError as err:
        session["si_problem"] = err.message
        return _back(anchor)
    return _back(anchor)


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
    authors = themes.authors(event)
    started = {q.id for _, q, _ in clock.event_gates(event)}
    return [{"number": rnd.number, "themes": [
        {**theme, "author": authors.get((rnd.number, theme["number"]))}
        for theme in screens.board(event, rnd.number, started)]} for rnd in event.rounds]


@bp.get("/si")
@host_required
def si_desk(event: Event):
    return _desk_page(_own(event))


def _desk_page(event: Event, relink: tuple[str, str] | None = None) -> str:
    latest = screens.current_question(event)
    return render_template(
        "host/si.html", event=event, board=_board(event), current=latest,
        scores=scores.scores(event), warnings=players.warnings(event),
        protests=protests.protests(event), marks=("correct", "wrong", "none"),
        claims=game.pending_claims(event), problem=session.pop("si_problem", None),
        confirm_warn=session.pop("si_confirm_warn", None), relink=relink)


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
    return _on_desk("current", game.close, _own(event), _number("round"), _number("question"),
                    "host")


@bp.post("/si/decide")
@host_required
def si_decide_desk(event: Event):
    return _on_desk("current", game.decide, _own(event), _number("round"), _number("question"),
                    request.form.get("player"), request.form.get("mark"), "host")


@bp.post("/si/publish")
@host_required
def si_publish_desk(event: Event):
    return _on_desk("current", game.publish, _own(event), _number("round"),
                    _number("question"), "host")


@bp.post("/si/protests/<int:protest_id>/hear")
@host_required
def si_hear_desk(event: Event, protest_id: int):
    committed(protests.hear, _own(event), protest_id, "host")
    return _back("protests")


@bp.post("/si/protests/<int:protest_id>/decide")
@host_required
def si_decide_protest_desk(event: Event, protest_id: int):
    upheld = request.form.get("upheld") == "yes"
    changes = ([{"player": request.form.get("player"), "mark": request.form.get("mark")}]
               if upheld else [])
    committed(protests.decide_protest, _own(event), protest_id, upheld, changes,
              request.form.get("warn") == "yes", "host")
    return _back("protests")


@bp.post("/si/competition")
@host_required
def si_competition_desk(event: Event):
    committed(players.set_competition, _own(event), request.form.get("player"),
              request.form.get("in_competition") == "yes", "host")
    return _back("players")


@bp.post("/si/warn")
@host_required
def si_warn_desk(event: Event):
    """SI-1.3: a first warning at once; the second, which removes the player and annuls
    the points, only once the host confirms it."""
    event = _own(event)
    name = request.form.get("player")
    if players.warnings(event).get(name or "", 0) + 1 >= rules.WARNINGS_TO_REMOVE and \
            request.form.get("confirm") != "yes":
        session["si_confirm_warn"] = name
        return _back("players")
    return _on_desk("players", players.warn, event, name, "host")


@bp.post("/si/unwarn")
@host_required
def si_unwarn_desk(event: Event):
    """Take the last warning back (a slip under pressure)."""
    return _on_desk("players", players.unwarn, _own(event), request.form.get("player"), "host")


@bp.post("/si/claim")
@host_required
def si_claim_desk(event: Event):
    """SI-2.4: the host's word on a "ПРОПУСТИЛИ" claim."""
    return _on_desk("current", game.settle_claim, _own(event), _number("round"),
                    _number("question"), request.form.get("player"), request.form.get("mark"),
                    "host")


@bp.post("/si/relink")
@host_required
def si_relink_desk(event: Event):
    """A player whose phone lost its session plays on as themselves: a new link for
    their phone (the old one stops working), shown once on the desk."""
    event = _own(event)
    team = team_named(event, request.form.get("player"), players.NO_PLAYER)
    token = secrets.token_urlsafe(24)
    team.token_hash = hash_token(token)
    audit.record(event, "host", "si.relink", team.name)
    db.session.flush()
    link = url_for("team.sheet", code=event.code, _external=True) + f"#token={token}"
    return _desk_page(event, relink=(team.name, link))  # shown once, never stored


@bp.post("/si/author")
@host_required
def si_author_desk(event: Event):
    committed(themes.set_author, _own(event), _number("round"), _number("theme"),
              request.form.get("author") or None, "host")
    return _back(f"round-{request.form.get('round', '')}")


def results_table(event: Event) -> Table:
    """Place, player, points of each round, total and standing (SI-1.2, SI-1.3), with
    the headers in the reader's language."""
    numbers = [r.number for r in event.rounds]
    header = [_("Place"), _("Player"), *[_("Round %(n)s", n=n) for n in numbers],
              _("Points"), _("Competition (SI-1.2)")]
    rows = [[place_label(r.place, r.shared) if r.place is not None else "—", r.name,
             *[r.by_round.get(n, 0) for n in numbers], r.points,
             _("removed") if r.removed else _("in competition") if r.in_competition
             else _("out of competition")]
            for r in scores.standings_rows(event)]
    return header, rows


@bp.get("/si/export/results.<kind>")
@host_required
def si_export(event: Event, kind: str):
    """The players' results as CSV or XLSX (with the standings chart, issue 19)."""
    _own(event)
    if kind not in FILE_TYPES:
        raise NotFound("Export as csv or xlsx")
    header, rows = results_table(event)
    data = to_csv(header, rows) if kind == "csv" else results_xlsx(event, header, rows)
    return Response(data, mimetype=FILE_TYPES[kind], headers={
        "Content-Disposition": f'attachment; filename="si-results-{event.code}.{kind}"'})
