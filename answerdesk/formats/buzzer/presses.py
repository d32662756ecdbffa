"""Sync exchanges and presses in the database (OQ-4); the arithmetic is timing.py.

A format that plays with the buzzer says, through ``Arming``, which question the
buzzer is armed for, since when, until when the reading runs and which teams are
out; this module stores and refuses, and orders the presses once the window has
closed. Refusals change nothing. The server's estimate of a clock is per phone
(``Phone``): in OpenQuiz up to three players' phones play for one team, and each
press is converted with the estimate of the phone that pressed.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, replace
from typing import Annotated, Any

from msgspec import Meta
from sqlalchemy.exc import IntegrityError

from ...bodies import N_, Body
from ...core.formats import QuestionStart
from ...errors import Conflict, DeskError
from ...extensions import db
from ...models import Team
from . import timing
from .models import BuzzPress, BuzzSample

#: Sync exchanges kept per phone: enough for the best few of a minute of 5 s syncs.
KEPT_SAMPLES = 16
#: Larger than any epoch millisecond a phone sends this century, small enough for JSON.
MAX_MS = 2**53 - 1

#: A phone's time as sent: whole epoch milliseconds.
EpochMs = Annotated[int, Meta(ge=0, le=MAX_MS)]
MS_REFUSAL = N_("%(name)s must be a whole number of milliseconds.")
LAST_REFUSAL = N_("last must be an object with client_ms, server_ms and received_ms.")


def _ms_refusal(field: str) -> DeskError:
    return DeskError(MS_REFUSAL, name=field, field=field)


def _is_ms(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= MAX_MS


class ClockExchange(Body):
    """The phone's report of its previous sync exchange, with its receipt time."""

    client_ms: EpochMs
    server_ms: EpochMs
    received_ms: EpochMs


class ClockSync(Body):
    """POST /api/events/{code}/clock: the phone's send time and its previous exchange."""

    client_ms: EpochMs
    last: Annotated[ClockExchange | None, Meta(description=(
        "The previous exchange with the phone's receipt time, completing that sample"))] = None

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        last = body.get("last") if isinstance(body, dict) else None
        if field != "last":
            return _ms_refusal(field)
        if isinstance(last, dict):
            for name in ClockExchange.__struct_fields__:
                if not _is_ms(last.get(name)):
                    return _ms_refusal(f"last.{name}")
        return DeskError(LAST_REFUSAL, field=field)


class BuzzPressRequest(Body):
    """POST /api/events/{code}/buzz: the question the phone pressed for and when, on
    its own clock."""

    round: Annotated[int, Meta(ge=0, lt=2**31)]
    question: Annotated[int, Meta(ge=0, lt=2**31)]
    pressed_at_ms: EpochMs

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        if field == "pressed_at_ms":
            return _ms_refusal(field)
        return DeskError(N_("round and question must be whole numbers."), field=field)


def now_ms() -> int:
    """The server's clock in epoch milliseconds (every stamp of this module)."""
    return time.time_ns() // 1_000_000


def to_ms(moment: dt.datetime) -> int:
    """A naive UTC datetime of the models as epoch milliseconds."""
    return round(moment.replace(tzinfo=dt.UTC).timestamp() * 1000)


def from_ms(ms: int) -> dt.datetime:
    """Epoch milliseconds as a naive UTC datetime of the models."""
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).replace(tzinfo=None)


def buzzer_start(start: QuestionStart) -> QuestionStart:
    """How a buzzer game's question starts through core's start (Format.start_question):
    at the buzzer's own clock, so the arming time and the presses share one clock,
    and without a deadline unless the host set one (the host's call ends it)."""
    opened = from_ms(now_ms())
    if not start.asked:
        return replace(start, opened_at=opened, seconds=None, grace=None, locks_at=None)
    span = dt.timedelta(seconds=(start.seconds or 0) + (start.grace or 0))
    return replace(start, opened_at=opened, locks_at=opened + span)


class AlreadyPressed(Conflict):
    code = "already_pressed"


class BuzzerNotArmed(Conflict):
    code = "buzzer_not_armed"


class WindowClosed(Conflict):
    code = "window_closed"


class TeamIsOut(Conflict):
    code = "team_is_out"


@dataclass(frozen=True)
class Arming:
    """What a format tells the buzzer about one question it plays (OQ-4)."""

    question_id: int
    round_number: int
    question_number: int
    armed_ms: int  # presses count from here: the question cannot reach a phone earlier
    attempt: int = 1  # a rejected answer returns the question: the next attempt
    reading_until_ms: int | None = None  # reading mode: earlier presses get the penalty
    out: frozenset[int] = frozenset()  # teams that answered or passed


