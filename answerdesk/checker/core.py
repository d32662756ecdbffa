"""The checker's one entry point, ``check`` (docs/checker.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from answerdesk.checker import modes
from answerdesk.checker.reasons import Reason

MODES: tuple[str, ...] = tuple(modes.MODES)


class Outcome(StrEnum):
    """A verdict's outcome (docs/checker.md); the host's decision takes the same words."""

    CORRECT = "correct"
    PARTIAL = "partial"
    WRONG = "wrong"
    REVIEW = "review"


OUTCOMES: tuple[str, ...] = tuple(Outcome)


@dataclass(frozen=True)
class Verdict:
    """The checker's proposal for one answer (docs/checker.md).

    outcome: "correct" | "partial" | "wrong" | "review"; fraction: 1.0 correct,
    0 < f < 1 partial, 0.0 wrong, None for review; reason: short English text for logs
    and tools; code and params: the same reason for pages, rendered through the
    catalogues (``reasons.CATALOGUE``, ``reasons.render``).
    """

    outcome: str
    fraction: float | None
    reason: str
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict, hash=False)

    @classmethod
    def of(cls, outcome: str, fraction: float | None, reason: Reason) -> Verdict:
        """A verdict from an outcome, a fraction and a coded reason."""
        return cls(outcome, fraction, reason.text, reason.code, reason.params)


def check(given: str, key: Any, mode: str = "typo3", *, max_errors: int | None = None) -> Verdict:
    """Check a team's raw answer against a key in one of ``MODES`` (BG-R1..BG-R6);
    each mode's check is its entry in checker/modes.py.

    Raises ValueError for an unknown mode or a malformed key; never for ``given``.
    ``max_errors`` overrides the round's allowance in exact/typo3/typo5.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    if not isinstance(given, str):
        given = "" if given is None else str(given)
    return Verdict.of(*modes.MODES[mode].check(given, key, max_errors))
