"""Typed JSON responses of the core API: each documented answer is a msgspec Struct, and
the OpenAPI document's response schemas are generated from these classes (``reply``,
``components``), as its request bodies are from their Body classes (answerdesk/bodies.py).

The routes build their JSON as before (the save's is answer_write.SavedAnswer.to_json,
on the phone's hot path: no conversion added there); these classes describe it (a
service's own reply class where it has one: answer_write.SavedAnswer,
receipts.ReceiptCheck, chgk's GameRow), and
tests/test_openapi_replies.py converts real responses into them and validates them
against the served document, so the document cannot drift from what the routes send.

A ``Reply`` allows no key but its fields; an ``OpenReply`` is one a format adds its own
part to (the state; Format.public_state). The team's sheet has a model per format
(Format.sheet_reply, built on SheetPart, SheetRoundPart and SheetQuestion), so what a
format adds to it (Format.decorate_event_sheet, Format.decorate_sheet) is typed too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, UnsetType

from .. import errors
from ..bodies import schema_components
from ..core import formats
from ..core.answer_write import SavedAnswer
from ..core.replies import Moment, OpenReply, Reply
from ..core.states import GateState, Outcome, RoundState

#: Values only the loaded formats know: a field of one of these types lists, in the
#: document, the values the registry gives (``components``), as NewEvent's format does.
REGISTERED: dict[str, Callable[[], list[str]]] = {
    "error_codes": errors.codes, "round_kinds": formats.round_kinds}

#: A refusal's code (errors.codes: core's refusals' and each format's).
ErrorCode = Annotated[str, Meta(description="The refusal's code, e.g. round_locked",
                                extra_json_schema={"x-registered": "error_codes"})]

#: A round's kind (formats.round_kinds: a pack's kinds and those a format plays its
#: rounds as, such as a game on the clock's "sequential").
RoundKindName = Annotated[str, Meta(description="The round's kind (a format adds its own)",
                                    extra_json_schema={"x-registered": "round_kinds"})]


class Error(OpenReply):
    """Every refusal (answerdesk/errors.py DeskError.to_json); its details, such as the
    round or the field, beside the code and the message."""

    error: ErrorCode
    message: Annotated[str, Meta(description="The refusal in the request's language")]
    field: Annotated[str | UnsetType, Meta(
        description="The request's field that was wrong, where one was")] = UNSET


class CreatedEvent(Reply):
    """POST /api/events: organiser.event_line."""

    code: str
    host_password: Annotated[str, Meta(description="Shown once")]
    team_url: str
    host_url: str
    screen_url: str


class JoinedTeam(Reply):
    """POST /api/events/{code}/teams."""

    name: str
    players: int
    token: Annotated[str, Meta(description="The team's secret token (Bearer)")]
    event: str


class RoundStatus(Reply):
    """A round's state as the state poll and the sheet list them."""

    number: int
    state: RoundState


class RoundMoved(Reply):
    """A host's move of a round (open, close, reveal): its new state."""

    round: int
    state: RoundState


class ClockMarker(Reply):
    """The question started last on the clock (clock.marker)."""

    round: int
    question: int
    state: GateState


class QuestionClock(Reply):
    """A started question's clock (clock.clock_json): the server's deadlines and its own
    time, which a phone corrects its clock by."""

    round: int
    question: int
    opens_at: Moment
    answer_until: Moment | None
    locks_at: Annotated[Moment | None, Meta(
        description="null: the host closes the question (no deadline)")]
    seconds: int | None
    grace: int | None
    now: Moment
    state: GateState


class CurrentClock(Reply):
    """GET /api/events/{code}/clock: the latest started question's clock, or null."""

    clock: QuestionClock | None


class State(OpenReply):
    """GET /api/events/{code}/state (sheets.public_state; the formats' parts beside)."""

    rounds: list[RoundStatus]
    question: ClockMarker | None
    version: Annotated[str, Meta(
        description="Moves with every change the room may see but a phone's save (a "
                    "joker, the wildcard, a team joining): the phone fetches /play only "
                    "then")]


