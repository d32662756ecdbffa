"""The wildcard round „Последните ще станат първи“ (BG-R5.0-R5.5).

After R4 the system names the team ranked last; a tie for last is broken by a
draw (scoring.last_place_draw) whose seed, candidates and result are recorded
here and shown on the projector. That team (on its phone) or the host picks
the scenario; round 5 then takes the scenario's kind, check mode and points
(formats.bg.BG_SCENARIOS) and the event's own question set for it: from its
pack (a native pack's `wildcard` field) or typed by the host on the rules page.
A scenario the event has no set for is refused, never filled from elsewhere,
unless round 5's own questions already follow that scenario's check mode.
"""

from __future__ import annotations

from typing import Any, Literal, overload

from ...core import audit
from ...core.states import RoundState
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Question, Round, Team, utcnow
from ...packs import QuestionSpec
from ...packs.importer import question_row, question_spec
from . import scoring
from .models import Wildcard
from .programme import BG_SCENARIOS, WILDCARD_ROUND

BEFORE_WILDCARD = (1, 2, 3, 4)


@overload
def wildcard_of(event: Event, *, create: Literal[True]) -> Wildcard: ...
@overload
def wildcard_of(event: Event, *, create: bool = False) -> Wildcard | None: ...
def wildcard_of(event: Event, *, create: bool = False) -> Wildcard | None:
    """The event's wildcard row; made (and flushed) when ``create`` and there is none."""
    row = db.session.scalar(db.select(Wildcard).where(Wildcard.event_id == event.id))
    if row is None and create:
        row = Wildcard(event_id=event.id)
        db.session.add(row)
        db.session.flush()
    return row


# What a scenario set's question keeps (the columns of Question it fills).
QUESTION_FIELDS = ("text", "key", "hint", "check_mode", "points", "media", "details")


def bank_item(question: Question) -> dict[str, Any]:
    """A (transient) question as a scenario set keeps it."""
    return {name: value for name in QUESTION_FIELDS
            if (value := getattr(question, name)) not in (None, "", [], {})}


def set_question(number: int, item: dict[str, Any]) -> Question:
    """A scenario set's question as a (transient) Question of round 5."""
    return Question(number=number, text=item.get("text", ""),
                    **{name: item.get(name) for name in QUESTION_FIELDS if name != "text"})


def store_sets(event: Event, sets: dict[str, list[dict[str, Any]]], *,
               replace: bool) -> Wildcard | None:
    """The event's scenario sets: all of them (``replace``) or these ones added.
    Flushes only: a pack import commits it with its rounds."""
    unknown = set(sets) - set(BG_SCENARIOS)
    if unknown:
        raise DeskError("Unknown scenarios %(scenarios)s", scenarios=sorted(unknown))
    row = wildcard_of(event, create=bool(sets))
    if row is None:
        return None
    row.bank = {**({} if replace else row.bank or {}), **sets} or None
    db.session.flush()
    return row


def set_media_files(event: Event) -> set[str]:
    """The stored files every scenario set's questions name."""
    row = wildcard_of(event)
    return {m["file"] for items in ((row.bank or {}).values() if row else ())
            for item in items for m in item.get("media") or [] if m.get("file")}


def set_scenario_set(event: Event, scenario: str, questions: list[Question],
                     actor: str = "host") -> None:
    """The host fills (or, with no questions, empties) one scenario's set."""
    if scenario not in BG_SCENARIOS:
        raise DeskError("Unknown scenario '%(scenario)s'; choose one of %(choices)s",
                        scenario=str(scenario), choices=", ".join(BG_SCENARIOS))
    row = wildcard_of(event, create=True)
    bank = dict(row.bank or {})
    before = len(bank.get(scenario, []))
    if questions:
        stored = {m["ref"]: m["file"] for item in bank.get(scenario, [])
                  for m in item.get("media") or [] if "file" in m}
        for question in questions:  # a file the pack brought stays with its reference
            question.media = [{**m, "file": stored[m["ref"]]} if m["ref"] in stored else m
                              for m in question.media or []] or None
        bank[scenario] = [bank_item(q) for q in questions]
    else:
        bank.pop(scenario, None)
    row.bank = bank or None
    audit.record(event, actor, "wildcard.set", scenario,
                 before={"questions": before}, after={"questions": len(questions)})
    db.session.flush()


def scenario_specs(event: Event) -> dict[str, list[QuestionSpec]]:
    """The event's scenario sets as a pack's questions (the rules page's YAML)."""
    return {name: [question_spec(q, event.code, {}) for q in questions]
            for name, questions in scenario_sets(event).items()}


def typed_questions(event: Event, specs: list[QuestionSpec]) -> list[Question]:
    """Questions the host typed as (transient) rows; their media are references only."""
    return [question_row(spec, event.code, {}, []) for spec in specs]


def scenario_sets(event: Event) -> dict[str, list[Question]]:
    """The event's own scenario sets as transient questions (pages, export)."""
    row = wildcard_of(event)
    return {name: [set_question(n, item) for n, item in enumerate(items, start=1)]
            for name, items in sorted(((row.bank if row else None) or {}).items())}


