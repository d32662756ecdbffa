"""Every stored code a page shows, as words in the reader's language (issue 19).

Round states, verdicts, check modes, projector views, actors and audit actions are
stored as short English codes; pages never print those codes. This module is the
one place that maps a code to its msgid, and turns an audit entry into a sentence a
host reads ("Кръг 2 е затворен", before → after in words). Formats add the audit
actions they write with ``add_audit_sentences``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from ..models import AuditEntry
from .states import Outcome, RoundState


def N_(msgid: str) -> str:
    """Mark a msgid for extraction; it is translated where it is shown."""
    return msgid


ROUND_STATES: dict[str, str] = {RoundState.DRAFT: N_("not opened yet"), RoundState.OPEN: N_("open"),
                RoundState.LOCKED: N_("closed"), RoundState.REVEALED: N_("answers revealed")}
VERDICTS = {Outcome.CORRECT: N_("correct"), Outcome.PARTIAL: N_("partly correct"),
            Outcome.WRONG: N_("wrong"), Outcome.REVIEW: N_("to review"),
            "unanswered": N_("no answer"), "all": N_("all"), "decided": N_("decided by the host")}
CHECK_MODES = {"exact": N_("exact spelling"), "typo3": N_("up to 3 typos"),
               "typo5": N_("up to 5 typos"), "song": N_("song and performers"),
               "pairs": N_("pairs"), "number": N_("number"), "choice": N_("choice"),
               "clock": N_("on the clock")}
SCREEN_VIEWS = {"auto": N_("follows the rounds"), "intro": N_("round title"),
                "locked": N_("answers locked"), "reveal": N_("answers one by one"),
                "standings": N_("standings"), "question": N_("question with its picture or sound")}
ROUND_KINDS = {"choice": N_("choice"), "open": N_("open answers"), "picture": N_("pictures"),
               "media": N_("audio and video"),
               "final": N_("final"), "number": N_("numbers"), "pairs": N_("pairs")}
DISPUTES = {"uphold": N_("answer upheld"), "accept": N_("answer accepted"),
            "annul": N_("question annulled")}
ACTORS = {"host": N_("the host"), "assistant": N_("the assistant"),
          "organiser": N_("the organiser"), "demo": N_("the demo"), "checker": N_("the checker"),
          "system": N_("the system"), "clock": N_("the question clock")}
# Words for the fields an audit entry keeps before and after a change.
FIELDS = {"state": N_("state"), "decision": N_("decision"), "outcome": N_("checker"),
          "text": N_("answer"), "points": N_("points"), "reason": N_("reason"),
          "players": N_("players"), "name": N_("name"), "assistant": N_("assistant"),
          "hint": N_("hint"),
          "number": N_("number"), "rounds": N_("rounds"), "questions": N_("questions"),
          "scenario": N_("scenario"), "source": N_("entered by"), "accepted": N_("accepted"),
          "numbers": N_("numbers"), "format": N_("pack format"), "mode": N_("import"),
          "replaced": N_("rounds replaced"), "scenarios": N_("scenario sets"),
          "outcomes": N_("verdicts"), "key": N_("accepted answers"),
          "cleared_decisions": N_("host's decisions cleared"), "round_state": N_("round")}
HIDDEN_FIELDS = {"verdict", "fields", "saved_at", "decided_by", "seq"}
VALUE_WORDS = {"phone": N_("phone"), "paper": N_("paper"), "new password": N_("new password")}
# Codes whose words depend on the field (pack.import: the pack's format, and how it
# entered the programme); an answer that happens to read "replace" stays as typed.
FIELD_VALUES = {
    "format": {"native": N_("answerdesk pack (YAML)"), "siq": N_("SIGame pack (.siq)"),
               "chgk": N_("db.chgk.info pack"), "svoyak": N_("Своя игра pack (text)"),
               "csv": N_("CSV pack")},
    "mode": {"replace": N_("replaces the programme"), "append": N_("added to the programme")},
}

AUDIT_SENTENCES: dict[str, str] = {
    "round.open": N_("Round %(round)s is opened"),
    "round.close": N_("Round %(round)s is closed and checked"),
    "round.reveal": N_("Round %(round)s: the answers are revealed"),
    "answer.save": N_("%(team)s answered question %(question)s of round %(round)s"),
    "answer.paper": N_("Paper answer of %(team)s to question %(question)s of round %(round)s"),
    "verdict.decide": N_("Decision on the answer of %(team)s to question %(question)s of "
                         "round %(round)s"),
    "verdict.undo": N_("Decision on the answer of %(team)s to question %(question)s of "
                       "round %(round)s undone"),
    "score.correct": N_("Score of %(subject)s corrected"),
    "score.undo": N_("Score correction of %(subject)s undone"),
    "dispute.uphold": N_("Dispute upheld: %(team)s, question %(question)s of round %(round)s"),
    "dispute.accept": N_("Dispute: answer accepted for question %(question)s of round %(round)s"),
    "dispute.annul": N_("Dispute: question %(question)s of round %(round)s annulled"),
    "team.join": N_("Team %(subject)s joined"),
    "event.create": N_("Event %(subject)s created"),
    "event.assistant": N_("A new assistant password was made"),
    "event.screen_locale": N_("The projector's language was changed"),
    "pack.import": N_("Pack “%(subject)s” imported"),
}
GENERIC_SENTENCE = N_("Change recorded: %(subject)s")
#: The reason the desk itself records when the host adds an answer to the key from the
#: review queue; a reason the host types is shown as typed.
QUEUE_REASON = N_("accepted from the review queue")
SYSTEM_REASONS = {QUEUE_REASON}

_SUBJECT = re.compile(r"R(?P<round>\d+)(?:Q(?P<question>\d+))?(?: (?P<team>.+))?$")


def add_audit_sentences(sentences: Mapping[str, str], *,
                        fields: Mapping[str, str] | None = None,
                        values: Mapping[str, str] | None = None,
                        field_values: Mapping[str, Mapping[str, str]] | None = None,
                        round_kinds: Mapping[str, str] | None = None) -> None:
    """A format's own audit actions and their msgids, and the words for its own audit
    fields, values (by any field, or by one field) and round kinds (registered when
    it loads)."""
    AUDIT_SENTENCES.update(sentences)
    FIELDS.update(fields or {})
    VALUE_WORDS.update(values or {})
    FIELD_VALUES.update({field: dict(words) for field, words in (field_values or {}).items()})
    ROUND_KINDS.update(round_kinds or {})


def add_audit_fields(fields: Mapping[str, str],
                     values: Mapping[str, Mapping[str, str]]) -> None:
    """A format's own audit fields and the words for their codes, as msgids (ЧГК's
    "league": "favourites" reads «лига: Фаворити», issue 34)."""
    FIELDS.update(fields)
    FIELD_VALUES.update({field: dict(words) for field, words in values.items()})


def _label(table: dict[str, str], code: Any) -> str:
    if code is None or code == "":
        return ""
    msgid = table.get(str(code))
    return gettext(msgid) if msgid else str(code)


def round_state(code: str) -> str:
    return _label(ROUND_STATES, code)


def verdict(code: str | None) -> str:
    return _label(VERDICTS, code)


def check_mode(code: str | None) -> str:
    return _label(CHECK_MODES, code)


def screen_view(code: str) -> str:
    return _label(SCREEN_VIEWS, code)


def round_kind(code: str) -> str:
    return _label(ROUND_KINDS, code)


def dispute(code: str) -> str:
    return _label(DISPUTES, code)


def actor(code: str) -> str:
    """"host" → "водещият"; "team:Сови" → "Сови" (a team acts under its own name);
    "host:api" → "водещият" (the channel after the colon is not the reader's business)."""
    if code.startswith("team:"):
        return code[5:]
    return _label(ACTORS, code.split(":", 1)[0])


def _value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if key in ("state", "round_state"):
        return round_state(value)
    if key == "outcomes" and isinstance(value, dict):  # team name → verdict code
        return "; ".join(f"{team} {verdict(code)}" for team, code in value.items())
    if key == "reason" and value in SYSTEM_REASONS:
        return gettext(value)
    if key in FIELD_VALUES and isinstance(value, str):
        return _label(FIELD_VALUES[key], value)
    if key in ("decision", "outcome"):
        return verdict(value) if value else gettext("none")
    if isinstance(value, str) and value in VALUE_WORDS:
        return _label(VALUE_WORDS, value)
    if isinstance(value, dict):
        return "; ".join(p for p in (_pair(k, v) for k, v in value.items()) if p)
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(key, v) for v in value)
    return str(value)


