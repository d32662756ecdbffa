"""Tables of the ЧГК format: the host's records of a game, and the teams' leagues.

The Central Table, the auctions and the sector draws are kept as the host
recorded them, in order (``ChgkAction``); their state is the pure rules
(rules.py) replayed over those records, so every draw and verdict stays
auditable and a refusal never leaves half a change behind.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ...extensions import Model
from ...models import utcnow


class ChgkAction(Model):
    """One record of a game: a sector draw, an auction, a Central Table verdict."""

    __tablename__ = "chgk_action"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    game: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"))
    question: Mapped[int | None]
    payload: Mapped[Any | None] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class ChgkTeam(Model):
    """CHGK-2.2: a team's league (Favourites or Contenders) in this event."""

    __tablename__ = "chgk_team"

    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"),
                                         primary_key=True)
    league: Mapped[str] = mapped_column(String(16))
