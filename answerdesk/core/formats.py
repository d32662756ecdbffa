"""The format registry: each game plugs into core here (CTFd-style ``REGISTRY``).

Core asks an event's format what differs between games (its programme, what
happens when a round closes or a question is checked, its standings, its phone
widgets, its host-desk and projector parts) and never imports
``answerdesk.formats``: each format package registers an instance of its
``Format`` subclass from its ``load(app)``, which the app factory calls. The
registry is plain data (no Flask), so pure code and tests can fill it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import DeskError

if TYPE_CHECKING:
    from flask import Blueprint


@dataclass(frozen=True)
class RoundTemplate:
    """One round an event of a format starts with (its kind, points and check mode)."""

    number: int
    name: str
    kind: str
    points: int
    check_mode: str
    partial_points: int | None = None


class Format:
    """A game: subclass it in ``answerdesk/formats/<name>/`` and ``register`` an instance.

    Every hook has a neutral default, so a format overrides only what its rules
    add; core calls the hooks, never a format's modules by name.
    """

    name: ClassVar[str] = ""
    #: English msgid of the game's name, shown where an organiser picks a format.
    label: ClassVar[str] = ""
    #: Phone widgets this format adds to the check modes' own (kind -> template part).
    widgets: ClassVar[Mapping[str, str]] = {}
    #: Host pages of the format's own, registered by the app factory when present.
    desk: Blueprint | None = None
    #: Team API routes of the format's own, registered like ``desk``.
    api: Blueprint | None = None

    def programme(self) -> tuple[RoundTemplate, ...]:
        """The rounds a new event of this format starts with."""
        return ()

    def on_round_close(self, rnd: Any) -> None:
        """Called in the transaction that locks a round (before its answers are checked)."""

    def on_question_checked(self, question: Any, rnd: Any) -> None:
        """Called after the checker has proposed verdicts for one question of a round."""

    def after_check(self, row: Any, outcome: str, fraction: float, reason: str,
                    ) -> tuple[str, float, str]:
        """Adjust the checker's proposal for one answer (e.g. send it to the host)."""
        return outcome, fraction, reason

    def standings(self, event: Any) -> list[Any]:
        """The event's standings rows, best first, by this format's scoring."""
        return []

    def decorate_sheet(self, sheet: dict[str, Any], event: Any, team: Any) -> dict[str, Any]:
        """Add the format's parts (widgets, hidden questions...) to a team's phone sheet."""
        return sheet

    def play_state(self, event: Any, team: Any) -> dict[str, Any]:
        """The small payload a team's phone polls for format-specific play."""
        return {}

    def public_state(self, event: Any) -> dict[str, Any]:
        """What every phone and the projector poll beside the round states (reads only)."""
        return {}

    def public_state_schema(self) -> dict[str, Any]:
        """The JSON schemas of ``public_state``'s keys, for /api/openapi.json."""
        return {}

    def openapi_paths(self) -> dict[str, Any]:
        """The format's own API routes, for /api/openapi.json."""
        return {}


REGISTRY: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    """Put a format in the registry under its name (loading it twice is harmless)."""
    if not fmt.name:
        raise ValueError("a format needs a name")
    REGISTRY[fmt.name] = fmt
    return fmt


def get(name: str) -> Format:
    """The registered format called ``name``; a translated refusal for an unknown one."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise DeskError("Unknown format '%(format)s'.", format=name) from None


def names() -> list[str]:
    """The registered formats' names, sorted (for forms and the API schema)."""
    return sorted(REGISTRY)
