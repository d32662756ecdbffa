"""BG's parts of the team sheet as play.decorate_event and play.decorate write them:
TypedDicts that mirror BgSheet's models (replies.py; tests/test_sheet_parts.py holds
their keys equal), so mypy checks every key the builders write (core/sheet_parts.py)."""

from typing import Any, NotRequired, TypedDict

from ...core.sheet_parts import (
    EventQuestion,
    RoundPart,
    RoundStatus,
    SheetEvent,
    SheetQuestion,
    SheetTeam,
)


class BgEventQuestion(EventQuestion):
    """The event's part of a question: its widget; a final question's gate while its
    round is open (BG-R6.1) and, once revealed, a place for the team's verdict."""

    widget: dict[str, Any]
    state: NotRequired[str]
    verdict: NotRequired[str | None]


class BgEventRound(RoundPart):
    questions: list[BgEventQuestion]
    used_numbers: NotRequired[dict[str, int]]


class BgEventSheet(TypedDict):
    event: SheetEvent
    states: list[RoundStatus]
    rounds: list[BgEventRound]


class BgSheetQuestion(SheetQuestion):
    widget: dict[str, Any]
    state: NotRequired[str]
    second_verdict: NotRequired[str | None]


class BgSheetRound(RoundPart):
    questions: list[BgSheetQuestion]
    used_numbers: NotRequired[dict[str, int]]


class BgBuiltSheet(TypedDict):
    """A BG team's sheet as built (core's BuiltSheet with BG's rounds and play part)."""

    event: SheetEvent
    states: list[RoundStatus]
    rounds: list[BgSheetRound]
    team: SheetTeam
    version: str
    play: dict[str, Any]
