"""The wildcard round „Последните ще станат първи“ (BG-R5.0-R5.5).

After R4 the system names the team ranked last; a tie for last is broken by a
draw (scoring.last_place_draw) whose seed, candidates and result are recorded
here and shown on the projector. That team (on its phone) or the host picks
the scenario; round 5 then takes the scenario's kind, check mode and points
(formats.bg.BG_SCENARIOS) and, when the event has a question set for it, those
questions.
"""

from __future__ import annotations

from typing import Any

from ...core import audit
from ...core.states import RoundState
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Question, Round, Team, Wildcard, utcnow
from . import scoring
from .programme import BG_SCENARIOS, WILDCARD_ROUND

BEFORE_WILDCARD = (1, 2, 3, 4)


def wildcard_of(event: Event, *, create: bool = False) -> Wildcard | None:
    row = db.session.scalar(db.select(Wildcard).where(Wildcard.event_id == event.id))
    if row is None and create:
        row = Wildcard(event_id=event.id)
        db.session.add(row)
        db.session.flush()
    return row


def set_bank(event: Event, bank: dict[str, list[dict[str, Any]]]) -> Wildcard:
    """The questions prepared for each scenario: {"5.4": [{"text", "key", "hint"?}, ...]}."""
    unknown = set(bank) - set(BG_SCENARIOS)
    if unknown:
        raise DeskError("Unknown scenarios %(scenarios)s", scenarios=sorted(unknown))
    row = wildcard_of(event, create=True)
    row.bank = bank
    db.session.commit()
    return row


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
    db.session.commit()
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
    if team is not None and row.scenario is not None:
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
    rnd.kind, rnd.points = chosen.kind, chosen.points
    rnd.check_mode, rnd.partial_points = chosen.check_mode, chosen.partial_points
    questions = (row.bank or {}).get(scenario)
    if questions:
        for old in list(rnd.questions):
            rnd.questions.remove(old)
        db.session.flush()
        for number, item in enumerate(questions, start=1):
            rnd.questions.append(Question(
                number=number, text=item.get("text", ""), key=item["key"],
                hint=item.get("hint"), check_mode=item.get("check_mode")))
    row.scenario = scenario
    row.chosen_by = f"team:{team.name}" if team is not None else actor
    audit.record(event, row.chosen_by, "wildcard.choose", f"R{WILDCARD_ROUND} {scenario}",
                 before=before, after={"scenario": scenario, "check_mode": chosen.check_mode,
                                       "points": chosen.points})
    db.session.commit()
    return rnd


def wildcard_json(event: Event, team: Team | None = None) -> dict[str, Any] | None:
    """The draw and the choice, for the projector and the chooser's phone."""
    row = wildcard_of(event)
    if row is None or (row.chooser_team_id is None and row.scenario is None):
        return None
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
    if team is not None:
        data["can_choose"] = bool(row.chooser_team_id == team.id and rnd is not None
                                  and rnd.state == RoundState.DRAFT and row.scenario is None)
    return data
