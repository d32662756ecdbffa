"""Rounds played question by question on the clock (kind ``sequential``, clock.py).

What the core needs to know of them without knowing the game: a question takes
answers only once started (answers._save), and the checker only proposes what
the key decides: an answer matching neither an accepted nor a rejected one is
left to the host and assistant (CHGK-1.3) in the review queue.
"""

from __future__ import annotations

SEQUENTIAL = "sequential"


def host_judges(outcome: str, fraction: float | None, reason: str,
                text: str) -> tuple[str, float | None, str]:
    """A "wrong" the key did not reject (a pack's Незачёт) goes to the host."""
    if outcome == "wrong" and text.strip() and "rejected answer" not in reason:
        return "review", None, f"the host judges ({reason})"[:300]
    return outcome, fraction, reason
