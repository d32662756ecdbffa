"""Programmes of each format as plain data: the rounds an event starts with."""

from __future__ import annotations

from .bg import BG_PROGRAMME, RoundTemplate

PROGRAMMES: dict[str, tuple[RoundTemplate, ...]] = {"bg": BG_PROGRAMME}

__all__ = ["PROGRAMMES", "RoundTemplate", "BG_PROGRAMME"]
