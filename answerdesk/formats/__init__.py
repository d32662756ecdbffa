"""The bundled game formats, one package each; ``load_all`` registers them in core.

Core never imports this package (core/formats.py holds the registry); the app
factory calls ``load_all(app)``, which imports each format package by name and
calls its ``load(app)``, as CTFd loads its plug-ins.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

#: The bundled formats' packages under answerdesk/formats/, in the order an organiser sees them.
BUNDLED = ("bg", "chgk")


def load_all(app: Flask | None = None) -> None:
    """Import every bundled format package and let it register itself (its ``load``)."""
    for name in BUNDLED:
        import_module(f"{__name__}.{name}").load(app)
