"""A SIGame pack (.siq, built here) in an OpenQuiz game: its stake, secret, no-risk,
select and for-all questions and its final round import as the OQ-3 types and the
OQ-6 final, with no warning that they play as ordinary questions, and play by them."""

from __future__ import annotations

import io
import zipfile

import pytest
from buzzgame import T0, Phone, install_server_clock, oq_player, start_question
from factories import Desk

from answerdesk.core.events import create_event, event_by_code
from answerdesk.extensions import db
from answerdesk.formats.oq.game import kind_of
from answerdesk.formats.oq.programme import FINAL, SEQUENTIAL
from answerdesk.packs import parse_pack
from answerdesk.packs.importer import import_pack, preview

NS = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"


def question(price: int, text: str, answer: str, kind: str = "", params: str = "") -> str:
    typed = f' type="{kind}"' if kind else ""
    return (f'<question price="{price}"{typed}><params>{params}'
            f'<param name="question" type="content"><item>{text}</item></param></params>'
            f"<right><answer>{answer}</answer></right></question>")


SELECT = ('<param name="answerType">select</param><param name="answerOptions" type="group">'
          '<param name="A" type="content"><item>Искър</item></param>'
          '<param name="B" type="content"><item>Дунав</item></param></param>')
SECRET = ('<param name="theme">Котка</param><param name="selectionMode">any</param>')


