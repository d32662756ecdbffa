"""ЧГК's part of the team sheet as sheet.decorate writes it: TypedDicts that mirror
ChgkSheet's models (replies.py; tests/test_sheet_parts.py holds their keys equal), so
mypy checks every key the builder writes (core/sheet_parts.py)."""

from typing import Any, NotRequired, TypedDict

from ...core.sheet_parts import RoundPart, RoundStatus, SheetEvent, SheetQuestion, SheetTeam


class ChgkSheetQuestion(SheetQuestion):
    """A started question of a game (CHGK-1.1): its clock, its gate's state, the answer
    card's widget."""

    clock: NotRequired[dict[str, Any]]
    state: NotRequired[str]
    widget: NotRequired[dict[str, Any]]


class ChgkSheetRound(RoundPart):
    questions: list[ChgkSheetQuestion]


class ChgkBuiltSheet(TypedDict):
    """A ЧГК team's sheet as built (core's BuiltSheet with ЧГК's rounds and its empty
    play part)."""

    event: SheetEvent
    states: list[RoundStatus]
    rounds: list[ChgkSheetRound]
    team: SheetTeam
    version: str
    play: dict[str, Any]
