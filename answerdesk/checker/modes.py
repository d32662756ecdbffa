"""The check modes in one table: each mode's key shape, check function and phone widget.

Everything that depends on the mode looks it up here: ``checker.check`` runs the
mode's check, the pack parsers check a key by its mode's ``key_shape``, and the
phone sheet and the paper form draw the mode's ``widget`` (whose fields
core/widgets.py turns into the line the checker reads). A new mode is one entry.
Pure: no Flask, no database; the check functions load their module when first used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from answerdesk.checker.keys import parse_open_key
from answerdesk.checker.normalize import normalize
from answerdesk.checker.reasons import Reason

#: (outcome, fraction, reason code and values), as checker.Verdict.of takes them.
Result = tuple[str, float | None, Reason]

# A choice key made only of these is a true/false question (BG-R1): two big buttons.
_TRUE_FALSE_KEYS = {"вярно", "невярно", "true", "false", "да", "не"}


@dataclass(frozen=True)
class Mode:
    """One check mode (docs/checker.md).

    key_shape: how a pack writes the key — "text" (accepted answers, optionally
    {"accept", "reject"}), "choice" (option labels), "song", "pairs", "number";
    widget: the phone widget kind ("text", "song", "pairs", "number"; "choice"
    decides between "truefalse" and "abcd" by its key, see ``widget_kind``);
    max_errors: the spelling allowance of a text mode (None for the others).
    """

    name: str
    key_shape: str
    widget: str
    check: Callable[[str, Any, int | None], Result]
    max_errors: int | None = None

    @property
    def takes_reject(self) -> bool:
        """Whether its key may list rejected answers (the text modes)."""
        return self.key_shape == "text"


def _text(mode: str) -> Callable[[str, Any, int | None], Result]:
    def check_text_mode(given: str, key: Any, max_errors: int | None) -> Result:
        from answerdesk.checker.text import check_text

        accept, reject = parse_open_key(key)
        allowed = (MODES[mode].max_errors or 0) if max_errors is None else max(0, int(max_errors))
        return check_text(given, accept, reject, mode, allowed)

    return check_text_mode


def _song(given: str, key: Any, max_errors: int | None) -> Result:
    from answerdesk.checker.song import check_song

    return check_song(given, key)


def _pairs(given: str, key: Any, max_errors: int | None) -> Result:
    from answerdesk.checker.pairs import check_pairs

    return check_pairs(given, key)


def _number(given: str, key: Any, max_errors: int | None) -> Result:
    from answerdesk.checker.choice import check_number

    return check_number(given, key)


def _choice(given: str, key: Any, max_errors: int | None) -> Result:
    from answerdesk.checker.choice import check_choice

    return check_choice(given, key)


MODES: dict[str, Mode] = {m.name: m for m in (
    Mode("exact", "text", "text", _text("exact"), max_errors=0),   # BG-R5.6
    Mode("typo3", "text", "text", _text("typo3"), max_errors=3),   # BG-R2, R3, R6
    Mode("typo5", "text", "text", _text("typo5"), max_errors=5),   # BG-R4
    Mode("song", "song", "song", _song),                           # BG-R4.1
    Mode("pairs", "pairs", "pairs", _pairs),                       # BG-R5.5
    Mode("number", "number", "number", _number),                   # BG-R5.4
    Mode("choice", "choice", "choice", _choice),                   # BG-R1
)}


def widget_kind(mode: str, key: Any) -> str:
    """The phone widget for a question checked in ``mode`` with ``key``: truefalse,
    abcd, song, pairs, number or text (an unknown mode gets the text field)."""
    entry = MODES.get(mode)
    if entry is None:
        return "text"
    if entry.widget != "choice":
        return entry.widget
    accepted = key.get("accept", []) if isinstance(key, dict) else (
        key if isinstance(key, list) else [key])
    if accepted and all(normalize(str(a)) in _TRUE_FALSE_KEYS for a in accepted):
        return "truefalse"
    return "abcd"
