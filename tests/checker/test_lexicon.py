"""Names and abbreviations from maintained data (issue 16 §1): CLDR via babel, ISO 3166
via pycountry."""

from __future__ import annotations

import pytest

from answerdesk.checker.lexicon import _abbreviations, common_russian_word, initials, same_entity


@pytest.mark.parametrize(
    "text,expected",
    [
        ("united states of america", ("usa", "usoa")),
        ("организация на обединените нации", ("оон", "онон")),
        ("федеративная республика германия", ("фрг",)),
        ("германия", ()),
    ],
)
def test_initials_with_and_without_function_words(text: str, expected: tuple) -> None:
    assert initials(text) == expected


@pytest.mark.parametrize(
    "a,b",
    [
        ("сша", "usa"), ("сащ", "сша"), ("сащ", "съединени американски щати"),
        ("оон", "un"), ("оон", "организация объединенных наций"), ("фрг", "германия"),
        ("оаэ", "uae"), ("ес", "european union"),
    ],
)
def test_abbreviation_and_name_of_one_country_or_body(a: str, b: str) -> None:
    assert same_entity(a, b) and same_entity(b, a)


@pytest.mark.parametrize("a,b", [("сша", "сащ x"), ("фрг", "австрия"), ("usa", "un")])
def test_abbreviations_of_different_things_stay_apart(a: str, b: str) -> None:
    assert not same_entity(a, b)


def test_an_abbreviation_two_names_share_is_dropped() -> None:
    table = _abbreviations()
    assert all(len(ids) == 1 for ids in table.values())


@pytest.mark.parametrize(
    "a,b",
    [("ссср", "союз советских социалистических республик"), ("ussr", "ссср"),
     ("гдр", "german democratic republic"), ("чехословакия", "czechoslovakia")],
)
def test_countries_of_the_past_from_iso_3166_3(a: str, b: str) -> None:
    assert same_entity(a, b)


def test_a_past_country_is_not_its_successor() -> None:
    assert not same_entity("гдр", "германия")
    assert not same_entity("ссср", "россия")


@pytest.mark.parametrize("word", ["досужий", "виснуть", "пинетки", "грибница", "сауна"])
def test_common_russian_words(word: str) -> None:
    assert common_russian_word(word)


@pytest.mark.parametrize("word", ["пушкин", "орлов", "волга", "марс", "шмырдяк", "london", ""])
def test_names_unknown_and_latin_words_are_not_common_russian_words(word: str) -> None:
    assert not common_russian_word(word)
