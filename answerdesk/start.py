"""The start page `/`: the organiser logs in, sees the events and creates one (issue 14 §1).

A new host password is shown once, and never stored in the session cookie: the form
that made the event answers with a redirect (POST-redirect-GET, so a refresh creates
nothing) to the event's page, the password in the address's fragment, which the
browser never sends back; the page's script shows it and drops it from the address.
The organiser can reset it (shown once again).
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from flask import Blueprint, redirect, render_template, request, url_for

from . import i18n
from .access import organiser_log_in, organiser_log_out, organiser_logged_in
from .core import organiser
from .core.events import event_by_code
from .errors import DeskError
from .packs.translated import say

bp = Blueprint("start", __name__)


def _page(status: int = 200, **context):
    if not organiser_logged_in():
        return render_template("start/login.html", **context), status
    return render_template(
        "start/index.html", events=organiser.all_events(), formats=organiser.format_choices(),
        languages=i18n.LANGUAGE_NAMES, form=request.form, base=request.url_root.rstrip("/"),
        say=say,
        **context,
    ), status


@bp.get("/")
def index():
    return _page()


@bp.post("/login")
def login():
    if organiser_log_in(request.form.get("password")):
        return redirect(url_for("start.index"))
    return _page(401, error=True)


@bp.post("/logout")
def logout():
    organiser_log_out()
    return redirect(url_for("start.index"))


@bp.post("/events")
def create():
    if not organiser_logged_in():
        return _page(401)
    form = request.form
    upload = request.files.get("pack")
    filename = None
    try:
        pack = None
        if upload is not None and upload.filename:
            filename = upload.filename.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
            pack = organiser.read_pack(upload.read(), filename)
        event, password = organiser.create_new_event(
            form.get("name"), form.get("format"), form.get("date"), form.get("screen_locale"),
            pack, actor="organiser")
    except DeskError as err:
        return _page(400, problem=err.message, pack_name=filename)
    return redirect(url_for("start.created", code=event.code) + "#" + urlencode(
        {"password": password}, quote_via=quote), 303)


@bp.get("/events/<code>/created")
def created(code: str):
    """The new event: its links, the import's warnings, the password (from the fragment)."""
    if not organiser_logged_in():
        return _page(401)
    event = event_by_code(code)
    return _page(created=event, warnings=organiser.import_warnings(event))


@bp.post("/events/<code>/host-password")
def reset_password(code: str):
    if not organiser_logged_in():
        return _page(401)
    event = event_by_code(code)
    return _page(200, shown=(event, organiser.reset_host_password(event)), reset=True)
