"""Numbers inside text (issue 16 §2): years, words, ordinals, Roman numerals."""

from __future__ import annotations

import pytest

from answerdesk.checker import check
from answerdesk.checker.normalize import normalize
from answerdesk.checker.numbers import digits_for_numbers, fold_roman_lookalikes, text_roman


def digits(text: str) -> str:
    return " ".join(digits_for_numbers(tuple(normalize(text).split())))


@pytest.mark.parametrize(
    "text,expected",
    [
        ("1944 г.", "1944"), ("1944г", "1944"), ("1944 година", "1944"), ("1944 год.", "1944"),
        ("в 1944 году", "1944"), ("през 1944 г", "1944"), ("in 1944", "1944"),
        ("осем", "8"), ("Петър Трети", "петър 3"), ("Пётр Третий", "петр 3"),
        ("Екатерина Вторая", "екатерина 2"), ("Хенри Осми", "хенри 8"), ("fifth", "5"),
        ("Людовик XIV", "людовик 14"), ("Карл V", "карл 5"), ("Третият рейх", "3 рейх"),
    ],
)
def test_numbers_written_as_digits(text: str, expected: str) -> None:
    assert digits(text) == expected


@pytest.mark.parametrize("text", ["Boney M", "AC DC", "MC Hammer", "Xi Jinping", "г 1944"])
def test_letters_stay_letters(text: str) -> None:
    # L, C, D, M are never read as numerals inside a text; a Roman numeral only closes a
    # name; a year word only follows a year
    assert digits(text) == normalize(text)


@pytest.mark.parametrize(
    "token,expected",
    [("хіv", "xiv"), ("хх", "xx"), ("xі", "xi"), ("х", "х"), ("хм", "хм"), ("ххххх", "ххххх")],
)
def test_cyrillic_lookalike_roman_numerals(token: str, expected: str) -> None:
    assert fold_roman_lookalikes(token) == expected


def test_text_roman_stops_at_39() -> None:
    assert text_roman("xxxix") == 39
    assert text_roman("xl") is None and text_roman("m") is None and text_roman("") is None


def test_roman_lookalikes_in_normalize() -> None:
    assert normalize("Людовик ХІV") == normalize("Людовик XIV") == "людовик xiv"


@pytest.mark.parametrize(
    "given,key",
    [("V", "Пети"), ("Пети", "V"), ("I", "първи"), ("X", "десятый"), ("IV", "Четвърти"),
     ("XIV", "14"), ("ХІV", "четырнадцатый")],
)
def test_lone_roman_numeral_against_a_number(given: str, key: str) -> None:
    """Issue 16 §2: "V" for "Пети"; a lone letter is a numeral only against a number."""
    v = check(given, [key], "typo3")
    assert (v.outcome, v.code) == ("correct", "number_in_words")


def test_lone_roman_letter_against_another_number_is_wrong() -> None:
    assert check("V", ["четвърти"], "typo3").outcome == "wrong"


@pytest.mark.parametrize("given,key", [("C", "Си"), ("B", "Б")])
def test_lone_letter_is_not_a_number_against_a_word(given: str, key: str) -> None:
    assert check(given, [key], "typo3").code != "number_in_words"


@pytest.mark.parametrize(
    "given,key",
    [
        ("1 млн", 1_000_000), ("1 млн.", 1_000_000), ("5 хил.", 5000), ("20 тыс.", 20_000),
        ("3 млрд", 3_000_000_000), ("3 bn", 3_000_000_000), ("5 хиляди", 5000),
        ("5 миллионов", 5_000_000), ("2,5 хиляди", 2500), ("1.5 млн", 1_500_000),
        ("2,5 тыс.", 2500), ("четирийсет", 40),
    ],
)
def test_digits_and_a_scale_word(given: str, key: int) -> None:
    """Rules "a scale word abbreviated" and "digits and a scale word" (issue 30 class 2,
    seventh pass): digits and a scale word, written out or abbreviated, are their product."""
    v = check(given, [key], "number")
    assert (v.outcome, v.code) == ("correct", "right_number")


@pytest.mark.parametrize(
    "given,key",
    [("5 мл", 5_000_000), ("5 м", 5000), ("5 т", 5000), ("2,5 хиляди", 25), ("1 млн", 1)],
)
def test_a_unit_abbreviation_is_no_scale(given: str, key: int) -> None:
    """Counter-examples: millilitres, metres and tonnes stay units; the product is the
    number, not its digits."""
    assert check(given, [key], "number").outcome == "wrong"


def test_a_decimal_scale_that_makes_no_whole_number_is_not_read() -> None:
    assert check("2,0005 хил.", [2], "number").outcome == "review"


@pytest.mark.parametrize(
    "given,key,outcome",
    [
        ("2,5", [2.5], "correct"), ("2.5", ["2,5"], "correct"), ("3,14", [3.14], "correct"),
        ("0,5", [0.5], "correct"), ("25", [2.5], "wrong"), ("314", [3.14], "wrong"),
        ("2,5", [25], "wrong"), ("1,000", [1000], "correct"),
    ],
)
def test_a_decimal_is_no_whole_number(given: str, key: list, outcome: str) -> None:
    """Rule "a decimal is no whole number" (seventh pass): the separator is read before
    normalising drops it; three digits after it stay a thousands group."""
    assert check(given, key, "number").outcome == outcome


@pytest.mark.parametrize(
    "given, number",
    [
        ("тройката", 3), ("двойката", 2), ("петицата", 5), ("тримата", 3),   # bg article
        ("шесторка", 6), ("осморка", 8), ("десеторка", 10),                  # a set of so many
        ("двадцатка", 20),
    ],
)
def test_bulgarian_nouns_for_numbers_with_the_article_and_sets_of_so_many(
    given: str, number: int
) -> None:
    assert check(given, [number], "number").outcome == "correct"


@pytest.mark.parametrize(
    "given, number",
    [("nineteen forty-four", 1944), ("ten sixty-six", 1066), ("eighteen twelve", 1812),
     ("twenty five", 25)],
)
def test_an_english_year_read_in_pairs(given: str, number: int) -> None:
    assert check(given, [number], "number").outcome == "correct"


@pytest.mark.parametrize("given, number", [("nineteen forty-four", 1945), ("twenty five", 2005)])
def test_a_year_read_in_pairs_is_no_other_number(given: str, number: int) -> None:
    assert check(given, [number], "number").outcome == "wrong"


@pytest.mark.parametrize("given, number", [("XIV-ти", 14), ("IV-ти", 4), ("XXI-ви", 21)])
def test_a_roman_numeral_with_an_ordinal_suffix(given: str, number: int) -> None:
    assert check(given, [number], "number").outcome == "correct"
