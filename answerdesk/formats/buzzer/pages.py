"""The buzzer's pages: the phone (the lower half is the button) and the projector's view."""

from __future__ import annotations

from flask import render_template

from ...core.events import event_by_code
from ...team import bp


@bp.get("/e/<code>/buzzer")
def phone(code: str):
    return render_template("buzzer/phone.html", event=event_by_code(code), screen=False)


@bp.get("/e/<code>/buzzer/screen")
def screen(code: str):
    return render_template("buzzer/phone.html", event=event_by_code(code), screen=True)
