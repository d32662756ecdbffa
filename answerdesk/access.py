"""Who may do what: every access decision of the web layer is taken here.

A host proves the event's host password once (the login form) and the browser
session remembers the event; an assistant the same with the assistant password
(the review queue only); the API takes the host password as a Bearer token.
The password checks themselves (hashes) live with the event (core.events,
core.assistants); this module decides what a request is allowed from them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import g, redirect, request, session, url_for

from .core.assistants import check_assistant_password
from .core.events import check_host_password, event_by_code
from .errors import NotAllowed, Unauthorized
from .models import Event

HOST, ASSISTANT = "host", "assistant"
# The session key that lists the events a browser has logged in to, per role.
_SESSION_KEYS = {HOST: "host_events", ASSISTANT: "assistant_events"}


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def desk_role(event: Event) -> str | None:
    """"host", "assistant" or None for this browser session and event."""
    for role in (HOST, ASSISTANT):
        if event.id in session.get(_SESSION_KEYS[role], []):
            return role
    return None


def host_logged_in(event: Event) -> bool:
    return desk_role(event) == HOST


def has_host_session() -> bool:
    """Whether this browser is logged in as the host of any event (CSRF then applies)."""
    return bool(session.get(_SESSION_KEYS[HOST]))


def log_in(event: Event, password: str | None) -> str | None:
    """Remember the role the password gives for the event in the session; None if none."""
    if check_host_password(event, password):
        role = HOST
    elif check_assistant_password(event, password):
        role = ASSISTANT
    else:
        return None
    key = _SESSION_KEYS[role]
    session[key] = sorted({*session.get(key, []), event.id})
    return role


def log_out(event: Event) -> None:
    """Forget every role this browser had for the event."""
    for key in _SESSION_KEYS.values():
        session[key] = [e for e in session.get(key, []) if e != event.id]


def api_host(code: str) -> Event:
    """The event, if the request carries its host password (or a host session)."""
    event = event_by_code(code)
    if check_host_password(event, bearer_token()) or host_logged_in(event):
        return event
    raise Unauthorized("The host password is required")


def host_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Host pages: the event is passed in, or the browser goes to the login form."""

    @wraps(view)
    def wrapped(code: str, **kwargs: Any) -> Any:
        event = event_by_code(code)
        if not host_logged_in(event):
            return redirect(url_for("host.login", code=event.code, next=request.path))
        return view(event, **kwargs)

    return wrapped


def desk_required(host_only: bool = False) -> Callable:
    """Desk pages (host or assistant): the event is passed in; the role is in ``g.actor``."""

    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapped(code: str, **kwargs: Any) -> Any:
            event = event_by_code(code)
            role = desk_role(event)
            if role is None:
                return redirect(url_for("host.login", code=event.code, next=request.path))
            if host_only and role != HOST:
                raise NotAllowed("Only the host can do this")
            g.actor = role
            return view(event, **kwargs)

        return wrapped

    return decorator
