"""The Bulgarian game's callers of core.rounds.question_of (BG-J jokers, BG-R6 final)
refuse a missing question as core's callers do (tests/core/test_rounds.py): the same
translated 404, and nothing changes."""

from __future__ import annotations

import pytest
from factories import refuses_missing_question

from answerdesk.extensions import db
from answerdesk.formats.bg import final, jokers
from answerdesk.formats.bg.programme import FINAL_ROUND
from answerdesk.models import Event, Team


def _callers(event: Event, team: Team) -> dict:
    return {
        "joker": lambda r, q: jokers.play_joker(team, "double", r, q),
        "final": lambda r, q: final.open_question(event, q),
    }


@pytest.mark.parametrize("caller", ("joker", "final"))
def test_bg_callers_refuse_a_missing_question_alike(app, demo_desk, caller) -> None:
    demo_desk.join("Сови")
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == demo_desk.code))
        team = db.session.scalar(db.select(Team).where(Team.event_id == event.id))
        round_number = FINAL_ROUND if caller == "final" else 2
        refuses_missing_question(_callers(event, team)[caller], round_number)
