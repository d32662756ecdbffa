"""Своя игра's pure rules: values (SI-1.1), late joining and places (SI-1.2), lists
(SI-2.4), scores and warnings (SI-1.3), protests (SI-3), the theme's author (SI-0)."""

from __future__ import annotations

import pytest

from answerdesk.formats.si.rules import (
    Join,
    Mark,
    ProtestState,
    Result,
    author_may_answer,
    lists,
    may_join,
    may_protest,
    most_expensive,
    must_warn,
    open_protest_windows,
    protest_window_open,
    scores,
    theme_of,
    value,
)


def test_si_1_1_values_by_round_and_place_in_the_theme():
    assert [value(1, n) for n in range(1, 6)] == [1, 2, 3, 4, 5]
    assert [value(2, n) for n in range(6, 11)] == [2, 4, 6, 8, 10]
    assert [value(3, n) for n in range(21, 26)] == [3, 6, 9, 12, 15]
    assert (theme_of(1), theme_of(5), theme_of(6), theme_of(25)) == (1, 1, 2, 5)
    with pytest.raises(ValueError):
        value(4, 1)
    with pytest.raises(ValueError):
        value(1, 26)


def test_si_2_4_lists_as_the_host_publishes_them():
    published = lists(3, [Result("Вася", Mark.CORRECT), Result("Женя", Mark.WRONG),
                          Result("Ира", Mark.CORRECT), Result("Петя", Mark.LATE),
                          Result("Оля", Mark.NONE)])
    assert published.lines() == ["+3 Вася, Ира", "−3 Женя", "0 Петя"]


def test_si_2_4_and_si_1_3_scores_plus_minus_value_and_the_second_warning_annuls():
    rows = scores([("Вася", True, 0), ("Женя", True, 1), ("Ира", False, 2)],
                  [("Вася", Mark.CORRECT, 3), ("Женя", Mark.WRONG, 3), ("Ира", Mark.CORRECT, 5),
                   ("Вася", Mark.WRONG, 1), ("Женя", Mark.LATE, 4)])
    assert [(r.player, r.points, r.removed) for r in rows] == [
        ("Вася", 2, False), ("Женя", -3, False), ("Ира", 0, True)]


def test_si_1_2_late_players_join_in_rounds_1_and_2_between_questions():
    assert may_join(None, False) == Join.OPEN  # before the game
    assert may_join(1, False) == Join.OPEN
    assert may_join(2, False) == Join.OPEN
    assert may_join(1, True) == Join.WAIT  # a question is being played
    assert may_join(2, True) == Join.WAIT
    assert may_join(3, False) == Join.CLOSED
    assert may_join(3, True) == Join.CLOSED


def test_si_1_2_out_of_competition_players_play_but_take_no_place():
    rows = scores([("Вася", True, 0), ("Гость", False, 0), ("Ира", True, 0), ("Женя", True, 2)],
                  [("Гость", Mark.CORRECT, 10), ("Вася", Mark.CORRECT, 3),
                   ("Ира", Mark.CORRECT, 3), ("Женя", Mark.CORRECT, 15)])
    assert [(r.player, r.points, r.place) for r in rows] == [
        ("Гость", 10, None), ("Вася", 3, 1), ("Ира", 3, 1), ("Женя", 0, None)]


def test_si_3_only_players_in_competition_protest():
    assert may_protest(in_competition=True, removed=False)
    assert not may_protest(in_competition=False, removed=False)
    assert not may_protest(in_competition=True, removed=True)


def test_si_3_protest_window_from_publication_until_the_next_theme_starts():
    theme = (1, 2)
    assert not protest_window_open(False, theme, [])  # not published yet
    assert protest_window_open(True, theme, [])
    assert protest_window_open(True, theme, [(1, 2), (1, 2)])  # the same theme goes on
    assert not protest_window_open(True, theme, [(1, 2), (1, 3)])  # the next theme began
    assert not protest_window_open(True, theme, [(2, 2)])  # another round's theme 2


def test_si_3_open_windows_are_the_published_questions_of_the_theme_being_played():
    r1t1, r1t2, r2t1 = (1, 1), (1, 2), (2, 1)
    assert open_protest_windows([]) == []
    # The theme goes on: its earlier published questions stay open, an unpublished not.
    assert open_protest_windows([(r1t1, True), (r1t1, True), (r1t1, False)]) == [0, 1]
    assert open_protest_windows([(r1t1, True), (r1t1, False), (r1t1, True)]) == [0, 2]
    # A question of another theme starts: every window of the theme before closes,
    # even before that question is published.
    assert open_protest_windows([(r1t1, True), (r1t1, True), (r1t2, False)]) == []
    assert open_protest_windows([(r1t1, True), (r1t2, True)]) == [1]
    # Theme 1 of another round is another theme; coming back to a theme opens nothing old.
    assert open_protest_windows([(r1t1, True), (r2t1, True)]) == [1]
    assert open_protest_windows([(r1t1, True), (r1t2, True), (r1t1, True)]) == [2]


def test_si_3_a_repeated_groundless_protest_must_earn_a_warning():
    assert not must_warn(0)  # the first may (the host's choice)
    assert must_warn(1) and must_warn(3)
    assert ProtestState.FILED.pending and ProtestState.HEARD.pending
    assert not ProtestState.UPHELD.pending and not ProtestState.REJECTED.pending


def test_si_0_the_author_plays_the_theme_only_by_its_most_expensive_question():
    assert most_expensive({6: 2, 7: 4, 8: 6, 9: 8, 10: 10}) == 10
    assert most_expensive({1: 5, 2: 5}) == 2  # equal values: the later one
    with pytest.raises(ValueError):
        most_expensive({})
    assert author_may_answer(True, 10, 10)
    assert not author_may_answer(True, 7, 10)
    assert author_may_answer(False, 7, 10)
