"""Tables of OpenQuiz: the turn, each question's play, score entries, the final."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ...extensions import Model
from ...models import utcnow


class OqGame(Model):
    """OQ-2 the team with the turn; OQ-6 the final's banned themes, in order; OQ-7 the
    speed; OQ-8 the pauses (``[start_ms, end_ms]``, timers.py), the first and latest
    activity, and whom the host banned (room.py)."""

    __tablename__ = "oq_game"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), unique=True)
    turn_team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id", ondelete="SET NULL"))
    picked_question_id: Mapped[int | None] = mapped_column(
        ForeignKey("question.id", ondelete="SET NULL"))
    bans: Mapped[Any | None] = mapped_column(JSON)
    speed: Mapped[str] = mapped_column(String(8), default="normal", server_default="normal")
    pauses: Mapped[Any | None] = mapped_column(JSON)
    started_ms: Mapped[int | None] = mapped_column(BigInteger)
    active_ms: Mapped[int | None] = mapped_column(BigInteger)
    banned: Mapped[Any | None] = mapped_column(JSON)
    # OQ-1, issue 31: the team names the host lets in (room.reserved_names); empty or
    # None: any team may join.
    reserved: Mapped[Any | None] = mapped_column(JSON)


class OqPlayer(Model):
    """OQ-1: a player of a team, with a token of their own; the captain picks, bids,
    bets and bans for the team."""

    __tablename__ = "oq_player"
    __table_args__ = (UniqueConstraint("team_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    name_key: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    captain: Mapped[bool] = mapped_column(default=False)
    # The address the player joined from, as a keyed hash (joining.address_key): a ban
    # keeps it, so the banned phone cannot come back under new names (issue 31).
    address: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class OqPlay(Model):
    """One question on the board as it plays (OQ-4): the buzzer's attempt, since when it
    is armed, who answers, who is out (answered or passed)."""

    __tablename__ = "oq_play"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), unique=True)
    attempt: Mapped[int] = mapped_column(default=1)
    armed_ms: Mapped[int] = mapped_column(BigInteger)
    reading_until_ms: Mapped[int | None] = mapped_column(BigInteger)
    out: Mapped[Any] = mapped_column(JSON, default=list)
    done: Mapped[bool] = mapped_column(default=False)
    # OQ-3: the team that answers alone (a secret's receiver, an auction's winner) and
    # the winning stake, set when the secret is handed or the auction closes.
    answering_team_id: Mapped[int | None] = mapped_column(
        ForeignKey("team.id", ondelete="SET NULL"))
    stake: Mapped[int | None]


class OqScore(Model):
    """A score entry (OQ-5): a judged answer, a final bet's result, or a hand edit."""

    __tablename__ = "oq_score"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    question_id: Mapped[int | None] = mapped_column(ForeignKey("question.id", ondelete="CASCADE"))
    points: Mapped[int]
    reason: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class OqBet(Model):
    """OQ-6: a team's sealed bet, its written final answer and the host's verdict."""

    __tablename__ = "oq_bet"
    __table_args__ = (UniqueConstraint("event_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    amount: Mapped[int]
    answer: Mapped[str | None] = mapped_column(Text)
    accepted: Mapped[bool | None]


class OqChoice(Model):
    """OQ-3: the option a team chose (choices, choices for all): one per team and question."""

    __tablename__ = "oq_choice"
    __table_args__ = (UniqueConstraint("question_id", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(ForeignKey("question.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    option: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class OqStake(Model):
    """OQ-3 auction: a team's stake, or its pass (no amount), in the order made."""

    __tablename__ = "oq_stake"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    amount: Mapped[int | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
