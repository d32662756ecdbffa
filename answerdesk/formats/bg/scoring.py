"""Pure scoring rules of the Bulgarian pub quiz (RULES.md, section BG).

Plain data in, plain data out: stdlib only, no Flask, no database, no other
answerdesk module. Team identifiers are any hashable value (ids or names).
Every rule lives in exactly one function; its rule id is in the docstring.

Decisions taken where RULES.md is silent are marked "Decision:" below.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Generic, TypeVar

from ...checker.core import Outcome

K = TypeVar("K", bound=Hashable)

CORRECT = Outcome.CORRECT
PARTIAL = Outcome.PARTIAL
WRONG = Outcome.WRONG
REVIEW = Outcome.REVIEW
OUTCOMES = frozenset({CORRECT, PARTIAL, WRONG, REVIEW})

DOUBLE = "double"  # BG-J1 „Двоен жокер“
COPY = "copy"  # BG-J2 „Препиши“
FIRST_LETTER = "first_letter"  # BG-J3 „Първа буква“
JOKER_ROUNDS: dict[str, frozenset[int]] = {
    DOUBLE: frozenset({2, 3}),
    COPY: frozenset({1, 2, 3, 4}),
    FIRST_LETTER: frozenset({2, 3, 4}),
}
DOUBLE_JOKER_POINTS = 1  # BG-J1: 1 point instead of the round's 2
SONG_PARTIAL_POINTS = 1  # BG-R4.1: title only, or performers only, earns 1 of 3

SHOOTOUT_PLACES = frozenset({1, 2})  # BG-S2: ties for these places go to the shoot-out
STREAK_STEP = -2  # BG-M3: -2 game points per win beyond the first of a streak


# --------------------------------------------------------------------------- answers


def answer_points(
    round_points: int,
    outcome: str | None,
    fraction: float | None,
    *,
    partial_points: int | None = None,
) -> int:
    """Points one answer earns from its effective outcome (BG-E3, BG-R4.1).

    correct → the round's points; partial → ``partial_points`` when given
    (BG-R4.1: pass ``SONG_PARTIAL_POINTS`` for an R4 song, 0 for BG-R5.3 which
    gives no partial credit), else ``round_points * fraction`` rounded half up
    and kept within 0..round_points; wrong, review or no answer (None) → 0.
    All-in (BG-R5.5) needs nothing here: the checker's verdict for 3 of 4 pairs
    is "wrong", which scores 0.
    """
    if outcome is not None and outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}")
    if outcome == CORRECT:
        return round_points
    if outcome != PARTIAL:
        return 0
    if partial_points is not None:
        return partial_points
    if fraction is None:
        raise ValueError("a partial outcome needs a fraction or partial_points")
    return min(round_points, max(0, math.floor(round_points * fraction + 0.5)))


@dataclass(frozen=True)
class TeamAnswer(Generic[K]):
    """One team's answer to one question, as the scoring rules need it.

    ``outcome`` is the effective outcome: the checker's verdict overridden by the
    host's decision; None means the team gave no answer. ``double`` marks the
    BG-J1 joker, whose second answer's outcome is ``second_outcome``. ``copies``
    names the team copied with the BG-J2 joker (``outcome`` is then ignored).
    ``first_letter`` records the BG-J3 joker; it changes nothing in the points.
    """

    outcome: str | None = None
    fraction: float | None = None
    partial_points: int | None = None
    double: bool = False
    second_outcome: str | None = None
    copies: K | None = None
    first_letter: bool = False


@dataclass(frozen=True)
class QuestionResult(Generic[K]):
    """Points per team for one question, with a short note per team for the host."""

    points: dict[K, int]
    notes: dict[K, str]


def double_joker_points(first: str | None, second: str | None) -> int:
    """BG-J1 „Двоен жокер“: two answers to one R2/R3 question.

    If either answer is correct the team gets 1 point instead of 2, else 0.
    Decision: a "partial" or "review" answer does not count as correct here
    (R2/R3 have no partial credit; a pending review must be decided first).
    """
    return DOUBLE_JOKER_POINTS if CORRECT in (first, second) else 0


def _own_points(round_points: int, answer: TeamAnswer[K], upheld: bool) -> tuple[int, str]:
    """A non-copying team's points and note; an upheld dispute counts correct (BG-D1a)."""
    outcome = CORRECT if upheld else answer.outcome
    if answer.double:
        second = CORRECT if upheld else answer.second_outcome
        return double_joker_points(outcome, second), "double joker"
    points = answer_points(
        round_points, outcome, answer.fraction, partial_points=answer.partial_points
    )
    note = "dispute upheld" if upheld else (answer.outcome or "no answer")
    return points, (f"{note}, first letter joker" if answer.first_letter else note)


