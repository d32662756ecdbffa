"""The phone's save's SQL, built once: constructing the statements per request cost more
CPU than running them (bench/README.md). The save service (answers.py) and its
PostgreSQL optimistic path (answer_optimistic.py) run them on a raw connection (lean.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table

from ..database.postgres_locks import round_queue
from ..extensions import db
from ..models import Answer, AuditEntry, Event, Question, QuestionGate, Round, Team
from . import formats

# SQL expressions are immutable, so built once they serve every save.
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
class Statements:
    """The save's statements that carry the registered formats' parts (save_columns,
    save_guard): built on the first save after the registry changed, then reused."""

    #: Round state, question, its gate, the formats' columns on it and the team's current
    #: answer in one statement, read under the round's queue lock (BG-E2). No FOR SHARE
    #: on the round row besides: that lock writes the row (WAL, multixacts) on every
    #: save, for nothing.
    target: Any
    #: The optimistic save's read (PostgreSQL, save_by_token): the team by its token and
    #: ``target``'s row in ONE statement, in autocommit and without the queue lock; its
    #: write re-checks under the lock what the decision rested on (_STILL).
    team_target: Any
    #: Per format, its columns' (name, label) in the rows above.
    labels: dict[str, tuple[tuple[str, str], ...]]
    #: Per (format, write) the optimistic write guarded by _STILL and the format's guard.
    optimistic: dict[tuple[str, Any], Any]


_BUILT: dict[int, Statements] = {}


def statements() -> Statements:
    """The save's statements for the formats registered now (built once per registry)."""
    generation = formats.generation()
    built = _BUILT.get(generation)
    if built is None:
        _BUILT.clear()
        built = _BUILT[generation] = _build()
    return built


def _build() -> Statements:
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
        optimistic.update({(name, dml): _optimistic(dml, guard) for dml in (CHANGE, RESEQ,
                                                                             INSERT)})
    return Statements(target=target, team_target=team_target,
                      labels=_format_columns(db.bindparam("team_id"))[1],
                      optimistic=optimistic)


# The round's queue lock alone, for a save whose team lookup did not take it (PostgreSQL).
QUEUE = db.select(round_queue(db.bindparam("event_id", type_=db.Integer),
                               db.bindparam("round", type_=db.Integer), exclusive=False))
# The answer as it is now, waiting for a concurrent save of the same answer (PostgreSQL).
ANSWER_NOW = (db.select(_answer.c.id.label("answer_id"), *_ANSWER_COLUMNS)
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
CHANGE = _UPDATE.values(_new_values("text", "fields", "source", "version", "client_seq",
                                     "updated_at"))
# The same answer again with a newer edit counter: only the counter moves.
RESEQ = _UPDATE.values(_new_values("client_seq"))
INSERT = _answer.insert().values(_new_values("team_id", "question_id", "text", "fields",
                                              "source", "version", "client_seq", "created_at",
                                              "updated_at"))
_ENTRY = ("event_id", "at", "actor", "action", "subject", "before", "after", "undoes_id")
_ENTRY_VALUES = [db.bindparam(f"entry_{name}", type_=_audit.c[name].type) for name in _ENTRY]
AUDIT = _audit.insert().values(dict(zip(_ENTRY, _ENTRY_VALUES, strict=True)))


def _audited(dml: Any) -> Any:
    """``dml`` and the audit row of what it wrote in ONE statement (PostgreSQL): the row
    is inserted only if ``dml`` wrote the answer, and one round trip is saved."""
    written = dml.returning(_answer.c.id).cte("written")
    return _audit.insert().add_cte(written).from_select(
        _ENTRY, db.select(*_ENTRY_VALUES).select_from(written)
    ).returning(_audit.c.id)


AUDITED = {CHANGE: _audited(CHANGE), INSERT: _audited(INSERT)}

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
    if dml is CHANGE:
        return _audited(CHANGE.where(guard))
    if dml is RESEQ:
        return RESEQ.where(guard).returning(_answer.c.id)
    return _audited(_answer.insert().from_select(
        ["team_id", "question_id", "text", "fields", "source", "version", "client_seq",
         "created_at", "updated_at"],
        db.select(*_new_values("team_id", "question_id", "text", "fields", "source", "version",
                               "client_seq", "created_at", "updated_at").values())
        .where(guard)))

