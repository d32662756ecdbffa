"""What a team's phone needs beyond its answers: widgets, jokers, wildcard, shoot-out.

``decorate_event`` adds to the event's part of the sheets (sheets.event_sheet) the
widget of each question, hides final-round questions not yet opened (BG-R6.1) and
shows a final-round answer once that question is revealed; ``decorate`` adds the
team's part; ``play_json`` is the small payload the
phone polls to notice a joker, a wildcard choice, a shoot-out or the next
final-round question.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from flask import current_app

from ... import live
from ...core.sheet_parts import BuiltSheet, EventSheet
from ...core.states import GateState, Outcome, RoundState
from ...core.widgets import number_of, widget_spec
from ...extensions import db
from ...models import Answer, Event, Question, Round, Team, Verdict
from . import jokers, shootout, wildcard
from .final import gates, is_one_at_a_time
from .models import Shootout
from .sheet_parts import BgBuiltSheet, BgEventQuestion, BgEventSheet, BgSheetRound


def decorate_event(sheet: EventSheet, event: Event) -> EventSheet:
    """The event's part of every team's sheet (sheets.event_sheet, kept per screen
    version): each question's widget, the final round one question at a time (BG-R6.1:
    only the questions opened, each with its state, and a revealed one's answer, which
    shows after the last lock too), and the «От 1 до 10» round's list of used numbers
    for ``decorate`` to fill in. A revealed final question gets the team's verdict
    there too."""
    models = {r.number: r for r in event.rounds}
    for item in cast(BgEventSheet, sheet)["rounds"]:
        rnd = models[item["number"]]
        by_number = {q.number: q for q in rnd.questions}
        if is_one_at_a_time(rnd) and rnd.state in (RoundState.OPEN, RoundState.LOCKED):
            opened = gates(rnd)
            kept: list[BgEventQuestion] = []
            for q in item["questions"]:
                question = by_number[q["number"]]
                gate = opened.get(question.id)
                if gate is not None and rnd.state == RoundState.OPEN:
                    q["state"] = gate.state
                if gate is not None and gate.state == GateState.REVEALED:
                    q["correct_answer"] = question.shown_answer
                    q["verdict"] = None  # the team's: decorate
                if gate is not None or rnd.state == RoundState.LOCKED:
                    kept.append(q)
            item["questions"] = kept
        for q in item["questions"]:
            q["widget"] = widget_spec(by_number[q["number"]], rnd)
        if rnd.check_mode == "number":
            item["used_numbers"] = {}
    return sheet


def decorate(sheet: BuiltSheet, event: Event, team: Team) -> BuiltSheet:
    """The team's part of its sheet, on the event's (decorate_event): the verdicts of
    the final's revealed questions, a double joker's second answer on a revealed round
    (BG-J1), the numbers its answers used in «От 1 до 10» (BG-R5.4), and the play
    part. ``event.rounds`` is not loaded (the event's part may be kept)."""
    played = jokers.used_jokers(team)  # read once: the play part and the revealed rounds
    bg = cast(BgBuiltSheet, sheet)
    for item in bg["rounds"]:
        if item["state"] == RoundState.REVEALED:
            _second_answers(item, played)
        elif any("verdict" in q for q in item["questions"]):
            verdicts = _verdicts(team, item["number"])
            for q in item["questions"]:
                if "verdict" in q:
                    q["verdict"] = verdicts.get(q["number"])
        if "used_numbers" in item:
            item["used_numbers"] = {
                str(n): q["number"] for q in item["questions"]
                if q["answer"] and (n := number_of(q["answer"]["text"])) is not None}
    bg["play"] = play_json(event, team, played, bg["version"])
    return sheet


def _second_answers(item: BgSheetRound, played: list[Any]) -> None:
    """BG-J1 on a revealed round: a question the double joker's second answer won shows
    as won (not in red), with the second answer's own verdict beside it (``played``:
    the team's jokers; a joker's question is read only here, once a round is revealed)."""
    doubles = {j.question.number: j for j in played
               if j.kind == "double" and j.question.round.number == item["number"]}
    for q in item["questions"]:
        joker = doubles.get(q["number"])
        if joker is None:
            continue
        second = joker.second_decision or joker.second_outcome
        q["second_verdict"] = second
        if second == Outcome.CORRECT:
            q["verdict"] = Outcome.CORRECT


def _verdicts(team: Team, round_number: int) -> dict[int, str | None]:
    """The team's verdicts in a round of its event, by question number."""
    rows = db.session.execute(
        db.select(Question.number, Verdict)
        .join(Answer, Verdict.answer_id == Answer.id)
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Answer.team_id == team.id, Round.event_id == team.event_id,
               Round.number == round_number))
    return {number: verdict.final for number, verdict in rows}


