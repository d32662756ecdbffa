"""The buzzer's arithmetic (OQ-4), pure: clock offsets, press times, the window, the order.

Times are whole milliseconds since the epoch: ``*_ms`` on the phone's clock where
the name says ``client``/``claimed``, on the server's clock otherwise. A phone's
offset is what to add to its clock to get the server's (``server = phone + offset``).

Fairness rests on four things. The offset is estimated by the server itself from
raw timestamps of the sync exchanges (a phone never states an offset), keeping the
smallest round trips as NTP does, because their midpoint errs by at most half the
trip. A press time is trusted only inside what is physically possible: not before
the question reached the phone, not after the press reached the server; a claim
outside that (by more than the estimate's own uncertainty) is flagged and the press
counts at its arrival, the one moment the server saw itself. A claim may precede
its arrival by at most the phone's allowance (``allowance_ms``): the longest of its
recent round trips as the server itself timed them, at most MAX_ALLOWANCE_MS, plus
ALLOWANCE_MARGIN_MS; an earlier claim counts at that bound, flagged (issue 31,
docs/live-push.md). And the order waits for the window: presses are collected for
one second after the first arrival, and nobody learns of a press before it closes.
"""

from __future__ import annotations

import enum
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: OQ-4: after the first press the game collects presses for one more second.
WINDOW_MS = 1000
#: OQ-4: a press during the reading (reading mode) counts 2 s later.
READING_PENALTY_MS = 2000
#: How many of the smallest-round-trip samples the estimate uses (NTP keeps 8 and
#: picks the best; a few absorb one lucky outlier without following a slow trip).
KEEP_SAMPLES = 4
#: The clocks of one phone and one server, not a phone and a time machine: a claimed
#: round trip longer than this is not a sample.
MAX_RTT_MS = 10_000
#: What a press time may miss the possible span by before it is called impossible,
#: beyond the estimate's own half round trip (timer resolution of phones and servers).
SLACK_MS = 5
#: How far before its arrival a press may have been made, at most, whatever round
#: trips a phone shows: venue Wi-Fi's slow trips (docs/live-push.md), and the most
#: a cheating phone can gain by claiming an earlier press than it made.
MAX_ALLOWANCE_MS = 300
#: Added to a phone's own slowest recent round trip: a press's trip may be a little
#: slower than any of the syncs' (a busy radio; the server's own scheduling).
ALLOWANCE_MARGIN_MS = 50
#: The recent round trips a phone's allowance is taken from (its last syncs).
ALLOWANCE_SAMPLES = 8


@dataclass(frozen=True)
class Sample:
    """One sync exchange: the phone sent at ``client_send_ms``, the server stamped
    ``server_ms``, the phone got the answer at ``client_receive_ms``."""

    client_send_ms: int
    server_ms: int
    client_receive_ms: int

    @property
    def rtt_ms(self) -> int:
        return self.client_receive_ms - self.client_send_ms

    @property
    def offset_ms(self) -> float:
        """The server's time minus the phone's at the trip's midpoint."""
        return self.server_ms - (self.client_send_ms + self.client_receive_ms) / 2


@dataclass(frozen=True)
class Estimate:
    """A phone's clock offset with the round trip it was measured over."""

    offset_ms: float
    rtt_ms: int
    samples: int

    @property
    def uncertainty_ms(self) -> float:
        """The true offset lies within this of ``offset_ms`` (half the best trip)."""
        return self.rtt_ms / 2


def sample_is_plausible(sample: Sample, next_send_ms: int | None = None,
                        next_server_ms: int | None = None) -> bool:
    """Whether the server may use a sample a phone completes by reporting its receipt.

    The receipt comes with the phone's next exchange, so the server checks it against
    what it saw itself: the trip is not negative, not absurd, ends before the phone's
    next send, and is no longer than the time the server saw pass between the two
    requests (a phone cannot stretch a trip to move its midpoint).
    """
    if not 0 <= sample.rtt_ms <= MAX_RTT_MS:
        return False
    if next_send_ms is not None and sample.client_receive_ms > next_send_ms:
        return False
    if next_server_ms is not None and next_send_ms is not None:
        server_gap = next_server_ms - sample.server_ms
        if sample.rtt_ms > server_gap + SLACK_MS:
            return False
    return True


def seen_rtt(sample: Sample, next_send_ms: int, next_server_ms: int) -> int | None:
    """A round trip as the server's own clock tells it: from its stamp of the exchange
    to the arrival of the phone's next one, less the time the phone says it waited in
    between: this reply's way down and the next request's way up. The phone can only
    lengthen it (by understating its wait; MAX_ALLOWANCE_MS bounds what that buys),
    never shorten it below the network's; None when negative. Only the allowance uses
    it: the offset estimate keeps NTP's choice of each exchange's own trip."""
    trip = (next_server_ms - sample.server_ms) - (next_send_ms - sample.client_receive_ms)
    return trip if 0 <= trip <= MAX_RTT_MS else None


