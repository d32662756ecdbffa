"""Своя игра's part of the team sheet as screens.decorate and screens.player_part write
it: TypedDicts that mirror SiSheet's models (replies.py; tests/test_sheet_parts.py holds
their keys equal), so mypy checks every key the builders write (core/sheet_parts.py)."""

from typing import TypedDict

from ...core.sheet_parts import BuiltSheet


class SiPlayerQuestion(TypedDict):
    round: int
    question: int
    answer: str | None
    late: bool
    claim: str | None
    listed: bool
    may_answer: bool


class SiProtestable(TypedDict):
    round: int
    question: int
    theme: int
    theme_name: str | None
    value: int
    answer: str | None
    protest: str | None


class SiOwnProtest(TypedDict):
    id: int
    round: int
    question: int
    state: str
    warned: bool


class SiPlayerPart(TypedDict):
    player: str
    points: int
    place: int | None
    in_competition: bool
    removed: bool
    warnings: int
    current: SiPlayerQuestion | None
    protestable: list[SiProtestable]
    protests: list[SiOwnProtest]


class SiBuiltSheet(BuiltSheet):
    """A player's sheet as built: core's, and the player's own part."""

    si: SiPlayerPart
