"""The format registry: each game plugs into core here (CTFd-style ``REGISTRY``).

Core asks an event's format what differs between games (its programme, what
happens when a question is checked, which rounds open question by question, its
standings, its part of the phone sheet, its API paths) and never imports
``answerdesk.formats``: each format package registers an instance of its
``Format`` subclass from its ``load(app)``, which the app factory calls. The
registry is plain data (no Flask), so pure code and tests can fill it too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from ..errors import Conflict, DeskError
from ..packs.model import ROUND_KINDS
from .sheet_parts import BuiltSheet, EventSheet


@dataclass(frozen=True)
class RoundTemplate:
    """One round an event of a format starts with (its kind, points and check mode)."""

    number: int
    name: str
    kind: str
    points: int
    check_mode: str
    partial_points: int | None = None


@dataclass(frozen=True)
class QuestionStart:
    """A question about to start, as core's question clock would run it (CHGK-1.1):
    when it opens, its answer period and grace, and the deadline from which answers
    are refused (``locks_at`` None: no deadline, the format's own flow closes it)."""

    opened_at: dt.datetime
    seconds: int | None
    grace: int | None
    locks_at: dt.datetime | None
    #: Whether the host set the seconds or the grace for this start.
    asked: bool = False


class StandingRow(Protocol):
    """What core reads of a format's standings row (projector, host pages, API)."""

    team_id: int
    name: str
    points: float
    place: int
    shared: bool
    by_round: dict[int, float]
    shootout_needed: bool  # the API's standings carry it for every format


@dataclass(frozen=True)
class Standing:
    """A standings row as core reads it (projector, host pages, API, exports), for a
    format whose rules need no more (ЧГК, OpenQuiz): equal points may share a place."""

    team_id: int
    name: str
    points: float
    place: int
    shared: bool = False
    by_round: dict[int, float] = field(default_factory=dict)
    shootout_needed: bool = False
    handicap: int = 0
    correction_notes: tuple[str, ...] = ()


class Format:
    """A game: subclass it in ``answerdesk/formats/<name>/`` and ``register`` an instance.

    Every hook has a neutral default, so a format overrides only what its rules
    add; core calls the hooks, never a format's modules by name, and asks nothing
    of a format that is not declared here. docs/ARCHITECTURE.md ("What a format
    package provides") lists every hook and attribute, its arguments and who calls it.
    """

    name: ClassVar[str] = ""
    #: English msgid of the game's name, shown where an organiser picks a format.
    label: ClassVar[str] = ""
    #: The template the projector includes for this format's own parts, if any.
    screen_part: ClassVar[str | None] = None
    #: Whether that part always says what happens now (ЧГК: the question's clock): the
    #: projector then shows no round-level "answers are open" beside it, while the
    #: standings stay (``screen_stage`` is the moment that holds the screen alone).
    screen_says_now: ClassVar[bool] = False
    #: English msgid naming a scored round on the standings chart's axis (ЧГК: a game).
    chart_round: ClassVar[str] = "Round %(n)s"
    #: English msgid of the standings chart's caption (ЧГК: after each game).
    chart_caption: ClassVar[str] = "Points after each round"
    #: Whether a team may dispute the host's verdicts (BG-D1); CHGK-1.2 takes none.
    appeals: ClassVar[bool] = True
    #: The players a team may have (least, most), when the game sets it (CHGK-1.7: 3-6).
    team_size: ClassVar[tuple[int, int] | None] = None
    #: The format's own host pages as (endpoint, English msgid): in the desk's bar for the
    #: night, and in its set-up menu; the core's bar names no format.
    desk_links: ClassVar[tuple[tuple[str, str], ...]] = ()
    setup_links: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: The page a team's phone gets after joining (None: core's answer sheet); a game
    #: whose players do not fill in a sheet names its own template.
    phone_template: ClassVar[str | None] = None
    #: The endpoint the event's team link (``/e/<code>``, its QR code) and the sheet's
    #: address open instead of core's join page and sheet (None: core's); a game whose
    #: phones join and play on a page of their own names it, so no link hands a team
    #: the written sheet.
    team_page: ClassVar[str | None] = None
    #: Likewise the endpoint the event's projector link (``/e/<code>/screen``) opens.
    screen_page: ClassVar[str | None] = None
    #: The source-format question types a pack may bring that the game plays with their
    #: own rules (SIGame "stake", "secret", "norisk", a "final" round): the import's
    #: warning that they play as ordinary questions does not apply.
    plays_variants: ClassVar[frozenset[str]] = frozenset()
    #: The template the import preview includes to choose what of a pack the evening
    #: plays (with ``choose_pack``), if any.
    pack_part: ClassVar[str | None] = None
    #: The template the paper screen includes below a team's sheet (BG-E1), if any.
    paper_part: ClassVar[str | None] = None
    #: The template the import preview includes to choose the layout (``pack_layout``).
    layout_part: ClassVar[str | None] = None
    #: The host page that downloads the results (``kind``: csv or xlsx), for the desk's bar.
    results_export: ClassVar[str] = "host.export_results"
    #: Whether its phones and projector follow the game by server push (an SSE stream,
    #: docs/live-push.md): only then does a change of its events notify the streams.
    live_push: ClassVar[bool] = False
    #: Whether a new event takes this format when none is named (``formats.default``).
    default: ClassVar[bool] = False
    #: Whether its phones press the buzzer (formats/buzzer/api.py asks ``buzzer_arming``).
    buzzer: ClassVar[bool] = False
    #: Whether its players press and sync with tokens of their own (``buzzer_phone``)
    #: rather than the team's.
    buzzer_phones: ClassVar[bool] = False
    #: The template the buzzer page includes for this format's own parts, if any.
    buzzer_part: ClassVar[str | None] = None
    #: Whether its ``standings`` move only with an audited change (never with a phone's
    #: save or the live checker's proposal): the desk for the night then keeps its
    #: standings chart per event and screen version (charts.desk_standings_chart).
    standings_follow_screen: ClassVar[bool] = False

    def programme(self) -> tuple[RoundTemplate, ...]:
        """The rounds a new event of this format starts with."""
        return ()

    def imported_kind(self, number: int, kind: str) -> str:
        """The kind round ``number`` takes when a pack brings it as ``kind``."""
        return kind

    def shape_pack(self, pack: Any, layout: Sequence[int] | None = None) -> Any:
        """The pack as this game plays it, before the preview and the import (Своя игра:
        three boards of 5 × 5, the themes in the rounds ``layout`` chose); the pack as it
        is by default. Refuses a bad ``layout`` with a PackError."""
        return pack

    def pack_layout(self, pack: Any, layout: Sequence[int] | None = None) -> Any:
        """What the import preview lets the host lay out (``templates/<layout_part>``), or
        None when the game takes a pack's rounds as they are."""
        return None

    def one_at_a_time(self, rnd: Any) -> bool:
        """Whether the round's questions open one by one behind gates (``rnd`` may be a
        Round or a row with its ``number`` and ``kind``): such a question takes answers
        only while its gate is open, and phones see it only once opened."""
        return False

    def start_question(self, event: Any, rnd: Any, question: Any,
                       start: QuestionStart) -> QuestionStart:
        """How a question of a round played one at a time starts (core's start endpoint
        and the host pages call it before the gate opens, in the same transaction):
        refuse with a DeskError what the game's rules forbid now, or return the start
        changed (no deadline, another clock). Default: the question clock as asked."""
        return start

    def settle_timers(self, event: Any) -> None:
        """Apply what the game's own timers decided by now (a question they closed)
        before core's start looks for a question still running; neutral by default."""

    def timers_due_ms(self, state: dict[str, Any]) -> int | None:
        """When the game's own timers next decide something by the time alone (server
        epoch ms), read from its public state as just rendered, without a query: a live
        stream wakes then and applies them (``settle_timers``) with nobody asking. None:
        nothing ticks (the default, so a game without timers costs its streams nothing)."""
        return None

    def before_join(self, event: Any, name_key: str) -> None:
        """Refuse, with a DeskError, a team joining now when the game's rules forbid it
        (SI-1.2 late joins; OQ-1 a 13th team, OQ-8 a banned one: ``name_key``)."""

    def on_question_checked(self, question: Any, rnd: Any) -> None:
        """Called after the checker has (re)proposed verdicts for every answer to a question."""

    def after_check(self, row: Any, values: dict[str, Any]) -> dict[str, Any]:
        """Adjust the live checker's proposal for one answer (``row``: the answer's text
        and its round's ``number`` and ``kind``; ``values``: the verdict's outcome,
        fraction, reason, reason_code and reason_params), e.g. to leave it to the host."""
        return values

    def import_pack_extras(self, event: Any, pack: Any, *, replace: bool,
                           to_row: Callable[[Any], Any]) -> None:
        """Keep what a pack carries beyond its rounds (BG: the R5 scenario sets), in the
        import's transaction; ``to_row`` makes a pack question a (transient) row."""

    def export_pack_extras(self, event: Any, pack: Any, to_spec: Callable[[Any], Any]) -> None:
        """Put those parts back into the event's exported pack (``to_spec``: row to
        pack question)."""

    def media_files(self, event: Any) -> set[str]:
        """The stored media files that what ``import_pack_extras`` kept names, so that a
        new import does not delete them as unused."""
        return set()

    def choose_pack(self, pack: Any, form: Any) -> tuple[Any, dict[str, Any]]:
        """The part of the pack this evening plays, from the host's choice in the import
        preview (``form``), and what ``pack_part`` shows to choose it (ЧГК: two games of
        12 sectors from a pack's tours); by default the pack as is."""
        return pack, {}

    def standings(self, event: Any) -> Sequence[StandingRow]:
        """The event's standings rows, best first, by this format's scoring."""
        return []

    def screen_standings(self, event: Any) -> Sequence[StandingRow]:
        """The standings as the room may see them on the projector: only points the host
        has revealed (BG-E3). Default: the standings, for a game that reveals nothing."""
        return self.standings(event)

    def screen_stage(self, event: Any) -> bool:
        """Whether ``screen_part`` shows the room's moment now (a question on its clock, a
        shoot-out): the projector's automatic view then leaves out its own line about the
        round, so the screen says one thing at a time."""
        return False

    def save_columns(self, team_id: Any, question_id: Any) -> dict[str, Any]:
        """SQL scalar columns the answer save's one read adds for this game's rules, by
        name, on the team ``team_id`` and question ``question_id`` (column expressions).
        core/answer_statements.py builds its statements once over every registered format's
        columns; the event's own reach ``check_save`` as ``target.extra``."""
        return {}

    def check_save(self, team_id: int, target: Any, text: str, fields: Any,
                   run: Callable[[Any, dict[str, Any]], Any]) -> None:
        """Refuse, with a DeskError, a save of ``text`` and ``fields`` to ``target`` (a
        widgets.AnswerTarget) that the game's rules forbid. Called by
        widgets.prepare_answer inside the save's transaction, for a phone, a paper
        answer while the round is open and one past its lock; ``run`` runs a query in
        that transaction."""

    def save_rereads(self, target: Any) -> bool:
        """Whether ``check_save`` of ``target`` read more than ``save_columns``: the
        PostgreSQL optimistic save (core/answer_optimistic.py) then leaves it to the full save,
        which holds the round's lock from its first read."""
        return False

    def save_guard(self, params: dict[str, Any]) -> Any:
        """An SQL condition the optimistic save's write adds to core's guard, re-checking
        under the round's lock what ``save_columns`` read (``params``: bind parameters
        event_id, round, question_id, team_id). It must take the round's queue lock
        itself (a VOLATILE function, as core's answerdesk_save_guard): PostgreSQL does
        not promise the order of AND. None: nothing to re-check."""
        return None

    def paper_extras(self, team: Any, rnd: Any) -> dict[int, dict[str, Any]]:
        """For a paper team's grid (core/paper.py), by question id: what ``check_save``
        reads as ``target.extra`` and what the grid shows beside the line."""
        return {}

    def paper_panel(self, event: Any, team: Any, rnd: Any) -> dict[str, Any]:
        """What ``paper_part`` shows for a paper team on a round (its jokers, its
        shoot-out): the host enters for the team what a phone would send."""
        return {}

    def decorate_event_sheet(self, sheet: EventSheet, event: Any) -> EventSheet:
        """Add what the format shows every team of the event alone (widgets, hidden
        questions) to the event's part of the phones' sheets (sheets.event_sheet);
        ``event.rounds`` and their questions are loaded. Kept per event and screen
        version when the format keeps sheets (``keeps_sheet``). What it adds is typed by
        ``sheet_reply``'s model and, for mypy, by the format's TypedDicts that mirror it
        (core/sheet_parts.py)."""
        return sheet

    def decorate_sheet(self, sheet: BuiltSheet, event: Any, team: Any) -> BuiltSheet:
        """Add the format's team parts (verdicts it shows early, play state) to a phone
        sheet. A format that keeps sheets finds ``event.rounds`` not loaded. What it adds
        is typed by ``sheet_reply``'s model (built as dicts all the same, the cold sheet
        being the hot read of a 300-team night: the format's TypedDicts mirror the
        model, core/sheet_parts.py)."""
        return sheet

    def sheet_reply(self) -> type[Any] | None:
        """The reply model of this format's team sheet (an api.replies.SheetPart with
        its rounds and the parts ``decorate_event_sheet`` and ``decorate_sheet`` add),
        for /api/openapi.json and the tests that convert real sheets into it strictly.
        None: core's api.replies.Sheet (the format adds no key)."""
        return None

    def keeps_sheet(self, sheet: BuiltSheet) -> bool:
        """Whether this decorated sheet may be served again while the event's screen
        version and the team's answers stand (sheets.team_sheet, issue 33): only when
        nothing in it but ``now`` and ``question`` moves with time and every other
        change of it writes an audit entry."""
        return False

    def sheet_delta(self, rnd: Any) -> bool:
        """Whether a phone that holds the team's sheet may read only the answers changed
        since in this open round (sheets.changes_by_token, issue 33): only when the
        format's part of the round's sheet is built from the event alone, the team's
        answers being its ``answer`` fields. ``rnd``: the round's columns (number,
        state, kind, check_mode). Default no (the whole sheet)."""
        return False

    def openapi_paths(self) -> dict[str, Any]:
        """The OpenAPI paths of the format's own API routes."""
        return {}

    def public_state(self, event: Any) -> dict[str, Any]:
        """What every phone and the projector poll beside the round states (reads only)."""
        return {}

    def public_state_schema(self) -> dict[str, Any]:
        """The JSON schemas of ``public_state``'s keys, for /api/openapi.json: a reply's
        reference (api.replies.reply of a Reply class, as Своя игра's SiState) or a
        schema by hand."""
        return {}

    def buzzer_arming(self, event: Any, round_number: int, question_number: int) -> Any:
        """The arming of a question's buzzer now (a buzzer.presses.Arming), or None when
        it takes no press; asked by formats/buzzer/api.py only when ``buzzer`` is set."""
        return None

    def buzzer_phone(self, event: Any, token: str | None, press: bool) -> Any:
        """The phone a buzzer request presses or syncs from (a buzzer.presses.Phone, None
        for an anonymous sync); asked only when ``buzzer_phones`` is set."""
        return None

    def create_demo(self, **options: Any) -> tuple[Any, str]:
        """A demo evening of this format: (event, host password)."""
        raise NotImplementedError(f"the {self.name} format has no demo evening")


