"""Browser hardening and rate limits: what an attacker at the venue meets first.

Headers (Flask-Talisman): a Content-Security-Policy that allows only our own
scripts, so no inline script or handler can ever run; no framing; nosniff; a
strict referrer policy. HTTPS is not forced: a venue laptop serves phones over
plain HTTP on the local Wi-Fi (set SESSION_COOKIE_SECURE=1 behind TLS).

Rate limits (Flask-Limiter) slow down name squatting on join and guessing of
the host password (login form and the host API's Bearer password). Counters
live in RATELIMIT_STORAGE_URI; the default, ``memory://``, is per gunicorn
worker, so with W workers an address gets at most W times the limit. Point it
at a shared store (e.g. ``redis://``) for exact counts across workers.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, current_app, jsonify, render_template, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_talisman import Talisman

from .access import has_host_session
from .errors import DeskError, NotFound
from .extensions import csrf

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

JOIN_LIMIT = "30 per minute"
LOGIN_LIMIT = "10 per minute"
HOST_API_FAILURE_LIMIT = "20 per minute"
HOST_API_ENDPOINTS = ("api.open_round", "api.close_round", "api.reveal_round")
MAX_PHONE_BODY = 64 * 1024
MAX_DB_INT = 2**31 - 1


class TooLarge(DeskError):
    status = 413
    code = "too_large"


class RateLimited(DeskError):
    status = 429
    code = "rate_limited"


class _Talisman(Talisman):
    """Flask-Talisman, building the Content-Security-Policy header once instead of on every
    response: the policy is the same for every view and has no nonce."""

    _csp_header: str | None = None

    def _parse_policy(self, policy: Any) -> str:
        if policy is not self.content_security_policy or self.content_security_policy_nonce_in:
            return super()._parse_policy(policy)
        if self._csp_header is None:
            self._csp_header = super()._parse_policy(policy)
        return self._csp_header


def _env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "false", "no", "off", "")


def init_security(app: Flask) -> None:
    """Install the headers and the limits on one app (each app gets its own limiter)."""
    app.config.setdefault("RATELIMIT_ENABLED", _env_flag("RATELIMIT_ENABLED", not app.testing))
    app.config.setdefault(
        "RATELIMIT_STORAGE_URI", os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
    )
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    secure_cookie = _env_flag("SESSION_COOKIE_SECURE", False)
    _Talisman(
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
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["answerdesk_limiter"] = limiter  # the limiter keeps only weak refs
    _limit(app, limiter, "api.join", JOIN_LIMIT)
    _limit(app, limiter, "host.login", LOGIN_LIMIT, methods=["POST"])
    for endpoint in HOST_API_ENDPOINTS:
        _limit(app, limiter, endpoint, HOST_API_FAILURE_LIMIT,
               deduct_when=lambda response: response.status_code == 401)
    app.before_request(_phone_bodies_are_small)
    app.before_request(_numbers_fit_the_database)
    app.before_request(_host_api_session_needs_csrf)
    app.after_request(_no_store_private)
    app.register_error_handler(429, _too_many)


def _limit(app: Flask, limiter: Limiter, endpoint: str, limit: str, **options: Any) -> None:
    app.view_functions[endpoint] = limiter.limit(limit, **options)(app.view_functions[endpoint])


def _phone_bodies_are_small() -> None:
    """A phone sends a name or an answer; refuse megabytes before they are parsed."""
    if request.path.startswith("/api/events/") and (request.content_length or 0) > MAX_PHONE_BODY:
        raise TooLarge("The request is too large: at most %(kb)s KB", kb=MAX_PHONE_BODY // 1024)


def _numbers_fit_the_database() -> None:
    """Round 2147483648 does not exist; PostgreSQL would fail on it instead of saying so."""
    for value in (request.view_args or {}).values():
        if isinstance(value, int) and not 0 <= value <= MAX_DB_INT:
            raise NotFound("No such resource")


def _host_api_session_needs_csrf() -> None:
    """The host API also accepts the host's login cookie; then it needs the CSRF token,
    or any page could make the host's browser close a round."""
    if (
        request.path.startswith("/api/host/")
        and request.method not in ("GET", "HEAD", "OPTIONS")
        and "Authorization" not in request.headers
        and has_host_session()
        and current_app.config.get("WTF_CSRF_ENABLED", True)
    ):
        csrf.protect()


def _no_store_private(response):
    """Team sheets and host pages must not linger in a shared phone's or proxy's cache."""
    if request.path.startswith(("/api/", "/host/")) and request.path != "/api/openapi.json":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def _too_many(error: Exception):
    refusal = RateLimited("Too many attempts: wait a minute and try again.")
    if request.path.startswith("/api/"):
        response = jsonify(refusal.to_json())
    else:
        response = render_template("error.html", error=refusal)
    return response, 429
