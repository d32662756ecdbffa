"""db.chgk.info packs: Зачёт/Незачёт, optional parts, stress marks, Своя игра values."""

from __future__ import annotations

from pathlib import Path

import pytest

from answerdesk.packs import Pack, PackError, QuestionSpec, parse_pack
from answerdesk.packs.answers import expand_optional, fold_stress, zachet_variants
from answerdesk.packs.chgk import parse_chgk

PACKS = Path(__file__).resolve().parents[1] / "data" / "packs"


def _pack(name: str) -> Pack:
    path = next(PACKS.glob(f"*/{name}"))
    return parse_pack(path.read_bytes(), path.name)


def _q(name: str, round_no: int, number: int) -> QuestionSpec:
    rnd = _pack(name).rounds[round_no - 1]
    return rnd.questions[number - 1]


# -- answers taken from the source texts ---------------------------------------

def test_first_questions_of_ingush16_match_the_text() -> None:
    pack = _pack("ingush16.txt")
    assert pack.title == 'Фестиваль "Горы от ума - 2016" (Джейрах, Ингушетия)'
    first = pack.rounds[0]
    assert first.name == "1 тур" and first.points == 1 and first.check_mode == "typo3"
    q1 = first.questions[0]
    assert q1.text.startswith("Нейпьидо - в Мьянме, Канберра - в Австралии")
    assert q1.key == {"accept": ["Магас"], "reject": []}
    assert q1.answer == "Магас."
    assert q1.author == "Серафим Шибанов (Москва)"
    assert q1.source and "ru.wikipedia.org/wiki/Магас" in q1.source
    assert q1.comment and q1.comment.startswith("Все указанные города были построены")
    # Зачет: Анкх.
    assert first.questions[1].key == {"accept": ["Анх", "Анкх"], "reject": []}


def test_optional_part_is_expanded_with_and_without() -> None:
    # Ответ: [Джузеппе] Верди.
    assert _q("ingush16.txt", 1, 6).key["accept"] == ["Джузеппе Верди", "Верди"]
    # Ответ: Столб[ик] термометра.  Зачет: Ртутный столб[ик].
    assert _q("ingush16.txt", 1, 14).key["accept"] == [
        "Столбик термометра", "Столб термометра", "Ртутный столбик", "Ртутный столб"]
    assert expand_optional("[Мартин Лютер] Кинг, [Малькольм] Икс") == [
        "Мартин Лютер Кинг, Малькольм Икс", "Мартин Лютер Кинг, Икс",
        "Кинг, Малькольм Икс", "Кинг, Икс"]


def test_nezachet_inside_the_answer_field() -> None:
    # Ответ: Шнобелевская премия. Незачет: Игнобелевская премия.
    q = _q("ingush16.txt", 3, 3)
    assert q.key == {"accept": ["Шнобелевская премия"], "reject": ["Игнобелевская премия"]}
    assert q.answer == "Шнобелевская премия."


def test_nezachet_inside_the_zachet_field() -> None:
    # Ответ: Ретт.  Зачет: Рэтт; Рет; Рэт. Незачет: Ред; Рэд.
    assert _q("rusch16.txt", 5, 5).key == {
        "accept": ["Ретт", "Рэтт", "Рет", "Рэт"], "reject": ["Ред", "Рэд"]}
    # Ответ: Стала.  Зачет: Сталактит. Незачет: Сталагмит.
    assert _q("wc13.txt", 6, 7).key == {"accept": ["Стала", "Сталактит"],
                                        "reject": ["Сталагмит"]}
    # Зачет: 21st Street. Незачет: 21-я авеню.
    assert _q("rusch16.txt", 5, 13).key["reject"] == ["21-я авеню"]


def test_nezachet_on_its_own_line_and_as_a_field() -> None:
    text = (
        "Чемпионат:\nТест\n\nВопрос 1:\nКто?\n\nОтвет:\nВерди.\n\nЗачет:\nДжузеппе Верди.\n"
        "Незачет: Россини.\n\nВопрос 2:\nЧто?\n\nОтвет:\nАнх.\n\nНезачёт:\nАнк; Ангх.\n"
    )
    pack = parse_chgk(text, "t.txt")
    q1, q2 = pack.rounds[0].questions
    assert q1.key == {"accept": ["Верди", "Джузеппе Верди"], "reject": ["Россини"]}
    assert q2.key == {"accept": ["Анх"], "reject": ["Анк", "Ангх"]}


