"""The phone's save on PostgreSQL in 2 round trips instead of 5 (BG-E2): a read without
the lock, then one statement whose guard takes the round's queue lock and re-reads,
after it, what the decision rested on; anything moved leaves it to the full save
(answers.py).
"""

from __future__ import annotations

from typing import Any

from ..lean import RawExecutor
from ..models import utcnow
from . import formats, teams, widgets
from .answer_statements import INSERT, RESEQ, statements
from .answer_write import (
    SavedAnswer,
    audit_entry,
    kept_answer,
    new_answer_values,
    open_target,
    receipted,
    write_step,
)


def save_optimistic(ex: RawExecutor, code: str, token: str | None, token_hash: str,
                    round_number: int, question_number: int, text: str, fields: Any,
                    seq: int | None) -> SavedAnswer | None:
    """The phone's save on PostgreSQL in 2 round trips, or None: the full save decides.

    One read in autocommit without any lock (statements().team_target) finds the team
    and the target; its refusals are final (they read what had committed). Then ONE
    statement in autocommit (a transaction of its own) writes the answer with its audit
    row only if the save's guard (answer_statements._STILL), which takes the round's
    queue lock first, holds in a snapshot taken after the lock (BG-E2): a save that
    wrote is committed before the response, and before any round close that waited for
    its lock. Anything moved meanwhile (a close, a gate, another phone of the team)
    makes it write nothing, and the full save (answers._save, under the lock from its
    first read) gives the exact refusal or result; what the event's format read for its
    rules, its save_guard re-checks beside the guard. A save whose decision rests on
    more than those re-check (the format's save_rereads; fields, whose text follows the
    key's widget) goes to the full save at once."""
    built = statements()
    row = ex.first(built.team_target, {"code": code.strip().upper(), "token": token_hash,
                                       "round": round_number, "question": question_number})
    if row is None:
        raise teams.refused(code, token)
    now = utcnow()
    fmt = formats.get(row.format)
    target = open_target(row if row.id is not None else None, round_number, question_number,
                         fmt, now, built.labels)
    if fmt.save_rereads(target) or (isinstance(fields, dict) and fields):
        return None
    text, fields = widgets.prepare_answer(row.team_id, target, text, fields, fmt, run=ex.all)
    question_id = target.question_id
    entry = audit_entry(row.event_id, row.team_name, None, round_number, question_number, text,
                        fields, "phone", now)
    current = row if row.answer_id is not None else None
    audit: dict[str, Any] | None
    if current is None:
        dml, values, audit = INSERT, new_answer_values(row.team_id, question_id, text, fields,
                                                  "phone", seq, now), entry
    else:
        step = write_step(current, text, fields, "phone", seq, now, entry)
        if step is None:
            return kept_answer(current, row.team_id, question_id, round_number, question_number)
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
    if dml is RESEQ:
        return kept_answer(current, row.team_id, question_id, round_number, question_number)
    return receipted(row.team_id, question_id, round_number, question_number, text, fields,
                      "phone", values["new_version"], now)
