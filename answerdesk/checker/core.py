"""The checker's one entry point, ``check`` (docs/checker.md)."""

from __future__ import annotations

from collections.abc import Mapping
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


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of strings, got {type(value).__name__}")
    out = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, (str, int, float)):
            raise ValueError(f"{what} must hold strings or numbers, got {item!r}")
        out.append(str(item))
    return tuple(out)


def parse_open_key(key: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(accept, reject) of a list key or an {"accept": [...], "reject": [...]} key."""
    if isinstance(key, Mapping):
        unknown = set(key) - {"accept", "reject"}
        if unknown or "accept" not in key:
            raise ValueError(
                "key must be a list of accepted answers or {'accept': [...], 'reject': [...]}; "
                f"got keys {sorted(map(str, key))}"
            )
        accept = _strings(key["accept"], "key 'accept'")
        reject = _strings(key.get("reject") or [], "key 'reject'")
    else:
        accept, reject = _strings(key, "key"), ()
    if not any(a.strip() for a in accept):
        raise ValueError("key has no accepted answer")
    return accept, reject


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
