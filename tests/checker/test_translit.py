"""Transcription conventions of one name (issue 16 §1)."""

from __future__ import annotations

import pytest

from answerdesk.checker.normalize import normalize
from answerdesk.checker.translit import convention_form, convention_forms, greek_school_forms


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


@pytest.mark.parametrize(
    "a,b",
    [
        ("Дисней", "Дисни"), ("Теккерей", "Текери"), ("Стенлей", "Стенли"),
        ("Чайковский", "Чайковски"), ("Горький", "Горки"), ("Достоевский", "Достоевски"),
        ("Митчелл", "Мичел"), ("Хатчинсон", "Хачинсон"),
    ],
)
def test_bulgarian_and_russian_endings_and_tch(a: str, b: str) -> None:
    """-ey/-ay as -ей or -и, -ий as -и, -tch- as тч or ч (translit.convention_form)."""
    assert convention_form(normalize(a)) == convention_form(normalize(b))


@pytest.mark.parametrize("a,b", [("Тэтчер", "Тачер"), ("Кэмерон", "Камерон"), ("Рэмбо", "Рамбо")])
def test_russian_e_after_a_consonant_read_as_a(a: str, b: str) -> None:
    assert convention_form(normalize(b)) in convention_forms(normalize(a))


def test_e_after_a_vowel_has_one_reading() -> None:
    assert convention_forms(normalize("Хемингуэй")) == (convention_form(normalize("Хемингуэй")),)


@pytest.mark.parametrize(
    "given,key",
    [("Би Би Си", "BBC"), ("Би-би-си", "BBC"), ("Еф Би Ай", "FBI"), ("Ен Би Ей", "NBA"),
     ("Кей Еф Си", "KFC"), ("Ем Ти Ви", "MTV")],
)
def test_letters_read_out_match_the_abbreviation(given: str, key: str) -> None:
    """Issue 16 §1: an abbreviation read letter by letter in Cyrillic (BG-R4.3)."""
    from answerdesk.checker import check

    assert check(given, [key], "typo5").outcome == "correct"


@pytest.mark.parametrize("given,key", [("Би Би Си", "CNN"), ("Би Би Си", "NBA")])
def test_other_letters_read_out_do_not(given: str, key: str) -> None:
    from answerdesk.checker import check

    assert check(given, [key], "typo5").outcome == "wrong"


def test_greek_school_forms_fold_russian_f_ts_y_onto_bulgarian_t_k_i() -> None:
    """Rule "Greek through Latin or from Greek" (issue 30 class 1, eighth pass)."""
    assert "темида" in greek_school_forms("фемида")
    assert "кербер" in greek_school_forms("цербер")
    assert "крилов" in greek_school_forms("крылов")
    assert greek_school_forms("цвят") == ()  # ц before a consonant stays ц
    assert greek_school_forms("кипр") == ()  # nothing to fold


@pytest.mark.parametrize(
    "ru, bg", [("Бирмингем", "Бирмингам"), ("Ноттингем", "Нотингам"), ("Уокингем", "Уокингам")]
)
def test_english_ngham_is_russian_ngem_and_bulgarian_ngam(ru: str, bg: str) -> None:
    assert convention_form(normalize(ru)) == convention_form(normalize(bg))


def test_ngem_inside_a_word_is_left_alone() -> None:
    assert convention_form("нгема") == "нгема"
