"""CSV packs: header detection, delimiters, BOM, alternatives, BG round defaults."""

from __future__ import annotations

import pytest

from answerdesk.packs import PackError, parse_pack


def test_semicolon_csv_with_header_and_bom() -> None:
    text = ("round;question;answer;alternatives\n"
            "1;Най-дългата река? А) Искър Б) Марица;А;\n"
            '2;Авторът на „Под игото“?;Иван Вазов;"Вазов; !Христо Ботев"\n'
            "2;Столицата на Австралия?;Канбера;Канбера Сити\n")
    pack = parse_pack(b"\xef\xbb\xbf" + text.encode("utf-8"), "vecher.csv")
    assert pack.title == "vecher" and pack.format == "csv"
    r1, r2 = pack.rounds
    assert (r1.number, r1.kind, r1.points, r1.check_mode) == (1, "choice", 1, "choice")
    assert r1.questions[0].key == ["А"]
    assert (r2.number, r2.kind, r2.points, r2.check_mode) == (2, "open", 2, "typo3")
    assert r2.questions[0].text == "Авторът на „Под игото“?"
    assert r2.questions[0].key == {"accept": ["Иван Вазов", "Вазов"], "reject": ["Христо Ботев"]}
    assert r2.questions[1].key == {"accept": ["Канбера", "Канбера Сити"], "reject": []}
    assert [q.number for q in r2.questions] == [1, 2]
    assert pack.warnings == []


def test_comma_csv_without_header() -> None:
    text = ('2,"Кой написа ""Бай Ганьо""?",Алеко Константинов,Алеко; Щастливеца\n'
            "6,Кой град е „Малката Виена“?,Русе,\n")
    pack = parse_pack(text.encode("utf-8"), "x.csv")
    assert [r.number for r in pack.rounds] == [2, 6]
    q = pack.rounds[0].questions[0]
    assert q.text == 'Кой написа "Бай Ганьо"?'
    assert q.key["accept"] == ["Алеко Константинов", "Алеко", "Щастливеца"]
    assert (pack.rounds[1].kind, pack.rounds[1].points) == ("final", 5)


def test_named_rounds_get_open_defaults_with_a_warning() -> None:
    text = "Кино,Кой режисира „Вчера“?,Иван Андонов,\nКино,А „Оркестър без име“?,Людмил Кирков,\n"
    pack = parse_pack(text.encode("utf-8"), "kino.csv")
    (rnd,) = pack.rounds
    assert (rnd.number, rnd.name, rnd.kind, rnd.check_mode) == (1, "Кино", "open", "typo3")
    assert len(rnd.questions) == 2
    assert pack.warnings and "row 1 (line 1): round 'Кино'" in pack.warnings[0]


def test_wrong_column_count_names_row_and_line() -> None:
    text = ("кръг,въпрос,отговор,алтернативи\n"
            "2,Столицата на Франция?,Париж,\n"
            "\n"
            "2,Столицата на Италия?,Рим\n")
    with pytest.raises(PackError) as err:
        parse_pack(text.encode("utf-8"), "bad.csv")
    assert err.value.location == "row 2 (line 4)"
    assert str(err.value).startswith("row 2 (line 4): 3 columns, expected 4")


def test_quoted_newline_keeps_line_numbers_right() -> None:
    text = ('round,question,answer,alternatives\n2,"Два\nреда",Отговор,\n'
            "2,Трети,Отговор,излишно,\n")
    with pytest.raises(PackError, match=r"^row 2 \(line 4\): 5 columns"):
        parse_pack(text.encode("utf-8"), "multi.csv")


def test_empty_answer_is_refused() -> None:
    with pytest.raises(PackError, match=r"^row 1 \(line 1\): the answer column is empty"):
        parse_pack("2,Въпрос?,,\n".encode(), "e.csv")
