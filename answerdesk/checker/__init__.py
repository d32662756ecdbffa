"""answerdesk.checker — the tolerant answer checker (contract: spec/CHECKER.md)."""

from __future__ import annotations

from answerdesk.checker.core import MODES, Verdict, check
from answerdesk.checker.normalize import fold_lookalikes

__all__ = ["MODES", "Verdict", "check", "fold_lookalikes"]
