"""Open answers (issue 16): gender forms, surnames, articles, reject lists, names."""

from __future__ import annotations

import pytest

from answerdesk.checker import check
from answerdesk.checker.normalize import numbered_parts
from answerdesk.checker.text import _article_form, _gender_pair, nearness, prepare


@pytest.mark.parametrize(
    "a,b",
    [("петров", "петрова"), ("пушкин", "пушкина"), ("ковалевский", "ковалевская"),
     ("ковалевски", "ковалевска"), ("трубецкой", "трубецкая")],
)
def test_gender_pairs(a: str, b: str) -> None:
    assert _gender_pair(a, b) and _gender_pair(b, a)


@pytest.mark.parametrize("a,b", [("петров", "петрово"), ("ов", "ова"), ("маша", "машина")])
def test_not_gender_pairs(a: str, b: str) -> None:
    assert not _gender_pair(a, b)


@pytest.mark.parametrize(
    "a,b,ok",
    [("дунав", "дунавът", True), ("айфелова", "айфеловата", True), ("море", "морето", True),
     ("марица", "марицата", True), ("рим", "рима", False), ("дунав", "дунавски", False)],
)
def test_article_forms(a: str, b: str, ok: bool) -> None:
    assert _article_form(a, b) is ok


def test_gender_form_of_a_full_name_is_wrong_with_its_reason() -> None:
    v = check("Иван Петрова", ["Иван Петров"], "typo3")
    assert (v.outcome, v.code) == ("wrong", "other_gender")


@pytest.mark.parametrize(
    "given,key", [("Толстой", "Лев Толстой"), ("Ньютон", "Исаак Ньютон"),
                  ("Hemingway", "Ернест Хемингуей")],
)
def test_bare_surname_goes_to_the_host(given: str, key: str) -> None:
    v = check(given, [key], "typo5")
    assert (v.outcome, v.code) == ("review", "surname_only")


def test_key_listing_the_surname_accepts_it() -> None:
    assert check("Толстой", ["Лев Толстой", "Толстой"], "typo3").outcome == "correct"


def test_reject_list_decided_by_the_nearer_form() -> None:
    key = {"accept": ["Наполеон"], "reject": ["Наполеон III"]}
    assert check("Напалеон", key, "typo3").outcome == "correct"
    v = check("Наполеон 3", key, "typo3")
    assert v.outcome == "wrong"
    near = check("Пушкна", {"accept": ["Пушкин"], "reject": ["Пушкина"]}, "typo3")
    assert (near.outcome, near.code) == ("wrong", "nearer_rejected")
    assert near.params == {"entry": "Пушкина", "key": "Пушкин"}


def test_nearness_compares_across_scripts() -> None:
    assert nearness(prepare("Куийн"), prepare("Queen")) == 0.0
    assert nearness(prepare("Куийн"), prepare("Queens")) > 0.0


@pytest.mark.parametrize("mode", ["exact", "typo3", "typo5"])
def test_cldr_names_in_every_text_mode(mode: str) -> None:
    v = check("Нидерланды", ["Нидерландия"], mode)
    assert (v.outcome, v.code) == ("correct", "same_name")


@pytest.mark.parametrize(
    "given,key,code",
    [
        ("МГУ", "Московский государственный университет", "abbreviation"),
        ("NYT", "Нью-Йорк Таймс", "abbreviation"),
        ("НАТО", "North Atlantic Treaty Organization", "abbreviation"),
        ("Организация Объединённых Наций", "ООН", "same_name"),
        ("USA", "САЩ", "same_name"),
    ],
)
def test_abbreviations_accepted(given: str, key: str, code: str) -> None:
    v = check(given, [key], "typo3")
    assert (v.outcome, v.code) == ("correct", code)


@pytest.mark.parametrize(
    "given,key", [("ЛТ", "Лев Толстой"), ("ЛНТ", "Лев Николаевич Толстой"), ("ДК", "Дом культуры")]
)
def test_initials_not_in_use_go_to_the_host(given: str, key: str) -> None:
    v = check(given, [key], "typo3")
    assert (v.outcome, v.code) == ("review", "abbreviation_unsure")


def test_abbreviation_is_not_exact() -> None:
    assert check("МГУ", ["Московский государственный университет"], "exact").outcome == "wrong"


@pytest.mark.parametrize(
    "key,given",
    [("уровень", "повень"), ("учитель", "витель"), ("нарисовать", "орисовать"),
     ("размножение", "измножение"), ("громкое", "йомкое")],
)
def test_common_word_misspelt_at_its_first_letter_is_a_typo(key: str, given: str) -> None:
    assert check(given, [key], "typo3").outcome == "correct"


@pytest.mark.parametrize(
    "key,given",
    [("Запястье", "Пястье"), ("Бурундуков", "Мурундуков"), ("Чертов мередит", "Чертов чертедит")],
)
def test_first_letter_still_guards_prefixes_names_and_phrases(key: str, given: str) -> None:
    assert check(given, [key], "typo3").outcome != "correct"


@pytest.mark.parametrize(
    "key,given", [("Плутоний", "Плутон"), ("Нептуний", "Нептун"), ("Германий", "Герман"),
                  ("Франция", "Франц")],
)
def test_noun_in_ii_less_its_suffix_is_another_word(key: str, given: str) -> None:
    v = check(given, [key], "typo3")
    assert (v.outcome, v.code) == ("review", "different_word")


