"""Plain data every pack parser produces.

The parsers know nothing about Flask or the database: they return a `Pack`, and
the import step turns it into rows. Keys already have the checker contract's
shapes (`docs/checker.md`), so the import can store them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from ..checker.modes import MODES

# The checker's modes (checker/modes.py), and those whose key lists answers as text.
CHECK_MODES = tuple(MODES)
TEXT_MODES = tuple(name for name, mode in MODES.items() if mode.takes_reject)
# The widgets of a round; "number" and "pairs" are the BG-R5.4/R5.5 wildcard
# scenarios an event round can take, so that such an event exports as a pack. A
# format may play an imported round as a kind of its own (Format.imported_kind).
RoundKind = Literal["choice", "open", "picture", "media", "wildcard", "final", "number", "pairs"]
ROUND_KINDS: tuple[RoundKind, ...] = get_args(RoundKind)
MEDIA_KINDS = ("image", "audio", "video")

Key = list[Any] | dict[str, Any]


class Note(str):
    """English text that keeps its msgid and values, so a page can show it in the
    reader's language while the CLI, logs and tests read plain English.

    The parsers stay free of Flask: they build notes, the host's page translates them.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Note:
        note = super().__new__(cls, template % params if params else template)
        note.template = template
        note.params = params
        return note


def N_(template: str, **params: Any) -> Note:
    """Mark an English msgid for extraction (a Babel keyword) and fill it in."""
    return Note(template, **params)


