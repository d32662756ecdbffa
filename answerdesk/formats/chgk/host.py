"""The host's ЧГК desk: spin the top, start a question on the clock, run the auction,
record the Central Table, set leagues, read the standings and export them."""

from __future__ import annotations

import datetime as dt

from flask import Response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...access import host_required
from ...core import clock, labels, rounds
from ...core.spreadsheets import FILE_TYPES, results_xlsx, to_csv, to_xlsx
from ...errors import DeskError, NotFound
from ...extensions import db
from ...host.blueprint import bp
from ...models import Event, Question
from . import exports as chgk_exports
from . import game, rules
from .rules import GAMES_PER_EVENING, League
from .sheet import room_answer


def screen(event: Event) -> dict:
    """What the projector shows of a ЧГК game: the clock, the last spin, the table."""
    current = clock.current(event)
    number = current["round"] if current else 1
    if event.round(number) is None:
        return {"clock": None, "draw": None, "seated": None, "answer": None, "ranked": None,
                "winners": {}}
    winners = game.screen_winners(event)
    if winners:  # the evening is over: its winners, not the last question's clock
        return {"clock": None, "draw": None, "seated": None, "answer": None, "ranked": None,
                "winners": [(chgk_exports.league_label(lg), name) for lg, name in winners.items()]}
    seated_id = game.state(event, number).table.seated
    draws = game.draws(event, number)
    seated = next((t.name for t in event.teams if t.id == seated_id), None)
    answer = None
    rnd = event.round(number)
    if current and current["state"] == "revealed" and rnd is not None:
        question = next(q for q in rnd.questions
                        if q.number == current["question"])
        answer = question_card(question)["answer"]
    return {"clock": current, "draw": draws[-1].payload if draws else None, "seated": seated,
            "answer": answer, "ranked": game.screen_rows(event)[1], "winners": {}}


@bp.app_context_processor
def _chgk_globals() -> dict:
    return {"chgk_screen": screen}


def question_card(question: Question) -> dict:
    """What the host reads and judges by (CHGK-1.1, 1.3): the question, its answer,
    what else is accepted (Зачёт) and what is not (Незачёт), the editors' comment."""
    details = question.details or {}
    key = question.key if isinstance(question.key, dict) else {}
    answer = room_answer(question)
    shown = answer.casefold().strip(" .")
    accepted = [a for a in key.get("accept", []) if a.casefold().strip(" .") != shown]
    return {"number": question.number, "text": question.text, "answer": answer,
            "accepted": accepted, "rejected": list(key.get("reject", [])),
            "note": details.get("note"), "comment": details.get("comment"),
            "source": details.get("source"), "author": details.get("author")}


def _back(number: int | None = None) -> BaseResponse:
    anchor = f"#game-{number}" if number else ""
    return redirect(url_for("host.chgk_desk", code=(request.view_args or {})["code"]) + anchor)


def _int(name: str) -> int | None:
    value = request.form.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit():
        raise DeskError("%(field)s must be a whole number", field=name)
    return int(value)


@bp.get("/chgk")
@host_required
def chgk_desk(event: Event):
    return _desk(event)


def _desk(event: Event, refused: dict | None = None) -> str:
    """The desk; ``refused``: a refused auction (its game, message and the bids typed,
    shown again so nothing typed is lost)."""
    if event.format != game.FORMAT:
        raise NotFound("This event is not a ЧГК evening.")
    clock.settle(event)  # questions past their deadline: record the lock, check
    db.session.flush()
    lg = game.leagues(event)
    started = {g.question_id for g, _, _ in clock.event_gates(event)}
    games = []
    for number in range(1, GAMES_PER_EVENING + 1):
        rnd = event.round(number)
        if rnd is None:
            continue
        now = game.played(event, number, lg)
        state = now.state
        next_sector = next((s for s in reversed(state.sectors)
                            if not any(q.number == s and q.id in started
                                       for q in rnd.questions)), None)
        games.append({
            "number": number, "round": rnd, "state": state,
            "cards": [question_card(q) for q in sorted(rnd.questions, key=lambda q: q.number)],
            "rows": game.game_standings(event, number, now, lg),
            "draws": [a.payload for a in game.draws(event, number)],
            "next_sector": next_sector,
            "seated": next((t.name for t in event.teams if t.id == state.table.seated), None),
            "phone_bids": game.phone_bids(event, number, state),
        })
    running = clock.current(event)
    standings = game.standings_json(event)
    return render_template(
        "host/chgk.html", event=event, games=games, clock=running,
        card=_desk_card(games, running),
        evening=standings["evening"], by_league=standings["leagues"], leagues=lg,
        sources=game.league_sources(event), refused=refused,
        season_label=chgk_exports.season_label, round_state=labels.round_state,
        favourites=League.FAVOURITES,
        league_values=[lg.value for lg in League], label=chgk_exports.league_label,
        today=dt.date.today().isoformat())


