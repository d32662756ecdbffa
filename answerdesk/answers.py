"""Saving a team's answer: the lock check and the write in ONE transaction (BG-E2).

A save is either acknowledged before its round locks, and then kept and
counted, or refused with RoundLocked: never acknowledged and then lost, never
accepted after the lock. On SQLite every write transaction starts with
BEGIN IMMEDIATE (database.py); on PostgreSQL the save holds a share lock on
the round row, which close_round() must wait for before it can lock.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy.exc import IntegrityError

from . import audit, widgets
from .database import queue_for_round
from .errors import DeskError, NotFound, RoundLocked
from .extensions import db
from .models import Answer, Question, Round, Team, utcnow
from .text import clean_text


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


def receipt_code(team_id: int, question_id: int, text: str, saved_at: dt.datetime) -> str:
    """A short code the team can show in a dispute; only the server can make it."""
    message = f"{team_id}:{question_id}:{text}:{saved_at.isoformat()}".encode()
    digest = hmac.new(current_app.config["SECRET_KEY"].encode(), message, hashlib.sha256)
    return digest.hexdigest()[:8].upper()


def saved(answer: Answer, round_number: int, question_number: int) -> SavedAnswer:
    return SavedAnswer(
        round=round_number,
        question=question_number,
        text=answer.text,
        fields=answer.fields,
        source=answer.source,
        version=answer.version,
        saved_at=answer.updated_at,
        receipt=receipt_code(answer.team_id, answer.question_id, answer.text, answer.updated_at),
    )


def _locked_round(team: Team, round_number: int) -> Round:
    queue_for_round(team.event_id, round_number, exclusive=False)
    rnd = db.session.scalar(
        db.select(Round)
        .where(Round.event_id == team.event_id, Round.number == round_number)
        .with_for_update(read=True)
    )
    if rnd is None:
        raise NotFound(f"Round {round_number} does not exist")
    return rnd


def save_answer(
    team: Team,
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
    """
    clean = clean_text(
        text, max_length=current_app.config["MAX_ANSWER_LENGTH"], field="text", multiline=False
    )
    if fields is not None and not isinstance(fields, dict | list):
        raise DeskError("fields must be an object")
    for attempt in range(2):
        try:
            return _save(team, round_number, question_number, clean, fields, source, seq, actor)
        except IntegrityError:
            # Two phones of one team created the same answer at once: the row
            # exists now, so the second attempt updates it.
            db.session.rollback()
            if attempt:
                raise
    raise AssertionError("unreachable")


def _save(
    team: Team,
    round_number: int,
    question_number: int,
    text: str,
    fields: Any,
    source: str,
    seq: int | None,
    actor: str | None,
) -> SavedAnswer:
    team_id, event_id = team.id, team.event_id
    rnd = _locked_round(team, round_number)
    if rnd.state != "open":
        number, state = rnd.number, rnd.state
        db.session.rollback()
        raise RoundLocked(
            f"Round {number} is locked: answers are no longer accepted.",
            round=number,
            state=state,
        )
    question = db.session.scalar(
        db.select(Question).where(Question.round_id == rnd.id, Question.number == question_number)
    )
    if question is None:
        db.session.rollback()
        raise NotFound(f"Round {round_number} has no question {question_number}")
    try:
        text, fields = widgets.prepare_answer(team, rnd, question, text, fields)
    except DeskError:
        db.session.rollback()
        raise
    answer = db.session.scalar(
        db.select(Answer)
        .where(Answer.team_id == team_id, Answer.question_id == question.id)
        .with_for_update()
    )
    now = utcnow()
    if answer is None:
        answer = Answer(
            team_id=team_id,
            question_id=question.id,
            text=text,
            fields=fields,
            source=source,
            version=1,
            client_seq=seq or 0,
            created_at=now,
            updated_at=now,
        )
        db.session.add(answer)
        db.session.flush()
        before = None
    elif seq is not None and seq <= answer.client_seq:
        result = saved(answer, round_number, question_number)
        db.session.rollback()
        return result
    elif answer.text == text and answer.fields == fields and answer.source == source:
        if seq is not None:
            answer.client_seq = seq
        result = saved(answer, round_number, question_number)
        db.session.commit()
        return result
    else:
        before = {"text": answer.text, "fields": answer.fields, "source": answer.source}
        answer.text = text
        answer.fields = fields
        answer.source = source
        answer.version += 1
        answer.updated_at = now
        if seq is not None:
            answer.client_seq = seq
    audit.record(
        event_id,
        actor or f"team:{team.name}",
        "answer.save",
        f"R{round_number}Q{question_number} {team.name}",
        before=before,
        after={"text": text, "fields": fields, "source": source,
               "saved_at": answer.updated_at.isoformat()},
    )
    result = saved(answer, round_number, question_number)
    db.session.commit()
    return result


def team_answers(team: Team) -> dict[int, Answer]:
    """The team's answers keyed by question id."""
    rows = db.session.scalars(db.select(Answer).where(Answer.team_id == team.id))
    return {a.question_id: a for a in rows}


def answered_counts(event_id: int) -> dict[tuple[int, int], int]:
    """How many questions each team has answered per round: {(team_id, round): n}."""
    rows = db.session.execute(
        db.select(Answer.team_id, Round.number, db.func.count(Answer.id))
        .join(Question, Answer.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event_id, Answer.text != "")
        .group_by(Answer.team_id, Round.number)
    )
    return {(team_id, number): count for team_id, number, count in rows}
