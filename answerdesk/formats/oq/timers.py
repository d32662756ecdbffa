"""OpenQuiz's clocks, pure (RULES.md OQ-4, OQ-7, OQ-8). No Flask, no database.

All times are epoch milliseconds of the server's clock, passed in by the caller
(so tests move a clock instead of sleeping). A game's pauses are a list of
``(start_ms, end_ms)`` pairs, ``end_ms`` None while one runs; the hour a game may
pause in total caps them, and a pause that uses the hour up ends by itself there
(the game goes on, OQ-8). While a pause runs every timer stands still.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from typing import Any

ANSWER_MS = 30_000  # OQ-4: the winner of the buzzer has 30 s to answer (default)
# OQ-4.1 decision (docs/rules.md): a buzzer question nobody presses on closes after 20 s
# at normal speed, counted from its arming (or the end of the reading in reading mode).
PRESS_MS = 20_000
PAUSE_LIMIT_MS = 60 * 60_000  # OQ-8: pauses total at most one hour per game
IDLE_LIMIT_MS = 30 * 60_000  # OQ-8: 30 minutes without activity stops the game
LIFETIME_MS = 5 * 60 * 60_000  # OQ-8: a game lives at most 5 hours

Pause = tuple[int, int | None]


def N_(msgid: str) -> str:
    """Mark a msgid for the catalogues; the caller translates it when it is shown."""
    return msgid


class Speed(enum.StrEnum):
    """OQ-7: the game's speed, chosen by the host."""

    SLOW = "slow"
    NORMAL = "normal"
    FAST = "fast"


FACTOR = {Speed.SLOW: 1.5, Speed.NORMAL: 1.0, Speed.FAST: 0.5}


class Stop(enum.StrEnum):
    """OQ-8: why a game has stopped by itself."""

    IDLE = "idle"  # 30 minutes without activity
    LIFETIME = "lifetime"  # 5 hours since it started


def scaled_ms(base_ms: int, speed: Speed, media_ms: int = 0) -> int:
    """OQ-7: a timer of ``base_ms`` at the game's speed; audio and video
    (``media_ms``) play at their real length whatever the speed."""
    return round(base_ms * FACTOR[Speed(speed)]) + media_ms


def answer_ms(speed: Speed) -> int:
    """OQ-4 × OQ-7: the buzzer winner's time to answer at the game's speed."""
    return scaled_ms(ANSWER_MS, speed)


def press_ms(speed: Speed, host_seconds: int | None = None) -> int:
    """OQ-4.1 × OQ-7: how long a buzzer question waits for a press: the seconds the host
    gave at the start as given (the host's own), else the default at the game's speed."""
    return host_seconds * 1000 if host_seconds is not None else scaled_ms(PRESS_MS, speed)


def as_pauses(stored: Sequence[Sequence[Any]] | None) -> list[Pause]:
    """The pauses as the game row stores them (JSON pairs)."""
    return [(int(s), None if e is None else int(e)) for s, e in (stored or [])]


def effective(pauses: Sequence[Pause], now_ms: int) -> Iterator[tuple[int, int]]:
    """The pauses as they count, in order: a running one up to now, and none beyond
    the hour in total (OQ-8: once it is used up the game goes on)."""
    left = PAUSE_LIMIT_MS
    for start, end in sorted(pauses, key=lambda p: p[0]):
        if left <= 0 or start > now_ms:
            return
        stop = min(now_ms if end is None else end, start + left)
        if stop > start:
            left -= stop - start
            yield start, stop


def paused_total_ms(pauses: Sequence[Pause], now_ms: int) -> int:
    """OQ-8: the pause time the game has used so far."""
    return sum(end - start for start, end in effective(pauses, now_ms))


def pause_left_ms(pauses: Sequence[Pause], now_ms: int) -> int:
    """OQ-8: what is left of the game's hour of pauses."""
    return max(0, PAUSE_LIMIT_MS - paused_total_ms(pauses, now_ms))


def is_paused(pauses: Sequence[Pause], now_ms: int) -> bool:
    """Whether a pause runs now (one the hour has used up has ended by itself)."""
    running = [start for start, end in pauses if end is None]
    if not running:
        return False
    before = paused_total_ms([p for p in pauses if p[1] is not None], now_ms)
    return running[-1] <= now_ms < running[-1] + PAUSE_LIMIT_MS - before


def pause_refusal(pauses: Sequence[Pause], now_ms: int) -> str | None:
    """OQ-8: None when the host may pause now, else the English msgid of the refusal."""
    if is_paused(pauses, now_ms):
        return N_("The game is already paused.")
    if pause_left_ms(pauses, now_ms) <= 0:
        return N_("The hour of pauses of this game is used up.")
    return None


def pause(pauses: Sequence[Pause], now_ms: int) -> list[Pause]:
    """The pauses with one more starting now (check ``pause_refusal`` first); a
    running pause the hour has ended is closed where it ended."""
    return [*close(pauses, now_ms), (now_ms, None)]


def close(pauses: Sequence[Pause], now_ms: int) -> list[Pause]:
    """The pauses with the running one ended now, or where the hour ended it."""
    ends = dict(effective(pauses, now_ms))
    return [(s, e if e is not None else ends.get(s, s)) for s, e in pauses]


def deadline_ms(start_ms: int, length_ms: int, pauses: Sequence[Pause], now_ms: int) -> int:
    """When a timer of ``length_ms`` started at ``start_ms`` runs out: later by every
    pause since it started (a running pause moves it on with ``now_ms``)."""
    end = start_ms + length_ms
    for s, e in effective(pauses, now_ms):
        if e <= start_ms:
            continue
        s = max(s, start_ms)
        if s >= end:
            break
        end += e - s
    return end


def stopped(started_ms: int | None, active_ms: int | None, pauses: Sequence[Pause],
            now_ms: int) -> tuple[Stop, int] | None:
    """OQ-8: (why, when) the game stopped by itself, or None while it lives.

    ``started_ms``: the game's first activity (none yet: nothing to stop);
    ``active_ms``: its latest. Idle time stands still during a pause (a pause is
    the host's, and its hour would be worth nothing if it ran the idle clock);
    the 5 hours do not.
    """
    if started_ms is None:
        return None
    ends = [(started_ms + LIFETIME_MS, Stop.LIFETIME),
            (deadline_ms(max(active_ms or started_ms, started_ms), IDLE_LIMIT_MS, pauses,
                         now_ms), Stop.IDLE)]
    at, why = min(ends)
    return (why, at) if at <= now_ms else None