def _desk_card(games: list[dict], now: dict | None) -> dict | None:
    """The question the host needs now: the sector just drawn and not yet started
    (to read aloud), else the question on the clock."""
    for g in reversed(games):
        if g["next_sector"] is not None and g["round"].state in ("draft", "open"):
            return {"game": g["number"], **g["cards"][_index(g, g["next_sector"])]}
    if now is not None:
        g = next((g for g in games if g["number"] == now["round"]), None)
        if g is not None:
            return {"game": g["number"], **g["cards"][_index(g, now["question"])]}
    return None


def _index(g: dict, number: int) -> int:
    return next(i for i, c in enumerate(g["cards"]) if c["number"] == number)


@bp.post("/chgk/clock")
@host_required
def chgk_clock(event: Event):
    clock.set_defaults(event, _int("seconds"), _int("grace"))
    return _back()


@bp.post("/chgk/<int:number>/draw")
@host_required
def chgk_draw(event: Event, number: int):
    game.draw_sector(event, number)
    return _back(number)


@bp.post("/chgk/<int:number>/start")
@host_required
def chgk_start(event: Event, number: int):
    sector = _int("sector")
    if sector is None:
        raise DeskError("Choose the question to start")
    clock.start_question(event, number, sector, seconds=_int("seconds"), grace=_int("grace"))
    return _back(number)


@bp.post("/chgk/<int:number>/end")
@host_required
def chgk_end(event: Event, number: int):
    """End a game (its round closes and is checked) and stay on the ЧГК desk."""
    rounds.close_round(event, number, actor="host")
    return _back(number)


@bp.post("/chgk/<int:number>/reveal")
@host_required
def chgk_reveal(event: Event, number: int):
    question = _int("question")
    if question is None:
        raise DeskError("Choose the question whose answer to show")
    game.reveal_question(event, number, question)
    return _back(number)


@bp.post("/chgk/<int:number>/auction")
@host_required
def chgk_auction(event: Event, number: int):
    typed = {team.id: request.form.get(f"bid-{team.id}", "").strip() for team in event.teams}
    try:
        bids = {}
        for team in event.teams:
            bid = _int(f"bid-{team.id}")
            if bid:
                bids[team.name] = bid
        game.run_auction(event, number, bids)
    except DeskError as refusal:
        db.session.rollback()
        page = _desk(event, {"game": number, "message": refusal.message, "typed": typed})
        return Response(page, status=refusal.status)
    return _back(number)


@bp.post("/chgk/<int:number>/table")
@host_required
def chgk_table(event: Event, number: int):
    action, _, verdict = request.form.get("verdict", "").partition("-")
    game.table_action(event, number, request.form.get("team"), action,
                      _int("question") if action != "leave" else None,
                      {"yes": True, "no": False}.get(verdict))
    return _back(number)


@bp.post("/chgk/leagues")
@host_required
def chgk_leagues(event: Event):
    for team in event.teams:
        league = request.form.get(f"league-{team.id}")
        if league:
            game.set_league(event, team.name, league)
    return _back()


@bp.get("/chgk/season")
@host_required
def chgk_season(event: Event):
    """CHGK-2.1-2.3: the season of this evening: both leagues' tables, the cup winner,
    who moves between the leagues at its end, and the evenings played."""
    if event.format != game.FORMAT:
        raise NotFound("This event is not a ЧГК evening.")
    table = game.season_table(event.date)
    return render_template("chgk/season.html", event=event, table=table,
                           season=chgk_exports.season_label(table.season),
                           evenings=game.season_evenings(table.season),
                           label=chgk_exports.league_label, favourites=League.FAVOURITES,
                           first=rules.season_bounds(table.season)[0],
                           last=rules.season_bounds(table.season)[1] - dt.timedelta(days=1))


@bp.get("/chgk/export/<what>.<kind>")
@host_required
def chgk_export(event: Event, what: str, kind: str):
    if kind not in FILE_TYPES or what not in ("evening", "season"):
        raise NotFound("Export the evening or the season as csv or xlsx")
    if what == "evening":
        header, rows = chgk_exports.evening_results(event)
    else:
        header, rows = chgk_exports.season_results(event.date)
    if kind == "csv":
        data = to_csv(header, rows)
    elif what == "evening":
        data = results_xlsx(event, header, rows)  # with the standings chart (issue 19)
    else:
        data = to_xlsx(header, rows, event.code)
    return Response(data, mimetype=FILE_TYPES[kind], headers={
        "Content-Disposition": f'attachment; filename="chgk-{what}-{event.code}.{kind}"'})
