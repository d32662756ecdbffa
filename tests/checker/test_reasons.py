"""Reasons as a code plus values (issue 16 §8, docs/checker.md verdict.code/params)."""

from __future__ import annotations

import re

import pytest

from answerdesk.checker import check
from answerdesk.checker.reasons import CATALOGUE, render, why

CASES = [
    ("Напалеон", ["Наполеон"], "typo3", "spelling_errors", {"count": 1}),
    ("Австралия", ["Австрия"], "typo3", "different_name", {"word": "Австралия"}),
    ("Исак Нютон или Айнщайн", ["Исак Нютон"], "typo3", "hedged", {}),
    ("А или Б", ["А"], "choice", "two_options", {}),
    ("1944 г.", ["1944"], "typo3", "number_in_words", {"number": "1944"}),
    ("Куийн", ["Queen"], "typo5", "transcription", {"key": "Queen"}),
]


@pytest.mark.parametrize("given,key,mode,code,params", CASES)
def test_verdict_carries_code_and_params(given, key, mode, code, params) -> None:
    v = check(given, key, mode)
    assert (v.code, v.params) == (code, params)
    assert v.reason == why(code, **params).text  # the English text is the code rendered


def test_every_code_renders_with_its_own_placeholders() -> None:
    for code, msg in CATALOGUE.items():
        msgids = msg if isinstance(msg, tuple) else (msg,)
        names = {n for m in msgids for n in re.findall(r"%\((\w+)\)s", m)}
        text = why(code, **dict.fromkeys(names, 2)).text
        assert "%(" not in text and text


def test_plural_follows_count() -> None:
    assert why("spelling_errors", count=1).text == "1 spelling error"
    assert why("spelling_errors", count=3).text == "3 spelling errors"


def test_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        why("no_such_reason")


def test_render_falls_back_to_empty_for_unknown_or_broken() -> None:
    ident = (lambda s: s, lambda s, p, n: s if n == 1 else p)
    assert render("no_such_reason", {}, *ident) == ""
    assert render(None, None, *ident) == ""
    assert render("different_word", {}, *ident) == ""  # values missing


@pytest.mark.parametrize(
    "lang,expected",
    [("bg", "съкращение на Московский государственный университет"),
     ("ru", "сокращение от Московский государственный университет"),
     ("en", "abbreviation of Московский государственный университет")],
)
def test_new_reason_codes_render_through_the_catalogues(lang: str, expected: str) -> None:
    """Issue 16 §8: the abbreviation reasons have bg/ru/en entries in the catalogues."""
    from pathlib import Path

    from babel.support import Translations

    import answerdesk

    folder = Path(answerdesk.__file__).parent / "translations"
    t = Translations.load(str(folder), [lang])
    v = check("МГУ", ["Московский государственный университет"], "typo3")
    assert render(v.code, v.params, t.gettext, t.ngettext) == expected
    unsure = why("abbreviation_unsure", key="Лев Толстой")
    assert render(unsure.code, unsure.params, t.gettext, t.ngettext)
