"""What every blueprint shares: the request's JSON, its team, and how refusals are shown
(who may do what is access.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, jsonify, render_template, request
from msgspec import Meta
from sqlalchemy.exc import DBAPIError

from .access import bearer_token
from .bodies import N_, B, Body, read
from .core.teams import event_and_team_by_token
from .core.text import is_valid_text
from .database.busy import is_busy
from .errors import Busy, DeskError, RateLimited
from .extensions import db
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


# No request the app answers nests deeper than this (a widget's fields: 4 levels).
MAX_JSON_DEPTH = 32


def _check_json(value: Any, field: str | None = None, depth: int = 1) -> None:
    """Refuse JSON nested beyond MAX_JSON_DEPTH, or holding a lone surrogate ("\\ud800",
    which no database stores) in any string or key: every view gets text it can keep.
    The refusal names the body's top-level field the bad text is in."""
    if isinstance(value, dict) and depth == 1 and field is None:
        for key, item in value.items():
            if not is_valid_text(key):
                raise DeskError("The request body is not valid text")
            _check_json(item, key, 2)
        return
    stack = [(value, depth)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not is_valid_text(item):
                if field is not None:
                    raise DeskError("%(field)s is not valid text", field=field)
                raise DeskError("The request body is not valid text")
        elif isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                raise DeskError("The request body is nested too deeply")
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


def request_json() -> Any:
    """The request's JSON (None when it is none), or a clear 400 for JSON nested too
    deeply (also where the parser itself gives up) or not valid text."""
    try:
        body = request.get_json(silent=True)
    except RecursionError:
        raise DeskError("The request body is nested too deeply") from None
    return checked_json(body)


def checked_json(body: Any) -> Any:
    """A parsed JSON body, refused (400) when nested too deeply or not valid text."""
    if isinstance(body, dict | list):
        _check_json(body)
    elif isinstance(body, str) and not is_valid_text(body):
        raise DeskError("The request body is not valid text")
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


#: A database integer: PostgreSQL refuses a larger one with an error, not a row.
DbInt = Annotated[int, Meta(ge=0, lt=2**31)]


class QuestionRef(Body):
    """A body that names a question by its round's and its own number."""

    round: DbInt
    question: DbInt

    messages = {"round": N_("round and question must be whole numbers."),
                "question": N_("round and question must be whole numbers.")}


def body_as(model: type[B]) -> B:
    """The request's JSON body read as ``model`` (answerdesk/bodies.py), or a clear 400."""
    return read(model, request_json())


def committed(action: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a service at the request boundary: commit what it flushed, or roll it back
    and let the refusal through."""
    try:
        result = action(*args, **kwargs)
    except Exception:
        db.session.rollback()
        raise
    db.session.commit()
    return result


def register_transaction(app: Flask) -> None:
    """The request owns the transaction: services flush, and what a request flushed is
    committed before its response leaves (rolled back when the response is a refusal or
    an error, status >= 400), so nothing acknowledged is lost and a refusal changes
    nothing. A request that never used the session (the phone's lean save commits its
    own, lean.py) costs nothing here. The few commits that stay inside a request are
    listed in docs/ARCHITECTURE.md (tests/test_transactions.py)."""

    @app.after_request
    def commit_or_roll_back(response: Response) -> Response:
        end_transaction(response.status_code)
        return response


def end_transaction(status: int) -> None:
    """The request boundary's end of its transaction (register_transaction): what the
    request flushed is committed, or rolled back for a refusal or an error."""
    if not db.session.registry.has():
        return
    session = db.session()
    if not session.in_transaction():
        return
    if status < 400:
        session.commit()
    else:
        session.rollback()


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(DeskError)
    def desk_error(error: DeskError):
        app.logger.info("refused %s %s %s: %s", request.method, request.path, error.status,
                        error.code)
        headers: dict[str, str] = {}
        if isinstance(error, Busy | RateLimited) and error.retry_after:
            headers["Retry-After"] = str(error.retry_after)
        if request.path.startswith("/api/"):  # every JSON route (formats' too) is here
            return jsonify(error.to_json()), error.status, headers
        return render_template("error.html", error=error), error.status, headers

    def database_error(error: Exception):
        """A write that waited too long for the database's lock, or lost a race
        (database.busy.is_busy): refused as busy, to be sent again; any other database error
        stays an error (a 500, logged with its traceback)."""
        if not is_busy(error):
            raise error
        db.session.rollback()
        return desk_error(Busy("The server is busy: nothing was changed. "
                               "Try again in a moment."))

    with app.app_context():  # the lean path (lean.py) raises the driver's own errors
        driver = db.engine.dialect.loaded_dbapi
    for kind in (DBAPIError, driver.OperationalError):
        app.register_error_handler(kind, database_error)

    @app.errorhandler(404)
    def not_found(error: Exception):
        if request.path.startswith("/api/"):
            return jsonify({"error": "not_found", "message": "No such resource"}), 404
        return render_template("error.html", error=error), 404
