"""The instance's organiser creates events here (issue 14 §1; who is the organiser:
access.py).

The start page, `flask --app answerdesk new-event` and `POST /api/events` all
create an event here, so the three refuse the same bad input with the same
words, and a refused event leaves nothing behind: name, format, date, language
and pack are all checked before anything is written.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from flask import current_app, has_request_context
from flask_babel import gettext
from msgspec import Meta
from werkzeug.security import generate_password_hash

from ..bodies import Body
from ..errors import DeskError
from ..extensions import db
from ..models import AuditEntry, Event
from ..packs import Pack, PackError, parse_pack
from ..packs.importer import import_pack
from ..packs.model import N_, Note
from ..packs.translated import say
from . import audit
from . import formats as registry
from .events import create_event, new_password
from .text import clean_text

MAX_EVENT_NAME = 200
PACK_REFUSED = N_("The pack cannot be read: %(problem)s")


class BadPack(DeskError):
    """A pack the new event cannot take; the message names the bad line, in the
    reader's language (the parsers keep English msgids, packs.model.Note)."""

    code = "bad_pack"

    def __init__(self, error: PackError) -> None:
        super().__init__(PACK_REFUSED, field="pack", problem=str(error))
        self.error = error

    @property
    def message(self) -> str:
        if not has_request_context():
            return super().message
        problem = say(self.error)
        if self.error.location:
            problem = f"{say(self.error.location)}: {problem}"
        return gettext(self.template, problem=problem)


def known_formats() -> tuple[str, ...]:
    """The formats an event can be created in (the format registry's names)."""
    return tuple(registry.names())


def format_choices() -> list[tuple[str, str]]:
    """(name, English msgid of the game's name) of each registered format, for forms."""
    return [(name, registry.get(name).label or name) for name in registry.names()]


def base_url_of(given: str | None = None) -> str:
    """The address printed links use: the one given, PUBLIC_URL, else HOST:PORT."""
    config = current_app.config
    return given or config["PUBLIC_URL"] or f"http://{config['HOST']}:{config['PORT']}"


def event_links(code: str, base_url: str) -> dict[str, str]:
    base = base_url.rstrip("/")
    return {
        "team_url": f"{base}/e/{code}",
        "host_url": f"{base}/host/{code}/",
        "screen_url": f"{base}/e/{code}/screen",
    }


def event_line(event: Event, password: str, base_url: str) -> dict[str, str]:
    """What `demo`, `new-event` and the API print: code, host password, links."""
    return {"code": event.code, "host_password": password, **event_links(event.code, base_url)}


class NewEvent(Body):
    """POST /api/events: what the organiser's form sends; a wrong value gets the form's
    own refusal (check_name, check_format, check_date, check_locale)."""

    name: Annotated[str, Meta(max_length=MAX_EVENT_NAME)]
    format: Annotated[str, Meta(description="A registered format (the game)")]
    date: Annotated[str | None, Meta(description="YYYY-MM-DD; default today")] = None
    screen_locale: Annotated[str | None, Meta(
        description="The projector's language: bg, ru or en")] = None

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        check = {"name": check_name, "format": check_format, "date": check_date,
                 "screen_locale": check_locale}.get(field)
        if check is not None:
            try:
                check(body.get(field) if isinstance(body, dict) else None)
            except DeskError as refusal:
                return refusal
        return super().refuse(field, body)


def check_name(name: object) -> str:
    clean = clean_text(name, max_length=MAX_EVENT_NAME, field="name")
    if not clean:
        raise DeskError("The event needs a name", field="name")
    return clean


def check_format(fmt: object) -> str:
    formats = known_formats()
    if not isinstance(fmt, str) or fmt not in formats:
        raise DeskError("Unknown format '%(format)s': choose one of %(formats)s",
                        field="format", format=str(fmt), formats=", ".join(formats))
    return fmt


def check_date(value: object) -> dt.date:
    """YYYY-MM-DD, or today when left out."""
    if value is None or value == "":
        return dt.date.today()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise DeskError("The date must look like 2026-03-14", field="date", date=str(value)[:40])


def check_locale(value: object) -> str:
    languages = current_app.config["LANGUAGES"]
    if value is None or value == "":
        return languages[0]
    if value not in languages:
        raise DeskError("Unknown language '%(locale)s'", field="screen_locale",
                        locale=str(value)[:40])
    return str(value)


def read_pack(data: bytes, filename: str) -> Pack:
    """Parse an uploaded pack; its error names the file's bad line."""
    try:
        return parse_pack(data, filename)
    except PackError as err:
        raise BadPack(err) from None


def create_new_event(name: object, fmt: object, date: object = None,
                     screen_locale: object = None, pack: Pack | None = None,
                     actor: str = "organiser") -> tuple[Event, str]:
    """Check everything, then create the event (and import its pack) in the caller's
    transaction, so a pack that fails leaves no event behind; return it and its host
    password, which is shown once."""
    clean = check_name(name)
    fmt = check_format(fmt)
    day = check_date(date)
    locale = check_locale(screen_locale)
    event, password = create_event(clean, date=day, format=fmt)
    event.screen_locale = locale
    audit.record(event, actor, "event.organise", event.code,
                 after={"format": fmt, "date": day.isoformat(), "screen_locale": locale})
    if pack is not None:  # as the game plays it (ЧГК: two games of 12, by default)
        report = import_pack(event, registry.of(event).choose_pack(pack, {})[0], actor=actor)
        if report.warnings:  # for the new event's page (start.created), after the redirect
            audit.record(event, actor, "pack.warnings", event.code,
                         after={"warnings": [_note_json(w) for w in report.warnings]})
            db.session.flush()
    return event, password


def _note_json(note: object) -> object:
    """A pack's warning as stored: its msgid and values (a page translates them)."""
    if isinstance(note, Note):
        return {"template": note.template,
                "params": {k: _note_json(v) for k, v in note.params.items()}}
    return note if isinstance(note, int | float) else str(note)


def _note_of(stored: object) -> object:
    if isinstance(stored, dict) and "template" in stored:
        return Note(str(stored["template"]),
                    **{k: _note_of(v) for k, v in (stored.get("params") or {}).items()})
    return stored


def import_warnings(event: Event) -> list[object]:
    """The warnings of the pack the event was created with (packs/translated.py says them)."""
    entry = db.session.scalar(db.select(AuditEntry).where(
        AuditEntry.event_id == event.id, AuditEntry.action == "pack.warnings")
        .order_by(AuditEntry.id.desc()).limit(1))
    after = (entry.after or {}) if entry is not None else {}
    return [_note_of(w) for w in after.get("warnings", [])]


def reset_host_password(event: Event, actor: str = "organiser") -> str:
    """A new host password for the event (the old one stops working, and so does every
    host login made with it, on every device); shown once."""
    password = new_password()
    event.host_password_hash = generate_password_hash(password)
    event.host_login_generation = event.host_login_generation + 1
    audit.record(event, actor, "event.host_password", event.code)
    db.session.flush()
    return password


def all_events() -> list[Event]:
    """Every event, newest date first, for the start page."""
    return list(db.session.scalars(db.select(Event).order_by(Event.date.desc(),
                                                             Event.id.desc())))
