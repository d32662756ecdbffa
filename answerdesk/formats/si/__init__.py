"""Своя игра, the online tournament (RULES.md SI-0 … SI-3), registered in core's format
registry by ``load``: players answer privately, only the first answer counts, the
host publishes "+3 Вася, Ира / −3 Женя"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.formats import Format, RoundTemplate, register
from .programme import SEQUENTIAL, SI_PROGRAMME

if TYPE_CHECKING:
    from flask import Flask


class SvoyaIgra(Format):
    """Three rounds of 5 × 5, single players, ±value (SI-1.1, SI-2.4)."""

    name = "si"
    label = "Своя игра (online tournament)"
    team_size = (1, 1)  # players, not teams

    def programme(self) -> tuple[RoundTemplate, ...]:
        return SI_PROGRAMME

    def one_at_a_time(self, rnd: Any) -> bool:
        """The host starts the board's questions one by one; phones see each once started."""
        return rnd.kind == SEQUENTIAL

    def public_state(self, event: Any) -> dict[str, Any]:
        from .game import public

        return {"si": public(event)}

    def public_state_schema(self) -> dict[str, Any]:
        from .api import SI_STATE

        return {"si": SI_STATE}

    def openapi_paths(self) -> dict[str, Any]:
        from .api import openapi_paths

        return openapi_paths()


SI = SvoyaIgra()


def load(app: Flask | None = None) -> SvoyaIgra:
    """Register the format and its routes (called by formats.load_all)."""
    if app is not None:
        from ..buzzer import stream  # noqa: F401  (SSE: look when the game moved)
        from . import api, models  # noqa: F401  (routes on the API blueprint; tables)
    return register(SI)
