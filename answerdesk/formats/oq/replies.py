"""OpenQuiz's typed JSON responses: its part of GET /state (Format.public_state) and the
replies of its routes (api.py). The services build their JSON as before (the state is
polled by every phone); these classes describe it for /api/openapi.json (api/replies.py),
and tests/formats/oq/test_replies.py converts real responses into them."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, UnsetType

from ...api.replies import Reply
from .room import Kind
from .timers import Stop

#: OQ-7's speeds (timers.Speed, whose name the speed's request body has in the document;
#: tests/formats/oq/test_oq_replies.py holds them equal).
Speed = Literal["slow", "normal", "fast"]
#: OQ-3's question types (types.TYPES; tests/formats/oq/test_oq_replies.py holds them equal).
QuestionTypeName = Literal["buzzer", "choices", "choices_all", "norisk", "secret", "auction"]
#: A pack's media kinds (packs/model.MEDIA_KINDS).
MediaKind = Literal["image", "audio", "video"]


class OqCell(Reply):
    question: int
    value: int
    played: bool
    picked: bool


class OqTheme(Reply):
    name: str
    cells: list[OqCell]


class OqBoard(Reply):
    """OQ-2: the round in play, its themes by values, each cell played or picked."""

    round: int
    name: str
    themes: list[OqTheme]


class OqRef(Reply):
    """A question by its round and number (POST /oq/pick answers it too)."""

    round: int
    question: int


class OqScore(Reply):
    team: str
    points: int


class OqFinalTheme(Reply):
    number: int
    name: str
    banned: bool


class OqFinalResult(Reply):
    team: str
    bet: int
    answer: str | None
    accepted: bool


class OqFinal(Reply):
    """OQ-6 as everyone sees it (game._final_state)."""

    answer: Annotated[str | None, Meta(description="Once every final answer is judged")]
    banned: list[int]
    remaining: list[int]
    themes: list[OqFinalTheme]
    bans_next: str | None
    finalists: list[str]
    bets: int
    bet_teams: list[str]
    answered: list[str]
    question: Annotated[str | None, Meta(
        description="Once one theme is left and every finalist has bet")]
    theme: str | None
    results: list[OqFinalResult]
    open: bool


class OqMedia(Reply):
    kind: MediaKind
    url: str


class OqAuction(Reply):
    highest: int | None
    leader: str | None
    passed: list[str]


class OqChoice(Reply):
    team: str
    option: Annotated[str | None, Meta(
        description="null while a choices-for-all question is open (sealed)")]


class OqPlay(Reply):
    """OQ-3: the question in play by its type (typeplay.public_play): options, who
    answers alone and for what, the auction, the choices."""

    round: int
    question: int
    type: QuestionTypeName
    value: int
    state: Literal["picked", "open", "done"]
    theme: str | None
    text: Annotated[str | None, Meta(
        description="The question's text, once the host has started it (never before)")]
    media: Annotated[list[OqMedia], Meta(
        description="The pack's files of the question (once started), then of its answer "
                    "(once over)")]
    options: dict[str, str] | None
    answering: str | None
    auction: OqAuction | None
    choices: list[OqChoice] | None
    answer: Annotated[str | None, Meta(
        description="OQ-2: the correct answer, once the question is over")]
    prices: Annotated[list[int] | None, Meta(
        description="OQ-3.4: a secret question's own prices (the pack's), one when fixed; "
                    "null: the board value")]


class OqRoomTeam(Reply):
    """OQ-1: a team's players in joining order and its captain."""

    team: str
    players: list[str]
    captain: str | None


class OqTimer(Reply):
    seconds: float
    deadline_ms: int


class OqAnswerTimer(Reply):
    team: str
    seconds: float
    deadline_ms: int


class OqStop(Reply):
    reason: Annotated[Stop, Meta(description="OQ-8: idle 30 minutes, or 5 hours since the start")]
    at_ms: int


class OqClock(Reply):
    """OQ-4/OQ-7/OQ-8 (control.clock_state): speed, pause, the answer timer, the press
    timer while nobody has pressed (OQ-4.1), whether the game stopped."""

    speed: Speed
    paused: bool
    pause_left_ms: int
    stopped: OqStop | None
    answer: OqAnswerTimer | None
    press: OqTimer | None


class OqState(Reply):
    """OpenQuiz's part of GET /state: turn, board, pick, scores, the final, the question
    in play, the teams' players and the clocks."""

    turn: str | None
    board: OqBoard | None
    picked: OqRef | None
    scores: list[OqScore]
    final: OqFinal | None
    play: OqPlay | None
    teams: list[OqRoomTeam]
    clock: OqClock


class OqScoreSet(Reply):
    """The team's total after the host's edit, or its gain from the final (OQ-5, OQ-6)."""

    team: str
    points: int


class OqReading(Reply):
    reading_until_ms: int


class OqBanned(Reply):
    remaining: list[int]


class OqBet(Reply):
    amount: int


class OqReceived(Reply):
    received: Literal[True]


class OqPlayerJoined(Reply):
    """OQ-1: the player's own token (it plays; the team token does not)."""

    team: str
    player: str
    captain: bool
    token: str


class OqRoomJoined(Reply):
    """OQ-1, the join form: the player's own token and the team's invitation."""

    team: str
    player: str
    captain: bool
    token: str
    invite: str


class OqInvite(Reply):
    team: str
    invite: str
    url: str
    qr: Annotated[str, Meta(description="The link's QR code (SVG)")]


class OqMe(Reply):
    team: str
    player: Annotated[str | None, Meta(description="null for the team token")]
    players: list[str]
    captain: str | None


class OqCaptain(Reply):
    team: str
    captain: str


class OqRemoved(Reply):
    kind: Kind
    removed: str
    banned: bool


class OqSpeed(Reply):
    speed: Speed


#: OQ-2's outcomes (rules.Outcome, whose name core's checker Outcome has in the document;
#: tests/formats/oq/test_oq_replies.py holds them equal).
Outcome = Literal["accept", "reject", "timeout"]


class OqCall(Reply):
    """OQ-4/OQ-5: the host's call on the answering team (game.record_call); ``returns``:
    the question goes back to the others."""

    team: str
    outcome: Outcome
    points: int
    returns: bool


class OqChosen(Reply):
    """OQ-3: the option chosen; sealed for choices for all, else judged at once (the
    call's fields beside)."""

    option: str
    sealed: bool
    team: str | UnsetType = UNSET
    outcome: Outcome | UnsetType = UNSET
    points: int | UnsetType = UNSET
    returns: bool | UnsetType = UNSET


class OqBidding(Reply):
    """OQ-3 auction after a stake or a pass: the highest, its team, who passed; closed
    once one team is left."""

    highest: int | None
    leader: str | None
    passed: list[str]
    closed: bool


class OqHanded(Reply):
    """OQ-3 secret: the team it was handed to; a pack's own price, where it has one."""

    team: str
    price: int | UnsetType = UNSET


class OqTyped(Reply):
    type: QuestionTypeName


class OqChoicesClosed(Reply):
    """OQ-3 choices for all, closed: each team's option and points (±value, none 0)."""

    choices: dict[str, str]
    points: dict[str, int]


class OqSold(Reply):
    """OQ-3 auction closed by the host: the team that answers and for what (nobody bid:
    the team with the turn, for the value)."""

    team: str | None
    value: int
