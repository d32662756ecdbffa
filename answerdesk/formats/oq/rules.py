"""OpenQuiz's scoring and final, pure (RULES.md OQ-1, OQ-5, OQ-6). No Flask, no database."""

from __future__ import annotations

import enum
from collections.abc import Sequence

MAX_TEAMS = 12  # OQ-1
ANSWER_SECONDS = 30  # OQ-4: the winner of the buzzer has 30 s to answer (default)
FACTORS = (1.0, 2.0, 0.5)  # OQ-5: on accept the host may apply ×2 or ×0.5


def N_(msgid: str) -> str:
    """Mark a msgid for the catalogues; the caller translates it when it is shown."""
    return msgid


class Outcome(enum.StrEnum):
    """The host's call on the answer of the team that won the buzzer (OQ-4, OQ-5)."""

    ACCEPT = "accept"  # +value (×2, ×0.5 at the host's choice)
    REJECT = "reject"  # −value; the question returns to the others
    TIMEOUT = "timeout"  # −value; the question returns to the others


def points(outcome: Outcome, value: int, factor: float = 1.0, no_risk: bool = False) -> int:
    """OQ-5: accepted +value (× factor), rejected or timed out −value (0 if no-risk)."""
    if factor not in FACTORS:
        raise ValueError(f"factor must be one of {FACTORS}")
    if outcome == Outcome.ACCEPT:
        return round(value * factor)
    return 0 if no_risk else -value


def banning_team(order: Sequence[int], bans_made: int) -> int:
    """OQ-6: teams ban final themes in turn (``order``: the teams that play the final)."""
    return order[bans_made % len(order)]


def bet_refusal(bet: object, score: int) -> str | None:
    """OQ-6: a sealed bet from 1 to the team's score; teams at 0 or below sit out.

    None when the bet stands, else the English msgid of the refusal.
    """
    if score <= 0:
        return N_("A team at 0 points or below sits the final out.")
    if isinstance(bet, bool) or not isinstance(bet, int) or not 1 <= bet <= score:
        return N_("The bet must be a whole number from 1 to the team's score (%(score)s).")
    return None


def final_points(bet: int, accepted: bool) -> int:
    """OQ-5: final accepted +bet, rejected −bet."""
    return bet if accepted else -bet
