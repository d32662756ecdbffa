"""SIGame .siq import: real packs' details and every kind of broken archive."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from answerdesk.packs import Pack, PackError, parse_pack

PACKS = Path(__file__).resolve().parents[1] / "data" / "packs"
V5_NS = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"


def _real(name: str) -> Pack:
    return parse_pack((PACKS / "sigame" / name).read_bytes(), name)


def _v5(questions_b: str) -> str:
    """A v5 package: round 'Раунд 1' with theme 'А' (one good question) and theme 'Б'."""
    good = ('<question price="100"><params><param name="question" type="content">'
            "<item>Столица Франции?</item></param></params>"
            "<right><answer>Париж</answer></right></question>")
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<package name="t" version="5" '
            f'xmlns="{V5_NS}">\n<rounds><round name="Раунд 1"><themes>\n'
            f'<theme name="А"><questions>{good}</questions></theme>\n'
            f'<theme name="Б"><questions>{good}{questions_b}</questions></theme>\n'
            "</themes></round></rounds></package>")


def test_right_and_wrong_answers_become_accept_and_reject() -> None:
    pack = _real("si-data-1-v5.siq")
    q = pack.rounds[0].questions[0]
    assert q.theme == "СВОЯ ИГРА" and q.points == 100
    assert q.text.startswith("В этой передаче гроссмейстеры «Своей игры»")
    assert q.key == {"accept": ["«Игры разума»"],
                     "reject": ["«Самый умный»", "«Слабое звено»", "«Цена удачи»",
                                '"Своя игра"']}
    assert pack.rounds[0].check_mode == "typo3"
    q4 = pack.rounds[0].questions[3]
    assert q4.key["accept"] == ["Анатолий Вассерман", "Вассерман", "Водолей"]
    assert q4.comment == "Wasserman — Водолей (нем.)"
    assert q4.author == "Владимир Хиль"


def test_rounds_final_and_unsupported_types_are_reported() -> None:
    pack = _real("si-2010-12-v5.siq")
    assert [r.kind for r in pack.rounds] == ["open", "open", "open", "final"]
    assert [r.points for r in pack.rounds] == [100, 200, 300, 0]
    assert pack.rounds[3].name == "ФИНАЛ"
    assert pack.rounds[3].questions[0].key["accept"] == ["Линия"]
    assert any("'ФИНАЛ' is SIGame's final" in w for w in pack.warnings)
    stakes = [w for w in pack.warnings if "stake (auction)" in w]
    assert len(stakes) == 4
    assert "<question> #4 in theme 'ЦИФРА 9' of round '1-й раунд'" in stakes[0]
    variants = [q.variant for r in pack.rounds for q in r.questions if q.variant]
    assert sorted(set(variants)) == ["norisk", "secret", "stake"]
    # a secret question announces its new theme in the text
    secret = next(q for q in pack.rounds[1].questions if q.theme == "КОРРИДА" and q.variant)
    assert secret.text.startswith("[КОРРИДА]")
    # OQ-3/OQ-6: a format that plays these types (OpenQuiz) is not told they play as
    # ordinary questions; the other warnings stay.
    kept = pack.warnings_for(frozenset({"stake", "secret", "norisk", "final"}))
    assert len(pack.warnings) - len(kept) == len(pack.type_warnings) > 4
    assert not [w for w in kept if "stake (auction)" in w or "SIGame's final" in w]
    assert pack.warnings_for() == pack.warnings


def test_v4_media_are_carried_and_referenced() -> None:
    pack = _real("si-gametest-v4-media.siq")
    assert pack.title == "Тестовый пакет SIGame"
    boat = pack.media["Images/sample-boat-400x300.png"]
    assert boat[:8] == b"\x89PNG\r\n\x1a\n" and len(boat) == 705670
    assert pack.media["Audio/sample-3s.mp3"][:3] in (b"ID3", b"\xff\xfb\xff")
    content = {q.points: q for q in pack.rounds[0].questions if q.theme == "Контент вопросов"}
    assert content[300].media == [{"kind": "image", "ref": "Images/sample-boat-400x300.png"}]
    assert content[400].media == [{"kind": "audio", "ref": "Audio/sample-3s.mp3"}]
    assert content[800].media == [
        {"kind": "image", "ref": "https://vladimirkhil.com/images/svoyak-soft.jpg"}]
    # media after the marker atom belongs to the answer
    assert content[900].media == [{"kind": "image", "ref": "Images/sample-boat-400x300.png",
                                   "stage": "answer"}]
    assert content[900].text == "А в этом вопросе медиа содержится в ответе"
    assert pack.missing_media() == []
    assert any("empty slot (price -1) skipped" in w for w in pack.warnings)
    assert any("never asked" in w for w in pack.warnings)
    assert any("'custom' has no equivalent" in w for w in pack.warnings)


def test_v5_url_quoted_media_names_are_resolved() -> None:
    pack = _real("si-test-v5.siq")
    refs = [m["ref"] for q in pack.rounds[0].questions for m in q.media]
    assert refs == ["Video/videoplayback (8)_2 (1).mp4",
                    "Images/[alliance]  King of Baking Kim Tak Goo E17-0-47-21-574.jpg"]
    assert set(refs) == set(pack.media)


def test_select_answer_type_becomes_a_choice_question(make_siq: Callable[..., bytes]) -> None:
    select = ('<question price="200"><params><param name="question" type="content">'
              "<item>Сколько лап у паука?</item></param>"
              '<param name="answerType">select</param>'
              '<param name="answerOptions" type="group">'
              '<param name="A" type="content"><item>6</item></param>'
              '<param name="B" type="content"><item>8</item></param></param></params>'
              "<right><answer>B</answer></right><wrong><answer>A</answer></wrong></question>")
    pack = parse_pack(make_siq(_v5(select)), "sel.siq")
    q = pack.rounds[0].questions[2]
    assert q.check_mode == "choice" and pack.rounds[0].mode_for(q) == "choice"
    assert q.options == {"A": "6", "B": "8"}
    assert q.key == ["B"]


def test_for_all_questions_keep_their_type(make_siq: Callable[..., bytes]) -> None:
    """SIGame's "forAll" is kept as the question's variant (OQ-3 plays it for all)."""
    for_all = ('<question price="300" type="forAll"><params><param name="question" '
               'type="content"><item>Сколько ног у жука?</item></param></params>'
               "<right><answer>6</answer></right></question>")
    pack = parse_pack(make_siq(_v5(for_all)), "forall.siq")
    assert pack.rounds[0].questions[2].variant == "forall"
    assert not [w for w in pack.warnings if "forAll" in w]


# -- refusals ---------------------------------------------------------------------

def test_broken_zip_is_refused() -> None:
    with pytest.raises(PackError) as err:
        parse_pack(b"PK\x03\x04 this is not really a zip", "broken.siq")
    assert str(err.value).startswith("broken.siq: not a zip file")


def test_zip_without_content_xml_is_refused(make_siq: Callable[..., bytes]) -> None:
    data = make_siq(None, {"Images/a.png": b"x"})
    with pytest.raises(PackError, match=r"^empty\.siq: no content\.xml in the archive"):
        parse_pack(data, "empty.siq")


def test_malformed_xml_names_line_and_column(make_siq: Callable[..., bytes]) -> None:
    xml = '<?xml version="1.0"?>\n<package version="5">\n<rounds>\n  <round name="a">\n</rounds>'
    with pytest.raises(PackError) as err:
        parse_pack(make_siq(xml), "bad.siq")
    assert err.value.location == "content.xml: line 5, column 3"
    assert "mismatched tag" in str(err.value)


def test_doctype_and_entities_are_refused(make_siq: Callable[..., bytes]) -> None:
    xml = ('<?xml version="1.0"?>\n<!DOCTYPE package [<!ENTITY a "aaaaaaaaaa">'
           '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<package version="5">&b;</package>')
    with pytest.raises(PackError, match=r"^content\.xml: DOCTYPE/ENTITY declarations are not "
                                        r"allowed \(line 2\)"):
        parse_pack(make_siq(xml), "bomb.siq")


def test_question_without_right_answer_names_the_element(
        make_siq: Callable[..., bytes]) -> None:
    missing = ('<question price="200"><params><param name="question" type="content">'
               "<item>Без ответа</item></param></params></question>")
    with pytest.raises(PackError) as err:
        parse_pack(make_siq(_v5(missing)), "noanswer.siq")
    assert err.value.location == "content.xml: <question> #2 in theme 'Б' of round 'Раунд 1'"
    assert "no right answer" in str(err.value)
    empty = missing.replace("</params>", "</params><right><answer> </answer></right>")
    with pytest.raises(PackError, match=r"<question> #2 in theme 'Б' of round 'Раунд 1'"):
        parse_pack(make_siq(_v5(empty)), "empty-answer.siq")
