"""The check modes' one table (issue 14 §2): every place that depends on a mode reads it."""

from __future__ import annotations

import pytest

from answerdesk.checker import MODES, check
from answerdesk.checker.modes import MODES as TABLE
from answerdesk.checker.modes import widget_kind
from answerdesk.core.widgets import kind_of
from answerdesk.packs.model import CHECK_MODES, TEXT_MODES


def test_the_checker_the_packs_and_the_widgets_share_one_list_of_modes() -> None:
    assert MODES == CHECK_MODES == tuple(TABLE)
    assert TEXT_MODES == ("exact", "typo3", "typo5")
    assert {name: TABLE[name].max_errors for name in TEXT_MODES} == {
        "exact": 0, "typo3": 3, "typo5": 5}


@pytest.mark.parametrize(("mode", "key", "widget"), [
    ("choice", ["вярно"], "truefalse"),          # BG-R1 true/false
    ("choice", {"accept": ["Б"]}, "abcd"),         # BG-R1 А/Б/В/Г
    ("song", {"title": ["Yesterday"], "artists": [["The Beatles"]]}, "song"),  # BG-R4.1
    ("pairs", {"1": "В", "2": "А", "3": "Б", "4": "Г"}, "pairs"),  # BG-R5.5
    ("number", ["7"], "number"),                   # BG-R5.4
    ("typo3", ["Вазов"], "text"),
    ("no-such-mode", ["x"], "text"),
])
def test_each_mode_names_its_phone_widget(mode: str, key: object, widget: str) -> None:
    assert widget_kind(mode, key) == widget == kind_of(mode, key)


def test_check_runs_the_modes_own_function() -> None:
    """BG-R5.6 exact allows no error, BG-R2 typo3 three; max_errors overrides the mode's."""
    assert check("Вазоф", ["Вазов"], "exact").outcome == "wrong"
    assert check("Вазоф", ["Вазов"], "typo3").outcome == "correct"
    assert check("Вазоф", ["Вазов"], "typo3", max_errors=0).outcome != "correct"
    with pytest.raises(ValueError, match="unknown mode"):
        check("x", ["x"], "no-such-mode")
