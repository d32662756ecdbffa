"""Saving a team's answer: the lock check and the write in ONE transaction (BG-E2).

A save is either acknowledged before its round locks, and then kept and
counted, or refused with RoundLocked: never acknowledged and then lost, never
accepted after the lock. On SQLite every write transaction starts with
BEGIN IMMEDIATE (database/); on PostgreSQL the save holds the round's queue
lock shared (database/postgres_locks.py), which every change of the
round's state (open, close, reveal, a final-round question, paper entry) takes
exclusively.

The statements are built once (answer_statements.py) and run on a raw connection
(lean.py): the phone's save (save_by_token) in a transaction of its own that also
finds the team, a service's (save_answer) inside the Session's transaction. What a
save writes is decided in answer_write.py. On PostgreSQL the phone's save is first
tried in 2 round trips instead of 5 (answer_optimistic.py), falling back to the full
save when anything moved.
"""

from __future__ import annotations

from typing import Annotated, Any, Protocol, cast

from flask import current_app
from msgspec import Meta
from sqlalchemy.exc import IntegrityError

from ..bodies import N_, Body, read
from ..errors import DeskError
from ..extensions import db
from ..lean import RawExecutor, raw_reads, session_busy, session_executor, write_transaction
from ..models import Team, utcnow
from . import formats, teams, widgets
from .answer_optimistic import save_optimistic
from .answer_statements import ANSWER_NOW, INSERT, QUEUE, statements
from .answer_write import (
    SavedAnswer,
    audit_entry,
    kept_answer,
    new_answer_values,
    open_target,
    receipted,
    same_answer,
    write_answer,
    write_audited,
)
from .text import check_fields, clean_text

MAX_SEQ = 2**63 - 1  # Answer.client_seq is a BIGINT


class TeamLike(Protocol):
    """What a save needs of a team: an ORM Team, or the API's teams.TeamRef (which also
    carries its event's ``format``; a Team finds it on its event)."""

    id: int
    event_id: int
    name: str


def _clean(text: object, fields: Any) -> str:
    clean = clean_text(
        text, max_length=current_app.config["MAX_ANSWER_LENGTH"], field="text", multiline=False
    )
    if fields is not None:
        if not isinstance(fields, dict | list):
            raise DeskError("fields must be an object")
        check_fields(fields)
    return clean


def save_answer(
    team: TeamLike,
    round_number: int,
    question_number: int,
    text: object,
    *,
    fields: Any = None,
    source: str = "phone",
    seq: int | None = None,
    actor: str | None = None,
) -> SavedAnswer:
    """Store the team's answer if its round is open; BG-E2 refuses it once locked.

    ``seq`` is the phone's edit counter for this answer: a replay of an edit the
    server already has (or an older one arriving late) changes nothing.
    Runs in the Session's transaction and commits it (services, paper entry).
    """
    clean = _clean(text, fields)
    team_id, event_id, team_name = team.id, team.event_id, team.name
    # a TeamRef carries its format; a Team finds it on its event
    fmt = formats.get(getattr(team, "format", None) or cast(Team, team).event.format)
    for attempt in range(2):
        ex = session_executor(db.session)
        try:
            return _save(ex, team_id, event_id, team_name, round_number, question_number, clean,
                         fields, source, seq, actor, fmt, queued=False)
        except (IntegrityError, ex.dialect.loaded_dbapi.IntegrityError):
            # Two phones of one team created the same answer at once: the row
            # exists now, so the second attempt updates it.
            db.session.rollback()
            if attempt:
                raise
    raise AssertionError("unreachable")


class AnswerRequest(Body):
    """PUT /api/events/{code}/answers/{round}/{question}: the phone's save."""

    text: str | None = None
    fields: Annotated[dict[str, Any] | list[Any] | None, Meta(
        description="A widget's parts (a map's point, a pair's sides), checked by "
                    "core/widgets.py")] = None
    seq: Annotated[int, Meta(
        ge=0, le=MAX_SEQ, description="The phone's edit counter: replays change nothing")
    ] | None = None

    messages = {"seq": N_("seq must be a non-negative whole number"),
                "fields": N_("fields must be an object")}


def _phone_body(body: Any) -> tuple[str, Any, int | None]:
    """The text, fields and edit counter of a phone's save, or a clear 400."""
    got = read(AnswerRequest, body)
    return _clean(got.text, got.fields), got.fields, got.seq


