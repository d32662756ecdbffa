"""Lean routes: the phone's save, state poll and sheet reread served below Flask's
request machinery (issue 33).

While a round is open every phone of a team saves as its thumb pauses, polls the
round states every 3 s and rereads what its teammates changed every 10 s: at 300
teams x 3 phones these are nearly all of the night's requests. Measured in one
process, Flask's part of a save (request and application contexts, URL matching,
the request hooks, the Response object) cost about as much CPU as the save itself:
694 µs a save through Flask, 449 µs here (bench/README.md, "Lean routes").

A lean route serves the plain case of such a request with the same service as its
Flask view (api/__init__.py's ``save_reply``; sheets' ``plain_state_by_code``, the
state of a format without one of its own, and ``changes_by_token``), answering the
same bytes with the same headers (tests/test_lean_routes.py holds them equal), and
hands everything else to Flask
untouched: another method or query, a body that is not plain JSON within the phone's
size limit, a path Flask's converters would read otherwise, a reread that needs the
whole sheet. What Flask's hooks do for these endpoints is done here: a request slot
is taken (slots.py), the security headers and ``Cache-Control: no-store`` are sent
(security.py), and what the request flushed is committed (web.end_transaction);
none is rate-limited (``install`` checks) or needs a CSRF token (the
API's blueprint is exempt). A refusal or a failure is answered by Flask's own error
handlers, in a request context made for it, so it reads, is translated and is
logged as anywhere else.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask, current_app, has_app_context

from .access import bearer_token
from .api import save_reply
from .core.sheets import changes_by_token, plain_state_by_code
from .security import MAX_PHONE_BODY, lean_response_headers
from .slots import slot
from .web import checked_json, end_transaction

Reply = Callable[[re.Match[str], str, Any, str | None], Any]
StartResponse = Callable[..., Any]

_CODE = r"(?P<code>[A-Za-z0-9]{1,32})"
_NUMBER = r"[0-9]{1,9}"  # below 2**31: every value fits the database (security.py)


@dataclass(frozen=True)
class LeanRoute:
    """One Flask endpoint's plain case: its method, its path and the query strings it
    serves (None: its reply reads the query, and hands over what it does not know)."""

    endpoint: str
    method: str
    path: re.Pattern[str]
    queries: frozenset[str] | None
    has_body: bool
    reply: Reply


class HandOver(Exception):
    """Raised by a lean reply that changed nothing: Flask answers this request whole."""


def _save(match: re.Match[str], query: str, body: Any, token: str | None) -> Any:
    return save_reply(match["code"], token, int(match["round"]), int(match["question"]), body,
                      with_state=query == "with=state")


def _state(match: re.Match[str], _query: str, _body: Any, _token: str | None) -> Any:
    """GET /state (api.state) of a format without a public state of its own."""
    state = plain_state_by_code(match["code"])
    if state is None:
        raise HandOver
    return state


def _sheet_changes(match: re.Match[str], query: str, _body: Any, token: str | None) -> Any:
    """The 10-second reread of a phone that holds its sheet (api.sheet's first case);
    the whole sheet, and any other query, is Flask's."""
    asked = parse_qsl(query, keep_blank_values=True)
    if sorted(name for name, _value in asked) != ["since", "version"]:
        raise HandOver
    values = dict(asked)
    changes = changes_by_token(match["code"], token, values["since"], values["version"])
    if changes is None:
        raise HandOver
    return changes


ROUTES = (
    LeanRoute("api.save_answer", "PUT",
              re.compile(rf"/api/events/{_CODE}/answers/(?P<round>{_NUMBER})"
                         rf"/(?P<question>{_NUMBER})"),
              frozenset({"", "with=state"}), True, _save),
    LeanRoute("api.state", "GET", re.compile(rf"/api/events/{_CODE}/state"),
              frozenset({""}), False, _state),
    LeanRoute("api.sheet", "GET", re.compile(rf"/api/events/{_CODE}/sheet"),
              None, False, _sheet_changes),
)


class LeanRoutes:
    """The WSGI app in front of Flask's: a lean route's request is served here, any
    other goes to ``inner`` (Flask's own wsgi_app) unchanged."""

    def __init__(self, app: Flask, inner: Callable[[dict[str, Any], StartResponse],
                                                   Iterable[bytes]]) -> None:
        self.app = app
        self.inner = inner
        self.served = 0  # requests answered here (tests look)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        found = _match(environ)
        if found is None:
            return self.inner(environ, start_response)
        route, match = found
        body: Any = None
        if route.has_body:
            raw = _body(environ)
            if raw is None:
                return self.inner(environ, start_response)
            environ["wsgi.input"] = io.BytesIO(raw)  # whoever answers can read it again
            try:
                body = json.loads(raw)
            except (ValueError, RecursionError):
                return self.inner(environ, start_response)  # Flask says what is wrong with it
        app = self.app
        context = None if _in_app_context(app) else app.app_context()
        if context is not None:
            context.push()
        try:
            try:
                with slot():
                    reply = route.reply(match, environ.get("QUERY_STRING", ""),
                                        checked_json(body) if route.has_body else None,
                                        bearer_token(environ.get("HTTP_AUTHORIZATION", "")))
                    # The boundary commits what a read flushed (OpenQuiz's state
                    # settles a timer that ran out), as Flask's after-request does.
                    end_transaction(200)
            except HandOver:
                reply = HandOver
            except Exception as error:  # noqa: BLE001 - Flask's handlers answer it
                return self._failed(environ, start_response, error)
            if reply is not HandOver:
                payload = json.dumps(reply, ensure_ascii=False, separators=(",", ":")).encode()
                secure = (environ.get("wsgi.url_scheme") == "https"
                          or environ.get("HTTP_X_FORWARDED_PROTO") == "https")
                start_response("200 OK", [
                    ("Content-Type", "application/json"),
                    ("Content-Length", str(len(payload))),
                    *lean_response_headers(app, secure),
                ])
                self.served += 1
                return [payload]
        finally:
            if context is not None:
                context.pop()
        return self.inner(environ, start_response)

    def _failed(self, environ: dict[str, Any], start_response: StartResponse,
                error: Exception) -> Iterable[bytes]:
        """Answer a refusal or a failure as Flask's wsgi_app would have, hooks after the
        view included (the request's own before-request hooks had nothing to refuse)."""
        environ["wsgi.input"].seek(0)
        app = self.app
        context = app.request_context(environ)
        context.push()
        try:
            try:
                response = app.finalize_request(app.handle_user_exception(error))
            except Exception as unhandled:  # noqa: BLE001 - a 500, logged as Flask logs it
                response = app.handle_exception(unhandled)
            return response(environ, start_response)
        finally:
            context.pop()


def _match(environ: dict[str, Any]) -> tuple[LeanRoute, re.Match[str]] | None:
    method, path = environ.get("REQUEST_METHOD"), environ.get("PATH_INFO", "")
    if not path.startswith("/api/events/"):
        return None
    for route in ROUTES:
        if route.method == method and (route.queries is None
                                       or environ.get("QUERY_STRING", "") in route.queries):
            match = route.path.fullmatch(path)
            if match is not None:
                return route, match
    return None


def _body(environ: dict[str, Any]) -> bytes | None:
    """The body of a plain JSON request within the phone's limit, else None."""
    kind = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        return None
    try:
        length = int(environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
    if not 0 < length <= MAX_PHONE_BODY:
        return None
    raw = environ["wsgi.input"].read(length)
    return raw if len(raw) == length else None


def _in_app_context(app: Flask) -> bool:
    """A caller (a test, a script) keeps ``app``'s context open: the request joins it,
    as Flask's request context does, and sees its Session's transaction."""
    return has_app_context() and current_app._get_current_object() is app  # type: ignore[attr-defined]


def install(app: Flask) -> None:
    """Serve the lean routes in front of ``app``'s own WSGI app. Each route's endpoint
    must exist and take no rate limit: a lean route runs no limiter. (Both are in the
    API's blueprint, which needs no CSRF token: tests/test_lean_routes.py.)"""
    limited: set[str] = app.extensions.get("answerdesk_limited", set())
    for route in ROUTES:
        if route.endpoint not in app.view_functions or route.endpoint in limited:
            raise RuntimeError(f"{route.endpoint} cannot be served lean")
    app.wsgi_app = LeanRoutes(app, app.wsgi_app)  # type: ignore[method-assign]
