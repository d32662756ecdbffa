"""The buzzer's typed JSON responses (OQ-4): the sync exchange, the press and its part of
GET /state. The routes and presses.buzz_state build their JSON as before (the press is on
the phone's hot path); these classes describe it for /api/openapi.json (api/replies.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from ...api.replies import Reply
from .timing import Flag


class ClockSynced(Reply):
    """POST /clock: the server's time only (its estimate of the phone stays with it)."""

    server_ms: int


class BuzzAccepted(Reply):
    """POST /buzz: the press is in; the order follows, for everyone, once the window
    closes (GET /state)."""

    accepted: Literal[True]
    round: int
    question: int
    attempt: int
    received_ms: int


class BuzzPlace(Reply):
    """One press in the order, once the window has closed (timing.order)."""

    place: int
    team: str
    player: Annotated[str | None, Meta(
        description="Who pressed, where the game has players of a team (OpenQuiz)")]
    at_ms: int
    margin_ms: int
    behind_first_ms: int
    penalty_ms: int
    flags: list[Flag]


class BuzzState(Reply):
    """The buzzer of the latest question in GET /state (presses.buzz_state, public_buzz):
    ``armed`` until the window closes, so nobody sees that others pressed before."""

    round: int
    question: int
    attempt: int
    armed_ms: int
    reading_until_ms: int | None
    window_closes_ms: int | None
    state: Literal["armed", "closed"]
    order: list[BuzzPlace]
