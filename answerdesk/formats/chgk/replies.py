"""ЧГК's typed JSON responses: the phone's auction status and bid (CHGK-4), the host's
records (CHGK-1.6, CHGK-2.2, CHGK-3, CHGK-4.3-4.5), the standings (CHGK-2.4-2.7) and the
team's sheet (ChgkSheet: what sheet.decorate adds to core's). game.py and api.py build
their JSON as before; these classes describe it for /api/openapi.json (api/replies.py),
and tests/formats/chgk/test_chgk_replies.py converts real responses into them. The question
clock is core's (api/question_clock.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, UnsetType

from ...api.replies import (
    QuestionClock,
    Reply,
    SheetPart,
    SheetQuestion,
    SheetRoundPart,
    Widget,
)
from ...core.states import GateState
from .game import GameRow
from .rules import League


class AuctionStatus(Reply):
    """GET /chgk/auction and PUT /chgk/bid: the team's credits, whether it may hand in a
    sealed bid now and, if not, why (game.bid_status); its bid handed in, if any."""

    game: int | None
    open: bool
    reason: Annotated[Literal["ended", "seated", "taken", "contender", "no_credits"] | None,
                      Meta(description="Why the team may not bid now (CHGK-3.6: a "
                                       "Contender in game 2)")]
    credits: int | None
    bid: int | None
    league: League | None = None


class SectorDrawn(Reply):
    """CHGK-1.6: the spin of the top (rules.draw_sector), its seed recorded."""

    game: int
    seed: str
    pointer: int
    sector: int


class AuctionRun(Reply):
    """CHGK-4.3-4.5: the sealed bids by team; every bid burns; a tie drawn from ``seed``."""

    game: int
    winner: str | None
    bids: dict[str, int]
    tied: list[str]
    seed: str | None


class LeagueSet(Reply):
    """CHGK-2.2: the team's league."""

    team: str
    league: League


class AuctionLine(Reply):
    names: Annotated[dict[str, int], Meta(description="The bids by team name")]
    tied: list[str]
    seed: str | None
    winner: str | None


class GamePart(Reply):
    """One game of the evening (POST /table answers it after the Central Table's call)."""

    standings: Annotated[list[GameRow], Meta(
        description="CHGK-2.5 places, CHGK-2.4 series points, CHGK-4 credits left")]
    sectors: Annotated[list[int], Meta(description="CHGK-1.6: the sectors played")]
    table: Annotated[str | None, Meta(description="The team at the Central Table")]
    auctions: list[AuctionLine]


class EveningLine(Reply):
    """CHGK-2.6/2.7: the sum of places, its tie-breaks and the lot."""

    team: str
    league: League
    place: int
    place_sum: int
    places: list[int]
    table_points: int
    table_rounds: int
    points: int
    tie_break: Annotated[str, Meta(description='"" or the tie-break that separated the team')]
    by_lot: bool


class ChgkStandings(Reply):
    """GET /chgk/standings (game.standings_json): the games by number, the evening, for
    all teams and per league, and the lot's seed."""

    event: str
    games: dict[str, GamePart]
    lot_seed: str
    evening: list[EveningLine]
    leagues: dict[str, list[EveningLine]]


class ChgkSheetQuestion(SheetQuestion):
    """A started question of a game (CHGK-1.1, sheet.decorate): its clock, no text (the
    host reads it), the answer card's widget. A round not played question by question
    adds nothing."""

    clock: QuestionClock | UnsetType = UNSET
    state: GateState | UnsetType = UNSET
    widget: Widget | UnsetType = UNSET


class ChgkSheetRound(SheetRoundPart):
    questions: list[ChgkSheetQuestion]


class ChgkPlay(Reply):
    """No BG jokers, wildcard or shoot-out: the phone's play part is empty."""


class ChgkSheet(SheetPart):
    """GET /api/events/{code}/sheet of a ЧГК event (sheet.decorate)."""

    rounds: list[ChgkSheetRound]
    play: ChgkPlay
