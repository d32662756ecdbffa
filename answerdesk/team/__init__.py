"""Pages a team opens on its phones: join, then the answer sheet."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, url_for

from ..core import formats
from ..core.events import event_by_code

bp = Blueprint("team", __name__)


@bp.get("/e/<code>")
def join(code: str):
    event = event_by_code(code)
    own = formats.of(event).team_page
    if own:  # the browser keeps the link's fragment (#token=…) across the redirect
        return redirect(url_for(own, code=event.code))
    return render_template("team/join.html", event=event, size=formats.of(event).team_size)


@bp.get("/e/<code>/sheet")
def sheet(code: str):
    """The team's phone page: core's answer sheet, or the page the event's format names."""
    event = event_by_code(code)
    own = formats.of(event).team_page
    if own:
        return redirect(url_for(own, code=event.code))
    return render_template(formats.of(event).phone_template or "team/sheet.html", event=event)


@bp.get("/sw.js")
def service_worker():
    """The sheet's offline cache (static/sw.js), served from the root so that it
    may answer for the pages under /e/."""
    response = current_app.send_static_file("sw.js")
    response.headers["Cache-Control"] = "no-cache"
    return response
