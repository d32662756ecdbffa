"""The buzzer's pages: the phone (the lower half is the button) and the projector's view."""

from __future__ import annotations

from flask import render_template

from ...core.events import event_by_code
from ...core.formats import get as get_format
from ...team import bp


def _page(code: str, screen: bool) -> str:
    """The page with the part the event's game adds to it (its ``buzzer_part``: on the
    phone its controls, on the projector what they show)."""
    event = event_by_code(code)
    return render_template("buzzer/phone.html", event=event, screen=screen,
                           part=get_format(event.format).buzzer_part)


@bp.get("/e/<code>/buzzer")
def phone(code: str):
    return _page(code, False)


@bp.get("/e/<code>/buzzer/screen")
def screen(code: str):
    return _page(code, True)
