"""OpenQuiz's pure rules: OQ-5 points, OQ-6 ban turns, bets and final points."""

from __future__ import annotations

import pytest

from answerdesk.formats.oq.rules import (
    Outcome,
    banning_team,
    bet_refusal,
    final_points,
    points,
)


def test_oq5_points():
    assert points(Outcome.ACCEPT, 300) == 300
    assert points(Outcome.ACCEPT, 300, 2.0) == 600
    assert points(Outcome.ACCEPT, 300, 0.5) == 150
    assert points(Outcome.REJECT, 300) == -300
    assert points(Outcome.TIMEOUT, 300) == -300
    assert points(Outcome.REJECT, 300, no_risk=True) == 0
    with pytest.raises(ValueError):
        points(Outcome.ACCEPT, 300, 3.0)


def test_oq6_bans_in_turn_bets_and_final_points():
    assert [banning_team([7, 3, 9], n) for n in range(5)] == [7, 3, 9, 7, 3]
    assert bet_refusal(1, 200) is None and bet_refusal(200, 200) is None
    assert bet_refusal(201, 200) and bet_refusal(0, 200) and bet_refusal(True, 200)
    assert bet_refusal(10, 0) == "A team at 0 points or below sits the final out."
    assert (final_points(150, True), final_points(150, False)) == (150, -150)
