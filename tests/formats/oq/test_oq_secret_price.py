"""OQ-3 secret with a SIGame pack's own price (issue 15): a .siq secret question
("кот в мешке") whose pack gives its price plays for that price, not its board value;
a price with a choice (SIGame's number set: minimum, maximum, step) plays for the
price the handing team chose (the lowest when it names none); a wrong choice is
refused, translated, and changes nothing; a secret question without a price keeps its
board value. The pack is built here (its XML follows SIGame's StepParameter.cs)."""

from __future__ import annotations

import io
import zipfile

import pytest
from buzzgame import T0, Phone, install_server_clock, oq_player, start_question
from factories import Desk

from answerdesk.core.events import create_event
from answerdesk.extensions import db
from answerdesk.formats.oq import types
from answerdesk.packs import parse_pack
from answerdesk.packs.importer import import_pack

NS = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"


def secret(board: int, text: str, numbers: str | None) -> str:
    price = ("" if numbers is None else
             f'<param name="price" type="numberSet"><numberSet {numbers} /></param>')
    return (f'<question price="{board}" type="secret"><params>'
            f'<param name="selectionMode">any</param>{price}'
            f'<param name="question" type="content"><item>{text}</item></param></params>'
            f"<right><answer>{text}</answer></right></question>")


def siq() -> bytes:
    """Three secret questions: a fixed price of 700 on a 300 cell, a choice of 100, 300
    or 500 on a 200 cell, and one without a price on a 400 cell."""
    questions = (secret(300, "котка", 'minimum="700" maximum="700" step="0"')
                 + secret(200, "коте", 'minimum="100" maximum="500" step="200"')
                 + secret(400, "мачок", None))
    xml = (f'<?xml version="1.0" encoding="utf-8"?><package name="Котки" version="5" '
           f'xmlns="{NS}"><rounds><round name="Раунд 1"><themes><theme name="Котки">'
           f"<questions>{questions}</questions></theme></themes></round></rounds></package>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("content.xml", xml.encode("utf-8"))
    return buf.getvalue()


def test_oq3_the_secret_price_rule_is_the_packs_number_set():
    assert types.secret_price(None, None) is None  # no price: the board value
    assert types.secret_prices(None) is None
    assert types.secret_prices({"min": 700, "max": 700, "step": 0}) == [700]
    assert types.secret_prices({"min": 100, "max": 500, "step": 200}) == [100, 300, 500]
    assert types.secret_price({"min": 700, "max": 700, "step": 0}, None) == 700
    assert types.secret_price({"min": 700, "max": 700, "step": 0}, 700) == 700
    choice = {"min": 100, "max": 500, "step": 200}
    assert types.secret_price(choice, None) == 100  # none chosen: SIGame's first offer
    assert types.secret_price(choice, 300) == 300
    for wrong in (200, 600, "300", True, 300.0):
        with pytest.raises(types.SecretRefused) as err:
            types.secret_price(choice, wrong)
        assert err.value.message == "The price of this secret question is one of: 100, 300, 500."
    assert types.TYPES["secret"].worth(300, None) == 300
    assert types.TYPES["secret"].worth(300, 700) == 700


@pytest.fixture
def game(app, client, monkeypatch, english):
    clock = install_server_clock(monkeypatch)
    with app.app_context():
        event, password = create_event("Котки", format="oq")
        import_pack(event, parse_pack(siq(), "kotki.siq"), "host")
        db.session.commit()
        code = event.code
    desk = Desk(client, code, password)
    phones = {name: Phone(client, code, oq_player(client, code, name), clock, 0, 20, 20)
              for name in ("Альфа", "Бета")}
    return desk, phones, clock


def post(phone: Phone, path: str, lang: str = "en", **body):
    return phone.client.post(f"/api/events/{phone.code}/{path}", json=body,
                             headers={**phone.auth, "Accept-Language": lang})


def judge(desk: Desk, number: int) -> dict:
    resp = desk.client.post(
        f"/api/host/events/{desk.code}/oq/rounds/1/questions/{number}/judge",
        json={"outcome": "accept"}, headers={"Authorization": f"Bearer {desk.password}"})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def oq(desk: Desk) -> dict:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["oq"]


def test_oq3_a_siq_secret_question_plays_for_its_own_price(app, game):
    desk, ph, clock = game
    a, b = ph["Альфа"], ph["Бета"]
    at = T0

    def start(number: int) -> None:
        nonlocal at
        at += 10_000
        start_question(desk.client, desk.code, desk.password, 1, number, clock=clock, at_ms=at)
        clock.ms = at + 50

    # A fixed price: 700, not the cell's 300, shown once handed and scored on accept.
    assert post(a, "oq/pick", round=1, question=1).status_code < 300
    assert oq(desk)["play"]["value"] == 300  # the board's value until it is handed
    assert oq(desk)["play"]["prices"] == [700]  # the phone shows it, nothing to pick
    assert post(a, "oq/secret", round=1, question=1, team="Бета").get_json() == {
        "team": "Бета", "price": 700}
    assert oq(desk)["play"]["value"] == 700
    start(1)
    assert judge(desk, 1)["points"] == 700
    # A price with a choice: a price not among them is refused (translated), nothing
    # changes; the handing team's choice is played.
    assert oq(desk)["turn"] == "Бета"
    assert post(b, "oq/pick", round=1, question=2).status_code < 300
    assert oq(desk)["play"]["prices"] == [100, 300, 500]  # the captain's phone lists them
    refused = post(b, "oq/secret", lang="ru", round=1, question=2, team="Альфа", price=200)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "secret_refused")
    assert refused.get_json()["message"] == (
        "Цена этого секретного вопроса — одна из: 100, 300, 500.")
    assert oq(desk)["play"]["answering"] is None
    assert post(b, "oq/secret", round=1, question=2, team="Альфа", price=500).get_json() == {
        "team": "Альфа", "price": 500}
    start(2)
    assert judge(desk, 2)["points"] == 500
    # No price in the pack: the board value.
    assert oq(desk)["turn"] == "Альфа"
    assert post(a, "oq/pick", round=1, question=3).status_code < 300
    assert oq(desk)["play"]["prices"] is None
    assert post(a, "oq/secret", round=1, question=3, team="Альфа").get_json() == {
        "team": "Альфа"}
    start(3)
    assert judge(desk, 3)["points"] == 400
    assert {s["team"]: s["points"] for s in oq(desk)["scores"]} == {"Альфа": 900, "Бета": 700}
