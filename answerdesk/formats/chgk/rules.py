"""Pure rules of the «Что? Где? Когда?» open tournament (RULES.md, section CHGK).

Plain data in, plain data out: no Flask, no database. Team identifiers are any
hashable, orderable value (ids or names). Random draws take a seed, so a draw
the system made can be recorded and replayed. A refusal is a DeskError (its
English msgid is translated where it is shown).

Decisions taken where the rules are silent are marked "Decision:".
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from ...errors import BidRefused, Conflict, DeskError, WrongTeam

SECTORS = 12  # CHGK-1.6: the Central Table has 12 sectors, one question in each
QUESTIONS_PER_GAME = 11  # CHGK-1.6: 11 of the 12 are played
GAMES_PER_EVENING = 2  # CHGK-1.9
ANSWER_SECONDS = 60  # CHGK-1.1: a minute to discuss
HAND_IN_SECONDS = 10  # CHGK-1.1: then 10 s to hand in
MIN_PLAYERS, MAX_PLAYERS = 3, 6  # CHGK-1.7
START_CREDITS = 100  # CHGK-4.1
CREDITS_PER_POINT = 10  # CHGK-4.2
SERIES_POINTS_BY_PLACE = (7, 5, 4, 3, 3, 2, 2, 2, 2, 2)  # CHGK-2.4, lower places 1
SERIES_POINTS_BELOW = 1
EXCHANGED = 3  # CHGK-2.2: three Contenders move up, three Favourites down


class League(StrEnum):
    """CHGK-2.2: the two leagues of the tournament."""

    FAVOURITES = "favourites"
    CONTENDERS = "contenders"


def new_seed() -> str:
    """A fresh seed for a draw the system makes (recorded beside its result)."""
    return secrets.token_hex(8)


# ------------------------------------------------------------------ CHGK-1.6 sectors


@dataclass(frozen=True)
class SectorDraw:
    """One spin of the top: where the pointer stopped and the sector played."""

    seed: str
    pointer: int
    sector: int


def played_sector(pointer: int, played: Collection[int]) -> int:
    """CHGK-1.6: the pointer's sector, or the next unplayed one clockwise.

    Sectors are numbered 1..12 clockwise. A game plays 11 of them: a twelfth
    spin is refused.
    """
    if not 1 <= pointer <= SECTORS:
        raise DeskError("The pointer must be on a sector from 1 to %(sectors)s.", sectors=SECTORS)
    if len(set(played)) >= QUESTIONS_PER_GAME:
        raise Conflict("All %(count)s questions of this game have been played.",
                       count=QUESTIONS_PER_GAME)
    for step in range(SECTORS):
        sector = (pointer - 1 + step) % SECTORS + 1
        if sector not in played:
            return sector
    raise AssertionError("unreachable: fewer than 12 sectors played")


def draw_sector(played: Collection[int], seed: str | None = None) -> SectorDraw:
    """CHGK-1.6: spin the top (a random pointer from ``seed``) and find the sector."""
    seed = seed or new_seed()
    pointer = random.Random(seed).randint(1, SECTORS)
    return SectorDraw(seed, pointer, played_sector(pointer, played))


# ------------------------------------------------------------ CHGK-1.3 judging


def for_the_host(values: dict[str, Any], text: str) -> dict[str, Any]:
    """CHGK-1.3: the host and the assistant judge. The checker's "correct" (the pack's
    answer or Зачёт) and a match of the Незачёт stand as proposals; any other answer
    that says something goes to the review queue (``values``: the verdict's outcome,
    fraction, reason and reason code, as core's checker proposes them)."""
    if (values["outcome"] == "wrong" and text.strip()
            and values.get("reason_code") not in REJECTED_CODES):
        return {**values, "outcome": "review", "fraction": None,
                "reason": f"the host judges ({values['reason']})"[:300]}
    return values


#: The checker's reason codes for an answer the key rejects (a pack's Незачёт).
REJECTED_CODES = frozenset({"rejected", "nearer_rejected"})


# ------------------------------------------------------------ CHGK-2.5 game ranking


#: A team's identity in these rules: whatever the caller keys teams by (an id, a name).
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class GameResult(Generic[K]):
    """A team's game: points for correct answers (Central Table points included),
    points won at the Central Table and rounds played there (CHGK-2.5, CHGK-3.2)."""

    team: K
    points: int
    table_points: int = 0
    table_rounds: int = 0


@dataclass(frozen=True)
class Place(Generic[K]):
    team: K
    place: int
    shared: bool


def _competition_places(ordered: Sequence[Any], key) -> list[Place[Any]]:
    """Places 1, 2, 2, 4: equal keys share the better place."""
    places: list[Place[Any]] = []
    for i, item in enumerate(ordered):
        same_as_before = i > 0 and key(item) == key(ordered[i - 1])
        place = places[-1].place if same_as_before else i + 1
        places.append(Place(item.team, place, False))
    counts: dict[int, int] = {}
    for p in places:
        counts[p.place] = counts.get(p.place, 0) + 1
    return [Place(p.team, p.place, counts[p.place] > 1) for p in places]


def _game_key(result: GameResult[Any]) -> tuple[int, int, int]:
    return (result.points, result.table_points, result.table_rounds)


def game_ranking(results: Iterable[GameResult[K]]) -> list[Place[K]]:
    """CHGK-2.5: most points; ties by Central Table points, then Central Table
    rounds; still equal: the place is shared (competition ranking 1, 2, 2, 4)."""
    ordered = sorted(results, key=lambda r: (tuple(-v for v in _game_key(r)), str(r.team)))
    return _competition_places(ordered, _game_key)


# --------------------------------------------------------------- CHGK-2.4 series


def place_series_points(place: int) -> int:
    """CHGK-2.4 a): 1st 7, 2nd 5, 3rd 4, 4th-5th 3, 6th-10th 2, lower 1.
    Decision: teams sharing a place each get that place's points."""
    if place < 1:
        raise ValueError("places start at 1")
    if place <= len(SERIES_POINTS_BY_PLACE):
        return SERIES_POINTS_BY_PLACE[place - 1]
    return SERIES_POINTS_BELOW


def series_points(results: Iterable[GameResult[K]], leagues: Mapping[K, League],
                  table_series: Mapping[K, int]) -> dict[K, int]:
    """CHGK-2.4: series points of one game, ranked within each league (CHGK-2.5
    order), plus the series points the team kept at the Central Table (CHGK-3.2,
    CHGK-4.7). Decision: a team with no league plays with the Contenders."""
    by_league: dict[League, list[GameResult[K]]] = {}
    for result in results:
        by_league.setdefault(leagues.get(result.team, League.CONTENDERS), []).append(result)
    points: dict[K, int] = {}
    for league_results in by_league.values():
        for place in game_ranking(league_results):
            points[place.team] = (place_series_points(place.place)
                                  + table_series.get(place.team, 0))
    return points


# ----------------------------------------------------- CHGK-2.6/2.7 evening ranking


@dataclass(frozen=True)
class EveningRow(Generic[K]):
    team: K
    place: int
    place_sum: int
    places: tuple[int, ...]
    table_points: int
    table_rounds: int
    points: int
    tie_break: str  # "" or the tie-break that separated the team from an equal sum
    by_lot: bool


def evening_ranking(games: Sequence[Sequence[GameResult[K]]],
                    lot_seed: str | None = None) -> list[EveningRow[K]]:
    """CHGK-2.6/2.7: the sum of places in the games (fewest first); ties broken by
    (I) Central Table points, (II) Central Table rounds, (III) points of both games,
    (IV) the better place in one of the games, (V) lot (drawn from ``lot_seed``).

    Decision: a team missing from a game takes the place after that game's last.
    Decision: (IV) compares the best single-game place; the lot orders only the
    teams still equal after (I)-(IV), so every place is distinct.
    """
    teams = sorted({r.team for game in games for r in game}, key=str)
    place_in: list[dict[K, int]] = []
    for game in games:
        ranked = {p.team: p.place for p in game_ranking(game)}
        absent = len(game) + 1
        place_in.append({team: ranked.get(team, absent) for team in teams})
    by_team: dict[K, list[GameResult[K]]] = {team: [] for team in teams}
    for game in games:
        for r in game:
            by_team[r.team].append(r)
    totals: dict[K, dict[str, Any]] = {}
    for team in teams:
        rows = by_team[team]
        places = tuple(p[team] for p in place_in)
        totals[team] = {
            "places": places, "sum": sum(places),
            "tp": sum(r.table_points for r in rows), "tr": sum(r.table_rounds for r in rows),
            "pts": sum(r.points for r in rows), "best": min(places) if places else 0,
        }

    keys = {team: (t["sum"], -t["tp"], -t["tr"], -t["pts"], t["best"])
            for team, t in totals.items()}
    key = keys.__getitem__

    ordered = sorted(teams, key=key)
    rng = random.Random(lot_seed or new_seed())
    result: list[EveningRow[K]] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        group = ordered[i:j]
        lot = len(group) > 1
        if lot:
            rng.shuffle(group)
        for team in group:
            t = totals[team]
            result.append(EveningRow(
                team=team, place=len(result) + 1, place_sum=t["sum"], places=t["places"],
                table_points=t["tp"], table_rounds=t["tr"], points=t["pts"],
                tie_break="V" if lot else _separated_by(team, ordered, key), by_lot=lot,
            ))
        i = j
    return result


_TIE_BREAKS = ("I", "II", "III", "IV")


def _separated_by(team: Hashable, ordered: Sequence[Hashable], key) -> str:
    """The tie-break (I-IV) that set the team apart from another with its place sum."""
    mine = key(team)
    level = 0
    for other in ordered:
        theirs = key(other)
        if other == team or theirs[0] != mine[0]:
            continue
        first_diff = next(i for i in range(1, len(mine)) if mine[i] != theirs[i])
        level = max(level, first_diff)
    return _TIE_BREAKS[level - 1] if level else ""


# --------------------------------------------------------- CHGK-3 Central Table


class TableAction(StrEnum):
    SEAT = "seat"
    ANSWER = "answer"
    LEAVE = "leave"
    DECISIVE = "decisive"


@dataclass
class TableTally:
    """What a team won at the Central Table in one game."""

    points: int = 0  # game points won there (CHGK-3.2), after Decisive Rounds (3.4)
    rounds: int = 0  # rounds played there (CHGK-2.5 II)
    series: int = 0  # series points kept (CHGK-3.2, 3.5, 4.7)
    correct: int = 0  # correct answers given there (each earns credits, CHGK-4.2)


@dataclass
class CentralTable(Generic[K]):
    """CHGK-3.1-3.6: the Central Table of one game, driven by the host's records.

    A stay starts when the auction's winner sits down. Each answer there: right
    → +1 game point, +1 series point; wrong → back to the hall, the series
    points of this stay are lost, game points stay (3.2). After a right answer
    and before the next round the team may leave (keeps both, 3.3) or take the
    Decisive Round (3.4). A later stay counts from 0 (3.5).
    """

    seated: K | None = None
    stay_points: int = 0
    stay_series: int = 0
    may_leave: bool = False  # the last thing at the table was a right answer
    tallies: dict[K, TableTally] = field(default_factory=dict)
    seats_by_question: dict[int, K] = field(default_factory=dict)

    def tally(self, team: K) -> TableTally:
        return self.tallies.setdefault(team, TableTally())

    def seat(self, team: K, *, league: League | None = None, game: int = 1) -> None:
        """The auction's winner sits down (CHGK-4.5); CHGK-3.6 in game 2 only Favourites."""
        if self.seated is not None:
            raise Conflict("The Central Table is taken: the auction waits until it is free.")
        if game >= 2 and league is not None and league != League.FAVOURITES:
            raise WrongTeam("In the second game only Favourites may play at the Central Table.")
        self.seated, self.stay_points, self.stay_series, self.may_leave = team, 0, 0, False

    def _check_team(self, team: K) -> None:
        if self.seated is None:
            raise WrongTeam("No team plays at the Central Table.")
        if team != self.seated:
            raise WrongTeam("Team %(team)s does not play at the Central Table.", team=str(team))

    def answer(self, team: K, question: int, correct: bool) -> None:
        """CHGK-1.1/3.2: the host's verdict on the table's oral answer to a question."""
        self._check_team(team)
        if question in self.seats_by_question:
            raise Conflict("The Central Table already answered question %(question)s.",
                           question=question)
        self.seats_by_question[question] = team
        tally = self.tally(team)
        tally.rounds += 1
        if correct:
            tally.correct += 1
            self.stay_points += 1
            self.stay_series += 1
            self.may_leave = True
            return
        # CHGK-3.2: wrong → the hall; this stay's series points are lost, game points stay.
        tally.points += self.stay_points
        self._vacate()

    def leave(self, team: K) -> None:
        """CHGK-3.3: after a right answer, before the next round; keeps both."""
        self._check_team(team)
        if not self.may_leave:
            raise Conflict("A team may leave the Central Table only after a right answer.")
        tally = self.tally(team)
        tally.points += self.stay_points
        tally.series += self.stay_series
        self._vacate()

    def decisive(self, team: K, question: int, correct: bool) -> None:
        """CHGK-3.4: one player answers; right doubles, wrong zeroes the points won at
        the table; series points are unaffected; the table is then free (auction).

        Decision: "the points won at the table" are those of this stay (earlier
        stays were banked when the team left); the Decisive Round counts as a
        round at the table, earns no point of its own, and its right answer earns
        credits like any correct answer (CHGK-4.2).
        """
        self._check_team(team)
        if not self.may_leave:
            raise Conflict("The Decisive Round may be taken only after a right answer.")
        if question in self.seats_by_question:
            raise Conflict("The Central Table already answered question %(question)s.",
                           question=question)
        self.seats_by_question[question] = team
        tally = self.tally(team)
        tally.rounds += 1
        if correct:
            tally.correct += 1
        tally.points += self.stay_points * 2 if correct else 0
        tally.series += self.stay_series
        self._vacate()

    def close_game(self) -> None:
        """The game ends with a team still seated: it keeps what it won (CHGK-4.6, 4.7)."""
        if self.seated is not None:
            tally = self.tally(self.seated)
            tally.points += self.stay_points
            tally.series += self.stay_series
            self._vacate()

    def _vacate(self) -> None:
        self.seated, self.stay_points, self.stay_series, self.may_leave = None, 0, 0, False

    def standing(self, team: K) -> TableTally:
        """The team's tally as it stands, counting a stay still in progress."""
        tally = self.tallies.get(team, TableTally())
        if team != self.seated:
            return tally
        return TableTally(tally.points + self.stay_points, tally.rounds,
                          tally.series + self.stay_series, tally.correct)


# -------------------------------------------------------------- CHGK-4 auction


def credits(correct_answers: int, burned: int) -> int:
    """CHGK-4.1/4.2: 100 credits at the start of a game, +10 per point for a correct
    answer, less every bid already made (CHGK-4.5: bids burn)."""
    return START_CREDITS + CREDITS_PER_POINT * correct_answers - burned


@dataclass(frozen=True)
class AuctionResult(Generic[K]):
    winner: K | None
    bids: dict[K, int]
    tied: tuple[K, ...]
    seed: str | None  # the spinning top's seed when a tie was drawn (CHGK-4.5)


def auction(bids: Mapping[K, Any], available: Mapping[K, int],
            seed: str | None = None) -> AuctionResult[K]:
    """CHGK-4.3-4.5: sealed bids of 1..the team's credits; every bid burns; the
    highest wins; a tie is drawn by the spinning top (from ``seed``, recorded).

    ``available`` holds the credits of every team that may bid; a bid from any
    other team, or outside 1..credits, is refused and nothing is decided.
    """
    clean: dict[K, int] = {}
    for team, bid in bids.items():
        if team not in available:
            raise BidRefused("Team %(team)s is not in this auction.", team=str(team))
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise BidRefused("A bid must be a whole number of credits.")
        if not 1 <= bid <= available[team]:
            raise BidRefused("The bid of %(team)s must be from 1 to %(credits)s credits.",
                             team=str(team), credits=available[team])
        clean[team] = bid
    if not clean:
        return AuctionResult(None, {}, (), None)
    best = max(clean.values())
    tied = tuple(sorted((t for t, b in clean.items() if b == best), key=str))
    if len(tied) == 1:
        return AuctionResult(tied[0], clean, tied, None)
    seed = seed or new_seed()
    return AuctionResult(random.Random(seed).choice(tied), clean, tied, seed)


# ---------------------------------------------------------- CHGK-2.1-2.3 seasons


@dataclass(frozen=True)
class Season:
    """CHGK-2.1: spring (Mar-May), summer (Jun-Aug), autumn (Sep-Nov), winter
    (Dec-Feb, named by the year of its December)."""

    name: str
    year: int

    @property
    def label(self) -> str:
        return f"{self.year}-{self.name}"


_SEASON_OF_MONTH = {12: "winter", 1: "winter", 2: "winter", 3: "spring", 4: "spring",
                    5: "spring", 6: "summer", 7: "summer", 8: "summer", 9: "autumn",
                    10: "autumn", 11: "autumn"}


_FIRST_MONTH = {"spring": 3, "summer": 6, "autumn": 9, "winter": 12}


def season_bounds(season: Season) -> tuple[dt.date, dt.date]:
    """CHGK-2.1: the season's first day and the first day after it."""
    first = _FIRST_MONTH[season.name]
    start = dt.date(season.year, first, 1)
    after = first + 3
    return start, dt.date(season.year + (after - 1) // 12, (after - 1) % 12 + 1, 1)


def next_league(league: League, team: Hashable, table: SeasonTable) -> League:
    """CHGK-2.2: a team's league after the season's exchange."""
    if team in table.promoted:
        return League.FAVOURITES
    if team in table.relegated:
        return League.CONTENDERS
    return league


def season_of(day: dt.date) -> Season:
    """CHGK-2.1: the season a date belongs to; no gaps between seasons."""
    year = day.year - 1 if day.month in (1, 2) else day.year
    return Season(_SEASON_OF_MONTH[day.month], year)


@dataclass(frozen=True)
class SeriesEntry:
    """Series points a team earned in one game of an evening (CHGK-2.4)."""

    team: Hashable
    league: League
    day: dt.date
    points: int


@dataclass(frozen=True)
class SeasonRow:
    team: Hashable
    points: int
    place: int
    shared: bool


@dataclass(frozen=True)
class SeasonTable:
    season: Season
    leagues: dict[League, list[SeasonRow]]
    promoted: tuple[Hashable, ...]  # CHGK-2.2: the top Contenders, into the Favourites
    relegated: tuple[Hashable, ...]  # the lowest-rated Favourites, into the Contenders


@dataclass(frozen=True)
class _Total:
    team: Hashable
    points: int


def season_table(entries: Iterable[SeriesEntry], season: Season) -> SeasonTable:
    """CHGK-2.1-2.3: series points summed per league over the season's three
    months; winners have most; the top 3 Contenders replace the 3 lowest-rated
    Favourites.

    Decision: a team's league in the season is the league of its latest game;
    "lowest-rated" is fewest series points in the season (a tie at the border is
    decided by name, so exactly three move each way); with fewer than 3
    Contenders, fewer move up; Decision: the Favourites' champion (the Cup) is never
    relegated, so a league of at most 3 Favourites sends down all but its first.
    """
    latest: dict[Hashable, tuple[dt.date, League]] = {}
    sums: dict[Hashable, int] = {}
    for e in entries:
        if season_of(e.day) != season:
            continue
        sums[e.team] = sums.get(e.team, 0) + e.points
        if e.team not in latest or e.day >= latest[e.team][0]:
            latest[e.team] = (e.day, e.league)
    leagues: dict[League, list[SeasonRow]] = {}
    for league in League:
        totals = sorted((_Total(t, sums[t]) for t, (_, lg) in latest.items() if lg == league),
                        key=lambda r: (-r.points, str(r.team)))
        places = _competition_places(totals, lambda r: r.points)
        leagues[league] = [SeasonRow(t.team, t.points, p.place, p.shared)
                           for t, p in zip(totals, places, strict=True)]
    favourites, contenders = leagues[League.FAVOURITES], leagues[League.CONTENDERS]
    promoted = tuple(r.team for r in contenders[:EXCHANGED])
    down = min(len(promoted), max(len(favourites) - 1, 0))
    relegated = tuple(r.team for r in favourites[len(favourites) - down:]) if down else ()
    return SeasonTable(season, leagues, promoted, relegated)
