"""Languages: the phone's choice, the projector's language, the catalogues.

The interface speaks Bulgarian (default), Russian and English; msgids are
English. A phone takes the browser's language and can switch (kept in the
session); the projector speaks the language the host chose for the event
(`Event.screen_locale`), whatever the laptop's browser says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Blueprint, current_app, redirect, request, session
from flask_babel import get_translations

from .core import audit
from .errors import DeskError
from .extensions import db
from .models import Event
from .web import safe_next

bp = Blueprint("i18n", __name__)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
# Each language named in itself, for the switcher.
LANGUAGE_NAMES = {"bg": "Български", "ru": "Русский", "en": "English"}


#: reason codes that wrap another reason (values {"code", "params"}) -> their msgid with
#: %(reason)s; a format registers its own (BG's final round: formats/bg/final.py)
NESTED_REASONS: dict[str, str] = {}


def reason_text(code: str | None, params: Any = None, fallback: str = "") -> str:
    """A checker's reason in the page's language: its code and values rendered through
    the catalogues (docs/checker.md, issue 16 §8). A verdict stored before reasons had codes
    keeps its stored text."""
    from .checker.reasons import render

    params = params if isinstance(params, dict) else {}
    t = get_translations()
    if code in NESTED_REASONS:
        inner = reason_text(params.get("code"), params.get("params"), fallback)
        return t.gettext(NESTED_REASONS[code]) % {"reason": inner}
    return render(code, params, t.gettext, t.ngettext) or fallback


def choose_locale(languages: list[str], chosen: str | None, accepted: Any) -> str:
    """A phone's language: its own choice (``?lang=``, kept in its session) when we speak
    it, else the best of its browser's Accept-Language, else Bulgarian (the first)."""
    if chosen is not None and chosen in languages:
        return chosen
    return accepted.best_match(languages) or languages[0]


def screen_locale() -> str | None:
    """The event's projector language on the projector's pages, else None."""
    code = (request.view_args or {}).get("code")
    # the buzzer games' projector view (team.screen) is a projector page too
    if (request.blueprint != "display" and request.endpoint != "team.screen") or not code:
        return None
    return db.session.scalar(
        db.select(Event.screen_locale).where(Event.code == str(code).strip().upper()))


def set_screen_locale(event: Event, locale: str, actor: str) -> None:
    """The host's choice of the projector's language, audited like any change."""
    if locale not in current_app.config["LANGUAGES"]:
        raise DeskError("Unknown language '%(locale)s'", locale=str(locale))
    before = event.screen_locale
    event.screen_locale = locale
    audit.record(event, actor, "event.screen_locale", event.code, before=before, after=locale)
    db.session.flush()


@bp.get("/lang/<locale>")
def switch(locale: str):
    """Keep a phone's language choice in its session and go back where it was."""
    if locale in current_app.config["LANGUAGES"]:
        session["lang"] = locale
    return redirect(safe_next(request.args.get("next"), "/"))


def compile_catalogues(directory: Path = TRANSLATIONS) -> list[Path]:
    """Compile every messages.po that is newer than its .mo (fuzzy entries left
    out, as `pybabel compile` does); return the .mo files written."""
    written = []
    for po in sorted(directory.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        tmp = mo.with_suffix(".mo.part")
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        tmp.replace(mo)
        written.append(mo)
    return written
