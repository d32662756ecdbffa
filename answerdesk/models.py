"""Core's tables, typed: those every game shares.

An event has rounds, rounds have questions, teams answer questions; the
checker's proposal and the host's decision for an answer live in its verdict;
every change leaves an audit entry. A format's own tables live in its package
(``formats/<name>/models.py``), which its ``load`` imports: a new table for a
game never edits this file.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    DDL,
    JSON,
    BigInteger,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    event,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .core import formats
from .core.states import GateState, RoundState
from .extensions import Model, db


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def default_format() -> str:
    """The name of the format a new event takes when none is named (Format.default)."""
    return formats.default().name


class Event(Model):
    __tablename__ = "event"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    date: Mapped[dt.date]
    format: Mapped[str] = mapped_column(String(16), default=default_format)
    status: Mapped[str] = mapped_column(String(16), default="running")
    host_password_hash: Mapped[str] = mapped_column(String(256))
    assistant_password_hash: Mapped[str | None] = mapped_column(String(256))
    # Desk logins carry the generation they were made in (web.desk_login); logging
    # out or a new assistant password moves it on, so copies of the cookie stop working.
    host_login_generation: Mapped[int] = mapped_column(default=0, server_default="0")
    assistant_login_generation: Mapped[int] = mapped_column(default=0, server_default="0")
    screen_locale: Mapped[str] = mapped_column(String(8), default="bg")
    # The question clock's answer period and grace (clock.py); None: the format's default.
    question_seconds: Mapped[int | None]
    question_grace: Mapped[int | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    # BG-G2b: the event's own limits, set by the host. At most this many players per
    # team; starting points of named teams ([{"name", "points"}], BG-G1 folding);
    # BG-M5: with an invitation list only the teams named in it may join.
    max_players: Mapped[int | None]
    handicaps: Mapped[Any | None] = mapped_column(JSON)
    invited: Mapped[Any | None] = mapped_column(JSON)
    # Whether teams may dispute verdicts; None: as the game's rules say (BG-D1 yes,
    # CHGK-1.2 no), which an event may override.
    appeals: Mapped[bool | None]

    rounds: Mapped[list[Round]] = relationship(
        back_populates="event", order_by="Round.number", cascade="all, delete-orphan"
    )
    teams: Mapped[list[Team]] = relationship(
        back_populates="event", order_by="Team.id", cascade="all, delete-orphan"
    )

    def round(self, number: int) -> Round | None:
        return next((r for r in self.rounds if r.number == number), None)


class Team(Model):
    __tablename__ = "team"
    __table_args__ = (UniqueConstraint("event_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    name_key: Mapped[str] = mapped_column(String(120))
    players: Mapped[int] = mapped_column(default=1)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="teams")


class Round(Model):
    """A round moves draft → open → locked → revealed (BG-E2, BG-E3)."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))
    points: Mapped[int]
    partial_points: Mapped[int | None]
    check_mode: Mapped[str] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16), default=RoundState.DRAFT)
    opened_at: Mapped[dt.datetime | None]
    locked_at: Mapped[dt.datetime | None]
    revealed_at: Mapped[dt.datetime | None]
    themes: Mapped[Any | None] = mapped_column(JSON)

    event: Mapped[Event] = relationship(back_populates="rounds")
    questions: Mapped[list[Question]] = relationship(
        back_populates="round", order_by="Question.number", cascade="all, delete-orphan"
    )

    @property
    def is_open(self) -> bool:
        return self.state == RoundState.OPEN


class Question(Model):
    __tablename__ = "question"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    text: Mapped[str] = mapped_column(Text, default="")
    key: Mapped[Any] = mapped_column(JSON)
    hint: Mapped[str | None] = mapped_column(String(16))
    check_mode: Mapped[str | None] = mapped_column(String(16))
    # From an imported pack: the question's own value, its pictures/audio/video
    # ([{kind, ref, file?, stage?}]) and what the host reads beside it (options,
    # answer as shown, note, theme, comment, source, author, variant).
    points: Mapped[int | None]
    media: Mapped[Any | None] = mapped_column(JSON)
    details: Mapped[Any | None] = mapped_column(JSON)

    round: Mapped[Round] = relationship(back_populates="questions")

    @property
    def mode(self) -> str:
        """The question's own check mode (an R4 song beside an R4 film), else the round's."""
        return self.check_mode or self.round.check_mode

    @property
    def shown_answer(self) -> str:
        """The answer as the host reveals it on the projector (BG-E3)."""
        return display_key(self.key)


