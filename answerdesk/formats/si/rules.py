"""Своя игра's rules, pure (RULES.md SI-0 … SI-3): values, late joining, the lists after a
question, the scores and places, protests and the theme author's one question. No
Flask, no database."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
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


class Join(enum.StrEnum):
    """SI-1.2: whether a player may join now."""

    OPEN = "open"  # before the game, or between questions of rounds 1-2
    WAIT = "wait"  # a question is being played: join between questions
    CLOSED = "closed"  # round 3 has begun: too late


def may_join(current_round: int | None, question_open: bool) -> Join:
    """SI-1.2: late players join during the first two rounds, between questions.

    ``current_round`` is the round of the question started last (None before the
    first); ``question_open`` whether that question still takes answers (before ВСЁ).
    """
    if current_round is not None and current_round not in LATE_JOIN_ROUNDS:
        return Join.CLOSED
    return Join.WAIT if question_open else Join.OPEN


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
    place: int | None = None  # SI-1.2: out of competition (or removed): not ranked


def scores(players: Sequence[tuple[str, bool, int]],
           marks: Iterable[tuple[str, Mark, int]]) -> list[PlayerScore]:
    """Scores, best first: ``players`` as (name, in competition, warnings), ``marks`` as
    (player, mark, value). SI-1.3: the second warning removes the player and annuls
    the points. SI-1.2: players out of competition play and score but take no place;
    equal points share a place (1, 1, 3)."""
    total = {name: 0 for name, _, _ in players}
    for player, mark, worth in marks:
        if player in total:
            total[player] += points(mark, worth)
    rows = [PlayerScore(name, 0 if warnings >= WARNINGS_TO_REMOVE else total[name], active,
                        warnings >= WARNINGS_TO_REMOVE)
            for name, active, warnings in players]
    rows.sort(key=lambda r: (r.removed, -r.points, r.player))
    ranked = [r.points for r in rows if r.in_competition and not r.removed]
    return [PlayerScore(r.player, r.points, r.in_competition, r.removed,
                        ranked.index(r.points) + 1 if r.in_competition and not r.removed
                        else None) for r in rows]


# -- SI-3 protests -----------------------------------------------------------------------

class ProtestState(enum.StrEnum):
    """SI-3: a protest ("СТОП") from filing to the host's word."""

    FILED = "filed"  # СТОП: the host has not answered yet
    HEARD = "heard"  # СТОЮ: the host acknowledged and hears it; the game stands
    UPHELD = "upheld"  # the results changed and were republished
    REJECTED = "rejected"  # groundless: the results stand

    @property
    def pending(self) -> bool:
        return self in (ProtestState.FILED, ProtestState.HEARD)


def may_protest(in_competition: bool, removed: bool) -> bool:
    """SI-3: only players in competition protest (a removed player is no longer in it)."""
    return in_competition and not removed


def protest_window_open(published: bool, theme: tuple[int, int],
                        started_after: Iterable[tuple[int, int]]) -> bool:
    """SI-3: from the publication of the question's answer until the next theme starts.

    ``theme`` is the question's (round, theme); ``started_after`` the (round, theme)
    of every question started after it: another theme among them means the next
    theme has started.
    """
    return published and all(other == theme for other in started_after)


def open_protest_windows(started: Sequence[tuple[tuple[int, int], bool]]) -> list[int]:
    """SI-3: which of the questions started so far may still be protested.

    ``started`` lists each started question's (round, theme) and whether its answer
    is published, in the order they started; the answer is the indices whose window
    is open: the published questions of the theme being played, none of another
    theme started after them.
    """
    return [i for i, (theme, published) in enumerate(started)
            if protest_window_open(published, theme, [t for t, _ in started[i + 1:]])]


def must_warn(groundless_before: int) -> bool:
    """SI-3: a groundless protest may earn a warning; a repeated one must."""
    return groundless_before >= 1


# -- SI-0 the theme's author -------------------------------------------------------------

def most_expensive(values: Mapping[int, int]) -> int:
    """The question number of a theme's most expensive question (``values``: number →
    value); of equal values the later one, as the board grows left to right."""
    if not values:
        raise ValueError("a theme without questions")
    return max(values, key=lambda number: (values[number], number))


def author_may_answer(is_author: bool, question_number: int, top_question: int) -> bool:
    """SI-0: a theme's author plays it only by sending the answer to its most
    expensive question."""
    return not is_author or question_number == top_question
