"""The default programme of a Bulgarian pub-quiz evening (RULES.md BG-R1..R6)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.formats import RoundTemplate

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


@dataclass(frozen=True)
class Scenario:
    """A BG-R5 wildcard scenario: the round takes its kind, check mode and points."""

    id: str
    name: str
    kind: str
    points: int
    check_mode: str
    partial_points: int | None = None


BG_SCENARIOS: dict[str, Scenario] = {
    # BG-R5.1: open questions like R2, exact match (BG-R5.6), 2 points.
    "5.1": Scenario("5.1", "Open questions", "open", 2, "exact"),
    # BG-R5.2: pictures like R3, exact match, 2 points.
    "5.2": Scenario("5.2", "Pictures", "picture", 2, "exact"),
    # BG-R5.3: media like R4, up to 5 errors, 2 points, no partial credit.
    "5.3": Scenario("5.3", "Media", "media", 2, "typo5", partial_points=0),
    # BG-R5.4: „От 1 до 10“, each number once, 1 point.
    "5.4": Scenario("5.4", "From 1 to 10", "number", 1, "number"),
    # BG-R5.5: „All-in“, all four pairs or nothing, 5 points.
    "5.5": Scenario("5.5", "All-in", "pairs", 5, "pairs"),
}
WILDCARD_ROUND = 5
FINAL_ROUND = 6
