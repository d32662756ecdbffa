"""The projector screen: no login, refreshes itself, shows nothing secret."""

from __future__ import annotations

from flask import Blueprint, render_template, url_for

from ..events import event_by_code
from ..extensions import db
from ..models import Event, Round
from ..standings import event_standings

bp = Blueprint("display", __name__)


def _screen_context(event: Event) -> dict:
    rounds = db.session.scalars(
        db.select(Round).where(Round.event_id == event.id).order_by(Round.number)
    ).all()
    current = next((r for r in rounds if r.state == "open"), None)
    last_locked = max(
        (r for r in rounds if r.state in ("locked", "revealed")),
        key=lambda r: r.locked_at or r.opened_at, default=None,
    )
    return {
        "event": event,
        "current": current,
        "last_locked": last_locked,
        "standings": event_standings(event),
        "join_url": url_for("team.join", code=event.code, _external=True),
    }


@bp.get("/e/<code>/screen")
def screen(code: str):
    return render_template("display/screen.html", **_screen_context(event_by_code(code)))


@bp.get("/e/<code>/screen/live")
def screen_live(code: str):
    return render_template("display/_live.html", **_screen_context(event_by_code(code)))
