"""Tables of the Bulgarian pub quiz: jokers, the R5 wildcard, the shoot-out, the league.

They hang off core's event, team and question rows; core never reads them (what
the BG rules add to a save, a widget or a paper sheet goes through Format's hooks,
formats/bg/__init__.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import DDL, JSON, ForeignKey, String, UniqueConstraint, event
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ...extensions import Model, db
from ...models import Event, Question, Team, utcnow


class Joker(Model):
    """A joker a team played (BG-J1-J3): each kind at most once per team and game."""

    __tablename__ = "joker"
    __table_args__ = (UniqueConstraint("team_id", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), index=True
    )
    target_team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id", ondelete="SET NULL"))
    hint: Mapped[str | None] = mapped_column(String(16))
    second_outcome: Mapped[str | None] = mapped_column(String(8))
    second_reason: Mapped[str] = mapped_column(String(300), default="")
    second_decision: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    team: Mapped[Team] = relationship(foreign_keys=[team_id])
    target: Mapped[Team | None] = relationship(foreign_keys=[target_team_id])
    question: Mapped[Question] = relationship()


class Wildcard(Model):
    """BG-R5.0: who chooses the R5 scenario (draw recorded), and the scenario chosen."""

    __tablename__ = "wildcard"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), unique=True)
    bank: Mapped[Any | None] = mapped_column(JSON)
    candidates: Mapped[Any | None] = mapped_column(JSON)
    seed: Mapped[str | None] = mapped_column(String(24))
    chooser_team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id", ondelete="SET NULL"))
    drawn_at: Mapped[dt.datetime | None]
    scenario: Mapped[str | None] = mapped_column(String(4))
    chosen_by: Mapped[str | None] = mapped_column(String(120))

    chooser: Mapped[Team | None] = relationship()


class Shootout(Model):
    """BG-S3 „Дузпи“ for one tied group: three numbers, one minute, then locked."""

    __tablename__ = "shootout"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    place: Mapped[int]
    teams: Mapped[Any] = mapped_column(JSON)
    questions: Mapped[Any] = mapped_column(JSON)
    seconds: Mapped[int] = mapped_column(default=60)
    started_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    locked_at: Mapped[dt.datetime | None]


class ShootoutAnswer(Model):
    __tablename__ = "shootout_answer"
    __table_args__ = (UniqueConstraint("shootout_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    shootout_id: Mapped[int] = mapped_column(
        ForeignKey("shootout.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    numbers: Mapped[Any] = mapped_column(JSON)
    saved_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class Edition(Model):
    """An event as an edition of a monthly league (BG-M1-M4).

    ``league`` names the league: "" is the venue's own; the demo keeps its played
    editions in a league of its own, so no real month table shows them.
    """

    __tablename__ = "edition"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), unique=True)
    league: Mapped[str] = mapped_column(String(60), default="", server_default="", index=True)
    month: Mapped[str] = mapped_column(String(7), index=True)
    number: Mapped[int]
    handicaps: Mapped[Any | None] = mapped_column(JSON)

    event: Mapped[Event] = relationship()


class TeamAlias(Model):
    """The host's merge of two spellings of one team across events (BG-M, BG-G1 keys)."""

    __tablename__ = "team_alias"

    id: Mapped[int] = mapped_column(primary_key=True)
    name_key: Mapped[str] = mapped_column(String(120), unique=True)
    canonical_key: Mapped[str] = mapped_column(String(120))
    canonical_name: Mapped[str] = mapped_column(String(120))



# BG-J2 for the optimistic save on PostgreSQL (core/answer_optimistic.py, Format.save_guard): the
# round's queue lock, taken here too since PostgreSQL does not promise in which order
# the write's conditions run, THEN no copy joker of the team on the question, read in
# a snapshot taken after the lock (VOLATILE, as core's answerdesk_save_guard). The
# migration 6a1d3c5e7b92_save_guard_per_format creates the same function.
BG_SAVE_GUARD = """
CREATE OR REPLACE FUNCTION answerdesk_bg_save_guard(
    p_event integer, p_round integer, p_question integer, p_team integer)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(p_event, p_round);
    RETURN NOT EXISTS (SELECT 1 FROM joker j WHERE j.team_id = p_team
                       AND j.question_id = p_question AND j.kind = 'copy');
END
$$
"""
event.listen(db.metadata, "after_create", DDL(BG_SAVE_GUARD).execute_if(dialect="postgresql"))
