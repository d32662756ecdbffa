"""The checker's one entry point, ``check`` (spec/CHECKER.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from answerdesk.checker.reasons import Reason

MODES: tuple[str, ...] = ("exact", "typo3", "typo5", "song", "pairs", "number", "choice")
OUTCOMES: tuple[str, ...] = ("correct", "partial", "wrong", "review")

_DEFAULT_ERRORS = {"exact": 0, "typo3": 3, "typo5": 5}


@dataclass(frozen=True)
class Verdict:
    """The checker's proposal for one answer (CHECKER.md).

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
    """Check a team's raw answer against a key in one of ``MODES`` (BG-R1..BG-R6).

    Raises ValueError for an unknown mode or a malformed key; never for ``given``.
    ``max_errors`` overrides the round's allowance in exact/typo3/typo5.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    if not isinstance(given, str):
        given = "" if given is None else str(given)
    if mode in _DEFAULT_ERRORS:
        from answerdesk.checker.text import check_text

        accept, reject = parse_open_key(key)
        errors = _DEFAULT_ERRORS[mode] if max_errors is None else max(0, int(max_errors))
        return Verdict.of(*check_text(given, accept, reject, mode, errors))
    if mode == "song":
        from answerdesk.checker.song import check_song

        return Verdict.of(*check_song(given, key))
    if mode == "pairs":
        from answerdesk.checker.pairs import check_pairs

        return Verdict.of(*check_pairs(given, key))
    if mode == "number":
        from answerdesk.checker.choice import check_number

        return Verdict.of(*check_number(given, key))
    from answerdesk.checker.choice import check_choice

    return Verdict.of(*check_choice(given, key))
