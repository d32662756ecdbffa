"""Programmes of each format as plain data: the rounds an event starts with."""

from __future__ import annotations

from .bg import BG_PROGRAMME, RoundTemplate

# CHGK-1.6/1.9: two games an evening, each a round played question by question
# (kind "sequential", clock.py) whose questions are the 12 sectors of the table.
CHGK_PROGRAMME: tuple[RoundTemplate, ...] = (
    RoundTemplate(1, "Игра 1", "sequential", 1, "typo3"),
    RoundTemplate(2, "Игра 2", "sequential", 1, "typo3"),
)

PROGRAMMES: dict[str, tuple[RoundTemplate, ...]] = {"bg": BG_PROGRAMME, "chgk": CHGK_PROGRAMME}

__all__ = ["PROGRAMMES", "RoundTemplate", "BG_PROGRAMME"]
