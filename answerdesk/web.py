"""What every blueprint shares: the request's JSON, its team, and how refusals are shown
(who may do what is access.py)."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request

from .access import bearer_token
from .core.teams import TeamRef, event_and_team_by_token, team_ref_by_token
from .errors import DeskError
from .models import Event, Team


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a clear 400."""
    body = request.get_json(silent=True)
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
