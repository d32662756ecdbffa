"""OpenQuiz, the buzzer game (RULES.md OQ-1 … OQ-8), registered in core's format registry
by ``load``.

The buzzer itself (clock sync, presses, the fair order) is the shared package
``formats/buzzer``; this package says which question it is armed for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.formats import Format, QuestionStart, RoundTemplate, register
from .programme import OQ_PROGRAMME, SEQUENTIAL

if TYPE_CHECKING:
    from flask import Flask


class OpenQuiz(Format):
    """Up to 12 teams, a board, the buzzer (OQ-4) and a final with bets (OQ-6)."""

    name = "oq"
    label = "OpenQuiz (buzzer game)"

    def programme(self) -> tuple[RoundTemplate, ...]:
        return OQ_PROGRAMME

    def one_at_a_time(self, rnd: Any) -> bool:
        """The host starts the board's questions one by one; phones see each once started."""
        return rnd.kind == SEQUENTIAL

    def start_question(self, event: Any, rnd: Any, question: Any,
                       start: QuestionStart) -> QuestionStart:
        """OQ-4: the buzzer is armed at the start, on the buzzer's clock; no deadline."""
        from ..buzzer.presses import buzzer_start

        return buzzer_start(start)

    def buzzer_arming(self, event: Any, round_number: int, question_number: int) -> Any:
        """OQ-4: the buzzer is armed from the question's start, again after a rejection."""
        from .game import arming

        return arming(event, round_number, question_number)

    def public_state(self, event: Any) -> dict[str, Any]:
        """The buzzer of the latest started question (its order once the window closed),
        the turn, the scores and the final."""
        from ..buzzer import presses
        from .game import latest_arming, public

        armed = latest_arming(event)
        return {"buzzer": presses.buzz_state(armed, presses.now_ms()) if armed else None,
                "oq": public(event)}

    def public_state_schema(self) -> dict[str, Any]:
        from ..buzzer.api import BUZZER_STATE
        from .api import OQ_STATE

        return {"buzzer": BUZZER_STATE, "oq": OQ_STATE}

    def openapi_paths(self) -> dict[str, Any]:
        from ..buzzer.api import openapi_paths as buzzer_paths
        from .api import openapi_paths

        return {**buzzer_paths(), **openapi_paths()}


OQ = OpenQuiz()


def load(app: Flask | None = None) -> OpenQuiz:
    """Register the format and the buzzer's routes (called by formats.load_all)."""
    if app is not None:
        from ..buzzer import api, models, pages, stream  # noqa: F401  (routes, SSE; tables)
        from . import api as oq_api  # noqa: F401
        from . import models as oq_models  # noqa: F401
    return register(OQ)
