"""The bundled game formats, one package each; ``load_all`` registers them in core.

Core never imports this package (core/formats.py holds the registry); the app
factory calls ``load_all(app)``, as CTFd loads its plug-ins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import bg, oq, si
from .bg.programme import BG_PROGRAMME
from .oq.programme import OQ_PROGRAMME
from .si.programme import SI_PROGRAMME

if TYPE_CHECKING:
    from flask import Flask

from ..core.formats import RoundTemplate

#: The bundled formats, in the order an organiser sees them.
BUNDLED = (bg, si, oq)

PROGRAMMES: dict[str, tuple[RoundTemplate, ...]] = {"bg": BG_PROGRAMME, "si": SI_PROGRAMME,
                                                  "oq": OQ_PROGRAMME}


def load_all(app: Flask | None = None) -> None:
    """Register every bundled format in core's registry."""
    for package in BUNDLED:
        package.load(app)


__all__ = ["BG_PROGRAMME", "BUNDLED", "PROGRAMMES", "RoundTemplate", "load_all"]
