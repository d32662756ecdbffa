"""«Что? Где? Когда?» open tournament (RULES.md CHGK-1.1 … CHGK-4.7), registered in
core's format registry by ``load``.

The pure rules (rules.py) import nothing else of the package; ``load`` imports the
parts that need Flask and the database (records, host desk, API) and so adds
their routes to the host and API blueprints before the app registers them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.formats import Format, RoundTemplate, register
from .programme import CHGK_PROGRAMME

if TYPE_CHECKING:
    from flask import Flask


class ChgkTournament(Format):
    """Two games of 11 sectors on the clock, the Central Table, auctions, leagues."""

    name = "chgk"
    label = "«What? Where? When?» open tournament"
    appeals = False  # CHGK-1.2: the host's and the assistant's decision is final
    team_size = (3, 6)  # CHGK-1.7

    def programme(self) -> tuple[RoundTemplate, ...]:
        return CHGK_PROGRAMME

    def standings(self, event: Any) -> list[Any]:
        """CHGK-2.6/2.7: the evening's ranking of all teams."""
        from .game import evening

        return evening(event)

    def openapi_paths(self) -> dict[str, Any]:
        from .api import openapi_paths

        return openapi_paths()


CHGK = ChgkTournament()


def load(app: Flask | None = None) -> ChgkTournament:
    """Register the format and its routes (called by formats.load_all)."""
    if app is not None:
        from . import api, host  # noqa: F401  (add their routes to the api and host blueprints)
    return register(CHGK)
