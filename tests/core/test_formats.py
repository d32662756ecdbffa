"""core.formats: the registry every game plugs into (issue 14 §2, CTFd-style)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from answerdesk.core import formats
from answerdesk.errors import DeskError
from answerdesk.formats import BUNDLED, load_all


def test_load_all_registers_every_bundled_format() -> None:
    load_all()
    assert set(BUNDLED) <= set(formats.REGISTRY)
    assert formats.names() == sorted(formats.REGISTRY)


def test_an_unknown_format_is_a_clear_refusal() -> None:
    with pytest.raises(DeskError) as refused:
        formats.get("no-such-game")
    assert refused.value.status == 400
    assert "no-such-game" in str(refused.value)


def test_a_format_is_found_by_the_events_format_column() -> None:
    load_all()
    assert formats.of(SimpleNamespace(format="bg")) is formats.get("bg")


def test_the_base_format_changes_nothing() -> None:
    """A format overrides only what its rules add: the defaults are neutral."""

    class Plain(formats.Format):
        name = "plain-test"

    plain = Plain()
    row = SimpleNamespace(number=1, kind="open", text="x")
    assert plain.programme() == () and plain.standings(None) == []
    assert not plain.one_at_a_time(row)
    values = {"outcome": "wrong", "fraction": 0.0, "reason": "no"}
    assert plain.after_check(row, dict(values)) == values
    sheet = {"rounds": []}
    assert plain.decorate_sheet(sheet, None, None) is sheet
    assert plain.decorate_event_sheet(sheet, None) is sheet


def test_bg_programme_and_its_final_round_one_question_at_a_time() -> None:
    """BG-R1..R6 from the BG package; BG-R6.1 only the final opens question by question."""
    load_all()
    bg = formats.get("bg")
    programme = bg.programme()
    assert [t.number for t in programme] == [1, 2, 3, 4, 5, 6]
    assert [t.check_mode for t in programme] == ["choice", "typo3", "typo3", "typo5",
                                                 "exact", "typo3"]
    assert bg.one_at_a_time(SimpleNamespace(number=6, kind="final"))
    assert not bg.one_at_a_time(SimpleNamespace(number=2, kind="open"))
    live = SimpleNamespace(number=6, kind="final", text="Левски")
    wrong = {"outcome": "wrong", "fraction": 0.0, "reason": "far"}
    assert bg.after_check(live, dict(wrong))["outcome"] == "review"
    assert bg.after_check(SimpleNamespace(number=2, kind="open", text="Левски"),
                          dict(wrong)) == wrong
