"""OpenQuiz's question types, pure (formats/oq/types.py): OQ-3 who answers, OQ-5 what
a wrong answer costs, and every refusal, named by rule."""

from __future__ import annotations

import re

import pytest

from answerdesk.formats.oq.rules import Outcome
from answerdesk.formats.oq.types import (
    TYPES,
    ChoiceRefused,
    SecretRefused,
    StakeRefused,
    WrongQuestionType,
    auction_over,
    auction_result,
    check_chooser,
    check_hand,
    check_stake,
    choice_outcome,
    chosen_option,
    for_all_points,
    set_type_refusal,
    type_of,
)

OPTIONS = {"А": "Искър", "Б": "Марица", "В": "Дунав"}


def test_oq3_the_table_holds_the_six_types_each_with_its_own_rules():
    assert list(TYPES) == ["buzzer", "choices", "choices_all", "norisk", "secret", "auction"]
    assert [n for n, t in TYPES.items() if t.buzzer] == ["buzzer", "choices", "norisk"]
    assert [n for n, t in TYPES.items() if t.returns] == ["buzzer", "choices", "norisk"]
    assert [n for n, t in TYPES.items() if t.choosing] == ["choices", "choices_all"]
    assert (TYPES["secret"].handed, TYPES["auction"].bidding) == (True, True)


@pytest.mark.parametrize(("variant", "options", "expected"), [
    (None, None, "buzzer"), (None, OPTIONS, "choices"), ("choices", None, "buzzer"),
    ("stake", None, "auction"), ("secret", None, "secret"), ("norisk", None, "norisk"),
    ("forall", OPTIONS, "choices_all"), ("forall", None, "buzzer"),
    ("auction", OPTIONS, "auction"), ("custom", None, "buzzer"),
])
def test_oq3_a_questions_type_from_its_pack_or_the_host(variant, options, expected):
    assert type_of(variant, options).name == expected


def test_oq3_the_host_sets_a_type_the_table_knows_choices_need_options():
    assert set_type_refusal("auction", None) is None
    assert set_type_refusal("choices_all", OPTIONS) is None
    assert set_type_refusal("lottery", None) == "The type must be one of: %(types)s."
    assert set_type_refusal("choices", {"А": "x"}) == (
        "A choices question needs at least two options.")


def test_oq5_points_by_type_no_risk_costs_nothing():
    buzzer, norisk, auction = TYPES["buzzer"], TYPES["norisk"], TYPES["auction"]
    assert buzzer.points(Outcome.REJECT, 300) == buzzer.points(Outcome.TIMEOUT, 300) == -300
    assert norisk.points(Outcome.REJECT, 300) == norisk.points(Outcome.TIMEOUT, 300) == 0
    assert norisk.points(Outcome.ACCEPT, 300, 2.0) == 600
    assert (auction.worth(200, 750), auction.worth(200, None), buzzer.worth(200, 750)) == (
        750, 200, 200)


def test_oq3_only_buzzer_types_return_the_question_after_a_wrong_answer():
    assert TYPES["buzzer"].returns_after(Outcome.REJECT)
    assert TYPES["choices"].returns_after(Outcome.REJECT)
    assert not TYPES["buzzer"].returns_after(Outcome.ACCEPT)
    assert not TYPES["secret"].returns_after(Outcome.REJECT)
    assert not TYPES["auction"].returns_after(Outcome.TIMEOUT)


def test_oq3_the_host_calls_a_timeout_only_on_choices_and_nothing_on_choices_for_all():
    TYPES["choices"].check_call(Outcome.TIMEOUT)
    with pytest.raises(WrongQuestionType, match="the host calls only a timeout"):
        TYPES["choices"].check_call(Outcome.ACCEPT)
    with pytest.raises(WrongQuestionType, match="when the host closes the question"):
        TYPES["choices_all"].check_call(Outcome.TIMEOUT)
    for name in ("buzzer", "norisk", "secret", "auction"):
        for outcome in Outcome:
            TYPES[name].check_call(outcome)


