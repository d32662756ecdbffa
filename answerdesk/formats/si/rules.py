"""Своя игра's rules, pure (RULES.md SI-1.1, SI-1.3, SI-2.2, SI-2.4): values, the
lists after a question, and the scores. No Flask, no database."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ROUNDS = 3  # SI-1.1: three rounds, no final
THEMES = 5  # SI-1.1: 5 themes × 5 questions per round
PER_THEME = 5
LATE_JOIN_ROUNDS = (1, 2)  # SI-1.2: late players join during the first two rounds
WARNINGS_TO_REMOVE = 2  # SI-1.3: the second warning removes the player


def value(round_number: int, question_number: int) -> int:
    """SI-1.1: round r's questions are worth r × (1..5) by their place in the theme.

    Questions of a round are numbered 1..25, theme by theme.
    """
    if not 1 <= round_number <= ROUNDS or not 1 <= question_number <= THEMES * PER_THEME:
        raise ValueError(f"no question {question_number} in round {round_number}")
    return round_number * ((question_number - 1) % PER_THEME + 1)


def theme_of(question_number: int) -> int:
    """The theme (1..5) a question number belongs to."""
    return (question_number - 1) // PER_THEME + 1


class Mark(enum.StrEnum):
    """What a player's answer to one question earns (SI-2.4)."""

    CORRECT = "correct"  # +value
    WRONG = "wrong"  # −value
    LATE = "late"  # a claimed answer received after ВСЁ: "0 Name"
    NONE = "none"  # no answer, or an answer the host set aside: nothing


@dataclass(frozen=True)
class Result:
    player: str
    mark: Mark


@dataclass(frozen=True)
class Lists:
    """SI-2.4: "+3 Вася, Ира", "−3 Женя" and, after claims, "0 Петя"."""

    value: int
    correct: tuple[str, ...]
    wrong: tuple[str, ...]
    late: tuple[str, ...]

    def lines(self) -> list[str]:
        out = []
        if self.correct:
            out.append(f"+{self.value} {', '.join(self.correct)}")
        if self.wrong:
            out.append(f"−{self.value} {', '.join(self.wrong)}")
        if self.late:
            out.append(f"0 {', '.join(self.late)}")
        return out


def lists(value: int, results: Iterable[Result]) -> Lists:
    """The lists of one question, names in the order the answers came in."""
    results = list(results)

    def names(mark: Mark) -> tuple[str, ...]:
        return tuple(r.player for r in results if r.mark == mark)

    return Lists(value, names(Mark.CORRECT), names(Mark.WRONG), names(Mark.LATE))


def points(mark: Mark, value: int) -> int:
    """SI-2.4: correct +value, wrong −value; late or none 0."""
    return value if mark == Mark.CORRECT else -value if mark == Mark.WRONG else 0


@dataclass(frozen=True)
class PlayerScore:
    player: str
    points: int
    in_competition: bool
    removed: bool


def scores(players: Sequence[tuple[str, bool, int]],
           marks: Iterable[tuple[str, Mark, int]]) -> list[PlayerScore]:
    """Scores, best first: ``players`` as (name, in competition, warnings), ``marks`` as
    (player, mark, value). SI-1.3: the second warning removes the player and annuls
    the points."""
    total = {name: 0 for name, _, _ in players}
    for player, mark, worth in marks:
        if player in total:
            total[player] += points(mark, worth)
    rows = [PlayerScore(name, 0 if warnings >= WARNINGS_TO_REMOVE else total[name], active,
                        warnings >= WARNINGS_TO_REMOVE)
            for name, active, warnings in players]
    return sorted(rows, key=lambda r: (r.removed, -r.points, r.player))
