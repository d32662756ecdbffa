"""A pack's notes and errors in the reader's language. The parsers stay free of Flask
(packs/model.py); the pages, the organiser's import and the desk show what they say
through ``say``."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext


def say(text: object) -> object:
    """A pack error, warning or location in the reader's language: the parsers keep
    English msgids and their values (`PackError`, `Note`); other text shows as it is
    (a native pack's own warnings)."""
    template = getattr(text, "template", None)
    if template is None:
        return text
    params: dict[str, Any] = getattr(text, "params", {})
    return gettext(template, **{k: say(v) for k, v in params.items()})
