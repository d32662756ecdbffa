"""Who may do what: every access decision of the web layer is taken here.

The instance's organiser proves the organiser password (ORGANISER_PASSWORD) at
the start page or as the Bearer token of POST /api/events, compared in constant
time. A host proves the event's host password once (the login form) and the browser
session remembers the event; an assistant the same with the assistant password
(the review queue only); the API takes the host password as a Bearer token.
The password checks themselves (hashes) live with the event (core.events,
core.assistants); this module decides what a request is allowed from them.

Every password check passes one rule (issue 31, finding 2): it runs before the
request's database transaction (a hash is read in a read-only transaction that
ends first, so scrypt never holds SQLite's write lock while phones wait to save),
and each address may get CREDENTIAL_LIMIT wrong passwords a minute over all
host, assistant and organiser routes; beyond that every check from it is refused
(429, Retry-After: the rest of the minute), the right password too, before any
hashing; under gunicorn the server's front refuses such requests itself, without
the app (checks_credential, serving.py). scrypt takes a core for 0.1-1 s, and a
burst of checks took both cores of a venue laptop from the phones' saves, so hashes
run in two lanes, each one hash at a time on the whole server: an address that has
given no wrong password this minute (a host logging in) hashes in the first lane, at
nice 10, so its login gets CPU however busy the night; an address that has, in the
idle lane, under SCHED_IDLE, on CPU the saves leave idle (the ten guesses a minute the
limit allows no longer compete with the saves). A check that cannot start within
HASHING_WAIT seconds is refused like one over the limit. A password found right is
remembered by the process (keyed by the secret), so a host API client sending it with
every call costs one hash.
"""

from __future__ import annotations

import fcntl
import hmac
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial, wraps
from pathlib import Path
from typing import Any

from flask import current_app, g, redirect, request, session, url_for
from flask_limiter.util import get_remote_address
from limits import parse

from .core.events import event_by_code, password_matches
from .database.readonly import read_only
from .errors import NotAllowed, RateLimited, Unauthorized
from .extensions import db
from .instance import write_private
from .keyed import keyed_hash
from .models import Event
from .niceness import idled, niced

HOST, ASSISTANT = "host", "assistant"

CREDENTIAL_LIMIT = "10 per minute"  # wrong passwords per address, all routes together
_CREDENTIAL_ITEM = parse(CREDENTIAL_LIMIT)
HASHING_WAIT = 2.0
_KNOWN_RIGHT: dict[bytes, None] = {}  # keyed (hash, password) pairs found right
KNOWN_RIGHT_KEPT = 256