# The teams' ids and names only: loading the Team objects (event.teams) cost more
# than the query.
_TEAMS = (db.select(Team.id, Team.name).where(Team.event_id == db.bindparam("event_id"))
          .order_by(Team.id))


def play_json(event: Event, team: Team, played: list[Any] | None = None,
              version: str | None = None) -> dict[str, Any]:
    """Jokers left and played (with first-letter hints), the wildcard, the shoot-out,
    the final round's question states, and the other teams (for the copy joker).

    Kept per team while the event's screen version stands (kept_play): every phone
    asks for it when the state's version moves (static/widgets.js) and with every
    sheet read, and at a 300-team night it cost 9 ms of CPU each time, more than five
    saves."""
    return kept_play(event, team, lambda seen: _play_json(event, team, seen, played),
                     version)[1]


def tagged_play(event: Event, team: Team) -> tuple[str | None, dict[str, Any]]:
    """(validator, play part) for GET /play: a phone that holds the part of that
    validator is answered 304 (api.play_state)."""
    return kept_play(event, team, lambda seen: _play_json(event, team, seen))


def _play_json(event: Event, team: Team, version: str,
               played: list[Any] | None = None) -> dict[str, Any]:
    shared = _event_play(event, version)
    running = next((sid for sid, teams in reversed(shared.shootouts) if team.id in teams), None)
    current = db.session.get(Shootout, running) if running is not None else None
    return {
        "jokers": jokers.team_jokers_json(team, played),
        "wildcard": wildcard.wildcard_for(shared.wildcard, team),
        "shootout": shootout.shootout_json(current, team) if current else None,
        "final": shared.final,
        "teams": [name for team_id, name in shared.teams if team_id != team.id],
    }


@dataclass(frozen=True)
class EventPlay:
    """What every team's play part reads of the event alone: the wildcard's draw and
    who may choose, each shoot-out's teams (by shoot-out id, oldest first), the final
    round's question states and the teams' names (by id). Kept per event while its
    screen version stands, like the play parts (kept_play): 900 phones arriving at a
    300-team night each built it again, four statements each (bench/README.md)."""

    wildcard: tuple[dict[str, Any] | None, int | None]
    shootouts: tuple[tuple[int, frozenset[int]], ...]
    final: dict[str, str]
    teams: tuple[tuple[int, str], ...]


def _event_play(event: Event, version: str) -> EventPlay:
    kept = current_app.extensions.setdefault("answerdesk.bg_event_play", {})
    hit = kept.get(event.id)
    if hit is not None and hit[0] == version:
        return hit[1]
    final = next((r for r in event.rounds if is_one_at_a_time(r)), None)
    opened = gates(final) if final else {}
    shared = EventPlay(
        wildcard=wildcard.drawn_wildcard(event),
        shootouts=tuple((s.id, frozenset(s.teams)) for s in shootout.event_shootouts(event)),
        final={str(q.number): opened[q.id].state for q in (final.questions if final else [])
               if q.id in opened},
        teams=tuple((row.id, row.name)
                    for row in db.session.execute(_TEAMS, {"event_id": event.id})),
    )
    if len(kept) >= KEPT_LIMIT:
        kept.clear()
    kept[event.id] = (version, shared)
    return shared


#: Teams' play parts a process keeps at most (two full events of 300); past it all are dropped.
KEPT_LIMIT = 600


def kept_play(event: Event, team: Team, build: Callable[[str], dict[str, Any]],
              version: str | None = None) -> tuple[str | None, dict[str, Any]]:
    """(validator, play part) of ``team``: the one kept for the event's screen version
    (live.screen_version) if there is one, else ``build()``'s, kept. The version moves
    with every audited change that is not a phone save, and everything the play part
    shows changes only so (a joker, the wildcard, a final question's gate, a team
    joining: each writes its audit entry in the change's transaction); a phone save
    changes none of it. The version is read before the part is built, so a kept part
    is never older than its version. A part with a shoot-out running counts seconds
    down: built every time, never kept, no validator. ``version``: the screen version
    the caller read before anything it builds (a sheet read, sheets.team_sheet);
    ``build`` gets it."""
    version = version or live.screen_version(event.id)
    kept = _kept(current_app)
    key = (event.id, team.id)
    hit = kept.get(key)
    if hit is not None and hit[0] == version:
        return f"{team.id}-{version}", hit[1]
    part = build(version)
    if part["shootout"] is not None:
        return None, part
    if len(kept) >= KEPT_LIMIT:
        kept.clear()
    kept[key] = (version, part)
    return f"{team.id}-{version}", part


def _kept(app: Any) -> dict[tuple[int, int], tuple[str, dict[str, Any]]]:
    """The app's kept play parts (one dict per app: tests run many apps, whose ids repeat)."""
    return app.extensions.setdefault("answerdesk.bg_play", {})