@dataclass(frozen=True)
class Phone:
    """The phone behind a request: the team it plays for, the key of its own clock
    estimate (OQ-4: "the server keeps its own estimate per phone") and the name of the
    player holding it, where the game knows one (the host sees who pressed)."""

    team: Team
    key: str
    player: str | None = None

    @classmethod
    def of_team(cls, team: Team) -> Phone:
        """The phone of a team token (a BG team, a Своя игра player: a team of one)."""
        return cls(team, f"team:{team.id}")


# -- clock sync --------------------------------------------------------------------------

def sync(phone: Phone | None, client_ms: int, last: ClockExchange | None,
         server_ms: int) -> dict[str, Any]:
    """One sync exchange: stamp it, store it for a known phone, complete its previous one.

    ``last`` is the phone's report of its previous exchange (``client_ms``,
    ``server_ms``, ``received_ms``); the server keeps the receipt only if it is
    plausible by its own stamps (timing.sample_is_plausible), so the offset it uses
    is its own estimate, whatever the phone believes. The reply tells the phone the
    server's time only: neither the estimate nor the allowance the server keeps of it,
    which a cheating phone could tune its claims by (issue 31).
    """
    reply: dict[str, Any] = {"server_ms": server_ms}
    if phone is None:
        return reply
    if last is not None:
        _complete(phone.key, last, client_ms, server_ms)
    db.session.add(BuzzSample(team_id=phone.team.id, phone=phone.key, client_send_ms=client_ms,
                              server_ms=server_ms))
    db.session.flush()
    _trim(phone.key)
    return reply


def _complete(phone: str, last: ClockExchange, client_ms: int, server_ms: int) -> None:
    sent, stamped, received = last.client_ms, last.server_ms, last.received_ms
    row = db.session.scalar(db.select(BuzzSample).where(
        BuzzSample.phone == phone, BuzzSample.client_send_ms == sent,
        BuzzSample.server_ms == stamped, BuzzSample.client_receive_ms.is_(None)))
    if row is None:
        return  # trimmed, or already completed: a replay changes nothing
    sample = timing.Sample(sent, stamped, received)
    if timing.sample_is_plausible(sample, next_send_ms=client_ms, next_server_ms=server_ms):
        row.client_receive_ms = received
        row.seen_rtt_ms = timing.seen_rtt(sample, client_ms, server_ms)


def _trim(phone: str) -> None:
    """Keep the phone's latest KEPT_SAMPLES exchanges (each phone its own)."""
    keep = db.select(BuzzSample.id).where(BuzzSample.phone == phone).order_by(
        BuzzSample.id.desc()).limit(KEPT_SAMPLES).subquery()
    db.session.execute(db.delete(BuzzSample).where(
        BuzzSample.phone == phone, BuzzSample.id.not_in(db.select(keep.c.id))))


def estimate_for(phone: str, before_ms: int) -> timing.Estimate | None:
    """The server's estimate of one phone's clock (its key, ``Phone.key``) from that
    phone's own exchanges completed by then; None without any (a press is then placed
    at its arrival, flagged ``no_sync``)."""
    rows = db.session.execute(db.select(
        BuzzSample.client_send_ms, BuzzSample.server_ms, BuzzSample.client_receive_ms,
    ).where(BuzzSample.phone == phone, BuzzSample.client_receive_ms.is_not(None),
            BuzzSample.server_ms <= before_ms)).all()
    return timing.estimate(timing.Sample(*row) for row in rows)


def allowance_for(phone: str, before_ms: int) -> int | None:
    """How far before its arrival a press of the phone may have been made, from its
    latest round trips as the server timed them (timing.allowance_ms)."""
    trips = db.session.scalars(db.select(BuzzSample.seen_rtt_ms).where(
        BuzzSample.phone == phone, BuzzSample.seen_rtt_ms.is_not(None),
        BuzzSample.server_ms <= before_ms).order_by(BuzzSample.id.desc())
        .limit(timing.ALLOWANCE_SAMPLES))
    return timing.allowance_ms(trips)


# -- presses -----------------------------------------------------------------------------

def _presses(arming: Arming) -> list[BuzzPress]:
    return list(db.session.scalars(db.select(BuzzPress).where(
        BuzzPress.question_id == arming.question_id, BuzzPress.attempt == arming.attempt,
    ).order_by(BuzzPress.received_ms, BuzzPress.id)))


