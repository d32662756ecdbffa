"""The Bulgarian pub quiz (RULES.md BG-*): programme R1-R6, jokers, wildcard, final,
shoot-out, league and BG scoring, registered in core's format registry by ``load``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.formats import Format, RoundTemplate, register
from .programme import BG_PROGRAMME

if TYPE_CHECKING:
    from flask import Flask


class BulgarianQuiz(Format):
    """BG-R1..R6 and the BG league; its modules are imported when a hook needs them."""

    name = "bg"
    label = "Bulgarian pub quiz"

    def programme(self) -> tuple[RoundTemplate, ...]:
        return BG_PROGRAMME

    def standings(self, event: Any) -> list[Any]:
        from .standings import event_standings

        return event_standings(event)


BG = BulgarianQuiz()


def load(app: Flask | None = None) -> BulgarianQuiz:
    """Register the BG format (called by the app factory through formats.load_all)."""
    return register(BG)
