"""What one save writes, shared by the full save (answers.py) and the optimistic one
(answer_optimistic.py): the target's lock check (BG-E2), the answer row's step, its
audit entry, and the receipt the phone gets back.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, cast

from msgspec import Meta

from ..errors import NotFound, RoundLocked
from ..keyed import keyed_hash
from ..lean import RawExecutor
from ..models import PHONE_SAVE, Answer
from . import formats, widgets
from .answer_statements import AUDIT, AUDITED, CHANGE, RESEQ
from .replies import Moment, Reply
from .states import CLOSED_GATE_STATES, RoundState

#: Where an answer came from (models.Answer.source).
Source = Literal["phone", "paper"]


class SavedAnswer(Reply):
    """An answer as stored, with its server time and receipt: what a save returns and
    the sheet lists, and the reply model of both (api/replies.py)."""

    round: int
    question: int
    text: str
    source: Source
    version: int
    saved_at: Moment
    receipt: Annotated[str, Meta(description="The code a team shows in a dispute (BG-E2)")]
    fields: Annotated[Any, Meta(description="A widget's parts, or null")] = None

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "question": self.question,
            "text": self.text,
            "fields": self.fields,
            "source": self.source,
            "version": self.version,
            "saved_at": self.saved_at.isoformat(timespec="milliseconds") + "Z",
            "receipt": self.receipt,
        }


def receipt_code(team_id: int, question_id: int, text: str, saved_at: dt.datetime) -> str:
    """A short code the team can show in a dispute; only the server can make it."""
    return keyed_hash(f"{team_id}:{question_id}:{text}:{saved_at.isoformat()}").hex()[:8].upper()


def receipted(team_id: int, question_id: int, round_number: int, question_number: int,
               text: str, fields: Any, source: str, version: int,
               saved_at: dt.datetime) -> SavedAnswer:
    """An answer as stored, with the receipt of exactly that text and moment."""
    return SavedAnswer(
        round=round_number, question=question_number, text=text, fields=fields,
        source=cast(Source, source),
        version=version, saved_at=saved_at,
        receipt=receipt_code(team_id, question_id, text, saved_at),
    )


def saved(answer: Answer, round_number: int, question_number: int) -> SavedAnswer:
    return receipted(answer.team_id, answer.question_id, round_number, question_number,
                      answer.text, answer.fields, answer.source, answer.version,
                      answer.updated_at)


def write_audited(ex: RawExecutor, dml: Any, values: dict[str, Any],
                  entry: dict[str, Any]) -> bool:
    """Write the answer with ``dml`` and, if it wrote, its audit entry; False if not."""
    if ex.dialect.name == "postgresql":
        return ex.first(AUDITED[dml], {**values, **entry}) is not None
    if ex.rowcount(dml, values) != 1:
        return False
    ex.rowcount(AUDIT, entry)
    return True


def open_target(row: Any, round_number: int, question_number: int, fmt: formats.Format,
                now: dt.datetime, labels: dict[str, tuple[tuple[str, str], ...]],
                ) -> widgets.AnswerTarget:
    """The question the save's read ``row`` found, or the refusal: a missing round or
    question, a locked round, a closed gate or a passed deadline (BG-E2)."""
    if row is None:
        raise NotFound("Round %(round)s does not exist", round=round_number)
    if row.state != RoundState.OPEN:
        raise RoundLocked(
            "Round %(round)s is locked: answers are no longer accepted.",
            round=row.number,
            state=row.state,
        )
    if row.question_id is None:
        raise NotFound("Round %(round)s has no question %(question)s", round=round_number,
                       question=question_number)
    if row.gate_state in CLOSED_GATE_STATES or (
        row.locks_at is not None and now >= row.locks_at
    ):
        # The question clock (clock.py, CHGK-1.1): past its deadline nobody has to close it.
        raise RoundLocked(
            "Question %(question)s of round %(round)s is locked: answers are no longer "
            "accepted.", round=row.number, question=question_number, state="locked",
        )
    return widgets.AnswerTarget(
        round_id=row.id, round_number=row.number, round_kind=row.kind,
        question_id=row.question_id, question_number=question_number,
        kind=widgets.kind_of(row.question_mode or row.check_mode, row.key),
        gated=fmt.one_at_a_time(row), gate_state=row.gate_state,
        extra={key: getattr(row, label) for key, label in labels[fmt.name]},
    )


def kept_answer(answer: Any, team_id: int, question_id: int, round_number: int,
                question_number: int) -> SavedAnswer:
    """The stored answer, unchanged by this save (called once its transaction ended)."""
    return receipted(team_id, question_id, round_number, question_number, answer.text,
                      answer.fields, answer.source, answer.version, answer.updated_at)


def audit_entry(event_id: int, team_name: str, actor: str | None, round_number: int,
                question_number: int, text: str, fields: Any, source: str,
                now: dt.datetime) -> dict[str, Any]:
    """The audit entry of a save that writes a change (its ``entry_before`` is
    write_step's)."""
    return {
        "entry_event_id": event_id, "entry_at": now, "entry_actor": actor or f"team:{team_name}",
        "entry_action": PHONE_SAVE,
        "entry_subject": f"R{round_number}Q{question_number} {team_name}", "entry_before": None,
        "entry_after": {"text": text, "fields": fields, "source": source,
                        "saved_at": now.isoformat()},
        "entry_undoes_id": None,
    }


def same_answer(current: Any, text: str, fields: Any, source: str) -> bool:
    return current.text == text and current.fields == fields and current.source == source


def write_step(current: Any, text: str, fields: Any, source: str, seq: int | None,
               now: dt.datetime, entry: dict[str, Any]) -> tuple[Any, dict[str, Any],
                                                                  dict[str, Any] | None] | None:
    """What the save writes to the answer row as ``current`` shows it: None (nothing),
    or the statement, its values and the audit entry it writes (None: no entry).

    A replayed or older edit (``seq`` not above the stored one) writes nothing; the
    same text only records the newer ``seq``; a change bumps the version and writes
    ``entry``, with what it replaced, to the audit log.
    """
    if seq is not None and seq <= current.client_seq:
        return None
    seen = {"answer_id": current.answer_id, "seen_version": current.version,
            "seen_seq": current.client_seq}
    client_seq = current.client_seq if seq is None else seq
    if same_answer(current, text, fields, source):
        if seq is None:
            return None
        return RESEQ, {**seen, "new_client_seq": client_seq}, None
    return CHANGE, {
        **seen, "new_text": text, "new_fields": fields, "new_source": source,
        "new_version": current.version + 1, "new_client_seq": client_seq,
        "new_updated_at": now,
    }, {**entry, "entry_before": {"text": current.text, "fields": current.fields,
                                  "source": current.source}}


def new_answer_values(team_id: int, question_id: int, text: str, fields: Any, source: str,
                      seq: int | None, now: dt.datetime) -> dict[str, Any]:
    return {"new_team_id": team_id, "new_question_id": question_id, "new_text": text,
            "new_fields": fields, "new_source": source, "new_version": 1,
            "new_client_seq": seq or 0, "new_created_at": now, "new_updated_at": now}


def write_answer(ex: RawExecutor, current: Any, text: str, fields: Any, source: str,
                 seq: int | None, now: dt.datetime, entry: dict[str, Any]) -> bool:
    """Apply the save (write_step) to the answer row as ``current`` shows it; False if the
    row moved on."""
    step = write_step(current, text, fields, source, seq, now, entry)
    if step is None:
        return True
    dml, values, audit = step
    if audit is None:
        return ex.rowcount(dml, values) == 1
    return write_audited(ex, dml, values, audit)

