"""The default programme of a Bulgarian pub-quiz evening (RULES.md BG-R1..R6)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoundTemplate:
    number: int
    name: str
    kind: str
    points: int
    check_mode: str
    partial_points: int | None = None


BG_PROGRAMME: tuple[RoundTemplate, ...] = (
    # BG-R1: true/false and А/Б/В/Г options, exact choice, 1 point.
    RoundTemplate(1, "Тука има, тука нема + Да Б) или да не Б)", "choice", 1, "choice"),
    # BG-R2: open questions, up to 3 spelling errors, 2 points.
    RoundTemplate(2, "Я, това го знам бре!", "open", 2, "typo3"),
    # BG-R3: a picture per question, same check as R2.
    RoundTemplate(3, "Старите ленти", "picture", 2, "typo3"),
    # BG-R4: audio/video, up to 5 errors, song partial 1 of 3 (BG-R4.1).
    RoundTemplate(4, "БНР и БНТ", "media", 3, "typo5", partial_points=1),
    # BG-R5: wildcard; scenario 5.1 (open questions, exact match, 2 points) by default.
    RoundTemplate(5, "Последните ще станат първи", "wildcard", 2, "exact"),
    # BG-R6: hard open questions, one at a time; within 3 errors proposed, else the host.
    RoundTemplate(6, "Димо Падалски", "final", 5, "typo3"),
)
