"""What every blueprint shares: who is asking, and how refusals are shown."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import (
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from .core.events import check_host_password, event_by_code
from .core.teams import event_and_team_by_token
from .errors import DeskError, Unauthorized
from .models import Event, Team


class DeskFlask(Flask):
    """Flask, remembering which views and hooks are coroutines: Flask asks ``inspect``
    again for each of them on every request (10 hooks: 60 calls a request, issue 18).
    Views and hooks are registered once; what is made per request (after_this_request)
    is looked at as Flask does once the memory holds SYNC_KNOWN of them."""

    SYNC_KNOWN = 512

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        known: dict[Any, Callable[..., Any]] = self.__dict__.setdefault("_sync", {})
        sync = known.get(func)
        if sync is None:
            sync = super().ensure_sync(func)
            if len(known) < self.SYNC_KNOWN:
                known[func] = sync
        return sync


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a clear 400."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise DeskError("The request body must be a JSON object")
    return body


def json_response(payload: Any, status: int = 200) -> Response:
    """``payload`` as compact UTF-8 JSON: what jsonify sends, without its per-call
    look-ups, for the views a phone calls every few seconds (issue 18)."""
    return current_app.response_class(
        json.dumps(payload, ensure_ascii=False, separators=(",", ":")),
        status=status, mimetype="application/json",
    )


def api_team(code: str) -> tuple[Event, Team]:
    """The event and the team whose token came with this API request."""
    return event_and_team_by_token(code, bearer_token())


def api_host(code: str) -> Event:
    """The event, if the request carries its host password (or a host session)."""
    event = event_by_code(code)
    if check_host_password(event, bearer_token()) or host_logged_in(event):
        return event
    raise Unauthorized("The host password is required")


def host_logged_in(event: Event) -> bool:
    return event.id in session.get("host_events", [])


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
