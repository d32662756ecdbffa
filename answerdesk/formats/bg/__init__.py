"""The Bulgarian pub quiz (RULES.md BG-*): programme R1-R6, jokers, wildcard, final,
shoot-out, league and BG scoring, registered in core's format registry by ``load``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.formats import Format, RoundTemplate, register
from ...packs.model import N_
from .programme import BG_PROGRAMME

if TYPE_CHECKING:
    from flask import Flask


class BulgarianQuiz(Format):
    """BG-R1..R6 and the BG league; its modules are imported when a hook needs them."""

    name = "bg"
    label = N_("Bulgarian pub quiz")

    def programme(self) -> tuple[RoundTemplate, ...]:
        return BG_PROGRAMME

    def import_pack_extras(self, event: Any, pack: Any, *, replace: bool,
                           to_row: Callable[[Any], Any]) -> None:
        """BG-R5: the pack's scenario sets become the event's own."""
        from .wildcard import bank_item, store_sets

        sets = {name: [bank_item(to_row(q)) for q in questions]
                for name, questions in pack.scenarios.items()}
        store_sets(event, sets, replace=replace)

    def export_pack_extras(self, event: Any, pack: Any, to_spec: Callable[[Any], Any]) -> None:
        from .wildcard import scenario_sets

        pack.scenarios = {name: [to_spec(q) for q in questions]
                          for name, questions in scenario_sets(event).items()}

    def standings(self, event: Any) -> list[Any]:
        from .standings import event_standings

        return event_standings(event)


BG = BulgarianQuiz()


def load(app: Flask | None = None) -> BulgarianQuiz:
    """Register the BG format (called by the app factory through formats.load_all), and
    its shell commands on ``app``."""
    if app is not None:
        from .champions import register_commands

        register_commands(app)
    return register(BG)