def _pair(key: str, value: Any) -> str:
    if key in HIDDEN_FIELDS or value is None or value == "":
        return ""
    shown = _value(key, value)
    return f"{gettext(FIELDS[key])}: {shown}" if key in FIELDS else shown


def describe(value: Any) -> str:
    """An audit before/after value in words: "state: closed; answer: Левски"."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return "; ".join(p for p in (_pair(k, v) for k, v in value.items()) if p)
    return _value("", value)


@dataclass
class AuditLine:
    sentence: str
    actor: str
    before: str
    after: str


def audit_line(entry: AuditEntry) -> AuditLine:
    """One audit entry as the host reads it."""
    found = _SUBJECT.match(entry.subject or "")
    params = {"subject": entry.subject or "", "round": "", "question": "", "team": ""}
    if found:
        params.update({k: v or "" for k, v in found.groupdict().items()})
    else:
        params["team"] = params["subject"]
    msgid = AUDIT_SENTENCES.get(entry.action, GENERIC_SENTENCE)
    return AuditLine(sentence=gettext(msgid, **params), actor=actor(entry.actor),
                     before=describe(entry.before), after=describe(entry.after))


def reason(text: str | None) -> str:
    """A recorded reason: the desk's own in the reader's language, the host's as typed."""
    return gettext(text) if text in SYSTEM_REASONS else (text or "")


def source(code: str | None) -> str:
    """Where an answer came from: "phone" or "paper" (BG-E1), in words."""
    return _label(VALUE_WORDS, code)


def register(app: Any) -> None:
    """The labels as Jinja filters, so templates never print a stored code."""
    app.jinja_env.filters.update({
        "state_label": round_state, "verdict_label": verdict, "mode_label": check_mode,
        "view_label": screen_view, "kind_label": round_kind, "actor_label": actor,
        "dispute_label": dispute, "source_label": source, "reason_label": reason,
    })
    app.jinja_env.globals["audit_line"] = audit_line