def copy_joker_target(
    answers: Mapping[K, TeamAnswer[K]], team: K, upheld: Collection[K] = ()
) -> K | None:
    """BG-J2 „Препиши“: the team whose own answer ``team`` ends up scoring.

    Follows the chain of copies (T copies U, U copies X → X). Returns None when
    the chain runs into a cycle (every team in it, and every team copying into
    it, scores 0). Decision: a team whose dispute was upheld is judged on its own
    (correct) answer, so a chain stops there.
    """
    seen: set[K] = set()
    current = team
    while True:
        answer = answers.get(current)
        if answer is None or answer.copies is None or current in upheld:
            return current
        if current in seen:
            return None
        seen.add(current)
        current = answer.copies


def score_question(
    round_points: int,
    answers: Mapping[K, TeamAnswer[K]],
    *,
    upheld: Collection[K] = (),
    annulled: bool = False,
    teams: Iterable[K] | None = None,
) -> QuestionResult[K]:
    """Points of every team for one question (BG-E3, BG-J1-J3, BG-D1).

    - BG-D1(c) annulled question: every team is credited the round's points as
      if correct. Decision: "every team" means every team of the event
      (``teams``, default the keys of ``answers``), also teams that gave no
      answer; jokers played on the question have no effect (a double joker user
      gets the full points, not 1).
    - BG-D1(a) a dispute upheld for a team: that team's answer counts correct
      (with a double joker it still earns 1 point).
    - BG-D1(b) accepting further answers for everyone is a re-check by the
      checker; the new verdicts arrive here as effective outcomes.
    - BG-J1 double joker: 1 point if either answer is correct (``double_joker_points``).
    - BG-J3 first letter: no effect on points; the answer earns the round's
      normal points (the joker is only noted).
    - BG-J2 copy: the copier scores exactly the points the copied team's answer
      scores on this question (a double joker's 1 point included); a chain is
      followed; a cycle scores 0; copying a team that gave no answer scores 0.
    """
    everyone = list(dict.fromkeys([*(teams if teams is not None else ()), *answers]))
    if annulled:
        return QuestionResult(
            points={team: round_points for team in everyone},
            notes={team: "question annulled" for team in everyone},
        )
    upheld_set = set(upheld)
    own = {
        team: _own_points(round_points, answer, team in upheld_set)
        for team, answer in answers.items()
    }
    points: dict[K, int] = {}
    notes: dict[K, str] = {}
    for team in everyone:
        target = copy_joker_target(answers, team, upheld_set)
        if target is None:
            points[team], notes[team] = 0, "copy joker: cycle"
        else:
            points[team], note = own.get(target, (0, "no answer"))
            notes[team] = note if target == team else f"copy joker: {target!r}, {note}"
    return QuestionResult(points=points, notes=notes)


def joker_allowed(joker: str, round_number: int, used: Collection[str]) -> tuple[bool, str]:
    """Whether a team may play ``joker`` in ``round_number`` (BG-J1, BG-J2, BG-J3).

    Each joker at most once per game (``used`` holds the jokers the team has
    already played); double only in R2/R3 (once for both), copy in R1-R4, first
    letter in R2-R4. Returns (True, "") or (False, reason).
    """
    if joker not in JOKER_ROUNDS:
        return False, f"unknown joker {joker!r}"
    if joker in used:
        return False, f"{joker} joker already used in this game"
    rounds = sorted(JOKER_ROUNDS[joker])
    if round_number not in rounds:
        return False, f"{joker} joker only in rounds {rounds[0]}-{rounds[-1]}"
    return True, ""


# --------------------------------------------------------------------------- totals


@dataclass(frozen=True)
class Correction(Generic[K]):
    """A manual score correction by the host: ``points`` may be negative."""

    team: K
    points: int
    reason: str


