"""OpenQuiz, the buzzer game (RULES.md OQ-1 … OQ-8), registered in core's format registry
by ``load``.

The buzzer itself (clock sync, presses, the fair order) is the shared package
``formats/buzzer``; this package says which question it is armed for.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...core.formats import Format, QuestionStart, RoundTemplate, register
from ...core.sheet_parts import BuiltSheet
from .programme import FINAL, OQ_PROGRAMME, SEQUENTIAL
from .rules import N_

if TYPE_CHECKING:
    from flask import Flask


class OpenQuiz(Format):
    """Up to 12 teams, a board, the buzzer (OQ-4) and a final with bets (OQ-6)."""

    name = "oq"
    label = N_("OpenQuiz (buzzer game)")
    team_size = (1, 3)  # OQ-1: teams of up to 3 players
    live_push = True  # the buzzer's stream (formats/buzzer/stream.py)
    desk_links = (("host.oq_play", N_("OpenQuiz play")), ("host.oq_room", N_("OpenQuiz room")))
    #: The phone's controls for the question types (OQ-3) beside the buzzer's button.
    buzzer_part = "oq/_phone.html"
    buzzer = True
    buzzer_phones = True
    #: OQ-1: the team link and its QR code open the buzzer phone (join, board, buzzer),
    #: never core's written sheet, which would list a round's questions before play.
    team_page = "team.phone"
    #: The projector shows the board, the question with its media, the buzzer's order.
    screen_page = "team.screen"

    #: OQ-3/OQ-6: SIGame's stake, secret, no-risk and for-all questions and its final
    #: round play as the auction, the secret, no-risk, choices for all and the final.
    plays_variants = frozenset({"stake", "secret", "norisk", "forall", "final"})

    def programme(self) -> tuple[RoundTemplate, ...]:
        return OQ_PROGRAMME

    def imported_kind(self, number: int, kind: str) -> str:
        """A pack's final round is the final (OQ-6); every other round is a board."""
        return FINAL if kind in ("final", FINAL) else SEQUENTIAL

    def before_join(self, event: Any, name_key: str) -> None:
        """OQ-1 at most 12 teams; OQ-8 a team the host banned stays out."""
        from .joining import check_team_join

        check_team_join(event, name_key)

    def buzzer_phone(self, event: Any, token: str | None, press: bool) -> Any:
        """OQ-1: presses are players' own (their token), never the team token's; OQ-4:
        each player's phone has its own clock estimate."""
        from .players import buzzer_phone

        return buzzer_phone(event, token, press)

    def one_at_a_time(self, rnd: Any) -> bool:
        """The host starts the board's questions one by one; phones see each once started."""
        return rnd.kind == SEQUENTIAL

    def start_question(self, event: Any, rnd: Any, question: Any,
                       start: QuestionStart) -> QuestionStart:
        """OQ-4: the buzzer is armed at the start, on the buzzer's clock; no deadline:
        the seconds the host gives are the press timer's (OQ-4.1), which closes the
        question when nobody pressed, however often it returns. OQ-8: a paused or
        stopped game starts nothing; a start is activity."""
        from ..buzzer.presses import buzzer_start, now_ms
        from .control import guard

        guard(event, now_ms())
        return replace(buzzer_start(start), locks_at=None)

    def settle_timers(self, event: Any) -> None:
        """A press or answer timer run out is applied before core's start looks for a
        question still running (OQ-4, OQ-4.1)."""
        from ..buzzer.presses import now_ms
        from .control import settle

        settle(event, now_ms())

    def timers_due_ms(self, state: dict[str, Any]) -> int | None:
        """OQ-4, OQ-4.1: when the running press or answer timer runs out (the live
        stream applies it then, docs/live-push.md)."""
        from .control import timers_due_ms

        return timers_due_ms(state.get("oq", {}).get("clock"))

    def buzzer_arming(self, event: Any, round_number: int, question_number: int) -> Any:
        """OQ-4: the buzzer is armed from the question's start, again after a rejection
        or the answer timer's timeout; OQ-8: a paused or stopped game takes no press."""
        from ..buzzer import presses
        from .control import guard
        from .game import arming

        guard(event, presses.now_ms(), press=True)
        return arming(event, round_number, question_number)

    def standings(self, event: Any) -> Any:
        """OQ-5: the teams by their points; equal points share a place."""
        from .game import standings

        return standings(event)

    def decorate_sheet(self, sheet: BuiltSheet, event: Any, team: Any) -> BuiltSheet:
        """No question's text before it is played: core's sheet lists an open round's
        questions; here only those the host has started stay (the final's none: its
        question reaches the phones in the state once the bets are in, OQ-6)."""
        from .game import started_numbers

        started = started_numbers(event)
        sheet["rounds"] = [
            {**r, "questions": [q for q in r["questions"]
                                if (r["number"], q["number"]) in started]}
            for r in sheet["rounds"]]
        return sheet

    def public_state(self, event: Any) -> dict[str, Any]:
        """The buzzer of the latest started question (its order once the window closed),
        the turn, the scores, the final, the question in play by its type (OQ-3), the
        teams' captains and the clocks (OQ-7, OQ-8). A read, but for a press or answer
        timer run out since the last request (settle_due)."""
        from ..buzzer import presses
        from .control import clock_state, settle_due
        from .control import press_timer_shown as _press_timer
        from .game import latest_arming, public
        from .players import room_state
        from .typeplay import public_play

        now = presses.now_ms()
        armed = latest_arming(event)
        buzz = presses.buzz_state(armed, now) if armed else None
        running = settle_due(event, now, (armed, buzz) if armed and buzz else None)
        if running is False:  # a timer ran out: the question returned or closed
            armed = latest_arming(event)
            buzz = presses.buzz_state(armed, now) if armed else None
        play = public_play(event)
        if buzz and buzz["state"] == "armed" and play and play["state"] == "done" and (
                play["round"], play["question"]) == (buzz["round"], buzz["question"]):
            buzz = None  # OQ-4.1: closed with nobody pressing: nothing left to press
        if armed and buzz and buzz["state"] == "collecting":  # issue 31: nobody learns of a press
            buzz = presses.public_buzz(buzz)
            running = _press_timer(event, now, armed, buzz)
        return {"buzzer": buzz, "oq": {**public(event), "play": play,
                                       "teams": room_state(event),
                                       "clock": clock_state(event, now, running)}}

    def public_state_schema(self) -> dict[str, Any]:
        from ...api.replies import reply
        from ..buzzer.replies import BuzzState
        from .replies import OqState

        return {"buzzer": {"anyOf": [reply(BuzzState), {"type": "null"}],
                           "description": "OQ-4: the buzzer of the latest question; its "
                                          "order once the window has closed"},
                "oq": reply(OqState)}

    def openapi_paths(self) -> dict[str, Any]:
        from ..buzzer.api import openapi_paths as buzzer_paths
        from .api import openapi_paths
        from .typeapi import openapi_paths as type_paths

        return {**buzzer_paths(), **openapi_paths(), **type_paths()}


OQ = OpenQuiz()


def load(app: Flask | None = None) -> OpenQuiz:
    """Register the format and the buzzer's routes (called by formats.load_all)."""
    if app is not None:
        from ..buzzer import api, models, pages, stream  # noqa: F401  (routes, SSE; tables)
        from . import api as oq_api  # noqa: F401
        from . import desk, typeapi  # noqa: F401  (the host's play page; OQ-3 routes)
        from . import host as oq_host  # noqa: F401  (the host's room page)
        from . import models as oq_models  # noqa: F401
    register(OQ)
    return OQ