def test_stress_capitals_are_folded_in_keys() -> None:
    # Ответ: БрЕцель.  Зачет: ПрЕтцель; крендель.
    q = _q("ruch17st.txt", 4, 5)
    assert q.key["accept"] == ["Брецель", "Претцель", "крендель"]
    assert q.answer == "Брецель."
    # Ответ: Капризный КАпри.
    assert _q("ingush16.txt", 2, 8).key["accept"] == ["Капризный Капри"]
    # Ответ: Портные.  Зачет: ПортнЯги; швецы; швеи; закройщики.
    assert "Портняги" in _q("ruch17st.txt", 5, 11).key["accept"]


@pytest.mark.parametrize(("written", "folded"), [
    ("БутОрина", "Буторина"),
    ("ДЯгилева", "Дягилева"),
    ("ФлорЕнский", "Флоренский"),
    ("СССР", "СССР"),
    ("КРОКОДИЛ ГЕНА", "КРОКОДИЛ ГЕНА"),
    ("ЦРУшник", "ЦРУшник"),
    ("Магас", "Магас"),
    ("McDonald's iPhone", "McDonald's iPhone"),
    ("Magic WASD", "Magic WASD"),
])
def test_fold_stress(written: str, folded: str) -> None:
    assert fold_stress(written) == folded


def test_commas_split_variants_only_when_the_answer_has_none() -> None:
    # Ответ: Переводить молчание.  Зачет: Переводить тишину, перевести молчание, ...
    assert _q("wc13.txt", 2, 5).key["accept"] == [
        "Переводить молчание", "Переводить тишину", "перевести молчание", "перевести тишину"]
    # Ответ: Кошка, мышь.  Зачет: Кошка, мышка.  (one answer with a comma)
    assert _q("rusch16.txt", 3, 4).key["accept"] == ["Кошка, мышь", "Кошка, мышка"]
    variants, notes = zachet_variants("Гангстерский рай; Gangsta's paradise, Gangster's paradise.",
                                      allow_commas=True)
    assert variants == ["Гангстерский рай", "Gangsta's paradise", "Gangster's paradise"]
    assert notes == []


def test_judging_instructions_become_notes_not_answers() -> None:
    # Ответ: Сено, солому.  Зачет: В любом порядке.
    q = _q("wc13.txt", 4, 12)
    assert q.key["accept"] == ["Сено, солому"]
    assert q.note == "В любом порядке"
    # Зачет: Ichabod; с несущественными орфографическими ошибками.
    q = _q("rusch16.txt", 5, 10)
    assert q.key["accept"] == ["Икабод", "Ichabod"]
    assert q.note == "с несущественными орфографическими ошибками"
    # Зачет: Система Брайля, шрифт Брайль и т.п. со словом "Брайль".
    q = _q("ruch17st.txt", 2, 7)
    assert q.key["accept"] == ["Брайль", "Система Брайля", "шрифт Брайль"]
    assert q.note and "и т.п." in q.note


def test_html_entities_and_slashes() -> None:
    # Зачет: &euro;; принимается также любая купюра или монета евро.
    q = _q("ingush16.txt", 2, 5)
    assert q.key["accept"] == ["Евро", "€"]
    assert q.note == "принимается также любая купюра или монета евро"
    # Зачет: Золотой блеск; сияние/сверкание золота; золотое сияние/сверкание.
    assert _q("ruch17st.txt", 6, 15).key["accept"][2:] == [
        "сияние золота", "сверкание золота", "золотое сияние", "золотое сверкание"]


def test_duplet_parts_are_combined_and_media_referenced() -> None:
    q = _q("ingush16.txt", 1, 4)
    assert q.key["accept"] == ["Пол овина; Пол риги", "Пол овина; Пол-Риги"]
    assert q.media == [{"kind": "image", "ref": "20160702.jpg"}]
    assert "(pic:" not in q.text
    pack = _pack("ingush16.txt")
    assert any("line 83: Вопрос 4 has 2 numbered answers" in w for w in pack.warnings)
    assert "20160702.jpg" in pack.missing_media()


