"""The penalty shoot-out „Дузпи“ (BG-S3) for a tie for first or second place.

The host starts it for the tied group with three numeric questions; the tied
teams' phones get one minute in total; at the end the answers are locked (a
save after the deadline is refused). Who scores and the final order come from
scoring.shootout / scoring.apply_shootout.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ...core import audit
from ...core import formats as registry
from ...core.states import CLOSED_ROUND_STATES, RoundState
from ...errors import Conflict, DeskError, NotFound, RoundLocked
from ...extensions import db
from ...models import Event, Team, utcnow
from . import scoring
from .models import Shootout, ShootoutAnswer

if TYPE_CHECKING:
    from .standings import StandingRow

SECONDS = 60


def deadline(shootout: Shootout) -> dt.datetime:
    return shootout.started_at + dt.timedelta(seconds=shootout.seconds)


def is_locked(shootout: Shootout, now: dt.datetime | None = None) -> bool:
    """Locked by the host, or one minute after the start (BG-S3)."""
    return shootout.locked_at is not None or (now or utcnow()) >= deadline(shootout)


def is_decided(shootout: Shootout) -> bool:
    """The host has closed it: every number, a paper team's too, is in (BG-S3). Until
    then no order is shown, so no phone sees a winner that the paper numbers overturn."""
    return shootout.locked_at is not None


def _number(value: Any) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise DeskError("A shoot-out answer must be a number")
    try:
        number = float(str(value).strip().replace(",", ".").replace(" ", ""))
    except ValueError:
        raise DeskError("'%(value)s' is not a number", value=str(value)) from None
    if number != number or number in (float("inf"), float("-inf")):
        raise DeskError("'%(value)s' is not a number", value=str(value))
    return number


def _shown(value: float | None) -> float | int | None:
    """1969.0 as 1969, as it was typed (the audit log, phones, projector)."""
    return int(value) if value is not None and value.is_integer() else value


def start_shootout(event: Event, questions: Sequence[tuple[str, Any]], actor: str = "host",
                   seconds: int = SECONDS) -> Shootout:
    """Start the shoot-out of the first tied group still needing one (BG-S2, BG-S3). The
    standings come through the format registry: they apply finished shoot-outs
    (standings.py imports this module), so this module does not import them."""
    if len(questions) != 3:
        raise DeskError("A shoot-out has exactly three questions")
    parsed = []
    for text, answer in questions:
        value = _number(answer)
        if value is None:
            raise DeskError("Each shoot-out question needs its numeric answer")
        parsed.append({"text": str(text or "").strip()[:300], "answer": value})
    running = [s for s in event_shootouts(event) if not is_decided(s)]
    if running:
        raise Conflict("A shoot-out is still running")
    if not played_out(event):
        raise Conflict("The shoot-out comes once the rounds are played and no round is open.")
    rows = cast("list[StandingRow]", registry.get(event.format).standings(event))
    tied = [r for r in rows if r.shootout_needed]
    if not tied:
        raise Conflict("No tie for first or second place needs a shoot-out")
    place = min(r.place for r in tied)
    teams = [r.team_id for r in tied if r.place == place]
    shootout = Shootout(event_id=event.id, place=place, teams=teams, questions=parsed,
                        seconds=seconds, started_at=utcnow())
    db.session.add(shootout)
    audit.record(event, actor, "shootout.start", f"place {place}",
                 after={"teams": [r.name for r in tied if r.place == place],
                        "questions": parsed})
    db.session.flush()
    return shootout


def played_out(event: Event) -> bool:
    """BG-S2: a tie is decided at the end: some round closed and none open (not 0:0
    before the first round)."""
    states = [r.state for r in event.rounds]
    return RoundState.OPEN not in states and any(s in CLOSED_ROUND_STATES for s in states)


def event_shootouts(event: Event) -> list[Shootout]:
    return list(db.session.scalars(
        db.select(Shootout).where(Shootout.event_id == event.id).order_by(Shootout.id)
    ))


def current_for_team(event: Event, team: Team) -> Shootout | None:
    """The newest shoot-out this team plays in, if any."""
    return next((s for s in reversed(event_shootouts(event)) if team.id in s.teams), None)


def save_numbers(event: Event, team: Team, numbers: object,
                 actor: str | None = None) -> ShootoutAnswer:
    """A tied team's three numbers; a phone's are refused once the minute is over (BG-S3).

    The host types a paper team's numbers (BG-E1), with an audit entry (``actor``),
    also after the minute: the team wrote them on paper within it and the host
    types them when the paper reaches the desk. A phone's saves, many a minute,
    carry no audit entry.
    """
    if not isinstance(numbers, list | tuple) or len(numbers) != 3:
        raise DeskError("Send the three numbers as a list")
    values = [_number(n) for n in numbers]
    team_id, team_name = team.id, team.name
    shootout = current_for_team(event, team)
    if shootout is None:
        raise NotFound("Your team plays in no shoot-out")
    shootout = db.session.scalar(
        db.select(Shootout).where(Shootout.id == shootout.id).with_for_update(read=True))
    if actor is None and is_locked(shootout):
        db.session.rollback()
        raise RoundLocked("The shoot-out is over: answers are locked.")
    row = db.session.scalar(db.select(ShootoutAnswer).where(
        ShootoutAnswer.shootout_id == shootout.id, ShootoutAnswer.team_id == team_id))
    if row is None:
        row = ShootoutAnswer(shootout_id=shootout.id, team_id=team_id, numbers=values)
        db.session.add(row)
    row.numbers, row.saved_at = values, utcnow()
    if actor is not None:
        audit.record(event, actor, "shootout.numbers", team_name,
                     after={"numbers": [_shown(v) for v in values], "source": "paper"})
    db.session.flush()
    return row


def lock_shootout(event: Event, shootout_id: int, actor: str = "host") -> Shootout:
    """End the shoot-out now (or record the end of its minute)."""
    shootout = db.session.scalar(db.select(Shootout).where(
        Shootout.id == shootout_id, Shootout.event_id == event.id).with_for_update())
    if shootout is None:
        raise NotFound("No such shoot-out")
    if shootout.locked_at is None:
        shootout.locked_at = min(utcnow(), deadline(shootout))
        audit.record(event, actor, "shootout.lock", f"place {shootout.place}")
    db.session.flush()
    return shootout


def result(shootout: Shootout) -> scoring.ShootoutResult[int]:
    """Who scored on each question and the order of the group (BG-S3)."""
    answers = {
        a.team_id: a.numbers for a in db.session.scalars(
            db.select(ShootoutAnswer).where(ShootoutAnswer.shootout_id == shootout.id))
    }
    return scoring.shootout(shootout.teams, [q["answer"] for q in shootout.questions], answers)


def apply_shootouts(
    event: Event, ranked: list[scoring.Standing[int]]
) -> list[scoring.Standing[int]]:
    """Final places: each locked shoot-out whose group is still exactly tied orders it."""
    for shootout in event_shootouts(event):
        if not is_decided(shootout):
            continue
        group = set(shootout.teams)
        places = {s.place for s in ranked if s.team in group and s.shootout_needed}
        if len(places) != 1:
            continue
        place = places.pop()
        if group == {s.team for s in ranked if s.place == place}:
            ranked = scoring.apply_shootout(ranked, result(shootout))
    return ranked


def shootout_json(shootout: Shootout, team: Team | None = None) -> dict[str, Any]:
    """The phone's and projector's view: questions, time left, and the outcome once locked."""
    now = utcnow()
    locked = is_locked(shootout, now)
    names = dict(db.session.execute(
        db.select(Team.id, Team.name).where(Team.id.in_(shootout.teams))).all())
    data: dict[str, Any] = {
        "id": shootout.id,
        "place": shootout.place,
        "teams": [names.get(t, "?") for t in shootout.teams],
        "questions": [q["text"] for q in shootout.questions],
        "seconds_left": max(0, int((deadline(shootout) - now).total_seconds())),
        "locked": locked,
    }
    if team is not None:
        mine = db.session.scalar(db.select(ShootoutAnswer.numbers).where(
            ShootoutAnswer.shootout_id == shootout.id, ShootoutAnswer.team_id == team.id))
        data["numbers"] = [_shown(n) for n in mine] if mine else [None, None, None]
    handed = set(db.session.scalars(db.select(ShootoutAnswer.team_id).where(
        ShootoutAnswer.shootout_id == shootout.id)))
    data["missing"] = [names.get(t, "?") for t in shootout.teams if t not in handed]
    data["decided"] = is_decided(shootout)
    if data["decided"]:
        outcome = result(shootout)
        data["answers"] = [_shown(q["answer"]) for q in shootout.questions]
        data["scores"] = {names.get(t, "?"): s for t, s in outcome.scores.items()}
        data["order"] = [[names.get(t, "?") for t in level] for level in outcome.order]
        data["given"] = [
            {names.get(t, "?"): _shown(v) for t, v in q.answers.items()}
            for q in outcome.questions
        ]
    return data