def name_chooser(event: Event, actor: str = "host", seed: int | None = None) -> Wildcard:
    """BG-R5.0: the last team after R1-R4 chooses; a tie for last is drawn and recorded."""
    from .standings import event_standings

    rounds = {r.number: r.state for r in event.rounds}
    if rounds.get(4) not in ("locked", "revealed"):
        raise Conflict("Round 4 must be locked before the last team is named")
    row = wildcard_of(event, create=True)
    if row.chooser_team_id is not None:
        db.session.rollback()
        raise Conflict("The last team has already been named")
    rows = event_standings(event, rounds=BEFORE_WILDCARD)
    if not rows:
        raise Conflict("No team has joined")
    standings = [scoring.Standing(r.team_id, r.points, r.place, r.shared, False) for r in rows]
    draw = scoring.last_place_draw(standings, seed=seed)
    names = {r.team_id: r.name for r in rows}
    row.candidates = [{"id": t, "name": names[t]} for t in draw.candidates]
    row.seed = None if draw.seed is None else str(draw.seed)
    row.chooser_team_id = draw.chosen
    row.drawn_at = utcnow()
    audit.record(event, actor, "wildcard.draw", names[draw.chosen],
                 after={"candidates": [names[t] for t in draw.candidates], "seed": row.seed,
                        "chosen": names[draw.chosen]})
    db.session.flush()
    return row


def choose_scenario(event: Event, scenario: str, *, team: Team | None = None,
                    actor: str = "host") -> Round:
    """The chooser (or the host for it) picks 5.1-5.5; round 5 takes its rules."""
    if scenario not in BG_SCENARIOS:
        raise DeskError("Unknown scenario '%(scenario)s'; choose one of %(choices)s",
                        scenario=str(scenario), choices=", ".join(BG_SCENARIOS))
    row = wildcard_of(event)
    if team is not None and (row is None or row.chooser_team_id != team.id):
        raise Conflict("Only the team ranked last chooses the wildcard scenario")
    if team is not None and row is not None and row.scenario is not None:
        raise Conflict("The scenario is chosen; only the host can change it")
    rnd = db.session.scalar(db.select(Round).where(
        Round.event_id == event.id, Round.number == WILDCARD_ROUND).with_for_update())
    if rnd is None:
        raise NotFound("This event has no wildcard round")
    if rnd.state != RoundState.DRAFT:
        db.session.rollback()
        raise Conflict("The wildcard round has already started")
    row = row or wildcard_of(event, create=True)
    chosen = BG_SCENARIOS[scenario]
    before = {"scenario": row.scenario, "check_mode": rnd.check_mode, "points": rnd.points}
    own_fit = bool(rnd.questions) and _fits(rnd, scenario)
    rnd.kind, rnd.points = chosen.kind, chosen.points
    rnd.check_mode, rnd.partial_points = chosen.check_mode, chosen.partial_points
    questions = (row.bank or {}).get(scenario)
    if questions:
        for old in list(rnd.questions):
            rnd.questions.remove(old)
        db.session.flush()
        for number, item in enumerate(questions, start=1):
            rnd.questions.append(set_question(number, item))
    elif not own_fit:
        db.session.rollback()
        raise Conflict("This event has no questions for scenario %(scenario)s: the host "
                       "adds them on the rules page first", scenario=scenario)
    row.scenario = scenario
    row.chosen_by = f"team:{team.name}" if team is not None else actor
    audit.record(event, row.chosen_by, "wildcard.choose", f"R{WILDCARD_ROUND} {scenario}",
                 before=before, after={"scenario": scenario, "check_mode": chosen.check_mode,
                                       "points": chosen.points})
    db.session.flush()
    return rnd


def _fits(rnd: Round, scenario: str) -> bool:
    """Round 5's own questions (a pack's round 5) are the set of the scenario they are
    judged like: the one check mode's scenario; for exact, 5.2 if pictures, else 5.1."""
    chosen = BG_SCENARIOS[scenario]
    if rnd.check_mode != chosen.check_mode:
        return False
    same_mode = [s for s in BG_SCENARIOS.values() if s.check_mode == chosen.check_mode]
    return (len(same_mode) == 1 or rnd.kind == chosen.kind
            or (rnd.kind == "wildcard" and scenario == "5.1"))


def wildcard_json(event: Event, team: Team | None = None) -> dict[str, Any] | None:
    """The draw and the choice, for the projector and the chooser's phone."""
    return wildcard_for(drawn_wildcard(event), team)


def drawn_wildcard(event: Event) -> tuple[dict[str, Any] | None, int | None]:
    """The draw and the choice as every phone sees it, and the id of the team that may
    choose now (none when nobody may): what wildcard_for reads per team, kept with the
    phones' play parts under the event's screen version (play._event_play)."""
    row = wildcard_of(event)
    if row is None or (row.chooser_team_id is None and row.scenario is None):
        return None, None
    rnd = event.round(WILDCARD_ROUND)
    data: dict[str, Any] = {
        "candidates": [c["name"] for c in row.candidates or []],
        "seed": row.seed,
        "chooser": row.chooser.name if row.chooser else None,
        "scenario": row.scenario,
        "scenario_name": BG_SCENARIOS[row.scenario].name if row.scenario else None,
        "scenarios": {k: s.name for k, s in BG_SCENARIOS.items()},
        "can_choose": False,
    }
    choosing = (row.chooser_team_id if rnd is not None and rnd.state == RoundState.DRAFT
                and row.scenario is None else None)
    return data, choosing


def wildcard_for(drawn: tuple[dict[str, Any] | None, int | None],
                 team: Team | None) -> dict[str, Any] | None:
    """``drawn`` (drawn_wildcard) as ``team``'s phone sees it: may it choose?"""
    data, choosing = drawn
    if data is None or team is None:
        return data
    return {**data, "can_choose": choosing is not None and choosing == team.id}