def bearer_token(header: str | None = None) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header (this request's, unless
    given), if any."""
    if header is None:
        header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


_LOGIN_FORM = re.compile(r"/(?:host/[^/]+/)?login")


def checks_credential(method: str, path: str, authorization: str | None) -> bool:
    """Whether the app checks a password for this request, and so refuses it (a 429)
    when its address is over CREDENTIAL_LIMIT: the login forms (host, assistant,
    organiser), the organiser's ``POST /api/events``, and the host API when a Bearer is
    sent (api_host). The server's front (serving.py) refuses such requests itself,
    without the app (security.early_refusal); it must never refuse what the app takes."""
    if method == "POST" and (path == "/api/events" or _LOGIN_FORM.fullmatch(path)):
        return True
    return (path.startswith("/api/host/") and method != "OPTIONS"
            and bearer_token(authorization or "") is not None)


def _credential_counter() -> tuple[Any, str] | None:
    """The rate limiter's counter and this request's address, when limits are on."""
    limiter = current_app.extensions.get("answerdesk_limiter")
    if limiter is None or not limiter.enabled:
        return None
    return limiter.limiter, get_remote_address()


def credential_limit_ends(limiter: Any, address: str) -> float | None:
    """When the address's CREDENTIAL_LIMIT window ends (a Unix time), if the address is
    over the limit; None if it is not, or limits are off. Needs no request: the server's
    front asks it (security.early_refusal)."""
    if not limiter.enabled:
        return None
    return _window_end(limiter.limiter, address)


def _window_end(strategy: Any, address: str) -> float | None:
    if strategy.test(_CREDENTIAL_ITEM, "credentials", address):
        return None
    return float(strategy.get_window_stats(_CREDENTIAL_ITEM, "credentials",
                                           address).reset_time)


def _refuse_if_over(counter: tuple[Any, str] | None) -> None:
    """A 429 for an address over CREDENTIAL_LIMIT, with Retry-After: the seconds left in
    its minute (the server's front says the same: security.early_refusal)."""
    ends = None if counter is None else _window_end(*counter)
    if ends is not None:
        refusal = RateLimited("Too many attempts: wait a minute and try again.")
        refusal.retry_after = max(1, int(ends - time.time() + 0.999))
        raise refusal


def refuse_over_credential_limit() -> None:
    """Refuse (429) an address over CREDENTIAL_LIMIT before anything else is done for its
    request: no read of the event, no transaction, only the counter's look-up."""
    _refuse_if_over(_credential_counter())


def checked_credential(check: Callable[[], bool]) -> bool:
    """Run one password check under the rule (module docstring): refused up front for an
    address over CREDENTIAL_LIMIT, counted when wrong. No transaction may be open: the
    caller read what it needs in a read-only block that has ended."""
    counter = _credential_counter()
    _refuse_if_over(counter)
    if db.session().in_transaction():
        db.session.rollback()  # nothing was written before a credential check
    right = check()
    if not right and counter is not None:
        counter[0].hit(_CREDENTIAL_ITEM, "credentials", counter[1])
    return right


# The two hashing lanes (module docstring): each an flock file in the instance folder, so
# at most one hash per lane on the whole server; each with one thread per process.
FIRST_LANE, IDLE_LANE = "credentials.lock", "credentials-idle.lock"
# The first lane's thread runs at this nice value (niceness.py): a host's login gets a
# share of the CPU however busy the phones keep it (a tenth of a request thread's share
# when both want the CPU).
HASHING_NICE = 10
_HASHERS: dict[tuple[int, str], ThreadPoolExecutor] = {}


def _hasher(lane: str) -> ThreadPoolExecutor:
    """This process's hashing thread for the lane (made after gunicorn's fork, which
    keeps no threads): the idle lane's under SCHED_IDLE, the first lane's at nice 10."""
    key = (os.getpid(), lane)
    if key not in _HASHERS:
        name = "password-idle" if lane == IDLE_LANE else "password-hash"
        start = idled(name) if lane == IDLE_LANE else niced(HASHING_NICE, name)
        _HASHERS[key] = ThreadPoolExecutor(1, name, initializer=start)
    return _HASHERS[key]


def _has_guessed(counter: tuple[Any, str] | None) -> bool:
    """Whether the address has given a wrong password in its current minute (the
    CREDENTIAL_LIMIT counter): its checks hash in the idle lane. False when limits are
    off. It says nothing of the password being checked, so the lane cannot tell a
    guesser whether a guess is right. Needs no request: the hashing thread asks it."""
    if counter is None:
        return False
    limiter, address = counter
    stats = limiter.get_window_stats(_CREDENTIAL_ITEM, "credentials", address)
    return bool(stats.remaining < _CREDENTIAL_ITEM.amount)


class _Turn:
    """A check's turn in a lane: taken by the hashing thread once it holds the lane, or
    given up by the waiting request at HASHING_WAIT; whichever comes first."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.taken = threading.Event()
        self._given_up = False

    def take(self) -> bool:
        with self._lock:
            if not self._given_up:
                self.taken.set()
            return not self._given_up

    def give_up(self) -> bool:
        """False if the turn was taken meanwhile: the request then waits for its result."""
        with self._lock:
            self._given_up = not self.taken.is_set()
            return self._given_up


def _take_turn(path: str, turn: _Turn, moved: Callable[[], bool] | None,
               password_hash: str, password: str) -> bool | None:
    """In the lane's hashing thread: wait for the lane's flock (blocked in the kernel,
    not polling: a polling thread took a worker's GIL from the saves 50 times a second),
    then hash, unless the request gave up or the check has ``moved`` to the idle lane
    meanwhile (None). The flock makes the lane one hash at a time over all workers."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        if not turn.take() or (moved is not None and moved()):
            return None
        return password_matches(password_hash, password)
    finally:
        os.close(descriptor)


def _in_lane(lane: str, password_hash: str, password: str, deadline: float,
             moved: Callable[[], bool] | None = None) -> bool | None:
    """One check in the lane: its result, None if it moved; a 429 if the lane is not
    free by ``deadline`` (time.monotonic)."""
    turn = _Turn()
    future = _hasher(lane).submit(_take_turn, os.path.join(current_app.instance_path, lane),
                                  turn, moved, password_hash, password)
    if not turn.taken.wait(max(0.0, deadline - time.monotonic())) and turn.give_up():
        future.cancel()
        raise RateLimited("Too many attempts: wait a minute and try again.")
    return future.result()


def _hashed(password_hash: str, password: str) -> bool:
    """One scrypt check in its lane: the first lane for an address with no wrong password
    this minute (looked at again once the lane is its: a burst of guesses waiting for it
    together gets one hash there, the rest move), else the idle lane."""
    deadline = time.monotonic() + HASHING_WAIT
    counter = _credential_counter()
    guessed = partial(_has_guessed, counter)
    if not guessed():
        right = _in_lane(FIRST_LANE, password_hash, password, deadline, guessed)
        if right is not None:
            return right
    return bool(_in_lane(IDLE_LANE, password_hash, password, deadline))


def right_password(password_hash: str | None, password: str | None) -> bool:
    """Whether ``password`` matches ``password_hash``: remembered when right, else one
    scrypt in one of the server's two hashing lanes."""
    if not password or not password_hash:
        return False
    known = keyed_hash(f"{password_hash}\0{password}")
    if known in _KNOWN_RIGHT:
        return True
    right = _hashed(password_hash, password)
    if right:
        if len(_KNOWN_RIGHT) >= KNOWN_RIGHT_KEPT:
            _KNOWN_RIGHT.pop(next(iter(_KNOWN_RIGHT)))
        _KNOWN_RIGHT[known] = None
    return right


def event_to_check(code: str) -> tuple[Event, str]:
    """The event by its code and its host password hash, read in a transaction that
    has ended when this returns: checking the hash holds no database lock."""
    with read_only():
        event = event_by_code(code)
        return event, event.host_password_hash


def check_organiser_password(given: str | None) -> bool:
    """The organiser password, compared in constant time (no timing hint to a guesser),
    under the credential rule."""
    expected = current_app.config.get("ORGANISER_PASSWORD") or ""

    def check() -> bool:
        return bool(given and expected and hmac.compare_digest(
            given.encode(), expected.encode()))

    return checked_credential(check)


def _organiser_generation(renew: bool = False) -> str:
    """The organiser's login generation, kept server-side in instance/organiser_session
    (read by every worker): logging out writes a new one, so every copy of an organiser
    cookie stops working, as a host's logout ends the host's (issue 31)."""
    path = Path(current_app.instance_path) / "organiser_session"
    if renew or not path.exists():
        write_private(path, secrets.token_hex(16))
    return path.read_text().strip()


def _organiser_fingerprint(renew: bool = False) -> str:
    """What the session keeps for the organiser: it changes with the organiser password
    and with every logout, so old sessions end with them; keyed by the secret, so the
    cookie tells nothing of either."""
    password = current_app.config["ORGANISER_PASSWORD"]
    return keyed_hash(f"{password}\0{_organiser_generation(renew)}").hex()


def organiser_log_in(password: str | None) -> bool:
    if not check_organiser_password(password):
        return False
    session["organiser"] = _organiser_fingerprint()
    return True


def organiser_log_out() -> None:
    """End this browser's organiser login and every copy of it."""
    if organiser_logged_in():
        _organiser_fingerprint(renew=True)
    session.pop("organiser", None)


def organiser_logged_in() -> bool:
    return hmac.compare_digest(session.get("organiser", ""), _organiser_fingerprint())


# The session keeps, per event id, [role, the event's login generation for that
# role, when the login ends]. Logging out or a new assistant password moves the
# generation on (models.Event), so every copy of the cookie stops working too.

def _generation(event: Event, role: str) -> int:
    return event.host_login_generation if role == HOST else event.assistant_login_generation


def desk_role(event: Event, entry: Any = None) -> str | None:
    """"host", "assistant" or None: this browser's login at the event, if it is of
    the role's current generation and has not expired."""
    if entry is None:
        entry = session.get("desk", {}).get(str(event.id))
    if not isinstance(entry, list) or len(entry) != 3:
        return None
    role, generation, expires = entry
    if role not in (HOST, ASSISTANT) or generation != _generation(event, role):
        return None
    return role if time.time() < expires else None


def host_logged_in(event: Event) -> bool:
    return desk_role(event) == HOST


def has_host_session() -> bool:
    """Whether this browser is logged in as the host of any event (CSRF then applies)."""
    return any(isinstance(entry, list) and entry[:1] == [HOST]
               for entry in session.get("desk", {}).values())


def log_in(event: Event, password: str | None) -> str | None:
    """Remember the role the password gives for the event in the session, with the
    role's login generation and an expiry (DESK_LOGIN_HOURS); None if no role."""
    host_hash, assistant_hash = event.host_password_hash, event.assistant_password_hash
    found: list[str] = []

    def check() -> bool:
        if right_password(host_hash, password):
            found.append(HOST)
        elif right_password(assistant_hash, password):
            found.append(ASSISTANT)
        return bool(found)

    if not checked_credential(check):
        return None
    role = found[0]
    expires = time.time() + current_app.config["DESK_LOGIN_HOURS"] * 3600
    logins = dict(session.get("desk", {}))
    logins[str(event.id)] = [role, _generation(event, role), int(expires)]
    session["desk"] = logins
    return role


def log_out(event: Event) -> None:
    """End this browser's login at the event and every copy of it: the role's
    generation moves on (so the host logs in again on every device)."""
    logins = dict(session.get("desk", {}))
    entry = logins.pop(str(event.id), None)
    session["desk"] = logins
    if entry and desk_role(event, entry) is not None:
        if entry[0] == HOST:
            event.host_login_generation = event.host_login_generation + 1
        else:
            event.assistant_login_generation = event.assistant_login_generation + 1
        db.session.flush()


def api_host(code: str) -> Event:
    """The event, if the request carries its host password, or else (no Bearer at all)
    a host session; a wrong Bearer password is refused even with a host cookie, and
    only a Bearer skips CSRF (security._host_api_session_needs_csrf)."""
    password = bearer_token()
    if password:
        refuse_over_credential_limit()
        event, host_hash = event_to_check(code)
        if checked_credential(lambda: right_password(host_hash, password)):
            return event
    elif host_logged_in(event := event_by_code(code)):
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
