"""Saving a team's answer: the lock check and the write in ONE transaction (BG-E2).

A save is either acknowledged before its round locks, and then kept and
counted, or refused with RoundLocked: never acknowledged and then lost, never
accepted after the lock. On SQLite every write transaction starts with
BEGIN IMMEDIATE (database.py); on PostgreSQL the save holds the round's queue
lock shared (database.queue_for_round), which every change of the round's state
(open, close, reveal, a final-round question, paper entry) takes exclusively.

The statements are built once and run on a raw connection (lean.py): the phone's
save (save_by_token) in a transaction of its own that also finds the team, a
service's (save_answer) inside the Session's transaction. On PostgreSQL the phone's
save is first tried in 2 round trips instead of 5 (_save_optimistic): a read without
the lock, then one statement whose guard takes the queue lock and re-reads, after
it, what the decision rested on; it falls back to the full save when anything moved.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, cast

from flask import current_app
from msgspec import Meta
from sqlalchemy import Table
from sqlalchemy.exc import IntegrityError

from ..bodies import N_, Body, read
from ..database import round_queue
from ..errors import DeskError, NotFound, RoundLocked
from ..extensions import db
from ..keyed import keyed_hash
from ..lean import RawExecutor, raw_reads, session_busy, session_executor, write_transaction
from ..models import (
    PHONE_SAVE,
    Answer,
    AuditEntry,
    Event,
    Question,
    QuestionGate,
    Round,
    Team,
    utcnow,
)
from . import formats, teams, widgets
from .states import CLOSED_GATE_STATES, RoundState
from .text import check_fields, clean_text


@dataclass(frozen=True)
class SavedAnswer:
    round: int
    question: int
    text: str
    fields: Any
    source: str
    version: int
    saved_at: dt.datetime
    receipt: str

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


MAX_SEQ = 2**63 - 1  # Answer.client_seq is a BIGINT


def receipt_code(team_id: int, question_id: int, text: str, saved_at: dt.datetime) -> str:
    """A short code the team can show in a dispute; only the server can make it."""
    return keyed_hash(f"{team_id}:{question_id}:{text}:{saved_at.isoformat()}").hex()[:8].upper()


def receipted(team_id: int, question_id: int, round_number: int, question_number: int,
               text: str, fields: Any, source: str, version: int,
               saved_at: dt.datetime) -> SavedAnswer:
    """An answer as stored, with the receipt of exactly that text and moment."""
    return SavedAnswer(
        round=round_number, question=question_number, text=text, fields=fields, source=source,
        version=version, saved_at=saved_at,
        receipt=receipt_code(team_id, question_id, text, saved_at),
    )


def saved(answer: Answer, round_number: int, question_number: int) -> SavedAnswer:
    return receipted(answer.team_id, answer.question_id, round_number, question_number,
                      answer.text, answer.fields, answer.source, answer.version,
                      answer.updated_at)


class TeamLike(Protocol):
    """What a save needs of a team: an ORM Team, or the API's teams.TeamRef (which also
    carries its event's ``format``; a Team finds it on its event)."""

    id: int
    event_id: int
    name: str


# The save's statements, built once (SQL expressions are immutable): constructing
# them per request cost more CPU than running them (bench/README.md).
# (__table__ is a FromClause to mypy; a mapped class's is its Table.)
_round, _question, _answer = (cast(Table, m.__table__) for m in (Round, Question, Answer))
_gate, _audit = (cast(Table, m.__table__) for m in (QuestionGate, AuditEntry))
_team, _event = (cast(Table, m.__table__) for m in (Team, Event))
_ANSWER_COLUMNS = (_answer.c.text, _answer.c.fields, _answer.c.source, _answer.c.version,
                   _answer.c.client_seq, _answer.c.updated_at)


def _format_columns(team_id: Any) -> tuple[list[Any], dict[str, tuple[tuple[str, str], ...]]]:
    """Every registered format's save_columns, labelled ``<format>_<name>``, and per
    format its (name, label) pairs: the read does not know the event's format before
    it runs (the optimistic read finds the team in the same statement)."""
    columns, labels = [], {}
    for name, fmt in sorted(formats.REGISTRY.items()):
        own = fmt.save_columns(team_id, _question.c.id)
        columns += [column.label(f"{name}_{key}") for key, column in own.items()]
        labels[name] = tuple((key, f"{name}_{key}") for key in own)
    return columns, labels