REGISTRY: dict[str, Format] = {}
_generation = [0]


def register(fmt: Format) -> Format:
    """Put a format in the registry under its name (loading it twice is harmless)."""
    if not fmt.name:
        raise ValueError("a format needs a name")
    if REGISTRY.get(fmt.name) is not fmt:
        REGISTRY[fmt.name] = fmt
        _generation[0] += 1
    return fmt


def unregister(name: str) -> None:
    """Take a format out of the registry (a test's own format, once the test is done)."""
    if REGISTRY.pop(name, None) is not None:
        _generation[0] += 1


def generation() -> int:
    """A number that changes whenever the registry does: what core builds once over
    every registered format (the save's statements) is rebuilt when it moves."""
    return _generation[0]


def get(name: str) -> Format:
    """The registered format called ``name``; a translated refusal for an unknown one."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise DeskError("Unknown format '%(format)s'.", format=name) from None


def default() -> Format:
    """The format a new event takes when none is named: the one registered as
    ``default``, else the first by name."""
    chosen = [fmt for fmt in REGISTRY.values() if fmt.default]
    if chosen:
        return chosen[0]
    if not REGISTRY:
        raise DeskError("No format is registered.")
    return REGISTRY[min(REGISTRY)]


def names() -> list[str]:
    """The registered formats' names, sorted (for forms and the API schema)."""
    return sorted(REGISTRY)


def round_kinds() -> list[str]:
    """Every kind a round of a registered format may have, sorted (for the API schema):
    its programme's, and what it plays a pack's round of each kind as
    (Format.imported_kind; a BG wildcard round takes a pack kind, BG-R5.0)."""
    kinds: set[str] = set(ROUND_KINDS)
    for fmt in REGISTRY.values():
        numbers = [t.number for t in fmt.programme()] or [1]
        kinds |= {t.kind for t in fmt.programme()}
        kinds |= {fmt.imported_kind(n, kind) for n in numbers for kind in ROUND_KINDS}
    return sorted(kinds)


def of(event: Any) -> Format:
    """The format an event is played by (its ``format`` column)."""
    return get(event.format)


def require(event: Any, name: str, shown: str) -> Any:
    """``event`` if it is played by format ``name``; a format's own routes refuse others."""
    if event.format != name:
        raise Conflict("This event is not a game of %(format)s.", format=shown)
    return event
