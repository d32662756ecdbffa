"""Creating events and finding them by the code teams type."""

from __future__ import annotations

import datetime as dt
import secrets

from werkzeug.security import check_password_hash, generate_password_hash

from ..errors import NotFound
from ..extensions import db
from ..models import Event, Round
from . import audit, formats

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def new_code(length: int = 6) -> str:
    """A join code without look-alike characters (no 0/O, 1/I/L)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_password(length: int = 10) -> str:
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(length))


def create_event(
    name: str,
    date: dt.date | None = None,
    format: str | None = None,
    password: str | None = None,
    code: str | None = None,
) -> tuple[Event, str]:
    """Create an event with its format's programme (by default ``formats.default``'s);
    return it and the host password."""
    fmt = formats.get(format) if format is not None else formats.default()
    password = password or new_password()
    while code is None:
        candidate = new_code()
        if db.session.scalar(db.select(Event.id).where(Event.code == candidate)) is None:
            code = candidate
    event = Event(
        name=name,
        date=date or dt.date.today(),
        format=fmt.name,
        code=code.upper(),
        host_password_hash=generate_password_hash(password),
    )
    for template in fmt.programme():
        event.rounds.append(
            Round(
                number=template.number,
                name=template.name,
                kind=template.kind,
                points=template.points,
                partial_points=template.partial_points,
                check_mode=template.check_mode,
            )
        )
    db.session.add(event)
    db.session.flush()
    audit.record(event, "host", "event.create", event.code, after={"name": name})
    db.session.flush()
    return event, password


def event_by_code(code: str) -> Event:
    event = db.session.scalar(db.select(Event).where(Event.code == code.strip().upper()))
    if event is None:
        raise NotFound("No event with code '%(code)s'", code=code)
    return event


def password_matches(password_hash: str | None, password: str | None) -> bool:
    """Whether ``password`` is the one ``password_hash`` was made from (scrypt: slow
    on purpose, so access.checked_credential runs it outside any transaction)."""
    return bool(password and password_hash and check_password_hash(password_hash, password))
