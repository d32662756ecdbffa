"""Open answers (issue 16): gender forms, surnames, articles, reject lists, names."""

from __future__ import annotations

import pytest

from answerdesk.checker import check
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
