"""What every blueprint shares: the request's JSON, its team, and how refusals are shown
(who may do what is access.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Flask, jsonify, render_template, request

from .access import bearer_token
from .core.teams import TeamRef, event_and_team_by_token, team_ref_by_token
from .errors import DeskError
from .models import Event, Team


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