def _target_read(team_id: Any) -> tuple[list[Any], Any]:
    """The target's columns and joins for the team ``team_id`` (a column, or None for
    the bound ``team_id``): round, question, gate, the formats' columns and the
    team's answer."""
    team = db.bindparam("team_id") if team_id is None else team_id
    columns = [
        _round.c.id, _round.c.number, _round.c.kind, _round.c.state, _round.c.check_mode,
        _question.c.id.label("question_id"), _question.c.check_mode.label("question_mode"),
        _question.c.key, _gate.c.state.label("gate_state"), _gate.c.locks_at.label("locks_at"),
        *_format_columns(team)[0],
        _answer.c.id.label("answer_id"), *_ANSWER_COLUMNS,
    ]

    def joins(rounds: Any) -> Any:
        return (
            rounds.outerjoin(_question, db.and_(_question.c.round_id == _round.c.id,
                                                _question.c.number == db.bindparam("question")))
            .outerjoin(_gate, _gate.c.question_id == _question.c.id)
            .outerjoin(_answer, db.and_(_answer.c.question_id == _question.c.id,
                                        _answer.c.team_id == team))
        )
    return columns, joins


@dataclass(frozen=True)
class _Statements:
    """The save's statements that carry the registered formats' parts (save_columns,
    save_guard): built on the first save after the registry changed, then reused."""

    #: Round state, question, its gate, the formats' columns on it and the team's current
    #: answer in one statement, read under the round's queue lock (BG-E2). No FOR SHARE
    #: on the round row besides: that lock writes the row (WAL, multixacts) on every
    #: save, for nothing.
    target: Any
    #: The optimistic save's read (PostgreSQL, save_by_token): the team by its token and
    #: ``target``'s row in ONE statement, in autocommit and without the queue lock; its
    #: write re-checks under the lock what the decision rested on (_OPTIMISTIC).
    team_target: Any
    #: Per format, its columns' (name, label) in the rows above.
    labels: dict[str, tuple[tuple[str, str], ...]]
    #: Per (format, write) the optimistic write guarded by _STILL and the format's guard.
    optimistic: dict[tuple[str, Any], Any]


_BUILT: dict[int, _Statements] = {}


def statements() -> _Statements:
    """The save's statements for the formats registered now (built once per registry)."""
    generation = formats.generation()
    built = _BUILT.get(generation)
    if built is None:
        _BUILT.clear()
        built = _BUILT[generation] = _build()
    return built


def _build() -> _Statements:
    columns, joins = _target_read(None)
    target = (db.select(*columns).select_from(joins(_round))
              .where(_round.c.event_id == db.bindparam("event_id"),
                     _round.c.number == db.bindparam("round")))
    columns, joins = _target_read(_team.c.id)
    team_target = (
        db.select(_team.c.id.label("team_id"), _team.c.event_id,
                  _team.c.name.label("team_name"), _event.c.format, *columns)
        .select_from(joins(
            _team.join(_event, _team.c.event_id == _event.c.id)
            .outerjoin(_round, db.and_(_round.c.event_id == _team.c.event_id,
                                       _round.c.number == db.bindparam("round")))))
        .where(_event.c.code == db.bindparam("code"),
               _team.c.token_hash == db.bindparam("token"))
    )
    params = {name: db.bindparam(name, type_=db.Integer)
              for name in ("event_id", "round", "question_id", "team_id")}
    optimistic = {}
    for name, fmt in formats.REGISTRY.items():
        extra = fmt.save_guard(params)
        guard = _STILL if extra is None else db.and_(_STILL, extra)
        optimistic.update({(name, dml): _optimistic(dml, guard) for dml in (_CHANGE, _RESEQ,
                                                                             _INSERT)})
    return _Statements(target=target, team_target=team_target,
                       labels=_format_columns(db.bindparam("team_id"))[1],
                       optimistic=optimistic)


# The round's queue lock alone, for a save whose team lookup did not take it (PostgreSQL).
_QUEUE = db.select(round_queue(db.bindparam("event_id", type_=db.Integer),
                               db.bindparam("round", type_=db.Integer), exclusive=False))
# The answer as it is now, waiting for a concurrent save of the same answer (PostgreSQL).
_ANSWER_NOW = (db.select(_answer.c.id.label("answer_id"), *_ANSWER_COLUMNS)
               .where(_answer.c.id == db.bindparam("answer_id")).with_for_update())