class SaveReply(SavedAnswer, kw_only=True):
    """PUT /api/events/{code}/answers/{round}/{question}: the answer as stored
    (answer_write.SavedAnswer) and, with ?with=state, the state read after the save."""

    state: Annotated[State | UnsetType, Meta(
        description="With ?with=state: what GET /state answers, read after the save")] = UNSET


class SheetEvent(Reply):
    code: str
    name: str


class SheetTeam(Reply):
    name: str
    players: int


class SheetQuestion(Reply):
    """A question of a visible round with the team's answer; once the round is revealed
    its answer and the team's verdict."""

    number: int
    text: str
    answer: SavedAnswer | None
    correct_answer: str | None | UnsetType = UNSET
    verdict: Outcome | None | UnsetType = UNSET


class SheetRoundPart(Reply):
    """What core writes of a visible round (sheets._round_json) but its questions: a
    format's round model adds ``questions`` of its own question model."""

    number: int
    name: str
    kind: RoundKindName
    points: int
    state: RoundState


class SheetRound(SheetRoundPart):
    questions: list[SheetQuestion]


class SheetPart(Reply):
    """What core writes of a team's sheet (sheets.team_sheet) but its rounds: a format's
    sheet model (Format.sheet_reply) adds ``rounds`` of its own round model and its parts."""

    event: SheetEvent
    team: SheetTeam
    states: list[RoundStatus]
    version: Annotated[str, Meta(
        description="The screen version the sheet was read under (GET /state)")]
    now: Moment
    question: ClockMarker | None


class Sheet(SheetPart):
    """GET /api/events/{code}/sheet: the team's sheet of a format that adds nothing to it
    but hides questions (sheets.team_sheet; Format.decorate_sheet)."""

    rounds: list[SheetRound]


#: The check modes (checker/modes.MODES; tests/test_openapi_replies.py holds them equal).
CheckMode = Literal["exact", "typo3", "typo5", "song", "pairs", "number", "choice"]

#: The phone widget a question is answered with (checker/modes.widget_kind).
WidgetKind = Literal["truefalse", "abcd", "song", "pairs", "number", "text"]


class Widget(Reply):
    """What the phone draws a question's widget with, never its key (BG-G3;
    core/widgets.widget_spec)."""

    kind: WidgetKind
    options: list[str] | UnsetType = UNSET
    texts: Annotated[dict[str, str] | UnsetType, Meta(
        description="BG-R1: the options' texts by letter, as the pack wrote them")] = UNSET
    numbers: Annotated[list[int | str] | UnsetType, Meta(
        description="number: 1 to 10 (BG-R5.4); pairs: the left column's, as text")] = UNSET
    letters: list[str] | UnsetType = UNSET


class SheetDelta(Reply):
    """GET /api/events/{code}/sheet?since&version: only the answers changed since."""

    delta: Literal[True]
    version: str
    now: Moment
    answers: list[SavedAnswer]


class StandingRow(Reply):
    team: str
    points: float
    place: int | None
    shared: bool
    shootout_needed: bool
    by_round: dict[str, float]


class Standings(Reply):
    """GET /api/events/{code}/standings (the format's standings)."""

    event: str
    standings: list[StandingRow]


#: Every reply a route's description named, for the document's components.
_NAMED: dict[str, type[Reply | OpenReply]] = {}


def reply(model: type[Reply | OpenReply]) -> dict[str, Any]:
    """The schema reference of a response of ``model``; the schema itself goes into the
    document's components (``components``) by the class's name."""
    named = _NAMED.setdefault(model.__name__, model)
    if named is not model:
        raise ValueError(f"two replies named {model.__name__}: "
                         f"{named.__module__} and {model.__module__}")
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def components() -> dict[str, Any]:
    """The JSON Schemas of every reply a route's description named (and the classes they
    hold), generated by msgspec; a REGISTERED field's values listed as its ``enum``."""
    schemas = schema_components(_NAMED)
    for schema in schemas.values():
        for field in schema.get("properties", {}).values():
            if "x-registered" in field:
                field["enum"] = REGISTERED[field.pop("x-registered")]()
    return schemas
