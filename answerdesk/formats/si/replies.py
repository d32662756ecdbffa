"""Своя игра's typed JSON responses: its part of GET /state (Format.public_state), the
player's part of the sheet (SiSheet, screens.decorate) and the replies of its routes
(api.py). The routes and services build their JSON as before; these classes describe it
for /api/openapi.json (api/replies.py), and tests/formats/si/test_si_replies.py and
tests/test_openapi_replies.py convert real responses into them."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from ...api.replies import Moment, Reply, SheetPart, SheetRound
from .rules import ProtestState

Mark = Literal["correct", "wrong", "none"]


class SiCurrent(Reply):
    """The question started last (SI-2.4): its answer and lists once published."""

    round: int
    question: int
    theme: int
    theme_name: Annotated[str | None, Meta(
        description="the pack's name of the theme; null without a pack")]
    value: int
    state: Literal["open", "closed", "published"]
    answer: str | None
    lists: list[str]


class SiScore(Reply):
    player: str
    points: int
    in_competition: bool
    removed: bool
    place: Annotated[int | None, Meta(
        description="SI-1.2: null out of competition (plays, not ranked) or removed")]


class SiProtestLine(Reply):
    """SI-3: a protest not yet decided (filed: СТОП; heard: СТОЮ)."""

    id: int
    player: str
    round: int
    question: int
    state: Literal["filed", "heard"]


class SiState(Reply):
    """Своя игра's part of GET /state (screens.public): the latest question with its
    lists once published (SI-2.4), the players' scores and the protests being heard."""

    current: SiCurrent | None
    scores: list[SiScore]
    protests: list[SiProtestLine]


class SiReceived(Reply):
    """SI-2.2: the answer's receipt time by the server; after ВСЁ it is late."""

    received_at: Moment
    late: bool


class SiClaimSent(Reply):
    """SI-2.4 ПРОПУСТИЛИ: the server's receipt time against the ВСЁ settles it."""

    on_time: bool
    received_at: Moment
    closed_at: Moment


class SiClosedAnswer(Reply):
    """An answer received until ВСЁ with the checker's proposal."""

    player: str
    text: str
    late: bool
    proposed: Annotated[Literal["correct", "wrong", "review"] | None, Meta(
        description="The checker's mark (review: the host's to decide), or null (late)")]
    reason: Annotated[str, Meta(description="Why the checker proposes it")]


class SiClosed(Reply):
    """SI-2.2b ВСЁ: the answers received with the checker's proposals."""

    answers: list[SiClosedAnswer]


class SiDecided(Reply):
    """The host's word on one answer."""

    player: str
    decision: Mark


class SiLists(Reply):
    """SI-2.4: the lists as published ("+3 Вася, Ира / −3 Женя")."""

    lists: list[str]


class SiWarned(Reply):
    """SI-1.3: the player's warnings; the second removes the player."""

    warnings: int
    removed: bool


class SiProtestRow(Reply):
    """SI-3: a protest filed (СТОП) or heard (СТОЮ)."""

    id: int
    player: str
    state: ProtestState
    warned: bool


class SiProtestDecided(Reply):
    """SI-3: upheld (marks changed, lists republished) or rejected (a warning if asked)."""

    state: Literal["upheld", "rejected"]
    warned: bool
    lists: list[str]


class SiCompetitionSet(Reply):
    """SI-1.2: in or out of competition (out: plays, not ranked)."""

    player: str
    in_competition: bool


class SiThemeSet(Reply):
    """SI-0: a theme's author (null: nobody)."""

    round: int
    theme: int
    author: str | None


class SiPlayerQuestion(Reply):
    """The question started last as the player stands on it (screens.player_part)."""

    round: int
    question: int
    answer: str | None
    late: bool
    claim: Annotated[Literal["pending", "settled"] | None, Meta(
        description="SI-2.4 ПРОПУСТИЛИ: pending until the host answers it")]
    listed: Annotated[bool, Meta(description="SI-2.4: the answer is in a published list")]
    may_answer: Annotated[bool, Meta(description="SI-0: a theme's author may not answer")]


class SiProtestable(Reply):
    """SI-3: a question the player may protest now, and its own latest protest's state."""

    round: int
    question: int
    theme: int
    theme_name: str | None
    value: int
    answer: str | None
    protest: ProtestState | None


class SiOwnProtest(Reply):
    id: int
    round: int
    question: int
    state: ProtestState
    warned: bool


class SiPlayerPart(Reply):
    """The player's own part of the sheet (screens.player_part): a phone that dropped
    and came back finds its score, its answer and its protests here."""

    player: str
    points: int
    place: int | None
    in_competition: bool
    removed: bool
    warnings: int
    current: SiPlayerQuestion | None
    protestable: list[SiProtestable]
    protests: list[SiOwnProtest]


class SiSheet(SheetPart):
    """GET /api/events/{code}/sheet of a Своя игра event: only the started questions,
    and the player's part."""

    rounds: list[SheetRound]
    si: SiPlayerPart
