"""The buzzer's tables: each phone's sync exchanges and each press as it arrived.

A sample belongs to the phone that made it (``phone``: a key the format gives,
e.g. a player's in OpenQuiz, where up to three phones play for one team), so the
server's estimate of a phone's clock is made from that phone's exchanges alone
(OQ-4); ``team_id`` only lets a deleted team take its samples with it.

Both are rows in the database, not state in a process: any worker of any app
server answers a sync or a press, and the window's close follows from the stored
arrival times, so no process has to be awake when it closes.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ...extensions import Model
from ...models import utcnow


class BuzzSample(Model):
    """One sync exchange of a phone; complete once the phone reports its receipt."""

    __tablename__ = "buzz_sample"
    __table_args__ = (Index("ix_buzz_sample_phone_id", "phone", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    phone: Mapped[str] = mapped_column(String(40))
    client_send_ms: Mapped[int] = mapped_column(BigInteger)
    server_ms: Mapped[int] = mapped_column(BigInteger)
    client_receive_ms: Mapped[int | None] = mapped_column(BigInteger)
    # The round trip as the server's own clock timed it (timing.seen_rtt; issue 31).
    seen_rtt_ms: Mapped[int | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class BuzzPress(Model):
    """A press (OQ-4): the phone's claimed time, the server's arrival time, and the
    server's estimate of that phone's clock at the arrival, kept so the order never
    changes after the fact; who pressed: the phone's key (as its samples') and the
    player's name as it stood then, where the game knows players (OpenQuiz: up to
    three press for one team)."""

    __tablename__ = "buzz_press"
    __table_args__ = (UniqueConstraint("question_id", "attempt", "team_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(
        ForeignKey("question.id", ondelete="CASCADE"), index=True)
    attempt: Mapped[int] = mapped_column(default=1)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    phone: Mapped[str | None] = mapped_column(String(40))
    player: Mapped[str | None] = mapped_column(String(60))
    claimed_ms: Mapped[int] = mapped_column(BigInteger)
    received_ms: Mapped[int] = mapped_column(BigInteger)
    offset_ms: Mapped[float | None]
    rtt_ms: Mapped[int | None]
    samples: Mapped[int] = mapped_column(default=0)
    # How far before its arrival the press may have been made (timing.allowance_ms).
    allowance_ms: Mapped[int | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
