"""Browser hardening and rate limits: what an attacker at the venue meets first.

Headers (Flask-Talisman): a Content-Security-Policy that allows only our own
scripts, so no inline script or handler can ever run; no framing; nosniff; a
strict referrer policy. HTTPS is not forced: a venue laptop serves phones over
plain HTTP on the local Wi-Fi (set SESSION_COOKIE_SECURE=1 behind TLS).

Rate limits (Flask-Limiter) slow down name squatting on join; guessing of the host,
assistant and organiser passwords meets one rule wherever a password is checked
(access.CREDENTIAL_LIMIT, counted in the same store). Counters
live in RATELIMIT_STORAGE_URI; the default, ``memory://``, is per gunicorn
worker, so with W workers an address gets at most W times the limit. Point it
at a shared store (e.g. ``redis://``) for exact counts across workers.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from flask import Flask, Request, Response, current_app, jsonify, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_talisman import Talisman
from werkzeug.datastructures import Headers
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.http import parse_list_header
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.utils import cached_property
from werkzeug.wrappers import Request as PlainRequest
from werkzeug.wsgi import LimitedStream

from . import ratestore
from .access import bearer_token, checks_credential, credential_limit_ends, has_host_session
from .errors import NotFound, RateLimited, TooLarge
from .extensions import csrf
from .i18n import choose_locale

CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

# Pack media served from our own origin (media.py): even a file a browser renders
# as a document may run nothing, load nothing, and is sandboxed (as GitHub serves
# raw files); pictures, sounds and videos embedded in our pages play as before.
MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

JOIN_LIMIT = "30 per minute"
# Every way in as a new team or player shares JOIN_LIMIT per address (issue 31: one
# address made all 12 OpenQuiz teams in 0.6 s).
JOIN_ENDPOINTS = ("api.join", "api.oq_join", "api.oq_join_player")
MAX_PHONE_BODY = 64 * 1024
MAX_BODY = 1024 * 1024  # a host's form, when MAX_CONTENT_LENGTH is not set
MAX_PACK_BODY = 201 * 1024 * 1024  # packs.MAX_PACK_BYTES and the form around it
MAX_DB_INT = 2**31 - 1


class _BoundedStream(LimitedStream):
    """A body without Content-Length, read up to ``bound`` bytes: one byte more is a
    413 (werkzeug's own stream stops there silently, and the truncated JSON would
    read as a mere 400)."""

    def __init__(self, stream: Any, bound: int) -> None:
        super().__init__(stream, bound + 1, is_max=True)
        self.bound = bound

    def readinto(self, buffer: Any) -> int | None:
        size = super().readinto(buffer)
        if self._pos > self.bound:
            raise RequestEntityTooLarge()
        return size


class DeskRequest(Request):
    """Bounds every request body by where it goes, whether it comes with a
    Content-Length or chunked: werkzeug stops reading the stream at the bound
    (gunicorn terminates its input, so the limit reaches chunked bodies too) and
    answers 413. A phone sends a name or an answer; only a pack upload is large."""

    @property
    def max_content_length(self) -> int | None:
        if self._max_content_length is not None:
            return self._max_content_length
        path = self.path
        if path.startswith("/api/events/"):
            return MAX_PHONE_BODY
        if path == "/events" or (path.startswith("/host/")
                                 and path.endswith("/programme/preview")):
            return MAX_PACK_BODY  # the organiser's form and the Programme page take a pack
        return current_app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value

    @cached_property
    def stream(self) -> Any:
        bound = self.max_content_length
        if (self.content_length is None and bound is not None
                and "wsgi.input_terminated" in self.environ):
            return _BoundedStream(self.environ["wsgi.input"], bound)
        return super().stream


class _Talisman(Talisman):
    """Flask-Talisman with its headers built once per scheme instead of on every
    response (issue 18). Its two before-request hooks only force HTTPS and make a
    nonce: without either (a venue serves plain HTTP; the policy has no nonce) they
    are not installed. A view with options of its own (``talisman(...)``: the media
    files' policy) gets Flask-Talisman's own per-response work; none of them may
    force HTTPS or ask for a nonce (tests/test_security.py)."""

    def init_app(self, app: Flask, **options: Any) -> None:
        super().init_app(app, **options)
        if self.force_https or self.content_security_policy_nonce_in:
            return
        hooks = app.before_request_funcs[None]
        hooks[:] = [hook for hook in hooks if getattr(hook, "__self__", None) is not self]
        if self.session_cookie_secure and not app.debug:
            app.config["SESSION_COOKIE_SECURE"] = True

    def _own_options(self, endpoint: str | None) -> bool:
        known: dict[str | None, bool] = self.__dict__.setdefault("_views", {})
        if endpoint not in known:
            view = current_app.view_functions.get(endpoint)  # type: ignore[arg-type]
            known[endpoint] = hasattr(view, "talisman_view_options")
        return known[endpoint]

    def headers(self, secure: bool) -> tuple[list[tuple[str, str]], set[str]]:
        """The headers of a view without options of its own, and their names in lower
        case, built once per scheme."""
        cache: dict[bool, tuple[list[tuple[str, str]], set[str]]] = self.__dict__.setdefault(
            "_headers", {})
        headers = cache.get(secure)
        if headers is None:
            probe = SimpleNamespace(headers=Headers())
            # A request of that scheme to no view: Flask-Talisman reads both from it.
            with current_app.test_request_context(
                    base_url="https://localhost" if secure else "http://localhost"):
                super()._set_response_headers(probe)
            headers = cache[secure] = (list(probe.headers.items()),
                                       {k.lower() for k in probe.headers.keys()})
        return headers

    def _set_response_headers(self, response: Any) -> Any:
        req = request._get_current_object()  # type: ignore[attr-defined]
        if self.content_security_policy_nonce_in or self._own_options(req.endpoint):
            return super()._set_response_headers(response)
        secure = req.is_secure or req.environ.get("HTTP_X_FORWARDED_PROTO") == "https"
        pairs, names = self.headers(secure)
        if any(name.lower() in names for name, _ in response.headers):
            return super()._set_response_headers(response)  # replaced, as Flask-Talisman does
        # Werkzeug's Headers keeps (name, value) pairs in ``_list``; these were checked
        # by Headers.add when built: appending them saves it re-checking every value
        # on every response (issue 18).
        response.headers._list.extend(pairs)
        return response


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session without per-request work for requests that carry no
    session cookie (a phone's API calls): no signer built, nothing to save. The signer
    is built once per key."""

    _signer: tuple[tuple[Any, ...], Any] | None = None

    def get_signing_serializer(self, app: Flask) -> Any:
        keys = (app.secret_key, *(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        if self._signer is None or self._signer[0] != keys:
            self._signer = (keys, super().get_signing_serializer(app))
        return self._signer[1]

    def open_session(self, app: Flask, request: Any) -> Any:
        if "HTTP_COOKIE" not in request.environ or not request.cookies.get(
                self.get_cookie_name(app)):
            return self.session_class() if app.secret_key else None
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: Any, response: Any) -> None:
        if session or session.modified or session.accessed:
            super().save_session(app, session, response)


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "false", "no", "off", "")


def init_security(app: Flask) -> None:
    """Install the headers and the limits on one app (each app gets its own limiter)."""
    app.config.setdefault("RATELIMIT_ENABLED", _env_flag("RATELIMIT_ENABLED", not app.testing))
    # One count per address across every worker (ratestore.py), not one per process.
    app.config.setdefault(
        "RATELIMIT_STORAGE_URI",
        os.environ.get("RATELIMIT_STORAGE_URI") or ratestore.default_uri(app.instance_path),
    )
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    secure_cookie = _env_flag("SESSION_COOKIE_SECURE", False)
    proxies = int(app.config.get("PROXY_COUNT", os.environ.get("PROXY_COUNT", "0")))
    talisman = _Talisman(
        app,
        force_https=False,
        strict_transport_security=secure_cookie,
        session_cookie_secure=secure_cookie,
        session_cookie_http_only=True,
        frame_options="DENY",
        content_security_policy=CSP,
        referrer_policy="same-origin",
        permissions_policy={"geolocation": "()", "camera": "()", "microphone": "()"},
    )
    app.extensions["answerdesk_talisman"] = talisman
    app.view_functions["media.serve"] = talisman(content_security_policy=MEDIA_CSP)(
        app.view_functions["media.serve"])
    # The desk previews the projector in a frame (issue 19): our own pages only.
    app.view_functions["display.screen"] = talisman(
        frame_options="SAMEORIGIN",
        content_security_policy={**CSP, "frame-ancestors": "'self'"})(
        app.view_functions["display.screen"])
    app.session_interface = _SessionInterface()
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["answerdesk_limiter"] = limiter  # the limiter keeps only weak refs
    app.extensions["answerdesk_limited"] = set()
    _limits_only_where_set(app, limiter)
    joins = limiter.shared_limit(JOIN_LIMIT, scope="join")
    for endpoint in JOIN_ENDPOINTS:
        if endpoint in app.view_functions:
            # flask-limiter's overloads type a decorated RouteCallable as an async view
            app.view_functions[endpoint] = joins(  # type: ignore[assignment]
                app.view_functions[endpoint])
            app.extensions["answerdesk_limited"].add(endpoint)
    app.extensions["answerdesk_early_refusal"] = partial(early_refusal, app, proxies)
    app.request_class = DeskRequest
    app.before_request(_view_args_fit_the_database)
    app.before_request(_host_api_session_needs_csrf)
    app.after_request(_no_store_private)
    app.register_error_handler(429, _too_many)
    app.register_error_handler(RequestEntityTooLarge, _too_large)


def _limit(app: Flask, limiter: Limiter, endpoint: str, limit: str, **options: Any) -> None:
    # flask-limiter's overloads type a decorated RouteCallable as an async view
    app.view_functions[endpoint] = limiter.limit(  # type: ignore[assignment]
        limit, **options)(app.view_functions[endpoint])
    app.extensions["answerdesk_limited"].add(endpoint)


def _limits_only_where_set(app: Flask, limiter: Limiter) -> None:
    """Flask-Limiter looks for limits, counts and cleans up on every request (15% of a
    save's CPU, issue 18). With no default, application-wide or meta limit configured,
    only the endpoints given a limit by ``_limit`` have anything to look for: its hooks
    run for those alone."""
    if any(app.config.get(name) for name in
           ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META")):
        return
    limited: set[str] = app.extensions["answerdesk_limited"]

    def owned(hook: Any) -> bool:
        return getattr(hook, "__self__", None) is limiter or (
            isinstance(hook, partial) and hook.args[:1] == (limiter,))

    def before(hook: Any) -> Any:
        return lambda: hook() if request.endpoint in limited else None

    def after(hook: Any) -> Any:
        return lambda response: hook(response) if request.endpoint in limited else response

    def teardown(hook: Any) -> Any:
        return lambda error=None: hook(error) if request.endpoint in limited else None

    def guarded(funcs: dict[Any, list[Any]], guard: Callable[[Any], Any]) -> None:
        funcs[None] = [guard(f) if owned(f) else f for f in funcs.get(None, [])]

    guarded(app.before_request_funcs, before)
    guarded(app.after_request_funcs, after)
    guarded(app.teardown_request_funcs, teardown)


def trust_proxies(app: Flask) -> None:
    """Behind a reverse proxy (PROXY_COUNT, docs/security.md): the client's address and
    scheme come from the last PROXY_COUNT X-Forwarded-* entries, so that rate limits
    count each phone, not the proxy. Never set it without a proxy in front: anyone
    could then choose their address. Installed last, in front of every other WSGI
    layer (lean_routes.py), so that all of them see the client's address."""
    proxies = int(app.config.get("PROXY_COUNT", os.environ.get("PROXY_COUNT", "0")))
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,  # type: ignore[method-assign]
                                x_host=proxies)


def _view_args_fit_the_database() -> None:
    """Round 2147483648 and an event code with a NUL byte do not exist; PostgreSQL
    would fail on them (integer out of range; text cannot hold NUL) instead of saying so."""
    for value in (request.view_args or {}).values():
        if (isinstance(value, int) and not 0 <= value <= MAX_DB_INT) or (
                isinstance(value, str) and "\x00" in value):
            raise NotFound("No such resource")


def _host_api_session_needs_csrf() -> None:
    """The host API also accepts the host's login cookie; then it needs the CSRF token,
    or any page could make the host's browser close a round. Only a Bearer password
    goes without: web.api_host then checks that password and never falls back to the
    cookie, so any other Authorization header (Basic …) or a wrong Bearer gains nothing."""
    if (
        request.path.startswith("/api/host/")
        and request.method not in ("GET", "HEAD", "OPTIONS")
        and bearer_token() is None
        and has_host_session()
        and current_app.config.get("WTF_CSRF_ENABLED", True)
    ):
        csrf.protect()


def lean_response_headers(app: Flask, secure: bool) -> list[tuple[str, str]]:
    """What the after-request hooks add to an API view's reply (Flask-Talisman's
    headers, then ``_no_store_private``'s), for lean_routes.py, which runs no hooks."""
    pairs, _names = app.extensions["answerdesk_talisman"].headers(secure)
    return [*pairs, ("Cache-Control", "no-store")]


def _no_store_private(response):
    """Team sheets and host pages must not linger in a shared phone's or proxy's cache."""
    path = request.path
    if path.startswith(("/api/", "/host/")) and path != "/api/openapi.json":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def _too_large(error: Exception):
    """Werkzeug's 413 (DeskRequest's bound), said like any refusal."""
    refusal = TooLarge("The request is too large: at most %(kb)s KB",
                       kb=(request.max_content_length or 0) // 1024)
    if request.path.startswith("/api/"):
        return jsonify(refusal.to_json()), 413
    return render_template("error.html", error=refusal), 413


def _too_many(error: Exception):
    """A limit's 429, with Retry-After: the seconds until its window ends, which the
    phones wait before sending the same request again (static/phone.js)."""
    return _too_many_body(), 429, {"Retry-After": str(_seconds_to_reset())}


def _too_many_body() -> Response | str:
    refusal = RateLimited("Too many attempts: wait a minute and try again.")
    if request.path.startswith("/api/"):
        return jsonify(refusal.to_json())
    return render_template("error.html", error=refusal)


def _seconds_to_reset() -> int:
    """Whole seconds until the breached limit's window ends: at least 1, and a minute
    when the limiter cannot say (its storage unreadable)."""
    try:
        limit = current_app.extensions["answerdesk_limiter"].current_limit
        if limit is not None:
            return max(1, limit.reset_at - int(time.time()))
    except Exception:  # noqa: BLE001 - a header must not turn a refusal into a 500
        current_app.logger.warning("no reset time for a 429", exc_info=True)
    return 60


# -- the server's front: a refusal without the app (issue 31, finding 2) ----------------

class EarlyRefusal(NamedTuple):
    """A 429 the server's front sends itself: its header lines (without Content-Length
    and Retry-After), its body, and when the address's window ends (Unix time)."""

    headers: list[tuple[str, str]]
    body: bytes
    ends_at: float


#: (API or page, language) -> the refusal's header lines and body, made once per process
_EARLY_BODIES: dict[tuple[bool, str], tuple[list[tuple[str, str]], bytes]] = {}
_EARLY_LOCK = threading.Lock()
_WANTED = {b"authorization": "HTTP_AUTHORIZATION", b"x-forwarded-for": "HTTP_X_FORWARDED_FOR",
           b"accept-language": "HTTP_ACCEPT_LANGUAGE", b"cookie": "HTTP_COOKIE"}


def early_refusal(app: Flask, proxies: int, head: bytes, peer: str) -> EarlyRefusal | None:
    """The 429 for a request that checks a password (access.checks_credential) from an
    address over access.CREDENTIAL_LIMIT, which the app would refuse in the same words;
    else None, and the app serves the request. Called by the server's front
    (serving.BufferingWorker) with the request's header block, in no request context:
    a flood of such requests then costs a look at the counter, not a Flask request
    (bench/credential_bench.py). The address is the one the limits count
    (X-Forwarded-For as ProxyFix reads it with PROXY_COUNT)."""
    line, _, rest = head.partition(b"\r\n")
    parts = line.split(b" ")
    if len(parts) != 3:
        return None
    method, target = parts[0].decode("latin-1"), parts[1].decode("latin-1")
    if not target.startswith("/"):
        try:
            split = urlsplit(target)  # absolute form (a proxy's request)
        except ValueError:
            return None  # gunicorn's parser answers it
        target = (split.path or "/") + (f"?{split.query}" if split.query else "")
    path, _, query = target.partition("?")
    if "%" in path:
        path = unquote(path, encoding="latin-1")  # as gunicorn makes PATH_INFO
    if not (path.startswith("/api/host/") or path == "/api/events" or path.endswith("/login")):
        return None  # a phone's save, page or poll: nothing more is read
    environ: dict[str, Any] = {"REQUEST_METHOD": method, "PATH_INFO": path,
                               "QUERY_STRING": query, "REMOTE_ADDR": peer or "127.0.0.1"}
    for header in rest.split(b"\r\n"):
        name, _, value = header.partition(b":")
        key = _WANTED.get(name.strip().lower())
        if key is not None:
            text = value.strip().decode("latin-1")
            environ[key] = f"{environ[key]},{text}" if key in environ else text
    if not checks_credential(method, path, environ.get("HTTP_AUTHORIZATION")):
        return None
    address = environ["REMOTE_ADDR"]
    if proxies:
        forwarded = parse_list_header(environ.get("HTTP_X_FORWARDED_FOR", ""))
        if len(forwarded) >= proxies and forwarded[-proxies]:
            address = forwarded[-proxies]
    limiter = app.extensions.get("answerdesk_limiter")
    try:
        ends_at = None if limiter is None else credential_limit_ends(limiter, address)
        if ends_at is None:
            return None
        headers, body = _early_body(app, path.startswith("/api/"),
                                    _early_locale(app, PlainRequest(environ)))
    except Exception:  # noqa: BLE001 - the app then answers (and logs) as it always does
        return None
    return EarlyRefusal(headers, b"" if method == "HEAD" else body, ends_at)


def _early_locale(app: Flask, plain: PlainRequest) -> str:
    """The language the app would answer this request in (answerdesk.select_locale; a
    login form or the host API is never a projector page)."""
    chosen = plain.args.get("lang")
    sessions = app.session_interface
    if chosen is None and plain.cookies.get(sessions.get_cookie_name(app)):
        opened = sessions.open_session(app, plain)  # type: ignore[arg-type]
        chosen = opened.get("lang") if opened is not None else None
    return choose_locale(app.config["LANGUAGES"], chosen, plain.accept_languages)


def _early_body(app: Flask, api: bool, locale: str) -> tuple[list[tuple[str, str]], bytes]:
    """The app's own 429 (_too_many's words, and every header the app adds to a
    response), made once per process for each kind and language."""
    key = (api, locale)
    made = _EARLY_BODIES.get(key)
    if made is None:
        with _EARLY_LOCK, app.test_request_context(
                "/api/host/" if api else "/host/-/login", method="POST",
                query_string={"lang": locale}):
            response = app.process_response(app.make_response(_too_many_body()))
            headers = [(k, v) for k, v in response.headers.items()
                       if k.lower() not in ("content-length", "set-cookie", "vary")]
            made = _EARLY_BODIES[key] = (headers, response.get_data())
    return made