def display_key(key: Any) -> str:
    if isinstance(key, dict):
        if "accept" in key:
            return " / ".join(str(a) for a in key["accept"])
        if "title" in key:
            artists = ", ".join(str(alts[0]) for alts in key.get("artists", []) if alts)
            title = key["title"][0] if key["title"] else ""
            return f"{artists} – {title}" if artists else str(title)
        return " ".join(f"{k}{v}" for k, v in sorted(key.items()))
    if isinstance(key, list):
        return " / ".join(str(a) for a in key)
    return str(key)


class Answer(Model):
    """A team's latest answer to a question; each change is in the audit log."""

    __tablename__ = "answer"
    __table_args__ = (UniqueConstraint("team_id", "question_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), index=True
    )
    text: Mapped[str] = mapped_column(Text, default="")
    fields: Mapped[Any | None] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(8), default="phone")
    version: Mapped[int] = mapped_column(default=1)
    client_seq: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    team: Mapped[Team] = relationship()
    question: Mapped[Question] = relationship()
    verdict: Mapped[Verdict | None] = relationship(
        back_populates="answer", uselist=False, cascade="all, delete-orphan"
    )


class Verdict(Model):
    """The checker's proposal and, once given, the host's last word."""

    __tablename__ = "verdict"

    id: Mapped[int] = mapped_column(primary_key=True)
    answer_id: Mapped[int] = mapped_column(
        ForeignKey("answer.id", ondelete="CASCADE"), unique=True
    )
    outcome: Mapped[str] = mapped_column(String(8))
    fraction: Mapped[float | None]
    reason: Mapped[str] = mapped_column(String(300), default="")
    # the same reason for pages: a checker code and its values (docs/checker.md, issue 16)
    reason_code: Mapped[str | None] = mapped_column(String(40))
    reason_params: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    checked_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    decision: Mapped[str | None] = mapped_column(String(8))
    decided_by: Mapped[str | None] = mapped_column(String(60))
    decided_at: Mapped[dt.datetime | None]

    answer: Mapped[Answer] = relationship(back_populates="verdict")

    @property
    def final(self) -> str:
        """The outcome that counts: the host's decision beats the checker's."""
        return self.decision or self.outcome


# What a phone's save of an open round's answer writes to the audit log.
PHONE_SAVE = "answer.save"
# Every other entry: the projector shows no answer of an open round (standings
# count locked rounds only), so its version (live.screen_version) skips phone saves.
# A literal, not a parameter: only then may the partial index below answer the query.
NOT_A_PHONE_SAVE = text(f"action <> '{PHONE_SAVE}'")


