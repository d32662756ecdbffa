"""Settings read from the environment, so one code base serves a laptop and a cluster."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from .instance import secure_instance, write_private


def _default_database_url(instance_path: str) -> str:
    return "sqlite:///" + str(Path(instance_path) / "answerdesk.sqlite")


def _normalise_database_url(url: str) -> str:
    """Use psycopg 3 for PostgreSQL whatever spelling the operator chose."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _engine_options(url: str) -> dict[str, Any]:
    """Keep one open connection per server thread.

    SQLAlchemy's default pool keeps 5: with gunicorn's 16 threads the other 11
    opened and closed a connection per request (a new PostgreSQL backend each time:
    a save's p99 of 600 ms under bench/harness.py load). No ping on checkout (a
    round trip on every request): a connection PostgreSQL dropped fails one request,
    SQLAlchemy then replaces the whole pool, and phones resend what was not
    acknowledged; idle connections are renewed after 30 minutes. Last in, first
    out: requests get the few most recently returned connections, whose PostgreSQL
    backends have their caches warm and their statements prepared (psycopg prepares
    a statement on its fifth run on a connection), not the next of up to 48 in
    turn (gunicorn.conf.py's threads).
    """
    if url.startswith("sqlite") and (":memory:" in url or url.rstrip("/") == "sqlite:"):
        return {}
    return {
        "pool_size": int(os.environ.get("DATABASE_POOL_SIZE", "16")),
        "max_overflow": 16,
        "pool_recycle": 1800,
        "pool_use_lifo": True,
    }


def _secret_key(instance_path: str) -> str:
    """A stable secret per installation: sessions survive restarts and are shared by workers."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        write_private(path, secrets.token_hex(32))
    return path.read_text().strip()


def _organiser_password(instance_path: str) -> tuple[str, bool]:
    """The instance's organiser password and whether it was generated here: from
    ORGANISER_PASSWORD, else kept in instance/organiser_password (made on first use,
    so `make run` can print it to a newcomer)."""
    if os.environ.get("ORGANISER_PASSWORD"):
        return os.environ["ORGANISER_PASSWORD"], False
    path = Path(instance_path) / "organiser_password"
    if not path.exists():
        write_private(path, secrets.token_urlsafe(12))
    return path.read_text().strip(), True


def load_config(instance_path: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """Build the Flask config from DATABASE_URL, SECRET_KEY, ORGANISER_PASSWORD, HOST, PORT;
    ``overrides`` (from create_app's caller, e.g. the tests) win."""
    url = (
        overrides.get("SQLALCHEMY_DATABASE_URI")
        or os.environ.get("DATABASE_URL")
        or _default_database_url(instance_path)
    )
    secure_instance(instance_path, _normalise_database_url(url))
    settings: dict[str, Any] = {
        "SQLALCHEMY_DATABASE_URI": _normalise_database_url(url),
        "SECRET_KEY": overrides.get("SECRET_KEY") or _secret_key(instance_path),
        "HOST": os.environ.get("HOST", "127.0.0.1"),
        "PORT": int(os.environ.get("PORT", "5000")),
        "PUBLIC_URL": os.environ.get("PUBLIC_URL", ""),
        # Seconds the review page leaves a new answer to the live checker
        # (livecheck.py; gunicorn.conf.py runs one and sets 5); 0: it checks all.
        "LIVE_CHECK_WAIT": float(os.environ.get("LIVE_CHECK_WAIT", "0")),
        "BABEL_DEFAULT_LOCALE": "bg",
        "LANGUAGES": ("bg", "ru", "en"),
        "MAX_ANSWER_LENGTH": 500,
        "MAX_TEAM_NAME_LENGTH": 60,
        # More teams than any venue seats: a flood of joins stops here (issue 17).
        "MAX_TEAMS_PER_EVENT": int(os.environ.get("MAX_TEAMS_PER_EVENT", "300")),
        # Largest host form (security.DeskRequest bounds phones and pack uploads apart).
        "MAX_CONTENT_LENGTH": int(os.environ.get("MAX_CONTENT_LENGTH", str(1024 * 1024))),
        # A host's or assistant's login lasts one quiz night at most (access.desk_role).
        "DESK_LOGIN_HOURS": float(os.environ.get("DESK_LOGIN_HOURS", "12")),
        # How long a process keeps its read of an event's state for the polls that follow
        # (core/recent.py); 0: every poll reads the database.
        "STATE_CACHE_SECONDS": float(os.environ.get("STATE_CACHE_SECONDS", "0.5")),
        # Seconds a write waits for the database's lock (SQLite: in the writer queue and
        # again for SQLite's own lock; PostgreSQL: lock_timeout) before it is refused
        # with a 503 the phones resend (errors.Busy, docs/security.md).
        "DATABASE_LOCK_TIMEOUT": float(os.environ.get("DATABASE_LOCK_TIMEOUT", "5")),
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SQLALCHEMY_ENGINE_OPTIONS": _engine_options(url),
    }
    if not overrides.get("ORGANISER_PASSWORD"):
        password, generated = _organiser_password(instance_path)
        settings["ORGANISER_PASSWORD"] = password
        settings["ORGANISER_PASSWORD_GENERATED"] = generated
    settings.update(overrides)
    settings["SQLALCHEMY_DATABASE_URI"] = _normalise_database_url(
        settings["SQLALCHEMY_DATABASE_URI"]
    )
    return settings
