"""The instance folder holds what only the server's own user may read (issue 31, finding 6):
the session key (a forged host cookie needs nothing else), the organiser password, the
demo's host password (demo.json), the SQLite database with its -wal and -shm, pack media
and uploads. The folder is 0700 and those files 0600, however they come to exist
(`make run`, the CLI, the tests); an instance made by an older version is tightened
when the app starts, with a log line per path.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

FOLDER_MODE = 0o700
FILE_MODE = 0o600
SECRETS = ("secret_key", "organiser_password", "organiser_session", "credentials.lock",
           "credentials-idle.lock", "demo.json")
SQLITE_SUFFIXES = ("", "-wal", "-shm", "-journal", "-writer", "-checkpoint")


def _tighten(path: Path, mode: int) -> None:
    """Take away from group and others what ``mode`` does not give them."""
    try:
        current = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if current & ~mode & 0o077:
        path.chmod(current & ~0o077 | (mode & 0o077))
        log.warning("instance: %s was readable by other users (%o); now %o",
                    path, current, stat.S_IMODE(path.stat().st_mode))


def sqlite_file(url: str) -> Path | None:
    """The database file of an SQLite URL (None for PostgreSQL or an in-memory database)."""
    if not url.startswith("sqlite") or ":memory:" in url or "mode=memory" in url:
        return None
    name = url.split(":///", 1)[-1].split("?", 1)[0] if ":///" in url else ""
    return Path(name) if name else None


def secure_instance(instance: str | Path, database_url: str) -> None:
    """Make the instance folder (0700) and tighten it and its secrets and database (0600).

    An SQLite database not yet there is created empty as 0600 (an empty file is an
    empty database): SQLite gives its -wal and -shm the database file's mode.
    """
    folder = Path(instance)
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    _tighten(folder, FOLDER_MODE)
    for sub in ("media", "uploads"):
        _tighten(folder / sub, FOLDER_MODE)
    for name in SECRETS:
        _tighten(folder / name, FILE_MODE)
    database = sqlite_file(database_url)
    if database is not None:
        if database.parent.is_dir() and not database.exists():
            os.close(os.open(database, os.O_CREAT | os.O_WRONLY, FILE_MODE))
        for suffix in SQLITE_SUFFIXES:
            _tighten(database.with_name(database.name + suffix), FILE_MODE)


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to a file only the server's user can read, from its first byte."""
    descriptor = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, FILE_MODE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    _tighten(path, FILE_MODE)
