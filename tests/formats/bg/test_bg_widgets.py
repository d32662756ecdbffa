"""Answer widgets: the text the checker gets from structured fields, for the phone and
for host forms (templates/widgets/answer_field.html)."""

from __future__ import annotations

import pytest
from flask import render_template_string
from werkzeug.datastructures import MultiDict

from answerdesk.checker import check
from answerdesk.core.widgets import answer_text, fields_from_form, number_of
from answerdesk.errors import DeskError

SONG_KEY = {"title": ["Bohemian Rhapsody"], "artists": [["Queen"]]}


@pytest.mark.parametrize("fields, kind, text", [
    ({"choice": "вярно"}, "truefalse", "вярно"),
    ({"choice": "Г"}, "abcd", "Г"),
    ({"title": "Bohemian Rhapsody", "artists": "Queen"}, "song", "Queen – Bohemian Rhapsody"),
    ({"title": "Bohemian Rhapsody", "artists": ""}, "song", "Bohemian Rhapsody"),
    ({"title": "x", "artists": "y", "line": "Queen, Bohemian Rhapsody"}, "song",
     "Queen, Bohemian Rhapsody"),
    ({"pairs": {"3": "Б", "1": "В", "2": "А", "4": "Г"}}, "pairs", "1В 2А 3Б 4Г"),
    ({"pairs": {"1": "В", "2": ""}}, "pairs", "1В"),
    ({"number": " седем "}, "number", "седем"),
    ({"text": "Левски", "second": "Ботев"}, "text", "Левски"),
])
def test_answer_text_from_fields(app, fields, kind, text):
    with app.app_context():
        assert answer_text(fields, kind) == text


def test_bg_r4_1_song_fields_text_is_read_by_the_checker(app):
    with app.app_context():
        full = answer_text({"title": "Bohemian Rhapsody", "artists": "Queen"}, "song")
        title = answer_text({"title": "Bohemian Rhapsody", "artists": ""}, "song")
    assert check(full, SONG_KEY, "song").outcome == "correct"
    assert check(title, SONG_KEY, "song").outcome == "partial"


@pytest.mark.parametrize("fields, kind", [
    ({"choice": "Д"}, "abcd"), ({"choice": "може би"}, "truefalse"),
    ({"pairs": {"1": "А", "2": "А"}}, "pairs"), ({"pairs": {"5": "А"}}, "pairs"),
    ({"pairs": ["1А"]}, "pairs"), ("1А", "pairs"),
])
def test_bg_r1_r5_5_invalid_fields_refused(app, fields, kind):
    with app.app_context(), pytest.raises(DeskError):
        answer_text(fields, kind)


@pytest.mark.parametrize("text, number", [("7", 7), ("седем", 7), ("семь", 7), ("seven", 7),
                                          ("10", 10), ("не знам", None), ("", None)])
def test_bg_r5_4_numbers_as_digits_or_words(text, number):
    assert number_of(text) == number


@pytest.mark.parametrize("spec, fields, posted, expected", [
    ({"kind": "abcd", "options": ["А", "Б", "В", "Г"]}, {"choice": "Б"},
     {"a-choice": "В"}, {"choice": "В"}),
    ({"kind": "song"}, {"title": "T", "artists": "P"},
     {"a-title": "T", "a-artists": "P", "a-line": ""}, {"title": "T", "artists": "P", "line": ""}),
    ({"kind": "pairs", "numbers": ["1", "2", "3", "4"], "letters": ["А", "Б", "В", "Г"]},
     {"pairs": {"1": "В"}}, {"a-pair-1": "В", "a-pair-2": "А"},
     {"pairs": {"1": "В", "2": "А", "3": "", "4": ""}}),
    ({"kind": "number", "numbers": list(range(1, 11))}, None, {"a-number": "3"}, {"number": "3"}),
    ({"kind": "text"}, None, {"a-text": "Левски"}, {"text": "Левски"}),
])
def test_answer_field_macro_renders_and_reads_back(app, spec, fields, posted, expected):
    with app.test_request_context("/"):
        html = render_template_string(
            '{% from "widgets/answer_field.html" import answer_field %}'
            '{{ answer_field("a", spec, "", fields) }}', spec=spec, fields=fields)
        assert f'data-widget="{spec["kind"]}"' in html
        for name in posted:
            assert f'name="{name}"' in html
        if spec["kind"] == "abcd":
            assert 'value="Б" checked' in html
        if spec["kind"] == "pairs":
            assert "<option selected>В</option>" in html
        assert fields_from_form(MultiDict(posted), "a", spec["kind"]) == expected
