"""The team sheet's parts as its builders write them (issue 32): TypedDicts that mirror
the sheet's reply models (api/replies.py: Sheet, SheetRound, SheetQuestion and their
parts), so mypy checks every key a builder writes or reads, and the sheet stays plain
dicts (the cold sheet is the hot read of a 300-team night; a TypedDict costs nothing
at run time). tests/test_sheet_parts.py holds each one's keys equal to its model's
fields, and a format's own (formats/<name>/sheet_parts.py) to its ``sheet_reply``.

The sheet is built in two steps (core/sheets.py): the event's part, shared by every
team (``EventSheet``: no answers yet), then each team's (``BuiltSheet``), to which
``team_sheet`` adds the moment and the clock's marker (``Sheet``).

No ``from __future__ import annotations`` in these modules: Python 3.11's TypedDict
tells a NotRequired key only from an evaluated annotation.
"""

from typing import Any, NotRequired, TypedDict


class SheetEvent(TypedDict):
    code: str
    name: str


class SheetTeam(TypedDict):
    name: str
    players: int


class RoundStatus(TypedDict):
    number: int
    state: str


class EventQuestion(TypedDict):
    """A question of a visible round as every team sees it; its answer once revealed."""

    number: int
    text: str
    correct_answer: NotRequired[str | None]


class SheetQuestion(EventQuestion):
    """The question with the team's saved answer (answer_write.SavedAnswer.to_json) and,
    once its round is revealed, the team's verdict."""

    answer: dict[str, Any] | None
    verdict: NotRequired[str | None]


class RoundPart(TypedDict):
    """What core writes of a visible round but its questions."""

    number: int
    name: str
    kind: str
    points: int
    state: str


class EventRound(RoundPart):
    questions: list[EventQuestion]


class SheetRound(RoundPart):
    questions: list[SheetQuestion]


class EventSheet(TypedDict):
    """What every team's sheet shows of the event alone (sheets.event_sheet)."""

    event: SheetEvent
    states: list[RoundStatus]
    rounds: list[EventRound]


class BuiltSheet(TypedDict):
    """A team's sheet as built, before the moment and the marker (sheets._built_sheet)."""

    event: SheetEvent
    states: list[RoundStatus]
    rounds: list[SheetRound]
    team: SheetTeam
    version: str


class Sheet(BuiltSheet):
    """GET /api/events/{code}/sheet: core's part (a format adds its own keys)."""

    now: str
    question: dict[str, Any] | None