def game_totals(
    question_points: Iterable[Mapping[K, int]],
    *,
    corrections: Iterable[Correction[K]] = (),
    handicaps: Mapping[K, int] | None = None,
    teams: Iterable[K] | None = None,
) -> dict[K, int]:
    """A game's total per team: question points + corrections + handicap (BG-E3, BG-M3).

    The teams are ``teams`` plus every team met in ``question_points`` and
    ``corrections``. Decision: a handicap (BG-M3) of a team not in the game is
    dropped: it is spent on this edition whether or not the team attends.
    """
    totals: dict[K, int] = dict.fromkeys(teams if teams is not None else (), 0)
    for per_team in question_points:
        for team, points in per_team.items():
            totals[team] = totals.get(team, 0) + points
    for correction in corrections:
        totals[correction.team] = totals.get(correction.team, 0) + correction.points
    for team, handicap in (handicaps or {}).items():
        if team in totals:
            totals[team] += handicap
    return totals


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class Standing(Generic[K]):
    """One line of an event's table: ``shared`` when another team has the same place."""

    team: K
    points: float
    place: int
    shared: bool
    shootout_needed: bool


def rank(totals: Mapping[K, float]) -> list[Standing[K]]:
    """Rank teams by total points, most first (BG-S1, BG-S2).

    Competition ranking: equal points share the better place (1, 2, 2, 4). A
    tie for 1st or 2nd place is flagged ``shootout_needed`` (BG-S3); a tie of
    three for first covers places 1-3 and is one shoot-out. Teams with equal
    points keep the order of ``totals``.
    """
    ordered = sorted(totals.items(), key=lambda item: -item[1])
    standings: list[Standing[K]] = []
    start = 0
    while start < len(ordered):
        points = ordered[start][1]
        end = start
        while end < len(ordered) and ordered[end][1] == points:
            end += 1
        size, place = end - start, start + 1
        standings.extend(
            Standing(team, points, place, size > 1, size > 1 and place in SHOOTOUT_PLACES)
            for team, _ in ordered[start:end]
        )
        start = end
    return standings


@dataclass(frozen=True)
class ShootoutQuestion(Generic[K]):
    """One shoot-out question, for the projector: who answered what, who scored."""

    number: int
    correct: float
    answers: dict[K, float | None]
    distances: dict[K, float]
    scorers: frozenset[K]


@dataclass(frozen=True)
class ShootoutResult(Generic[K]):
    """The shoot-out of one tied group: per-question detail, scores, order.

    ``order`` holds groups of teams, best first; a group of several teams is
    still equal after the shoot-out and shares its place.
    """

    teams: tuple[K, ...]
    questions: tuple[ShootoutQuestion[K], ...]
    scores: dict[K, int]
    order: tuple[tuple[K, ...], ...]


def _exact(number: float | None) -> Decimal | None:
    """A number as an exact decimal (1.4 → Decimal('1.4')); None for no or no finite answer."""
    if number is None or isinstance(number, bool):
        return None
    value = Decimal(str(number))
    return value if value.is_finite() else None


def _distances(correct: float, answers: Mapping[K, float | None]) -> dict[K, Decimal]:
    """Distance of each given number to the right one, on exact decimals (no answer: absent)."""
    target = _exact(correct)
    if target is None:
        raise ValueError(f"shoot-out answer must be a finite number, not {correct!r}")
    return {
        team: abs(value - target)
        for team, number in answers.items()
        if (value := _exact(number)) is not None
    }


def shootout_question_scorers(correct: float, answers: Mapping[K, float | None]) -> frozenset[K]:
    """BG-S3: on one question, the tied teams that score.

    A team scores when its number equals the right answer or is the closest
    to it among the tied teams; several equally close all score; no answer
    never scores. Distances are computed on exact decimals, so 1.4 and 1.6 are
    equally close to 1.5.
    """
    return _closest(_distances(correct, answers))


def _closest(distances: Mapping[K, Decimal]) -> frozenset[K]:
    best = min(distances.values(), default=None)
    return frozenset(team for team, distance in distances.items() if distance == best)


