"""The rounds of a Своя игра tournament (SI-1.1): three boards of 5 themes × 5 questions."""

from __future__ import annotations

from ...core.formats import RoundTemplate

#: Rounds whose questions the host starts one at a time (core's question gate).
SEQUENTIAL = "sequential"

SI_PROGRAMME: tuple[RoundTemplate, ...] = tuple(
    # SI-1.1: round r is worth r × 1..5; SI-2.2 abbreviated answers pass when unambiguous.
    RoundTemplate(r, f"Раунд {r}", SEQUENTIAL, r, "typo3") for r in (1, 2, 3)
)
