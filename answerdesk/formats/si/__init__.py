"""Своя игра, the online tournament (RULES.md SI-0 … SI-3), registered in core's format
registry by ``load``: players answer privately, only the first answer counts, the
host publishes "+3 Вася, Ира / −3 Женя", players protest (СТОП) before the next theme."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.formats import Format, QuestionStart, RoundTemplate, register
from ...core.sheet_parts import BuiltSheet
from ...packs.model import N_
from .programme import SEQUENTIAL, SI_PROGRAMME

if TYPE_CHECKING:
    from flask import Flask


class SvoyaIgra(Format):
    """Three rounds of 5 × 5, single players, ±value (SI-1.1, SI-2.4)."""

    name = "si"
    label = N_("Своя игра (online tournament)")
    team_size = (1, 1)  # players, not teams
    live_push = True  # the buzzer's stream (formats/buzzer/stream.py)
    desk_links = (("host.si_desk", N_("Своя игра desk")),)
    phone_template = "si/phone.html"  # one private answer, the lists, ПРОПУСТИЛИ, СТОП
    screen_part = "si/_screen.html"  # the board, the question, the answer and the lists
    layout_part = "si/_layout.html"  # the import preview: which theme in which round
    results_export = "host.si_export"  # the players' results as CSV/XLSX

    def programme(self) -> tuple[RoundTemplate, ...]:
        return SI_PROGRAMME

    def imported_kind(self, number: int, kind: str) -> str:
        """An imported round is a board played question by question (SI-1.1, SI-2.2)."""
        return SEQUENTIAL

    def shape_pack(self, pack: Any, layout: Sequence[int] | None = None) -> Any:
        """Any .siq or «Своя игра» .txt as three boards of 5 × 5 (SI-1.1)."""
        from .layout import shape

        return shape(pack, layout)

    def pack_layout(self, pack: Any, layout: Sequence[int] | None = None) -> Any:
        from .layout import Layout, default_rounds, pool

        themes, finals = pool(pack)
        rounds = list(layout) if layout is not None else default_rounds(len(themes))
        return Layout(themes, rounds, finals)

    def standings(self, event: Any) -> Sequence[Any]:
        """SI-1.2: the players in competition by points, with places."""
        from .scores import standings_rows

        return standings_rows(event)

    def one_at_a_time(self, rnd: Any) -> bool:
        """The host starts the board's questions one by one; phones see each once started."""
        return rnd.kind == SEQUENTIAL

    def start_question(self, event: Any, rnd: Any, question: Any,
                       start: QuestionStart) -> QuestionStart:
        """SI-2.2b: the host closes each question (ВСЁ), so no deadline unless set; SI-3:
        no question starts while a protest is heard."""
        from .progress import start as si_start

        return si_start(event, start)

    def before_join(self, event: Any, name_key: str) -> None:
        """SI-1.2: late players join in rounds 1-2, between questions."""
        from .progress import check_join

        check_join(event)

    def decorate_sheet(self, sheet: BuiltSheet, event: Any, team: Any) -> BuiltSheet:
        """Only the started questions; the player's score, answer and protests (a phone
        that comes back finds them)."""
        from .screens import decorate

        return decorate(sheet, event, team)

    def sheet_reply(self) -> type[Any]:
        from .replies import SiSheet

        return SiSheet

    def public_state(self, event: Any) -> dict[str, Any]:
        from .screens import public

        return {"si": public(event)}

    def public_state_schema(self) -> dict[str, Any]:
        from ...api.replies import reply
        from .replies import SiState

        return {"si": reply(SiState)}

    def openapi_paths(self) -> dict[str, Any]:
        from .api import openapi_paths

        return openapi_paths()


SI = SvoyaIgra()


def _screen(event: Any) -> dict[str, Any]:
    from .screens import screen

    return screen(event)


def load(app: Flask | None = None) -> SvoyaIgra:
    """Register the format and its routes (called by formats.load_all)."""
    if app is not None:
        from ..buzzer import stream  # noqa: F401  (SSE: look when the game moved)
        from . import api, host, models  # noqa: F401  (routes on the blueprints; tables)
        from .phone import phone_texts

        app.jinja_env.globals["si_phone_texts"] = phone_texts  # templates/si/phone.html
        app.jinja_env.globals["si_screen"] = _screen  # templates/si/_screen.html
    register(SI)
    return SI