def shootout(
    tied_teams: Iterable[K],
    correct_answers: Sequence[float],
    answers: Mapping[K, Sequence[float | None]],
) -> ShootoutResult[K]:
    """The penalty shoot-out „Дузпи“ of one tied group (BG-S3).

    Three numeric questions; per question the closest tied teams score
    (``shootout_question_scorers``). More scored questions wins; still equal →
    those teams share the place. ``answers`` maps a team to its three numbers
    (None or a missing team/entry = no answer). Decision: the shoot-out orders
    the whole group, so in a tie of four for first the 3rd and 4th places follow
    the shoot-out too.
    """
    teams = tuple(dict.fromkeys(tied_teams))
    if len(correct_answers) != 3:
        raise ValueError("a shoot-out has exactly 3 questions")
    questions = []
    for index, correct in enumerate(correct_answers):
        given = {team: _nth(answers.get(team, ()), index) for team in teams}
        distances = _distances(correct, given)
        questions.append(
            ShootoutQuestion(
                number=index + 1,
                correct=correct,
                answers=given,
                distances={team: float(distance) for team, distance in distances.items()},
                scorers=_closest(distances),
            )
        )
    scores = {team: sum(team in q.scorers for q in questions) for team in teams}
    levels = sorted(set(scores.values()), reverse=True)
    order = tuple(tuple(t for t in teams if scores[t] == level) for level in levels)
    return ShootoutResult(teams=teams, questions=tuple(questions), scores=scores, order=order)


def _nth(numbers: Sequence[float | None], index: int) -> float | None:
    return numbers[index] if index < len(numbers) else None


def apply_shootout(
    standings: Sequence[Standing[K]], result: ShootoutResult[K]
) -> list[Standing[K]]:
    """Final places after a shoot-out (BG-S3).

    The tied group keeps its first place; the shoot-out's order splits it
    (competition ranking inside the group: a single best takes the group's
    place, a single next the following place alone; still equal teams share).
    Every team of the group is then no longer ``shootout_needed``.
    """
    group = set(result.teams)
    by_team = {s.team: s for s in standings if s.team in group}
    base = min((s.place for s in by_team.values()), default=0)
    if group != {s.team for s in standings if s.place == base}:
        raise ValueError("the shoot-out teams must be exactly one group of tied teams")
    resolved: list[Standing[K]] = []
    place = base
    for level in result.order:
        resolved.extend(
            replace(by_team[team], place=place, shared=len(level) > 1, shootout_needed=False)
            for team in level
        )
        place += len(level)
    others = [s for s in standings if s.team not in group]
    return sorted([*others, *resolved], key=lambda s: s.place)


# --------------------------------------------------------------------------- R5 chooser


@dataclass(frozen=True)
class Draw(Generic[K]):
    """Who chooses the R5 scenario; ``seed`` replays the draw (None: no draw was needed)."""

    candidates: tuple[K, ...]
    seed: int | None
    chosen: K


def _stable_order(teams: Iterable[K]) -> list[K]:
    """Teams in an order independent of the caller's, so a draw replays from its seed."""
    teams = list(teams)
    try:
        return sorted(teams)  # type: ignore[type-var]
    except TypeError:
        return sorted(teams, key=lambda team: (type(team).__name__, repr(team)))


def last_place_draw(standings: Sequence[Standing[K]], seed: int | None = None) -> Draw[K]:
    """BG-R5.0: the team ranked last chooses the R5 scenario.

    A tie for last is broken by a random draw with ``random.Random(seed)``;
    when ``seed`` is None a fresh one is taken from ``secrets`` and returned,
    to be recorded and shown. The candidates are sorted first, so the same
    seed always draws the same team. A single last team needs no draw.
    """
    if not standings:
        raise ValueError("no teams to draw from")
    last = max(s.place for s in standings)
    candidates = tuple(_stable_order(s.team for s in standings if s.place == last))
    if len(candidates) == 1:
        return Draw(candidates=candidates, seed=seed, chosen=candidates[0])
    if seed is None:
        seed = secrets.randbits(64)
    return Draw(candidates=candidates, seed=seed, chosen=random.Random(seed).choice(candidates))


# --------------------------------------------------------------------------- monthly league


