"""Transcription conventions of one name (issue 16 §1)."""

from __future__ import annotations

import pytest

from answerdesk.checker.normalize import normalize
from answerdesk.checker.translit import convention_form


@pytest.mark.parametrize(
    "a,b",
    [
        ("Уотсон", "Ватсон"), ("Гарри", "Хари"), ("Гамлет", "Хамлет"), ("Иан", "Ян"),
        ("Вильям Шекспир", "Уилям Шекспир"), ("Айнщайн", "Айнштайн"),
        ("Хемингуэй", "Хемингуей"), ("Франкенштейн", "Франкенщайн"), ("Мариа", "Мария"),
        ("Иаков", "Яков"),
    ],
)
def test_one_name_two_conventions(a: str, b: str) -> None:
    assert convention_form(normalize(a)) == convention_form(normalize(b))


@pytest.mark.parametrize("a,b", [("Толстой", "Толстая"), ("Уран", "Иран"), ("Гол", "Кол")])
def test_different_names_stay_apart(a: str, b: str) -> None:
    assert convention_form(normalize(a)) != convention_form(normalize(b))
