"""A paper team's jokers and shoot-out numbers, typed by the host (BG-E1, BG-J, BG-S3).

A team without phones writes its joker or its three shoot-out numbers on paper;
the host enters them on the paper screen (core/paper.py shows ``panel``). They
go through the phones' own services (jokers.play_joker, shootout.save_numbers)
so the same rules refuse the same things (a joker used twice, outside its
rounds, a round whose answers are shown) and the standings count them alike;
each entry carries an audit entry marked "paper". Unlike a phone, the paper is
typed after it was handed in: a joker after the round's lock, the shoot-out
numbers after the minute.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import DeskError, NotFound
from ...extensions import db
from ...models import Event, Round, Team
from . import jokers, scoring, shootout
from .models import Joker


def panel(event: Event, team: Team, rnd: Round) -> dict[str, Any]:
    """What the paper screen offers for ``team`` on ``rnd``: the jokers it may still
    play there, those it played, its rivals to copy, and its shoot-out if it plays one."""
    if not jokers.applies(event):
        return {}
    played = jokers.used_jokers(team)
    used = {j.kind for j in played}
    running = shootout.current_for_team(event, team)
    view = shootout.shootout_json(running, team) if running is not None else None
    return {
        "played": [_played(j) for j in played],
        "playable": [k for k in jokers.KINDS
                     if scoring.joker_allowed(k, rnd.number, used)[0]],
        "round_open": rnd.state in jokers.PAPER_PLAYABLE,
        "questions": [q.number for q in rnd.questions],
        "rivals": [(t.id, t.name) for t in db.session.scalars(
            db.select(Team).where(Team.event_id == event.id, Team.id != team.id)
            .order_by(Team.name_key))],
        "shootout": view,
        "typed": [_typed(n) for n in view["numbers"]] if view else [],
    }


def _typed(number: float | None) -> str:
    """A stored number as the host typed it: 1969, not 1969.0."""
    if number is None:
        return ""
    return str(int(number)) if float(number).is_integer() else str(number)


def _played(joker: Joker) -> dict[str, Any]:
    return {"kind": joker.kind, "round": joker.question.round.number,
            "question": joker.question.number,
            "copy_of": joker.target.name if joker.target else None, "hint": joker.hint}


def _whole(form: Mapping[str, str], name: str) -> int:
    value = str(form.get(name) or "").strip()
    if not value.isdigit() or int(value) > 1000:
        raise DeskError("%(field)s must be a whole number from 0 to 1000", field=name)
    return int(value)


def play_joker(event: Event, team: Team, form: Mapping[str, str], actor: str) -> Joker:
    """The joker the team wrote on its sheet (BG-J1-J3), as its phone would play it."""
    kind = str(form.get("kind") or "")
    copy_of: int | None = None
    if kind == scoring.COPY:
        copy_of = _whole(form, "copy_of") if form.get("copy_of") else None
        if copy_of is None:
            raise DeskError("Name the team whose answer you copy.", field="copy_of")
    return jokers.play_joker(team, kind, _whole(form, "round"), _whole(form, "question"),
                             copy_of=copy_of, confirmed=form.get("confirm") == "1",
                             actor=actor, source="paper")


def save_numbers(event: Event, team: Team, form: Mapping[str, str], actor: str) -> Any:
    """The three shoot-out numbers on the team's paper (BG-S3), under the phones' lock."""
    if shootout.current_for_team(event, team) is None:
        raise NotFound("%(team)s plays in no shoot-out", team=team.name)
    return shootout.save_numbers(event, team, [form.get(f"number{i}") for i in (1, 2, 3)],
                                 actor=actor)