def allowance_ms(seen_rtts: Iterable[int]) -> int | None:
    """How far before its arrival a phone's press may have been made: its slowest recent
    round trip as the server timed it, at most MAX_ALLOWANCE_MS, plus the margin; None
    without any such trip (the press then counts at its arrival, flagged no_sync)."""
    trips = list(seen_rtts)
    if not trips:
        return None
    return min(max(trips), MAX_ALLOWANCE_MS) + ALLOWANCE_MARGIN_MS


def estimate(samples: Iterable[Sample], keep: int = KEEP_SAMPLES) -> Estimate | None:
    """NTP's choice: the sample with the smallest round trip, or the median offset of
    the few (at most ``keep``) whose trips are nearly as short; a slow trip's midpoint
    may be off by half its asymmetry, so it never outvotes a quick one.

    None without a usable sample (the press then counts at its arrival).
    """
    usable = sorted((s for s in samples if 0 <= s.rtt_ms <= MAX_RTT_MS),
                    key=lambda s: (s.rtt_ms, -s.server_ms))
    if not usable:
        return None
    shortest = usable[0].rtt_ms
    best = [s for s in usable[:keep] if s.rtt_ms <= shortest * 1.5 + SLACK_MS]
    return Estimate(offset_ms=statistics.median(s.offset_ms for s in best),
                    rtt_ms=shortest, samples=len(usable))


class Flag(enum.StrEnum):
    """Why a press time is not simply the phone's, for the host to see."""

    NO_SYNC = "no_sync"  # the phone never completed a sync exchange
    BEFORE_QUESTION = "before_question"  # claimed before the question reached the phone
    AFTER_ARRIVAL = "after_arrival"  # claimed after the press reached the server
    EARLY_CLAIM = "early_claim"  # claimed earlier than the phone's network allows
    READING = "reading"  # pressed during the reading (OQ-4: 2 s penalty)


@dataclass(frozen=True)
class Press:
    """A press as the server received it."""

    competitor: int
    claimed_ms: int  # the phone's clock
    received_ms: int  # the server's clock, stamped on arrival
    estimate: Estimate | None = None
    allowance_ms: int | None = None  # allowance_ms of the phone at the press


@dataclass(frozen=True)
class Placed:
    """A press on the server's clock: where it counts (``at_ms``) and why."""

    competitor: int
    at_ms: int
    pressed_ms: int  # the press moment on the server's clock, before any penalty
    received_ms: int
    penalty_ms: int
    flags: tuple[Flag, ...]


def place(press: Press, opened_ms: int, reading_until_ms: int | None = None) -> Placed:
    """Convert a press to server time, clamped to what is possible, and add the penalty.

    The possible span runs from ``opened_ms`` (the question cannot reach a phone
    before the server opened it) to the press's arrival. A converted time outside it
    by no more than the estimate's uncertainty is clamped to its edge; further out the
    claim is impossible: flagged, and the press counts at its arrival. Inside it, a
    time earlier than the arrival less the phone's allowance counts at that bound,
    flagged ``early_claim`` (a press known without an allowance: no bound but the span).
    """
    flags: list[Flag] = []
    if press.estimate is None:
        pressed = press.received_ms
        flags.append(Flag.NO_SYNC)
    else:
        tolerance = press.estimate.uncertainty_ms + SLACK_MS
        raw = press.claimed_ms + press.estimate.offset_ms
        if raw < opened_ms - tolerance:
            pressed = press.received_ms
            flags.append(Flag.BEFORE_QUESTION)
        elif raw > press.received_ms + tolerance:
            pressed = press.received_ms
            flags.append(Flag.AFTER_ARRIVAL)
        else:
            pressed = round(min(max(raw, opened_ms), press.received_ms))
            if press.allowance_ms is not None and pressed < press.received_ms - press.allowance_ms:
                pressed = max(press.received_ms - press.allowance_ms, opened_ms)
                flags.append(Flag.EARLY_CLAIM)
    penalty = 0
    if reading_until_ms is not None and pressed < reading_until_ms:
        penalty = READING_PENALTY_MS
        flags.append(Flag.READING)
    return Placed(press.competitor, pressed + penalty, pressed, press.received_ms, penalty,
                  tuple(flags))


def window_closes_ms(received: Iterable[int]) -> int | None:
    """When the window closes: one second after the first press arrived (None: no press)."""
    first = min(received, default=None)
    return None if first is None else first + WINDOW_MS


@dataclass(frozen=True)
class Ranked:
    """A place in the buzz order with its margins ("2nd by 40 ms")."""

    place: int
    competitor: int
    at_ms: int
    margin_ms: int  # behind the press placed just before (0 for the first)
    behind_first_ms: int
    penalty_ms: int
    flags: tuple[Flag, ...]


def order(placed: Sequence[Placed]) -> list[Ranked]:
    """The presses by the time they count; equal times go to the earlier arrival."""
    ranked = sorted(placed, key=lambda p: (p.at_ms, p.received_ms, p.competitor))
    result: list[Ranked] = []
    for index, p in enumerate(ranked):
        previous = ranked[index - 1].at_ms if index else p.at_ms
        result.append(Ranked(index + 1, p.competitor, p.at_ms, p.at_ms - previous,
                             p.at_ms - ranked[0].at_ms, p.penalty_ms, p.flags))
    return result