class PackError(Exception):
    """A pack that cannot be imported, with where the problem is.

    Shaped like `DeskError`: `message` is an English msgid whose %(name)s
    placeholders are filled from `params` (a `Note` brings its own). `location`
    is what a person opens the file at: "line 17", "row 4 (line 5)",
    "content.xml: <question> #3 in theme 'X' of round 'Раунд 1'"; often a `Note`.
    """

    def __init__(self, message: str, location: str | None = None, **params: Any) -> None:
        self.template: str = getattr(message, "template", message)
        self.params: dict[str, Any] = {**getattr(message, "params", {}), **params}
        self.location = location
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The message in English with the values filled in."""
        return self.template % self.params if self.params else self.template

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


@dataclass
class QuestionSpec:
    """One question as the host will ask it and the checker will judge it.

    `points` is None when the round's points apply. `check_mode` is None when the
    round's mode applies (a SIGame "select" question in an open round sets
    "choice"). `answer` is the answer as the editors wrote it, for the projector;
    `key` is what the checker compares with. `note` keeps judging instructions
    no machine can apply ("по смыслу", "в любом порядке") for the host's review.
    `variant` keeps a source-format question type answerdesk does not play
    (e.g. SIGame "stake") so a later format can use it. `price` is a SIGame secret
    question's own price, ``{"min", "max", "step"}`` (`price_choices`), played instead
    of `points` by a format that plays secret questions; None keeps `points`.
    """

    number: int
    text: str
    key: Key
    hint: str | None = None
    points: int | None = None
    comment: str | None = None
    source: str | None = None
    author: str | None = None
    media: list[dict[str, str]] = field(default_factory=list)
    answer: str | None = None
    note: str | None = None
    theme: str | None = None
    check_mode: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    variant: str | None = None
    price: dict[str, int] | None = None


def price_refusal(minimum: int, maximum: int, step: int) -> str | None:
    """Why a secret question's own price (SIGame's number set) is malformed: an English
    msgid with %(minimum)s, %(maximum)s, %(step)s, or None when it is sound."""
    if min(minimum, maximum, step) < 0:
        return N_("the price cannot be negative (minimum %(minimum)s, maximum %(maximum)s, "
                  "step %(step)s)")
    if maximum < minimum:
        return N_("the price's maximum %(maximum)s is below its minimum %(minimum)s")
    return None


def price_choices(price: dict[str, int]) -> list[int]:
    """The values a secret question's own price allows, as SIGame reads its number set:
    minimum = maximum, that price; a step inside the span, minimum, minimum + step, …
    and the maximum; a step of 0 or of the whole span, the minimum or the maximum."""
    low, high, step = price["min"], price["max"], price["step"]
    if low == high:
        return [low]
    if 0 < step < high - low:
        return sorted({*range(low, high + 1, step), high})
    return [low, high]


@dataclass
class RoundSpec:
    """A round of the evening: widget kind, default points and check mode.

    `partial_points` is what a half-right answer earns (BG-R4.1: the song title
    or the performers alone); None leaves it to the event's programme.
    """

    number: int
    name: str
    kind: str
    points: int
    check_mode: str
    questions: list[QuestionSpec] = field(default_factory=list)
    themes: list[str] = field(default_factory=list)
    partial_points: int | None = None

    def points_for(self, question: QuestionSpec) -> int:
        """The question's own value (Своя игра, SIGame) or the round's."""
        return self.points if question.points is None else question.points

    def mode_for(self, question: QuestionSpec) -> str:
        """The question's own check mode or the round's."""
        return question.check_mode or self.check_mode


@dataclass
class Pack:
    """A parsed pack. `media` maps a question media `ref` to the file's bytes;
    refs that are URLs or files the pack did not carry are absent from it."""

    title: str
    format: str
    rounds: list[RoundSpec] = field(default_factory=list)
    media: dict[str, bytes] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # BG-R5: the question set of each wildcard scenario ("5.1" … "5.5"); round 5
    # takes the chosen scenario's set (native packs' `wildcard` field).
    scenarios: dict[str, list[QuestionSpec]] = field(default_factory=dict)
    # Warnings that a question type (or a final round) plays as an ordinary question,
    # as (variant, warning) pairs: both are in `warnings`; warnings_for drops the
    # ones a format plays with their own rules (a view of `warnings`: not compared).
    type_warnings: list[tuple[str, str]] = field(default_factory=list, compare=False)

    def warnings_for(self, plays: frozenset[str] = frozenset()) -> list[str]:
        """The warnings for an event whose format plays the variants ``plays``."""
        dropped = [w for variant, w in self.type_warnings if variant in plays]
        return [w for w in self.warnings if not any(w is d for d in dropped)]

    @property
    def question_count(self) -> int:
        """Total questions over all rounds."""
        return sum(len(r.questions) for r in self.rounds)

    def missing_media(self) -> list[str]:
        """Refs to files the pack does not carry (not URLs): the host must upload
        them before the evening."""
        questions = [q for r in self.rounds for q in r.questions]
        questions += [q for qs in self.scenarios.values() for q in qs]
        refs = {m["ref"] for q in questions for m in q.media}
        return sorted(r for r in refs if r not in self.media and "://" not in r)


# BG-R1..R6 (RULES.md): the default programme of a Bulgarian pub-quiz evening.
# CSV rounds numbered 1-6 take these defaults; native packs may state their own.
BG_ROUNDS: dict[int, dict[str, Any]] = {
    1: {"name": "Тука има, тука нема / Да Б) или да не Б)", "kind": "choice", "points": 1,
        "check_mode": "choice"},
    2: {"name": "Я, това го знам бре!", "kind": "open", "points": 2, "check_mode": "typo3"},
    3: {"name": "Старите ленти", "kind": "picture", "points": 2, "check_mode": "typo3"},
    4: {"name": "БНР и БНТ", "kind": "media", "points": 3, "check_mode": "typo5"},
    5: {"name": "Последните ще станат първи", "kind": "wildcard", "points": 2,
        "check_mode": "exact"},
    6: {"name": "Димо Падалски", "kind": "final", "points": 5, "check_mode": "typo3"},
}


# BG-R5.1-R5.5 (RULES.md): the check mode a scenario's questions are judged by
# (formats/bg.py BG_SCENARIOS has the rest of each scenario's rules).
BG_SCENARIO_MODES: dict[str, str] = {
    "5.1": "exact", "5.2": "exact", "5.3": "typo5", "5.4": "number", "5.5": "pairs",
}


def text_key(accept: list[str], reject: list[str] | None = None) -> dict[str, list[str]]:
    """The canonical key for exact/typo modes: accepted and rejected strings,
    without duplicates (first spelling wins), rejects never also accepted."""
    seen: set[str] = set()
    acc: list[str] = []
    for a in accept:
        a = a.strip()
        if a and a.casefold() not in seen:
            seen.add(a.casefold())
            acc.append(a)
    rej: list[str] = []
    for r in reject or []:
        r = r.strip()
        if r and r.casefold() not in seen:
            seen.add(r.casefold())
            rej.append(r)
    return {"accept": acc, "reject": rej}