def siq() -> bytes:
    """A v5 pack: one board round with every SIGame type, then a final of two themes."""
    board = "".join([
        question(100, "Най-дългата река изцяло в България?", "Искър"),
        question(200, "Коя река минава през Пловдив?", "Марица", "stake"),
        question(300, "Коя река минава през Русе?", "Дунав", "secret", SECRET),
        question(400, "Коя река минава през Кърджали?", "Арда", "noRisk"),
        question(500, "Коя река е по-дълга?", "B", "", SELECT),
    ])
    for_all = question(100, "Коя река се влива в Черно море?", "B", "forAll", SELECT)
    final = "".join(f'<theme name="Ф{n}"><questions>'
                    f'{question(0, f"Финал {n}", f"отговор {n}")}</questions></theme>'
                    for n in (1, 2))
    xml = (f'<?xml version="1.0" encoding="utf-8"?><package name="Реки" version="5" '
           f'xmlns="{NS}"><rounds><round name="Раунд 1"><themes>'
           f'<theme name="Реки"><questions>{board}</questions></theme>'
           f'<theme name="Всички"><questions>{for_all}</questions></theme>'
           f'</themes></round><round name="ФИНАЛ" type="final"><themes>{final}</themes>'
           "</round></rounds></package>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("content.xml", xml.encode("utf-8"))
    return buf.getvalue()


TYPE_WARNINGS = ("stake (auction)", "secret (cat in bag)", "no-risk question",
                 "SIGame's final")


@pytest.fixture
def oq_pack(app, client, monkeypatch, english):
    clock = install_server_clock(monkeypatch)
    pack = parse_pack(siq(), "reki.siq")
    with app.app_context():
        event, password = create_event("Реки", format="oq")
        bg, _ = create_event("Реки BG")
        assert all(any(w in str(n) for n in preview(pack, bg).warnings) for w in TYPE_WARNINGS)
        assert not [n for n in preview(pack, event).warnings
                    if any(w in str(n) for w in TYPE_WARNINGS)]
        report = import_pack(event, pack, "host")
        db.session.commit()
        assert not [n for n in report.warnings if any(w in str(n) for w in TYPE_WARNINGS)]
        code = event.code
    desk = Desk(client, code, password)
    phones = {name: Phone(client, code, oq_player(client, code, name), clock, 0, 20, 20)
              for name in ("Альфа", "Бета", "Гама")}
    for p in phones.values():
        p.sync(T0 - 30_000)
        p.sync(T0 - 28_000)
    return desk, phones, clock


def post(phone: Phone, path: str, **body):
    resp = phone.client.post(f"/api/events/{phone.code}/{path}", json=body,
                             headers=phone.auth)
    assert resp.status_code < 300, resp.get_json()
    return resp.get_json()


def host(desk: Desk, path: str, **body):
    resp = desk.client.post(f"/api/host/events/{desk.code}/oq/{path}", json=body,
                            headers={"Authorization": f"Bearer {desk.password}"})
    assert resp.status_code < 300, resp.get_json()
    return resp.get_json()


def oq(desk: Desk) -> dict:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["oq"]


def test_oq3_oq6_a_siq_packs_types_and_final_play_by_their_rules(app, oq_pack):
    desk, ph, clock = oq_pack
    a, b, c = ph["Альфа"], ph["Бета"], ph["Гама"]
    with app.app_context():
        event = event_by_code(desk.code)
        assert [(r.number, r.kind) for r in event.rounds] == [(1, SEQUENTIAL), (2, FINAL)]
        assert [(q.points, kind_of(q).name) for q in event.round(1).questions] == [
            (100, "buzzer"), (200, "auction"), (300, "secret"), (400, "norisk"),
            (500, "choices"), (100, "choices_all")]
        db.session.rollback()
    at = T0

    def buzz_and_accept(phone: Phone, number: int, outcome: str = "accept") -> dict:
        nonlocal at
        assert phone.press(at + 100, 1, number).status_code == 202
        clock.ms = at + 1_200
        at += 2_000
        return host(desk, f"rounds/1/questions/{number}/judge", outcome=outcome)

    def start(number: int) -> None:
        nonlocal at
        at += 10_000
        start_question(desk.client, desk.code, desk.password, 1, number, clock=clock, at_ms=at)
        clock.ms = at + 50

    # An ordinary SIGame question: the buzzer (OQ-4).
    post(a, "oq/pick", round=1, question=1)
    start(1)
    assert buzz_and_accept(b, 1)["points"] == 100
    # "stake" → the auction: Бета goes all in with its 100, the others are at 0.
    post(b, "oq/pick", round=1, question=2)
    assert oq(desk)["play"]["type"] == "auction"
    assert post(b, "oq/stake", round=1, question=2, amount=100)["highest"] == 100
    assert host(desk, "rounds/1/questions/2/auction/close") == {"team": "Бета", "value": 100}
    start(2)
    assert host(desk, "rounds/1/questions/2/judge", outcome="accept")["points"] == 100
    # "secret" → handed by the team with the turn, here to Альфа.
    post(b, "oq/pick", round=1, question=3)
    assert post(b, "oq/secret", round=1, question=3, team="Альфа") == {"team": "Альфа"}
    start(3)
    assert host(desk, "rounds/1/questions/3/judge", outcome="accept")["points"] == 300
    # "noRisk" → a wrong answer costs nothing.
    post(a, "oq/pick", round=1, question=4)
    start(4)
    assert buzz_and_accept(c, 4, "reject")["points"] == 0
    assert buzz_and_accept(a, 4)["points"] == 400
    # answerType "select" → choices: the buzzer's winner chooses.
    post(a, "oq/pick", round=1, question=5)
    start(5)
    assert b.press(at + 100, 1, 5).status_code == 202
    clock.ms = at + 1_200
    assert post(b, "oq/choose", round=1, question=5, option="B")["points"] == 500
    # "forAll" with options → choices for all: closed once every team has chosen.
    post(b, "oq/pick", round=1, question=6)
    start(6)
    post(a, "oq/choose", round=1, question=6, option="A")
    post(b, "oq/choose", round=1, question=6, option="B")
    assert oq(desk)["play"]["state"] == "open"
    post(c, "oq/choose", round=1, question=6, option="b")
    assert oq(desk)["play"]["state"] == "done"
    assert {s["team"]: s["points"] for s in oq(desk)["scores"]} == {
        "Альфа": 600, "Бета": 800, "Гама": 100}
    # SIGame's final → OQ-6: bans in turn until one theme is left, sealed bets, answers.
    assert post(a, "oq/final/ban", theme=1) == {"remaining": [2]}
    for phone, bet, text in ((a, 600, "отговор 2"), (b, 1, "не знам"), (c, 100, "отговор 2")):
        post(phone, "oq/final/bet", amount=bet)
        post(phone, "oq/final/answer", text=text)
    for team, right in (("Альфа", True), ("Бета", False), ("Гама", True)):
        host(desk, "final/judge", team=team, accepted=right)
    assert {s["team"]: s["points"] for s in oq(desk)["scores"]} == {
        "Альфа": 1200, "Бета": 799, "Гама": 200}