class AuditEntry(Model):
    __tablename__ = "audit_entry"
    # live.version() asks for an event's newest entry on every poll: with event_id
    # alone PostgreSQL walked the whole table backwards from the newest id
    # (10 ms behind 200,000 entries of other events); (event_id, id) answers at once.
    # The projector asks for the newest entry that is not a phone save: without the
    # partial index it would walk back over every save of the round in progress.
    __table_args__ = (
        Index("ix_audit_entry_event_id_id", "event_id", "id"),
        Index("ix_audit_entry_event_id_id_not_phone_save", "event_id", "id",
              postgresql_where=NOT_A_PHONE_SAVE, sqlite_where=NOT_A_PHONE_SAVE),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"))
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    actor: Mapped[str] = mapped_column(String(120))
    action: Mapped[str] = mapped_column(String(40))
    subject: Mapped[str] = mapped_column(String(200), default="")
    before: Mapped[Any | None] = mapped_column(JSON)
    after: Mapped[Any | None] = mapped_column(JSON)
    undoes_id: Mapped[int | None] = mapped_column(
        ForeignKey("audit_entry.id", ondelete="SET NULL")
    )


class ScoreCorrection(Model):
    """A manual change of a team's points with its reason; undone, it stops counting."""

    __tablename__ = "score_correction"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    points: Mapped[int]
    reason: Mapped[str] = mapped_column(String(300))
    actor: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    undone_at: Mapped[dt.datetime | None]
    undone_by: Mapped[str | None] = mapped_column(String(60))

    team: Mapped[Team] = relationship()


class ScreenState(Model):
    """What the projector shows, set by the host; ``version`` moves on every change."""

    __tablename__ = "screen_state"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("event.id", ondelete="CASCADE"), unique=True
    )
    view: Mapped[str] = mapped_column(String(16), default="auto")
    round_number: Mapped[int | None]
    shown: Mapped[int] = mapped_column(default=0)
    version: Mapped[int] = mapped_column(default=0)
    # The desk's last command to the question's audio or video, "play:<version>"
    # (play, pause, replay): the version makes each press count once on the projector.
    media: Mapped[str | None] = mapped_column(String(24))


class Dispute(Model):
    """A host decision on a question after a dispute (BG-D1): uphold, accept or annul."""

    __tablename__ = "dispute"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8))
    accepted: Mapped[str | None] = mapped_column(String(300))
    reason: Mapped[str] = mapped_column(String(300))
    actor: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    team: Mapped[Team | None] = relationship()
    question: Mapped[Question] = relationship()


class QuestionGate(Model):
    """Per-question open → locked → revealed (BG-R6, one question at a time).

    A question started on the clock (clock.py, CHGK-1.1) carries its answer period
    and grace; from ``locks_at`` on it is locked by the time alone, whatever
    ``state`` still says until someone records the lock.
    """

    __tablename__ = "question_gate"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), unique=True
    )
    state: Mapped[str] = mapped_column(String(16), default=GateState.OPEN)
    opened_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    seconds: Mapped[int | None]
    grace: Mapped[int | None]
    locks_at: Mapped[dt.datetime | None]
    locked_at: Mapped[dt.datetime | None]
    revealed_at: Mapped[dt.datetime | None]


# The phone's optimistic save on PostgreSQL (core/answer_optimistic.py, BG-E2): the
# round's queue lock (database/postgres_locks.py, shared), THEN whether what the save
# decided on still holds: the round open, its kind and check mode, the question's check
# mode, its gate's state and deadline. VOLATILE, so its second statement reads in a
# snapshot taken after the lock was granted (a statement's own snapshot is older than
# the lock its function waited for): a close that held the lock is seen. What a format's
# rules read besides its own guard re-checks (Format.save_guard). The migrations
# 9c4e2a7b1d3f_pgsave2_save_guard and 6a1d3c5e7b92_save_guard_per_format create the same
# function.
SAVE_GUARD = """
CREATE OR REPLACE FUNCTION answerdesk_save_guard(
    p_event integer, p_round integer, p_question integer, p_kind text,
    p_round_mode text, p_question_mode text, p_gate_state text, p_locks_at timestamp)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(p_event, p_round);
    RETURN EXISTS (
        SELECT 1 FROM round r
        JOIN question q ON q.round_id = r.id
        LEFT JOIN question_gate g ON g.question_id = q.id
        WHERE r.event_id = p_event AND r.number = p_round AND q.id = p_question
          AND r.state = 'open' AND r.kind = p_kind AND r.check_mode = p_round_mode
          AND q.check_mode IS NOT DISTINCT FROM p_question_mode
          AND g.state IS NOT DISTINCT FROM p_gate_state
          AND g.locks_at IS NOT DISTINCT FROM p_locks_at);
END
$$
"""
event.listen(db.metadata, "after_create", DDL(SAVE_GUARD).execute_if(dialect="postgresql"))
