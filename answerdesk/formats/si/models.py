"""Tables of Своя игра: players' standing, each question's ВСЁ and publication, and
every answer as received (late ones too: a "ПРОПУСТИЛИ" claim is settled from them)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ...extensions import Model
from ...models import Team, utcnow


class SiPlayer(Model):
    """SI-1.2 in or out of competition; SI-1.3 warnings (the second removes)."""

    __tablename__ = "si_player"

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), unique=True)
    in_competition: Mapped[bool] = mapped_column(default=True)
    warnings: Mapped[int] = mapped_column(default=0)


class SiQuestion(Model):
    """SI-2.2b the host's ВСЁ and SI-2.4 the publication of the lists."""

    __tablename__ = "si_question"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), unique=True)
    closed_at: Mapped[dt.datetime | None]
    published_at: Mapped[dt.datetime | None]


class SiAnswer(Model):
    """A player's one answer (SI-2.2: only the first counts), with the server's receipt."""

    __tablename__ = "si_answer"
    __table_args__ = (UniqueConstraint("question_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(Text, default="")
    received_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    late: Mapped[bool] = mapped_column(default=False)
    proposed: Mapped[str | None] = mapped_column(String(8))
    proposed_reason: Mapped[str] = mapped_column(String(300), default="")
    decision: Mapped[str | None] = mapped_column(String(8))
    claimed: Mapped[bool] = mapped_column(default=False)
    #: SI-2.4 "ПРОПУСТИЛИ": "pending" while the host has not answered the claim, then
    #: "settled"; the claim itself changes no mark (the host decides).
    claim: Mapped[str | None] = mapped_column(String(8))

    team: Mapped[Team] = relationship()


class SiTheme(Model):
    """SI-0: a theme of a round and its author, one of the players (if any)."""

    __tablename__ = "si_theme"
    __table_args__ = (UniqueConstraint("round_id", "theme"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    theme: Mapped[int]
    author_team_id: Mapped[int | None] = mapped_column(
        ForeignKey("team.id", ondelete="SET NULL"))

    author: Mapped[Team | None] = relationship()


class SiProtest(Model):
    """SI-3: a protest ("СТОП") against a question's published results, and the host's
    word on it (rules.ProtestState)."""

    __tablename__ = "si_protest"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(Text, default="")
    state: Mapped[str] = mapped_column(String(10), default="filed")
    filed_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    heard_at: Mapped[dt.datetime | None]
    decided_at: Mapped[dt.datetime | None]
    warned: Mapped[bool] = mapped_column(default=False)

    team: Mapped[Team] = relationship()