def press(arming: Arming | None, phone: Phone, claimed: int, received_ms: int) -> BuzzPress:
    """Store a press (OQ-4) with the estimate of the phone that pressed, or refuse it
    changing nothing.

    Refused: the buzzer not armed (before the question opened), the team out (it
    answered or passed), a second press of the team, a press after the window.
    """
    team = phone.team
    if arming is None or received_ms < arming.armed_ms:
        raise BuzzerNotArmed("The buzzer is not armed for this question.")
    if team.id in arming.out:
        raise TeamIsOut("Your team already answered or passed this question.")
    earlier = _presses(arming)
    if any(p.team_id == team.id for p in earlier):
        raise AlreadyPressed("Your team already pressed for this question.")
    closes = timing.window_closes_ms(p.received_ms for p in earlier)
    if closes is not None and received_ms > closes:
        raise WindowClosed("Too late: the buzzer window has closed.")
    est = estimate_for(phone.key, received_ms)
    row = BuzzPress(question_id=arming.question_id, attempt=arming.attempt, team_id=team.id,
                    phone=phone.key, player=phone.player, claimed_ms=claimed,
                    received_ms=received_ms,
                    offset_ms=est.offset_ms if est else None, rtt_ms=est.rtt_ms if est else None,
                    samples=est.samples if est else 0,
                    allowance_ms=allowance_for(phone.key, received_ms))
    try:
        with db.session.begin_nested():
            db.session.add(row)
            db.session.flush()
            # Stored only once the database took it: if that is after the window closed
            # (a busy database), screens may already show the order without it, so it
            # is refused like any late press and every screen keeps the same order.
            if closes is not None and now_ms() > closes:
                raise WindowClosed("Too late: the buzzer window has closed.")
    except IntegrityError:
        raise AlreadyPressed("Your team already pressed for this question.") from None
    return row


def window_closes(arming: Arming) -> int | None:
    """When the window of the question's current attempt closes (None: nobody pressed)."""
    return timing.window_closes_ms(p.received_ms for p in _presses(arming))


def _placed(arming: Arming, row: BuzzPress) -> timing.Placed:
    est = (timing.Estimate(row.offset_ms, row.rtt_ms, row.samples)
           if row.offset_ms is not None and row.rtt_ms is not None else None)
    return timing.place(timing.Press(row.team_id, row.claimed_ms, row.received_ms, est,
                                     row.allowance_ms),
                        arming.armed_ms, arming.reading_until_ms)


def buzz_state(arming: Arming, at_ms: int) -> dict[str, Any]:
    """The buzzer of one question as everyone may see it: the order only once the
    window has closed (before that it is still open to presses)."""
    rows = _presses(arming)
    closes = timing.window_closes_ms(r.received_ms for r in rows)
    state: dict[str, Any] = {"round": arming.round_number, "question": arming.question_number,
             "attempt": arming.attempt, "armed_ms": arming.armed_ms,
             "reading_until_ms": arming.reading_until_ms, "window_closes_ms": closes,
             "state": "armed" if closes is None else "collecting" if at_ms <= closes
             else "closed", "order": []}
    if state["state"] == "closed":
        names = dict(db.session.execute(db.select(Team.id, Team.name).where(
            Team.id.in_([r.team_id for r in rows]))).all())
        players = {r.team_id: r.player for r in rows}  # one press a team an attempt
        state["order"] = [
            {"place": r.place, "team": names[r.competitor], "player": players[r.competitor],
             "at_ms": r.at_ms,
             "margin_ms": r.margin_ms, "behind_first_ms": r.behind_first_ms,
             "penalty_ms": r.penalty_ms, "flags": [str(f) for f in r.flags]}
            for r in timing.order([_placed(arming, row) for row in rows])]
    return state


def public_buzz(state: dict[str, Any]) -> dict[str, Any]:
    """The buzzer as phones and the projector may see it: while presses are collected it
    looks armed, with no closing time, so no phone learns that another pressed before
    the window closes (a cheater waited for that, then claimed an earlier press)."""
    if state["state"] != "collecting":
        return state
    return {**state, "state": "armed", "window_closes_ms": None}


def winner(arming: Arming, at_ms: int) -> int | None:
    """The team that answers: first in the order once the window has closed."""
    rows = _presses(arming)
    closes = timing.window_closes_ms(r.received_ms for r in rows)
    if closes is None or at_ms <= closes:
        return None
    return timing.order([_placed(arming, row) for row in rows])[0].competitor
