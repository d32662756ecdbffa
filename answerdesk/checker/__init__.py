"""answerdesk.checker — the tolerant answer checker (contract: docs/checker.md)."""

from __future__ import annotations

from answerdesk.checker.core import MODES, Verdict, check
from answerdesk.checker.normalize import fold_lookalikes


def preload() -> None:
    """Load the checker's word lists and dictionaries now (else: lazily, on first use)."""
    from answerdesk.checker.text import preload as _preload

    _preload()


__all__ = ["MODES", "Verdict", "check", "fold_lookalikes", "preload"]
