"""What every blueprint shares: who is asking, and how refusals are shown."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, redirect, render_template, request, session, url_for

from .core.events import check_host_password, event_by_code
from .core.teams import TeamRef, event_and_team_by_token, team_ref_by_token
from .errors import DeskError, Unauthorized
from .extensions import db
from .models import Event, Team


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def safe_next(target: str | None, default: str, prefix: str = "/") -> str:
    """Where a ``next=`` parameter may send the browser: a path on this site under
    ``prefix``, else ``default``. Browsers drop tabs and newlines from a URL and read
    a backslash as a slash, so "/\t/evil.example" would become "//evil.example", an
    address on another site; CR/LF would also break the Location header."""
    if (
        not target
        or not target.startswith(prefix)
        or target.startswith("//")
        or "\\" in target
        or any(ord(c) <= 0x20 or 0x7F <= ord(c) <= 0x9F for c in target)
    ):
        return default
    parts = urlsplit(target)
    return default if parts.scheme or parts.netloc else target


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a clear 400 (also for JSON nested so deeply
    that the parser gives up)."""
    try:
        body = request.get_json(silent=True)
    except RecursionError:
        raise DeskError("The request body is nested too deeply") from None
    if not isinstance(body, dict):
        raise DeskError("The request body must be a JSON object")
    return body


def api_team(code: str) -> tuple[Event, Team]:
    """The event and the team whose token came with this API request."""
    return event_and_team_by_token(code, bearer_token())


def api_team_ref(code: str, *, queue_for: int | None = None) -> TeamRef:
    """The team whose token came with this API request, as an answer save needs it."""
    return team_ref_by_token(code, bearer_token(), queue_for=queue_for)


def api_host(code: str) -> Event:
    """The event, if the request carries its host password, or else (no Bearer at all)
    a host session; a wrong Bearer password is refused even with a host cookie."""
    event = event_by_code(code)
    password = bearer_token()
    if check_host_password(event, password) if password else host_logged_in(event):
        return event
    raise Unauthorized("The host password is required")


DESK_ROLES = ("host", "assistant")


def _generation(event: Event, role: str) -> int:
    return event.host_login_generation if role == "host" else event.assistant_login_generation


def desk_login(event: Event, role: str) -> None:
    """Log this browser in to the event's desk as ``role``: the session keeps the
    role, the event's current login generation for it and when the login ends."""
    expires = time.time() + current_app.config["DESK_LOGIN_HOURS"] * 3600
    logins = dict(session.get("desk", {}))
    logins[str(event.id)] = [role, _generation(event, role), int(expires)]
    session["desk"] = logins


def desk_logout(event: Event) -> None:
    """End this browser's login and every copy of it: the role's generation moves on
    (the host's other devices log in again too), then commits."""
    logins = dict(session.get("desk", {}))
    entry = logins.pop(str(event.id), None)
    session["desk"] = logins
    if entry and desk_role(event, entry) is not None:
        revoke_desk_logins(event, entry[0])
        db.session.commit()


def revoke_desk_logins(event: Event, role: str) -> None:
    """Every existing login of ``role`` at this event stops working (the caller commits)."""
    if role == "host":
        event.host_login_generation = event.host_login_generation + 1
    else:
        event.assistant_login_generation = event.assistant_login_generation + 1


def desk_role(event: Event, entry: Any = None) -> str | None:
    """"host", "assistant" or None: this browser's login at the event, if it is of
    the current generation and has not expired."""
    if entry is None:
        entry = session.get("desk", {}).get(str(event.id))
    if not isinstance(entry, list) or len(entry) != 3:
        return None
    role, generation, expires = entry
    if role not in DESK_ROLES or generation != _generation(event, role):
        return None
    return role if time.time() < expires else None


def host_logged_in(event: Event) -> bool:
    return desk_role(event) == "host"


def host_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Host pages: the event is passed in, or the browser goes to the login form."""

    @wraps(view)
    def wrapped(code: str, **kwargs: Any) -> Any:
        event = event_by_code(code)
        if not host_logged_in(event):
            return redirect(url_for("host.login", code=event.code, next=request.path))
        return view(event, **kwargs)

    return wrapped


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(DeskError)
    def desk_error(error: DeskError):
        if request.path.startswith("/api/"):
            return jsonify(error.to_json()), error.status
        return render_template("error.html", error=error), error.status

    @app.errorhandler(404)
    def not_found(error: Exception):
        if request.path.startswith("/api/"):
            return jsonify({"error": "not_found", "message": "No such resource"}), 404
        return render_template("error.html", error=error), 404