# Optimistic: changes nothing when another save of this answer committed after the save's
# read of it (only possible on PostgreSQL, where saves of one round run concurrently).
_UPDATE = _answer.update().where(
    _answer.c.id == db.bindparam("answer_id"), _answer.c.version == db.bindparam("seen_version"),
    _answer.c.client_seq == db.bindparam("seen_seq"),
)


def _new_values(*names: str) -> dict[str, Any]:
    return {name: db.bindparam(f"new_{name}", type_=_answer.c[name].type) for name in names}


# A changed answer: what _UPDATE's guard allows, every column the change moves.
_CHANGE = _UPDATE.values(_new_values("text", "fields", "source", "version", "client_seq",
                                     "updated_at"))
# The same answer again with a newer edit counter: only the counter moves.
_RESEQ = _UPDATE.values(_new_values("client_seq"))
_INSERT = _answer.insert().values(_new_values("team_id", "question_id", "text", "fields",
                                              "source", "version", "client_seq", "created_at",
                                              "updated_at"))
_ENTRY = ("event_id", "at", "actor", "action", "subject", "before", "after", "undoes_id")
_ENTRY_VALUES = [db.bindparam(f"entry_{name}", type_=_audit.c[name].type) for name in _ENTRY]
_AUDIT = _audit.insert().values(dict(zip(_ENTRY, _ENTRY_VALUES, strict=True)))


def _audited(dml: Any) -> Any:
    """``dml`` and the audit row of what it wrote in ONE statement (PostgreSQL): the row
    is inserted only if ``dml`` wrote the answer, and one round trip is saved."""
    written = dml.returning(_answer.c.id).cte("written")
    return _audit.insert().add_cte(written).from_select(
        _ENTRY, db.select(*_ENTRY_VALUES).select_from(written)
    ).returning(_audit.c.id)


_AUDITED = {_CHANGE: _audited(_CHANGE), _INSERT: _audited(_INSERT)}

# The optimistic save's guard (PostgreSQL, models.SAVE_GUARD): the round's queue lock,
# then everything the save's decision rested on, as its read saw it, re-read in a
# snapshot taken after the lock. A round close or gate change that committed by then
# makes the write write nothing (BG-E2), and the full save refuses. The answer's own
# version and counter are _UPDATE's guard (an UPDATE re-checks the newest version of
# its row); a new answer's is the unique constraint.
_STILL = db.func.answerdesk_save_guard(
    *[db.bindparam(name, type_=kind) for name, kind in (
        ("event_id", db.Integer), ("round", db.Integer), ("question_id", db.Integer),
        ("seen_kind", db.Text), ("seen_round_mode", db.Text),
        ("seen_question_mode", db.Text), ("seen_gate_state", db.Text),
        ("seen_locks_at", _gate.c.locks_at.type))],
    type_=db.Boolean,
)


def _optimistic(dml: Any, guard: Any) -> Any:
    """The optimistic save's write ``dml``, writing only while ``guard`` holds."""
    if dml is _CHANGE:
        return _audited(_CHANGE.where(guard))
    if dml is _RESEQ:
        return _RESEQ.where(guard).returning(_answer.c.id)
    return _audited(_answer.insert().from_select(
        ["team_id", "question_id", "text", "fields", "source", "version", "client_seq",
         "created_at", "updated_at"],
        db.select(*_new_values("team_id", "question_id", "text", "fields", "source", "version",
                               "client_seq", "created_at", "updated_at").values())
        .where(guard)))


