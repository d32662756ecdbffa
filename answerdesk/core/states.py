"""The states a round, a question's gate and a verdict can be in, as enums.

The database keeps them as plain strings (a StrEnum member is equal to its
value, so rows, JSON and templates read them unchanged); code compares and
assigns these members instead of repeating the words.
"""

from __future__ import annotations

from enum import StrEnum

from ..checker.core import Outcome


class RoundState(StrEnum):
    """A round's lifecycle (BG-E1..E3): draft → open → locked → revealed."""

    DRAFT = "draft"
    OPEN = "open"
    LOCKED = "locked"
    REVEALED = "revealed"


class GateState(StrEnum):
    """A question opened on its own (BG-R6.1 the final): open → locked → revealed.
    A question of such a round has no gate until it is opened."""

    OPEN = "open"
    LOCKED = "locked"
    REVEALED = "revealed"


#: Rounds whose answers can no longer change (the round's lock, BG-E2).
CLOSED_ROUND_STATES = (RoundState.LOCKED, RoundState.REVEALED)

#: Questions of a gated round whose answers can no longer change (BG-R6.2).
CLOSED_GATE_STATES = (GateState.LOCKED, GateState.REVEALED)

__all__ = ["CLOSED_GATE_STATES", "CLOSED_ROUND_STATES", "GateState", "Outcome", "RoundState"]
