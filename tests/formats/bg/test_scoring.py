"""Tests of the pure scoring rules (RULES.md section BG), named by rule id."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answerdesk.formats.bg.scoring import (
    COPY,
    DOUBLE,
    FIRST_LETTER,
    SONG_PARTIAL_POINTS,
    Correction,
    MonthRow,
    Standing,
    TeamAnswer,
    answer_points,
    apply_shootout,
    copy_joker_target,
    double_joker_points,
    game_totals,
    joker_allowed,
    last_place_draw,
    league_points,
    month_table,
    monthly_titles,
    rank,
    score_question,
    shootout,
    shootout_question_scorers,
    streak_handicap,
)


def places(standings: list[Standing]) -> dict:
    return {s.team: s.place for s in standings}


# --------------------------------------------------------------------------- answers


def test_bg_e3_correct_earns_round_points() -> None:
    assert answer_points(2, "correct", 1.0) == 2
    assert answer_points(5, "correct", None) == 5


@pytest.mark.parametrize("outcome", ["wrong", "review", None])
def test_bg_e3_wrong_review_or_no_answer_earn_nothing(outcome: str | None) -> None:
    assert answer_points(3, outcome, 0.0) == 0
    assert answer_points(3, outcome, None, partial_points=1) == 0


def test_bg_r4_1_song_partial_one_of_three() -> None:
    assert answer_points(3, "partial", 0.5, partial_points=SONG_PARTIAL_POINTS) == 1
    assert answer_points(3, "partial", 1 / 3) == 1


def test_bg_r4_1_partial_fraction_rounds_half_up_within_round_points() -> None:
    assert answer_points(3, "partial", 0.5) == 2
    assert answer_points(5, "partial", 0.5) == 3
    assert answer_points(2, "partial", 1.7) == 2


def test_bg_r5_3_partial_points_zero_gives_no_credit() -> None:
    assert answer_points(2, "partial", 0.5, partial_points=0) == 0


def test_bg_r5_5_all_in_three_of_four_is_wrong_and_scores_zero() -> None:
    assert answer_points(5, "wrong", 0.0) == 0
    assert answer_points(5, "correct", 1.0) == 5


def test_answer_points_rejects_unknown_outcome_and_partial_without_fraction() -> None:
    with pytest.raises(ValueError):
        answer_points(2, "maybe", 1.0)
    with pytest.raises(ValueError):
        answer_points(3, "partial", None)


# --------------------------------------------------------------------------- jokers, disputes


def test_bg_j1_double_one_point() -> None:
    assert double_joker_points("wrong", "correct") == 1
    assert double_joker_points("correct", "correct") == 1
    assert double_joker_points("wrong", None) == 0
    result = score_question(
        2,
        {
            "A": TeamAnswer("wrong", double=True, second_outcome="correct"),
            "B": TeamAnswer("wrong", double=True, second_outcome="wrong"),
            "C": TeamAnswer("correct"),
        },
    )
    assert result.points == {"A": 1, "B": 0, "C": 2}


def test_bg_j2_copy_scores_what_the_copied_answer_scores() -> None:
    answers = {
        "X": TeamAnswer("partial", 0.5, partial_points=1),
        "Y": TeamAnswer("correct"),
        "T": TeamAnswer(copies="X"),
        "U": TeamAnswer(copies="Y"),
    }
    assert score_question(3, answers).points == {"X": 1, "Y": 3, "T": 1, "U": 3}


def test_bg_j2_copy_chain() -> None:
    answers = {
        1: TeamAnswer("correct"),
        2: TeamAnswer(copies=1),
        3: TeamAnswer(copies=2),
        4: TeamAnswer(copies=3),
    }
    assert copy_joker_target(answers, 4) == 1
    assert score_question(2, answers).points == {1: 2, 2: 2, 3: 2, 4: 2}


def test_bg_j2_copy_cycle_scores_zero() -> None:
    answers = {
        "A": TeamAnswer(copies="B"),
        "B": TeamAnswer(copies="C"),
        "C": TeamAnswer(copies="A"),
        "D": TeamAnswer(copies="A"),  # copies into the cycle
        "E": TeamAnswer("correct"),
        "F": TeamAnswer(copies="F"),  # copies itself
    }
    result = score_question(1, answers)
    assert result.points == {"A": 0, "B": 0, "C": 0, "D": 0, "E": 1, "F": 0}
    assert result.notes["A"] == "copy joker: cycle"
    assert copy_joker_target(answers, "D") is None


def test_bg_j2_copy_of_team_without_answer_scores_zero() -> None:
    answers = {"T": TeamAnswer(copies="ghost"), "N": TeamAnswer(None), "M": TeamAnswer(copies="N")}
    assert score_question(2, answers).points == {"T": 0, "N": 0, "M": 0}


def test_bg_j2_copy_of_double_joker_scores_its_one_point() -> None:
    answers = {
        "X": TeamAnswer("wrong", double=True, second_outcome="correct"),
        "T": TeamAnswer(copies="X"),
    }
    assert score_question(2, answers).points == {"X": 1, "T": 1}


def test_bg_j3_first_letter_earns_normal_points() -> None:
    answers = {
        "A": TeamAnswer("correct", first_letter=True),
        "B": TeamAnswer("partial", 0.5, partial_points=1, first_letter=True),
    }
    result = score_question(3, answers)
    assert result.points == {"A": 3, "B": 1}
    assert "first letter" in result.notes["A"]


def test_bg_d1_upheld_dispute_counts_correct_for_that_team_only() -> None:
    answers = {"A": TeamAnswer("wrong"), "B": TeamAnswer("wrong"), "C": TeamAnswer(copies="A")}
    result = score_question(2, answers, upheld={"A"})
    assert result.points == {"A": 2, "B": 0, "C": 2}
    assert result.notes["A"] == "dispute upheld"


def test_bg_d1_upheld_dispute_with_double_joker_still_one_point() -> None:
    answers = {"A": TeamAnswer("wrong", double=True, second_outcome="wrong")}
    assert score_question(2, answers, upheld=["A"]).points == {"A": 1}


def test_bg_d1_annul_credits_everyone() -> None:
    answers = {
        "A": TeamAnswer("wrong"),
        "B": TeamAnswer("correct", double=True, second_outcome="wrong"),
        "C": TeamAnswer(copies="A"),
    }
    result = score_question(3, answers, annulled=True, teams=["A", "B", "C", "silent"])
    assert result.points == {"A": 3, "B": 3, "C": 3, "silent": 3}


def test_score_question_lists_teams_without_answer_at_zero() -> None:
    result = score_question(2, {"A": TeamAnswer("correct")}, teams=["A", "B"])
    assert result.points == {"A": 2, "B": 0}
    assert result.notes["B"] == "no answer"


def test_bg_j_joker_second_use_refused() -> None:
    ok, reason = joker_allowed(COPY, 3, {COPY})
    assert not ok and "already used" in reason
    assert joker_allowed(FIRST_LETTER, 4, [COPY, DOUBLE]) == (True, "")


def test_bg_j_joker_wrong_round_refused() -> None:
    assert joker_allowed(DOUBLE, 4, set())[0] is False
    assert "rounds 2-3" in joker_allowed(DOUBLE, 1, set())[1]
    assert joker_allowed(COPY, 5, set())[0] is False
    assert joker_allowed(FIRST_LETTER, 1, set())[0] is False
    assert joker_allowed(DOUBLE, 3, set()) == (True, "")
    assert joker_allowed(COPY, 1, ()) == (True, "")


def test_bg_j1_double_once_for_r2_and_r3_together() -> None:
    assert joker_allowed(DOUBLE, 3, {DOUBLE})[0] is False


def test_joker_allowed_unknown_joker_refused() -> None:
    ok, reason = joker_allowed("fifty-fifty", 2, set())
    assert not ok and "unknown" in reason


# --------------------------------------------------------------------------- totals


def test_game_totals_adds_corrections_and_bg_m3_handicap() -> None:
    questions = [{"A": 2, "B": 0}, {"A": 0, "B": 2}, {"A": 5}]
    totals = game_totals(
        questions,
        corrections=[Correction("B", 1, "typed paper sheet late"), Correction("A", -2, "penalty")],
        handicaps={"A": -4, "absent": -2},
        teams=["A", "B", "C"],
    )
    assert totals == {"A": 1, "B": 3, "C": 0}


# --------------------------------------------------------------------------- standings


def test_bg_s1_ranked_by_points_most_first() -> None:
    standings = rank({"A": 10, "B": 30, "C": 20})
    assert [s.team for s in standings] == ["B", "C", "A"]
    assert [s.place for s in standings] == [1, 2, 3]
    assert not any(s.shared or s.shootout_needed for s in standings)


def test_bg_s2_shared_places() -> None:
    standings = rank({"A": 30, "B": 20, "C": 25, "D": 20, "E": 20, "F": 5})
    assert places(standings) == {"A": 1, "C": 2, "B": 3, "D": 3, "E": 3, "F": 6}
    third = [s for s in standings if s.place == 3]
    assert all(s.shared and not s.shootout_needed for s in third)


def test_bg_s2_tie_for_first_needs_shootout() -> None:
    standings = rank({"A": 30, "B": 30, "C": 20})
    assert [(s.place, s.shared, s.shootout_needed) for s in standings] == [
        (1, True, True),
        (1, True, True),
        (3, False, False),
    ]


def test_bg_s2_tie_for_second_when_first_alone_needs_shootout() -> None:
    standings = rank({"A": 40, "B": 30, "C": 30, "D": 30, "E": 1})
    assert places(standings) == {"A": 1, "B": 2, "C": 2, "D": 2, "E": 5}
    assert [s.team for s in standings if s.shootout_needed] == ["B", "C", "D"]
    assert not standings[0].shootout_needed


def test_bg_s3_question_scorers_closest_or_exact() -> None:
    assert shootout_question_scorers(100, {"A": 90, "B": 120, "C": None}) == {"A"}
    assert shootout_question_scorers(1.5, {"A": 1.4, "B": 1.6, "C": 3}) == {"A", "B"}
    assert shootout_question_scorers(7, {"A": 7, "B": 7.0, "C": 8}) == {"A", "B"}
    assert shootout_question_scorers(7, {"A": None, "B": None}) == frozenset()


def test_bg_s3_two_tied_for_first_winner_first_other_second() -> None:
    standings = rank({"A": 30, "B": 30, "C": 20})
    result = shootout(["A", "B"], [1945, 8848, 42], {"A": [1944, 8000, 40], "B": [1950, 8848]})
    assert result.scores == {"A": 2, "B": 1}
    assert result.questions[1].scorers == {"B"}
    assert result.questions[2].answers == {"A": 40, "B": None}
    assert result.questions[0].distances == {"A": 1.0, "B": 5.0}
    final = apply_shootout(standings, result)
    assert [(s.team, s.place, s.shared, s.shootout_needed) for s in final] == [
        ("A", 1, False, False),
        ("B", 2, False, False),
        ("C", 3, False, False),
    ]


def test_bg_s3_three_way_tie_for_first_resolved() -> None:
    standings = rank({"A": 30, "B": 30, "C": 30, "D": 10})
    assert [s.place for s in standings] == [1, 1, 1, 4]
    result = shootout(
        ["A", "B", "C"],
        [10, 20, 30],
        {"A": [10, 25, 31], "B": [11, 20, 40], "C": [12, 21, 50]},
    )
    assert result.scores == {"A": 2, "B": 1, "C": 0}
    assert result.order == (("A",), ("B",), ("C",))
    final = apply_shootout(standings, result)
    assert places(final) == {"A": 1, "B": 2, "C": 3, "D": 4}
    assert [s.team for s in final] == ["A", "B", "C", "D"]


def test_bg_s3_three_way_tie_single_best_then_shared_second() -> None:
    standings = rank({"A": 30, "B": 30, "C": 30})
    result = shootout(["A", "B", "C"], [1, 2, 3], {"A": [1, 2, 3], "B": [5, 5, 5], "C": [5, 5, 5]})
    final = apply_shootout(standings, result)
    assert [(s.team, s.place, s.shared) for s in final] == [
        ("A", 1, False),
        ("B", 2, True),
        ("C", 2, True),
    ]


def test_bg_s3_still_tied_shares_place() -> None:
    standings = rank({"A": 30, "B": 30, "C": 12})
    result = shootout(["A", "B"], [5, 6, 7], {"A": [5, 0, None], "B": [0, 6, None]})
    assert result.scores == {"A": 1, "B": 1}
    assert result.order == (("A", "B"),)
    final = apply_shootout(standings, result)
    assert [(s.team, s.place, s.shared, s.shootout_needed) for s in final] == [
        ("A", 1, True, False),
        ("B", 1, True, False),
        ("C", 3, False, False),
    ]


def test_bg_s3_tie_for_second_resolved() -> None:
    standings = rank({"A": 40, "B": 30, "C": 30, "D": 30, "E": 1})
    result = shootout(["B", "C", "D"], [3, 3, 3], {"B": [4, 4, 4], "C": [3, 3, 3], "D": [3, 9, 9]})
    final = apply_shootout(standings, result)
    assert places(final) == {"A": 1, "C": 2, "D": 3, "B": 4, "E": 5}


def test_bg_s3_apply_refuses_a_group_that_is_not_tied() -> None:
    standings = rank({"A": 30, "B": 30, "C": 30})
    with pytest.raises(ValueError):
        apply_shootout(standings, shootout(["A", "B"], [1, 2, 3], {}))


def test_bg_s3_needs_three_questions() -> None:
    with pytest.raises(ValueError):
        shootout(["A", "B"], [1, 2], {})


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 30), st.integers(-6, 40), max_size=25))
def test_bg_s2_property_places_non_decreasing_and_ties_share(totals: dict[int, int]) -> None:
    standings = rank(totals)
    assert {s.team for s in standings} == set(totals)
    for before, after in zip(standings, standings[1:], strict=False):
        assert before.place <= after.place
        assert before.points >= after.points
        assert (before.place == after.place) == (before.points == after.points)
    for index, s in enumerate(standings):
        assert s.place == 1 + sum(other > s.points for other in totals.values())
        assert s.place <= index + 1
        assert s.shootout_needed == (s.shared and s.place in (1, 2))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.integers(0, 20)), min_size=9, max_size=9),
    st.lists(st.integers(0, 20), min_size=3, max_size=3),
)
def test_bg_s3_property_shootout_keeps_group_places(given_numbers: list, correct: list) -> None:
    standings = rank({"A": 9, "B": 9, "C": 9, "D": 1})
    answers = {team: given_numbers[i * 3 : i * 3 + 3] for i, team in enumerate("ABC")}
    final = apply_shootout(standings, shootout("ABC", correct, answers))
    group_places = sorted(s.place for s in final if s.team != "D")
    assert group_places[0] == 1 and all(p <= 3 for p in group_places)
    assert places(final)["D"] == 4
    assert [s.place for s in final] == sorted(s.place for s in final)
    assert not any(s.shootout_needed for s in final)


# --------------------------------------------------------------------------- R5 chooser


def test_bg_r5_0_single_last_team_chooses_without_draw() -> None:
    draw = last_place_draw(rank({"A": 10, "B": 5, "C": 7}))
    assert draw.candidates == ("B",) and draw.chosen == "B" and draw.seed is None


def test_bg_r5_0_draw_recorded_and_replayable() -> None:
    standings = rank({"A": 10, "B": 3, "C": 3, "D": 3})
    draw = last_place_draw(standings)
    assert draw.candidates == ("B", "C", "D")
    assert isinstance(draw.seed, int)
    assert draw.chosen in draw.candidates
    reversed_standings = list(reversed(standings))
    for _ in range(3):
        assert last_place_draw(reversed_standings, draw.seed) == draw
    chosen = {last_place_draw(standings, seed).chosen for seed in range(50)}
    assert chosen == {"B", "C", "D"}


def test_bg_r5_0_draw_with_mixed_team_ids_is_replayable() -> None:
    standings = rank({1: 0, "x": 0, (2, 3): 0})
    draw = last_place_draw(standings, 12345)
    assert last_place_draw(list(reversed(standings)), 12345) == draw


# --------------------------------------------------------------------------- monthly league


def test_bg_m1_league_points_by_place() -> None:
    assert [league_points(p, False) for p in range(1, 13)] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]
    with pytest.raises(ValueError):
        league_points(0, False)


def test_bg_m2_first_edition_twelve() -> None:
    assert league_points(1, True) == 12
    assert league_points(2, True) == 9


def test_bg_m1_shared_place_gets_its_points() -> None:
    table = month_table([{"A": 1, "B": 2, "C": 2, "D": 4}])
    assert {row.team: row.points for row in table} == {"A": 12, "B": 9, "C": 9, "D": 7}


def test_bg_m3_two_edition_streak_gives_minus_two() -> None:
    assert streak_handicap([{"A"}, {"A"}]) == {"A": -2}
    assert streak_handicap([{"A"}, {"B"}]) == {}
    assert streak_handicap([]) == {}


def test_bg_m3_three_edition_streak_gives_minus_four() -> None:
    editions = [{"B"}, {"A"}, {"A"}, {"A"}]
    assert streak_handicap(editions) == {"A": -4}
    assert streak_handicap(editions, 3) == {"A": -2}
    assert streak_handicap(editions + [{"A"}]) == {"A": -6}


def test_bg_m3_skipped_edition_spends_handicap() -> None:
    editions = [{"A"}, {"A"}, {"B"}]  # A skips edition 2, which B wins
    assert streak_handicap(editions, 2) == {"A": -2}  # due whether or not A attends
    assert streak_handicap(editions, 3) == {}
    totals = game_totals([{"B": 20, "C": 10}], handicaps=streak_handicap(editions, 2))
    assert totals == {"B": 20, "C": 10}


def test_bg_m3_shared_first_counts_as_win() -> None:
    assert streak_handicap([{"A", "B"}, {"A"}, {"A", "C"}]) == {"A": -4}


def test_bg_m3_edition_index_out_of_range() -> None:
    with pytest.raises(ValueError):
        streak_handicap([{"A"}], 5)


def test_bg_m1_month_table_sums_editions_with_places() -> None:
    first = rank({"A": 50, "B": 40, "C": 30})
    second = {"B": 1, "C": 2, "D": 3}
    third = {"A": 1, "B": 3, "D": 2}
    table = month_table([first, second, third])
    assert table == [
        MonthRow("B", 9 + 10 + 8, 1, False, (9, 10, 8)),
        MonthRow("A", 12 + 10, 2, False, (12, None, 10)),
        MonthRow("C", 8 + 9, 3, True, (8, 9, None)),
        MonthRow("D", 8 + 9, 3, True, (None, 8, 9)),
    ]


def test_bg_m4_tied_teams_all_monthly_winners() -> None:
    table = month_table([{"A": 1, "B": 2}, {"B": 1, "A": 2}, {"B": 1, "C": 2, "A": 3}])
    assert [(row.team, row.points, row.place) for row in table] == [
        ("A", 12 + 9 + 8, 1),
        ("B", 9 + 10 + 10, 1),
        ("C", 9, 3),
    ]
    assert monthly_titles(table, set()) == ({"A", "B"}, frozenset())


def test_bg_m4_vice_champion() -> None:
    table = month_table([{"A": 1, "B": 2, "C": 3}, {"A": 1, "C": 2, "B": 3}])
    winners, vice = monthly_titles(table, {"A"})
    assert winners == {"A"}
    assert vice == {"B", "C"}  # tied next teams: all vice-champions
    assert monthly_titles(table, {"Z"}) == ({"A"}, frozenset())


def test_bg_m4_vice_champion_is_next_after_all_co_winners() -> None:
    table = month_table([{"A": 1, "B": 1, "C": 3, "D": 4}])
    assert monthly_titles(table, {"A"}) == ({"A", "B"}, {"C"})
    assert monthly_titles(month_table([{"A": 1}]), {"A"}) == ({"A"}, frozenset())
    assert monthly_titles([], {"A"}) == (frozenset(), frozenset())