def _write_audited(ex: RawExecutor, dml: Any, values: dict[str, Any],
                   entry: dict[str, Any]) -> bool:
    """Write the answer with ``dml`` and, if it wrote, its audit entry; False if not."""
    if ex.dialect.name == "postgresql":
        return ex.first(_AUDITED[dml], {**values, **entry}) is not None
    if ex.rowcount(dml, values) != 1:
        return False
    ex.rowcount(_AUDIT, entry)
    return True


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
    round trips (_save_optimistic); what that leaves undecided runs the full save,
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
            done = _save_optimistic(ex, code, token, token_hash, round_number,
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


def _target(row: Any, round_number: int, question_number: int, fmt: formats.Format,
            now: dt.datetime, labels: dict[str, tuple[tuple[str, str], ...]],
            ) -> widgets.AnswerTarget:
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
        ex.first(_QUEUE, {"event_id": event_id, "round": round_number})
    built = statements()
    row = ex.first(built.target, {"event_id": event_id, "round": round_number,
                                  "question": question_number, "team_id": team_id})
    now = utcnow()
    try:
        target = _target(row, round_number, question_number, fmt, now, built.labels)
        text, fields = widgets.prepare_answer(team_id, target, text, fields, fmt, run=ex.all)
    except DeskError:
        ex.rollback()
        raise
    question_id = target.question_id

    def kept(answer: Any) -> SavedAnswer:
        return _kept(answer, team_id, question_id, round_number, question_number)

    entry = _entry(event_id, team_name, actor, round_number, question_number, text, fields,
                   source, now)
    current = row if row.answer_id is not None else None
    if current is not None and not _write(ex, current, text, fields, source, seq, now, entry):
        # Another phone of the team saved this answer after its read
        # (PostgreSQL): wait for its row lock and decide again on what it stored.
        current = ex.first(_ANSWER_NOW, {"answer_id": current.answer_id})
        if current is not None and not _write(ex, current, text, fields, source, seq, now,
                                              entry):
            raise AssertionError("the answer changed while its row was locked")
    if current is None:
        _write_audited(ex, _INSERT, _new_answer(team_id, question_id, text, fields, source, seq,
                                                now), entry)
        version = 1
    elif seq is not None and seq <= current.client_seq:
        ex.rollback()
        return kept(current)
    elif _same(current, text, fields, source):
        ex.commit()
        return kept(current)
    else:
        version = current.version + 1
    ex.commit()  # inside the service: the phone's ack must follow a durable commit
    return receipted(team_id, question_id, round_number, question_number, text, fields,
                      source, version, now)


def _kept(answer: Any, team_id: int, question_id: int, round_number: int,
          question_number: int) -> SavedAnswer:
    """The stored answer, unchanged by this save (called once its transaction ended)."""
    return receipted(team_id, question_id, round_number, question_number, answer.text,
                      answer.fields, answer.source, answer.version, answer.updated_at)


def _entry(event_id: int, team_name: str, actor: str | None, round_number: int,
           question_number: int, text: str, fields: Any, source: str,
           now: dt.datetime) -> dict[str, Any]:
    """The audit entry of a save that writes a change (its ``entry_before`` is _write's)."""
    return {
        "entry_event_id": event_id, "entry_at": now, "entry_actor": actor or f"team:{team_name}",
        "entry_action": PHONE_SAVE,
        "entry_subject": f"R{round_number}Q{question_number} {team_name}", "entry_before": None,
        "entry_after": {"text": text, "fields": fields, "source": source,
                        "saved_at": now.isoformat()},
        "entry_undoes_id": None,
    }


def _same(current: Any, text: str, fields: Any, source: str) -> bool:
    return current.text == text and current.fields == fields and current.source == source


def _step(current: Any, text: str, fields: Any, source: str, seq: int | None,
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
    if _same(current, text, fields, source):
        if seq is None:
            return None
        return _RESEQ, {**seen, "new_client_seq": client_seq}, None
    return _CHANGE, {
        **seen, "new_text": text, "new_fields": fields, "new_source": source,
        "new_version": current.version + 1, "new_client_seq": client_seq,
        "new_updated_at": now,
    }, {**entry, "entry_before": {"text": current.text, "fields": current.fields,
                                  "source": current.source}}


def _new_answer(team_id: int, question_id: int, text: str, fields: Any, source: str,
                seq: int | None, now: dt.datetime) -> dict[str, Any]:
    return {"new_team_id": team_id, "new_question_id": question_id, "new_text": text,
            "new_fields": fields, "new_source": source, "new_version": 1,
            "new_client_seq": seq or 0, "new_created_at": now, "new_updated_at": now}


def _write(ex: RawExecutor, current: Any, text: str, fields: Any, source: str, seq: int | None,
           now: dt.datetime, entry: dict[str, Any]) -> bool:
    """Apply the save (_step) to the answer row as ``current`` shows it; False if the
    row moved on."""
    step = _step(current, text, fields, source, seq, now, entry)
    if step is None:
        return True
    dml, values, audit = step
    if audit is None:
        return ex.rowcount(dml, values) == 1
    return _write_audited(ex, dml, values, audit)


def _save_optimistic(ex: RawExecutor, code: str, token: str | None, token_hash: str,
                     round_number: int, question_number: int, text: str, fields: Any,
                     seq: int | None) -> SavedAnswer | None:
    """The phone's save on PostgreSQL in 2 round trips, or None: the full save decides.

    One read in autocommit without any lock (statements().team_target) finds the team and the
    target; its refusals are final (they read what had committed). Then ONE statement
    in autocommit (a transaction of its own) writes the answer with its audit row only
    if _STILL, which takes the round's queue lock first, holds in a snapshot taken
    after the lock (BG-E2): a save that wrote is committed before the response, and
    before any round close that waited for its lock. Anything moved meanwhile (a
    close, a gate, another phone of the team) makes it write nothing, and the full
    save (_save, under the lock from its first read) gives the exact refusal or
    result; what the event's format read for its rules, its save_guard re-checks
    beside _STILL. A save whose decision rests on more than those re-check (the
    format's save_rereads; fields, whose text follows the key's widget) goes to the
    full save at once."""
    built = statements()
    row = ex.first(built.team_target, {"code": code.strip().upper(), "token": token_hash,
                                       "round": round_number, "question": question_number})
    if row is None:
        raise teams.refused(code, token)
    now = utcnow()
    fmt = formats.get(row.format)
    target = _target(row if row.id is not None else None, round_number, question_number,
                     fmt, now, built.labels)
    if fmt.save_rereads(target) or (isinstance(fields, dict) and fields):
        return None
    text, fields = widgets.prepare_answer(row.team_id, target, text, fields, fmt, run=ex.all)
    question_id = target.question_id
    entry = _entry(row.event_id, row.team_name, None, round_number, question_number, text,
                   fields, "phone", now)
    current = row if row.answer_id is not None else None
    audit: dict[str, Any] | None
    if current is None:
        dml, values, audit = _INSERT, _new_answer(row.team_id, question_id, text, fields,
                                                  "phone", seq, now), entry
    else:
        step = _step(current, text, fields, "phone", seq, now, entry)
        if step is None:
            return _kept(current, row.team_id, question_id, round_number, question_number)
        dml, values, audit = step
    guard = {"event_id": row.event_id, "round": round_number, "question_id": question_id,
             "team_id": row.team_id, "seen_kind": row.kind, "seen_round_mode": row.check_mode,
             "seen_question_mode": row.question_mode, "seen_gate_state": row.gate_state,
             "seen_locks_at": row.locks_at}
    try:
        wrote = ex.first(built.optimistic[fmt.name, dml], {**values, **(audit or {}), **guard})
    except ex.dialect.loaded_dbapi.IntegrityError:
        return None  # another phone of the team created the answer meanwhile
    if wrote is None:
        return None
    if dml is _RESEQ:
        return _kept(current, row.team_id, question_id, round_number, question_number)
    return receipted(row.team_id, question_id, round_number, question_number, text, fields,
                      "phone", values["new_version"], now)


def question_counts(event: Event) -> dict[int, int]:
    """{round number: how many questions} in one query (not one per round)."""
    return dict(db.session.execute(
        db.select(Round.number, db.func.count(Question.id))
        .outerjoin(Question, Question.round_id == Round.id)
        .where(Round.event_id == event.id)
        .group_by(Round.number)
    ).all())


def who_has_answered(event: Event,
                     questions: dict[int, int]) -> list[tuple[str, int, list[str]]]:
    """The host's "who has answered" table: (team, players, "answered/questions" per
    round). Built here from plain values: the dashboard reloads every few seconds
    and a cell per team and round read through the ORM in the template cost 8 ms
    of its worker's GIL for 100 teams (issue 6)."""
    rows = db.session.execute(
        db.select(Answer.team_id, Round.number, db.func.count(Answer.id))
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, Answer.text != "")
        .group_by(Answer.team_id, Round.number)
    )
    counts = {(team_id, number): count for team_id, number, count in rows}
    rounds = [(number, f"/{total}") for number, total in sorted(questions.items())]
    return [
        (team.name, team.players,
         [f"{counts.get((team.id, number), 0)}{total}" for number, total in rounds])
        for team in event.teams
    ]


def answered_teams(rnd: Round) -> int:
    """Teams with at least one answer in the round: the desk's "who has answered"."""
    return db.session.scalar(
        db.select(db.func.count(db.distinct(Answer.team_id)))
        .join(Question, Answer.question_id == Question.id)
        .where(Question.round_id == rnd.id, Answer.text != "")
    ) or 0
