"""Своя игра's pure rules: values (SI-1.1), lists (SI-2.4), scores and warnings (SI-1.3)."""

from __future__ import annotations

import pytest

from answerdesk.formats.si.rules import Mark, Result, lists, scores, theme_of, value


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
