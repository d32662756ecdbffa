"""The programme of a ЧГК evening (RULES.md CHGK-1.6, CHGK-1.9)."""

from __future__ import annotations

from ...core.formats import RoundTemplate

#: The kind of a ЧГК game's round: played question by question on the clock.
SEQUENTIAL = "sequential"

# Two games an evening, each a round played question by question on the clock
# (core/clock.py, CHGK-1.1) whose questions are the 12 sectors of the table; a
# correct answer earns 1 point (CHGK-1.2); the checker proposes, the host judges.
CHGK_PROGRAMME: tuple[RoundTemplate, ...] = (
    RoundTemplate(1, "Игра 1", SEQUENTIAL, 1, "typo3"),
    RoundTemplate(2, "Игра 2", SEQUENTIAL, 1, "typo3"),
)