def league_points(place: int, first_edition_of_month: bool) -> int:
    """League points for a final place (BG-M1, BG-M2).

    1st 10 (12 in the month's first edition), 2nd 9, 3rd 8, … 10th 1, lower 0.
    Teams sharing a place pass that place here and all get its points.
    """
    if place < 1:
        raise ValueError(f"place must be 1 or more, not {place}")
    if place == 1 and first_edition_of_month:
        return 12
    return max(0, 11 - place)


def streak_handicap(
    winners_by_edition: Sequence[Collection[K]], edition: int | None = None
) -> dict[K, int]:
    """Starting game points of edition ``edition`` from winning streaks (BG-M3).

    ``winners_by_edition`` lists, in order, the teams placed 1st in each
    edition (after the shoot-out). ``edition`` is the 0-based index of the
    edition to start (default: the next one after the list). A team that won
    the k >= 2 editions just before it starts with -2 * (k - 1) (-2, -4, -6 …).
    The handicap belongs to that edition whether or not the team attends: a
    team that skips it did not win it, so its streak ends and nothing carries.
    Decision: sharing 1st place counts as a win; the sequence runs across
    months (pass every edition, not one month's).
    """
    if edition is None:
        edition = len(winners_by_edition)
    if not 0 <= edition <= len(winners_by_edition):
        raise ValueError(f"edition {edition} is outside 0..{len(winners_by_edition)}")
    if edition == 0:
        return {}
    handicaps: dict[K, int] = {}
    for team in winners_by_edition[edition - 1]:
        streak = 0
        while streak < edition and team in winners_by_edition[edition - 1 - streak]:
            streak += 1
        if streak >= 2:
            handicaps[team] = STREAK_STEP * (streak - 1)
    return handicaps


@dataclass(frozen=True)
class MonthRow(Generic[K]):
    """One line of the monthly league table (BG-M1, BG-M2, BG-M4).

    ``by_edition`` holds the league points of each edition (None: absent).
    """

    team: K
    points: int
    place: int
    shared: bool
    by_edition: tuple[int | None, ...] = ()


def _final_places(edition: Sequence[Standing[K]] | Mapping[K, int]) -> dict[K, int]:
    if isinstance(edition, Mapping):
        return dict(edition)
    return {s.team: s.place for s in edition}


def month_table(
    editions: Sequence[Sequence[Standing[K]] | Mapping[K, int]],
) -> list[MonthRow[K]]:
    """The month's league table: league points summed over its editions (BG-M1, BG-M2).

    ``editions`` are the month's editions in order (the first gets 12 points for
    1st place), each as final standings (after the shoot-out) or a mapping
    team → final place. Rows are ranked by competition ranking (1, 2, 2, 4);
    equal teams keep the order in which they first appear.
    """
    per_edition = [
        {team: league_points(place, index == 0) for team, place in _final_places(e).items()}
        for index, e in enumerate(editions)
    ]
    teams = list(dict.fromkeys(team for points in per_edition for team in points))
    totals = {team: sum(points.get(team, 0) for points in per_edition) for team in teams}
    return [
        MonthRow(
            team=s.team,
            points=int(s.points),
            place=s.place,
            shared=s.shared,
            by_edition=tuple(points.get(s.team) for points in per_edition),
        )
        for s in rank(totals)
    ]


def monthly_titles(
    table: Sequence[MonthRow[K]], previous_title_holders: Collection[K]
) -> tuple[frozenset[K], frozenset[K]]:
    """„МЕСЕЧЕН ПОБЕДИТЕЛ“ and „МЕСЕЧЕН ВИЦЕШАМПИОН“ of a month (BG-M4).

    Returns (winners, vice_champions). The teams with most league points are
    all monthly winners. When a winner already holds the title from an earlier
    month (``previous_title_holders``) it keeps it, and the next team in the
    table becomes vice-champion. Decisions: several teams tied at that next
    place are all vice-champions; a co-winner never becomes vice-champion (the
    next place after all winners does); no vice-champion when no team follows.
    """
    if not table:
        return frozenset(), frozenset()
    top = min(row.place for row in table)
    winners = frozenset(row.team for row in table if row.place == top)
    if not winners & set(previous_title_holders):
        return winners, frozenset()
    following = [row.place for row in table if row.place > top]
    if not following:
        return winners, frozenset()
    nxt = min(following)
    return winners, frozenset(row.team for row in table if row.place == nxt)
