"""The Bulgarian quiz's typed JSON responses: the phone's play part (GET /play), its sheet
(BgSheet: what play.decorate_event and play.decorate add to core's) and the replies of its
team routes (api.py). play.py and the services build their JSON as before
(the play part is kept per screen version and answered 304 while it stands); these
classes describe it for /api/openapi.json (api/replies.py), and
tests/formats/bg/test_bg_replies.py converts real responses into them."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, UnsetType

from ...api.replies import (
    CheckMode,
    Moment,
    Reply,
    SheetPart,
    SheetQuestion,
    SheetRoundPart,
    Widget,
)
from ...core.states import GateState, Outcome
from ...packs.model import RoundKind

JokerKind = Literal["double", "copy", "first_letter"]
Shown = Annotated[int | float | None, Meta(description="As typed: 1969.0 as 1969")]


class PlayedJoker(Reply):
    kind: JokerKind
    round: int
    question: int
    copy_of: Annotated[str | None, Meta(description="BG-J2: the team copied")]
    hint: Annotated[str | None, Meta(description="BG-J3: the first letter")]


class Jokers(Reply):
    """BG-J1-J3: the jokers left, the rounds each may be played in, those played."""

    remaining: list[JokerKind]
    rounds: dict[str, list[int]]
    played: list[PlayedJoker]


#: BG-R5.0's scenarios (programme.BG_SCENARIOS; tests/formats/bg/test_bg_replies.py holds
#: them equal).
Scenario = Literal["5.1", "5.2", "5.3", "5.4", "5.5"]


class Wildcard(Reply):
    """BG-R5.0: the draw and the choice (wildcard.drawn_wildcard); ``can_choose``: this
    team may choose now."""

    candidates: list[str]
    seed: str | None
    chooser: str | None
    scenario: Scenario | None
    scenario_name: str | None
    scenarios: dict[str, str]
    can_choose: bool


class ShootoutPart(Reply):
    """BG-S3: the shoot-out the team is in (shootout.shootout_json); the answers, scores
    and order once it is decided."""

    id: int
    place: int
    teams: list[str]
    questions: list[str]
    seconds_left: int
    locked: bool
    numbers: list[Shown]
    missing: list[str]
    decided: bool
    answers: list[Shown] | UnsetType = UNSET
    scores: dict[str, int | float] | UnsetType = UNSET
    order: list[list[str]] | UnsetType = UNSET
    given: list[dict[str, Shown]] | UnsetType = UNSET


class Play(Reply):
    """GET /api/events/{code}/play (play.tagged_play): what the phone shows beside the
    sheet, fetched when the state's version moves."""

    jokers: Jokers
    wildcard: Wildcard | None
    shootout: ShootoutPart | None
    final: Annotated[dict[str, GateState], Meta(
        description="BG-R6.1: the final's questions opened so far, by number")]
    teams: Annotated[list[str], Meta(description="The other teams (BG-J2's copy)")]


class JokerPlayed(Reply):
    """POST /jokers: the joker played, with the first letter for BG-J3."""

    kind: JokerKind
    round: int
    question: int
    hint: str | None
    copy_of: str | None


class WildcardChosen(Reply):
    """POST /wildcard: round 5 with the scenario's check mode and points (BG-R5.0)."""

    round: int
    kind: RoundKind
    check_mode: CheckMode
    points: int


class ShootoutSaved(Reply):
    """PUT /shootout: the team's numbers as stored (BG-S3)."""

    numbers: list[float | None]
    saved_at: Moment


class BgSheetQuestion(SheetQuestion, kw_only=True):
    """A question of the BG sheet (play.decorate_event, play.decorate)."""

    widget: Widget
    state: Annotated[GateState | UnsetType, Meta(
        description="BG-R6.1: a final question's gate while its round is open")] = UNSET
    second_verdict: Annotated[Outcome | None | UnsetType, Meta(
        description="BG-J1: the double joker's second answer's verdict, once revealed")
    ] = UNSET


class BgSheetRound(SheetRoundPart):
    kind: RoundKind
    questions: list[BgSheetQuestion]
    used_numbers: Annotated[dict[str, int] | UnsetType, Meta(
        description="BG-R5.4: «От 1 до 10»'s numbers used, each with its question")] = UNSET


class BgSheet(SheetPart):
    """GET /api/events/{code}/sheet of a BG event: core's sheet with each question's
    widget, the final one question at a time (BG-R6.1) and the play part (GET /play)."""

    rounds: list[BgSheetRound]
    play: Play