@pytest.mark.parametrize(
    "key,given", [("маленький", "маленькие"), ("Лондон", "Лондона"), ("гений", "гения")]
)
def test_inflections_are_not_other_words(key: str, given: str) -> None:
    assert check(given, [key], "typo3").outcome in ("correct", "review")


@pytest.mark.parametrize(
    "key,given",
    [("Уолт Дисней", "Уолт Дисни"), ("Маргарет Тэтчер", "Маргарет Тачър"),
     ("Максим Горький", "Максим Горки"), ("Гёте", "Гьоте"), ("Рэмбо", "Рамбо")],
)
def test_bulgarian_and_russian_transcriptions_of_one_name(key: str, given: str) -> None:
    assert check(given, [key], "typo5").outcome == "correct"


@pytest.mark.parametrize(
    "given,key",
    [("С.А.Щ.", "Съединени американски щати"), ("U. S. A.", "САЩ"),
     ("М.Г.У.", "Московский государственный университет")],
)
def test_abbreviation_written_with_dots_or_spaces(given: str, key: str) -> None:
    assert check(given, [key], "typo3").outcome == "correct"


@pytest.mark.parametrize(
    "given,key",
    [("Уотсон", "Watson"), ("Уолтер Скотт", "Walter Scott"), ("Уошингтон", "Washington"),
     ("Гамлет", "Hamlet")],
)
def test_old_and_new_russian_spellings_meet_the_original(given: str, key: str) -> None:
    """Prep.skels also reads a Cyrillic text in its convention form (issue 16 §1)."""
    v = check(given, [key], "typo5")
    assert (v.outcome, v.code) == ("correct", "transcription")


@pytest.mark.parametrize(
    "key,given",
    [("досужий", "досугний"), ("виснуть", "висить"), ("грибница", "грибовница"),
     ("хрюкать", "хрюкоть")],
)
def test_rare_lower_case_dictionary_word_misspelt_is_a_typo(key: str, given: str) -> None:
    """Rule "a word, not a name": the rare-name rules are for names."""
    assert check(given, [key], "typo3").outcome == "correct"


def test_capitalised_rare_word_keeps_the_rare_name_rules() -> None:
    assert check("Бурундаков", ["Бурундуков"], "typo3").outcome == "review"


@pytest.mark.parametrize(
    "key,given", [("благодать", "благодар"), ("агентство", "агенство"),
                  ("участвовать", "учавствовать"), ("пожалуйста", "пожалуста")],
)
def test_listed_misspelling_of_a_dictionary_word_is_a_typo(key: str, given: str) -> None:
    """Rule "listed misspelling": wordfreq lists it, the Russian dictionary does not."""
    assert check(given, [key], "typo3").outcome == "correct"


@pytest.mark.parametrize(
    "key,given", [("правило", "правилно"), ("стрелка", "стрели"), ("митоз", "мейоз")]
)
def test_words_of_bulgarian_or_the_dictionary_stay_different_words(key: str, given: str) -> None:
    v = check(given, [key], "typo3")
    assert (v.outcome, v.code) == ("review", "different_word")


@pytest.mark.parametrize(
    "given,key", [("Ира", "Иван Романович Алексеев"), ("мир", "Московский институт радиотехники")]
)
def test_a_word_that_spells_the_initials_goes_to_the_host(given: str, key: str) -> None:
    v = check(given, [key], "typo3")
    assert (v.outcome, v.code) == ("review", "abbreviation_unsure")


@pytest.mark.parametrize(
    "given,key",
    [  # the numbered answers of the packs in tests/data/packs/chgk, typed as printed
        ('1. "Свет мой, зеркальце".\n2. "Дорогой, многоуважаемый шкаф"',
         "Свет мой, зеркальце; Дорогой, многоуважаемый шкаф"),  # wc13 Q3.6
        ("1. Актиния.2. Рак-отшельник", "Актиния; Рак-отшельник"),  # wc13 Q9.7, one line
        ('1) "... мотоциклу..." 2) "... доски..." 3) "... контактная линза"',
         "... мотоциклу...; ... доски...; ... контактная линза"),  # wc13 Q1.8
        ("1. Пол овина. 2. Пол риги.", "Пол овина; Пол риги"),  # ingush16 Q1.4
        ("1. 1914. 2. 1939.", "1914; 1939"),  # ingush16 Q1.12
    ],
)
def test_numbered_parts_read_as_the_keys_parts(given: str, key: str) -> None:
    """Rule "numbered parts" (docs/checker.md): a duplet typed as the desk shows it."""
    assert check(given, {"accept": [key]}).outcome == "correct"


@pytest.mark.parametrize(
    "given,key,outcome",
    [("1. Актиния 2. Краб", "Актиния; Рак-отшельник", "wrong"),  # a wrong part stays wrong
     ("2. Рак-отшельник 1. Актиния", "Актиния; Рак-отшельник", "review"),  # not 1..N
     ("1914", "1914; 1939", "wrong")],  # one part of two
)
def test_numbered_parts_only_in_order_and_only_for_a_parted_key(
        given: str, key: str, outcome: str) -> None:
    assert check(given, {"accept": [key]}).outcome == outcome


def test_numbered_parts_need_the_keys_count_from_one() -> None:
    assert numbered_parts("1. X 2. Y", 2) == "X; Y"
    assert numbered_parts("2 доски", 2) is None  # a number, not an enumerator
    assert numbered_parts("1. X 2. Y", 3) is None and numbered_parts("1. X", 1) is None
    assert numbered_parts("В 1914. 2. Y", 2) is None  # must open with "1."