def test_oq3_choices_a_choice_is_an_option_shown_judged_by_the_key():
    assert chosen_option("Б", OPTIONS) == "Б"
    assert chosen_option(" б ", OPTIONS) == "Б"
    with pytest.raises(ChoiceRefused, match="Choose one of the options shown: А, Б, В."):
        chosen_option("Г", OPTIONS)
    with pytest.raises(ChoiceRefused):
        chosen_option(2, OPTIONS)
    assert choice_outcome("Б", OPTIONS, ["Б"]) == Outcome.ACCEPT
    assert choice_outcome("В", OPTIONS, {"accept": ["Дунав"]}) == Outcome.ACCEPT
    assert choice_outcome("А", OPTIONS, ["Б"]) == Outcome.REJECT


def test_oq3_choices_the_buzzer_winner_chooses_once_for_all_every_team_once():
    choices, for_all = TYPES["choices"], TYPES["choices_all"]
    check_chooser(7, choices, answering=7, answered=set())
    with pytest.raises(ChoiceRefused, match="Only the team that won the buzzer chooses."):
        check_chooser(8, choices, answering=7, answered=set())
    with pytest.raises(ChoiceRefused, match="already answered"):
        check_chooser(7, choices, answering=7, answered={7})
    check_chooser(8, for_all, answering=None, answered={7})
    with pytest.raises(ChoiceRefused, match="already answered"):
        check_chooser(7, for_all, answering=None, answered={7})


def test_oq3_oq5_choices_for_all_right_plus_wrong_minus_no_choice_nothing():
    assert for_all_points({1: "Б", 2: "А"}, OPTIONS, ["Б"], 200) == {1: 200, 2: -200}


def test_oq3_auction_stakes_from_the_value_to_the_score_all_in_and_refusals():
    assert check_stake(300, score=500, value=200, highest=None, passed=False) == 300
    assert check_stake(500, score=500, value=200, highest=400, passed=False) == 500
    assert check_stake(150, score=150, value=200, highest=100, passed=False) == 150  # all in
    refused = {
        "above the score": (600, 500, None, False, "cannot be above your team's score (500)"),
        "at 0": (100, 0, None, False, "A team at 0 points or below cannot bid."),
        "below 0": (100, -300, None, False, "at 0 points or below"),
        "not above the highest": (300, 500, 300, False, "above the highest so far (300)"),
        "below the value": (100, 500, None, False, "at least 200, or your whole score"),
        "not whole": (250.5, 500, None, False, "whole number"),
        "a boolean": (True, 500, None, False, "whole number"),
        "after a pass": (300, 500, None, True, "passed this auction"),
    }
    for amount, score, highest, passed, message in refused.values():
        with pytest.raises(StakeRefused, match=re.escape(message)):
            check_stake(amount, score=score, value=200, highest=highest, passed=passed)


def test_oq3_auction_the_highest_stake_wins_and_is_the_value_nobody_bids_the_picker():
    assert auction_result([(1, 200), (2, 300), (1, 450)], holder=3, value=200) == (1, 450)
    assert auction_result([], holder=3, value=200) == (3, 200)
    assert auction_over([1, 2, 3], passed={2, 3}, leader=1)
    assert not auction_over([1, 2, 3], passed={2}, leader=1)
    assert auction_over([1, 2], passed={1, 2}, leader=None)


def test_oq3_secret_the_team_with_the_turn_hands_it_once_itself_included():
    assert check_hand(1, holder=1, receiver=2, teams=[1, 2, 3], handed_to=None) == 2
    assert check_hand(1, holder=1, receiver=1, teams=[1, 2, 3], handed_to=None) == 1
    with pytest.raises(SecretRefused, match="Only the team with the turn"):
        check_hand(2, holder=1, receiver=3, teams=[1, 2, 3], handed_to=None)
    with pytest.raises(SecretRefused, match="already handed"):
        check_hand(1, holder=1, receiver=3, teams=[1, 2, 3], handed_to=2)
    with pytest.raises(SecretRefused, match="does not play this game"):
        check_hand(1, holder=1, receiver=9, teams=[1, 2, 3], handed_to=None)
