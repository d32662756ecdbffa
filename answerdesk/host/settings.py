"""The host's page of the event's own limits (BG-G2b) and invitation list (BG-M5)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..access import host_required
from ..core import limits
from ..errors import DeskError
from ..models import Event
from .blueprint import bp


def _page(event: Event, status: int = 200, **context):
    form = context.pop("form", None)
    values = form or {
        "max_players": "" if event.max_players is None else str(event.max_players),
        "handicaps": limits.handicaps_text(event),
        "invited": "".join(f"{name}\n" for name in event.invited or []),
        "appeals": {None: "", True: "yes", False: "no"}[event.appeals],
    }
    return render_template("host/settings.html", event=event, values=values,
                           handicaps=limits.team_handicaps(event), **context), status


@bp.get("/settings")
@host_required
def settings(event: Event):
    return _page(event)


@bp.post("/settings")
@host_required
def settings_save(event: Event):
    form = request.form
    try:
        limits.set_limits(event, max_players=form.get("max_players"),
                          handicaps=form.get("handicaps", ""), invited=form.get("invited", ""),
                          appeals=form.get("appeals", ""))
    except DeskError as err:
        return _page(event, err.status, problem=err.message, form=form)
    flash(_("Event settings saved"))
    return redirect(url_for("host.settings", code=event.code))
