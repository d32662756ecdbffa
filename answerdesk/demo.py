"""The demo evening a newcomer plays first: `flask --app answerdesk demo` (and so
`make run`) creates it, and so do tools outside the package (the bare-anchor
profile of issue 18). DEMO_FORMAT's format provides it (Format.create_demo)."""

from __future__ import annotations

from typing import Any

from .core import formats

#: The demo evening is a Bulgarian pub quiz.
DEMO_FORMAT = "bg"


def create_demo_event(**options: Any) -> tuple[Any, str]:
    """The demo evening, (event, host password); ``options`` are its format's
    (BG: ``month``, the past editions of its league)."""
    return formats.get(DEMO_FORMAT).create_demo(**options)
