"""The rounds of an OpenQuiz game (OQ-2): boards played question by question, then the final."""

from __future__ import annotations

from ...core.formats import RoundTemplate

#: Rounds whose questions the host starts one at a time (core's question clock).
SEQUENTIAL = "sequential"
#: OQ-6: the final round, one theme left after the bans, one question.
FINAL = "oq-final"

OQ_PROGRAMME: tuple[RoundTemplate, ...] = (
    # OQ-2: the board of round 1 (values 100-500 by default; a pack brings its own).
    RoundTemplate(1, "Round 1", SEQUENTIAL, 100, "typo3"),
    RoundTemplate(2, "Round 2", SEQUENTIAL, 200, "typo3"),
    RoundTemplate(3, "Round 3", SEQUENTIAL, 300, "typo3"),
    # OQ-6: bans, sealed bets, one question answered in writing by every team.
    RoundTemplate(4, "Final", FINAL, 0, "typo3"),
)