def save_by_token(code: str, token: str | None, round_number: int, question_number: int,
                  body: Any) -> SavedAnswer:
    """The phone's save (PUT .../answers/R/Q with ``body`` {"text", "fields", "seq"}):
    the team by its token, the lock check, the answer and its audit row in ONE
    transaction of its own on a raw connection (lean.py), stored as save_answer
    stores them. A wrong token is refused before the body is looked at.

    What needs no lock (the token's hash, the body's cleaning, the receipt) is done
    outside the transaction: on SQLite every save waits for the one writer, and
    the time each holds it bounds how many saves a second the desk takes. So on
    SQLite the team is found too before BEGIN IMMEDIATE (a deferred begin, lean.py):
    a token never changes, and a team deleted in between fails the write's foreign
    key, whose retry then finds no team. The round's lock check and the write stay
    in one transaction. On PostgreSQL the save is first tried optimistically in 2
    round trips (save_optimistic); what that leaves undecided runs the full save,
    whose lookup begins the transaction and takes the round's queue lock."""
    token_hash = teams.hash_token(token) if token else None
    try:
        text, fields, seq = _phone_body(body)
        bad_body = None
    except DeskError as refusal:
        bad_body = refusal
    engine = db.engine
    if (token_hash and bad_body is None and engine.dialect.name == "postgresql"
            and not session_busy(db.session)):
        with raw_reads(engine) as ex:
            done = save_optimistic(ex, code, token, token_hash, round_number,
                                   question_number, text, fields, seq)
        if done is not None:
            return done
    for attempt in range(2):
        try:
            with write_transaction(db.session, engine, deferred=True) as ex:
                team = teams.team_ref(ex, code, token_hash, queue_for=round_number)
                if team is None:
                    break
                if bad_body is not None:
                    raise bad_body
                ex.begin()
                return _save(ex, team.id, team.event_id, team.name, round_number,
                             question_number, text, fields, "phone", seq, None,
                             formats.get(team.format), queued=team.queued_for == round_number)
        except engine.dialect.loaded_dbapi.IntegrityError:
            if attempt:  # the first: another phone of the team created the answer
                raise
    raise teams.refused(code, token)



def _save(
    ex: RawExecutor,
    team_id: int,
    event_id: int,
    team_name: str,
    round_number: int,
    question_number: int,
    text: str,
    fields: Any,
    source: str,
    seq: int | None,
    actor: str | None,
    fmt: formats.Format,
    *,
    queued: bool,
) -> SavedAnswer:
    """The lock check and the write in one transaction: for a changed answer one read,
    one write and the audit row (plus PostgreSQL's queue lock, unless the team lookup
    of this transaction took it: ``queued``)."""
    if not queued and ex.dialect.name == "postgresql":
        ex.first(QUEUE, {"event_id": event_id, "round": round_number})
    built = statements()
    row = ex.first(built.target, {"event_id": event_id, "round": round_number,
                                  "question": question_number, "team_id": team_id})
    now = utcnow()
    try:
        target = open_target(row, round_number, question_number, fmt, now, built.labels)
        text, fields = widgets.prepare_answer(team_id, target, text, fields, fmt, run=ex.all)
    except DeskError:
        ex.rollback()
        raise
    question_id = target.question_id

    def kept(answer: Any) -> SavedAnswer:
        return kept_answer(answer, team_id, question_id, round_number, question_number)

    entry = audit_entry(event_id, team_name, actor, round_number, question_number, text, fields,
                        source, now)
    current = row if row.answer_id is not None else None
    if current is not None and not write_answer(ex, current, text, fields, source, seq, now, entry):
        # Another phone of the team saved this answer after its read
        # (PostgreSQL): wait for its row lock and decide again on what it stored.
        current = ex.first(ANSWER_NOW, {"answer_id": current.answer_id})
        if current is not None and not write_answer(ex, current, text, fields, source, seq, now,
                                                    entry):
            raise AssertionError("the answer changed while its row was locked")
    if current is None:
        write_audited(ex, INSERT, new_answer_values(team_id, question_id, text, fields, source, seq,
                                                now), entry)
        version = 1
    elif seq is not None and seq <= current.client_seq:
        ex.rollback()
        return kept(current)
    elif same_answer(current, text, fields, source):
        ex.commit()
        return kept(current)
    else:
        version = current.version + 1
    ex.commit()  # inside the service: the phone's ack must follow a durable commit
    return receipted(team_id, question_id, round_number, question_number, text, fields,
                      source, version, now)