def test_svoyak_themes_values_and_answers() -> None:
    pack = _pack("enot03sv.txt")
    assert pack.format == "svoyak"
    r1, r2 = pack.rounds[0], pack.rounds[1]
    assert r1.themes == ["ФРАНЦУЗСКИЕ ОПЕРЫ", "ФИНЛЯНДИЯ", "НОРВЕГИЯ", "ЭСТОНИЯ", "-НА-"]
    first = r1.questions[0]
    assert first.theme == "ФРАНЦУЗСКИЕ ОПЕРЫ"
    assert first.text.startswith("Назовите оперу, время действия которой - 1500 г.")
    # 1. "Африканка" (Дж.Мейербер).
    assert first.key == {"accept": ["Африканка"], "reject": []}
    assert first.note == "Дж.Мейербер"
    assert first.answer == '"Африканка" (Дж.Мейербер).'
    # SI-1.1: round 1 → 1..5, round 2 → 2..10
    assert [q.points for q in r1.questions[:5]] == [1, 2, 3, 4, 5]
    assert [q.points for q in r2.questions[:5]] == [2, 4, 6, 8, 10]
    assert r2.themes[0] == "-БИС-"
    assert [q.key["accept"][0] for q in r2.questions[:5]] == [
        "Бисер", "Биссектриса", "Бисквит", "Бисмарк", "Бистоел"]
    # 2. Нагорный Карабах (просто Карабах не засчитывается).
    karabakh = r1.questions[21]
    assert karabakh.key["accept"] == ["Нагорный Карабах"]
    assert karabakh.note == "просто Карабах не засчитывается"
    assert any("24 themes" in w for w in pack.warnings)


def test_svoyak_numbered_sources_go_to_their_question() -> None:
    pack = _pack("leti05sv.txt")
    theme = pack.rounds[0].questions[5:10]  # "Современная музыка"; source only for "3."
    assert {q.theme for q in theme} == {"Современная музыка"}
    assert theme[2].source == "http://westrecords.by/artists.asp?artid=73&subid=12"
    assert theme[0].source is None and theme[3].source is None
    assert theme[3].key["accept"] == ["Linkin Park"]


def test_svoyak_values_numbered_by_tens_are_kept() -> None:
    text = ("Вид:\nЯ\n\nВопрос 1:\nРЕКИ\n   10. Самая длинная?\n   20. Самая широкая?\n\n"
            "Ответ:\n   10. Нил.\n   20. Амазонка.\n")
    pack = parse_chgk(text, "s.txt")
    assert [(q.points, q.key["accept"]) for q in pack.rounds[0].questions] == [
        (10, ["Нил"]), (20, ["Амазонка"])]


@pytest.mark.parametrize("encoding", ["cp1251", "koi8-r", "utf-8-sig"])
def test_encodings_are_detected(encoding: str) -> None:
    path = PACKS / "chgk/ingush16.txt"
    text = path.read_text(encoding="utf-8").replace("&euro;", "EUR")
    data = text.encode(encoding, errors="replace")
    reference = parse_pack(text.encode("utf-8"), "ingush16.txt")
    assert parse_pack(data, "ingush16.txt") == reference


# -- refusals ---------------------------------------------------------------------

def test_question_without_answer_names_its_line() -> None:
    text = ("Чемпионат:\nТест\n\nТур:\n1 тур\n\nВопрос 1:\nКто?\n\nОтвет:\nОн.\n\n"
            "Вопрос 2:\nА кто это?\n\nКомментарий:\nОтвет забыли.\n\nВопрос 3:\nЧто?\n\n"
            "Ответ:\nЭто.\n")
    with pytest.raises(PackError) as err:
        parse_pack(text.encode("utf-8"), "broken.txt")
    assert err.value.location == "line 13"
    assert str(err.value) == "line 13: 'Вопрос 2:' has no 'Ответ:'"
    assert text.split("\n")[12] == "Вопрос 2:"


def test_svoyak_theme_missing_an_answer_item() -> None:
    text = ("Вид: Я\n\nВопрос 1:\nТЕМА\n   1. Раз?\n   2. Два?\n   3. Три?\n\n"
            "Ответ:\n   1. Один.\n   3. Три.\n")
    with pytest.raises(PackError, match=r"^line 3: theme 'Вопрос 1:' \(ТЕМА\): 'Ответ:' has no "
                                        r"item 2\.$"):
        parse_chgk(text.encode("utf-8"), "sv.txt")


def test_text_without_questions_is_refused() -> None:
    with pytest.raises(PackError, match="notes.txt: no 'Вопрос N:' found"):
        parse_pack("Просто текст\n".encode(), "notes.txt")
