"""Refusals (DeskError and its subclasses) speak the reader's language: Bulgarian by
default, Russian or English when the phone asks; outside a request they are English
with the values filled in (logs, the CLI)."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from test_i18n import ERROR_CLASSES, ROOT

import answerdesk
from answerdesk.core import rounds
from answerdesk.errors import DeskError, NotFound, RoundLocked
from answerdesk.extensions import db
from answerdesk.models import Event


def joker(desk, token: str, kind: str, rnd: int, q: int, lang: str | None = None):
    headers = {"Authorization": f"Bearer {token}"}
    if lang:
        headers["Accept-Language"] = lang
    return desk.client.post(f"/api/events/{desk.code}/jokers",
                            json={"kind": kind, "round": rnd, "question": q}, headers=headers)


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_refusal_class_is_an_extraction_keyword() -> None:
    """A new DeskError subclass whose name Babel does not know would ship untranslated."""
    for module in pkgutil.walk_packages(answerdesk.__path__, "answerdesk."):
        importlib.import_module(module.name)
    names = {cls.__name__ for cls in _subclasses(DeskError) | {DeskError}
             if cls.__module__.startswith("answerdesk.")}
    assert names <= set(ERROR_CLASSES), names - set(ERROR_CLASSES)
    makefile = (ROOT / "Makefile").read_text()
    listed = re.search(r"^ERROR_KEYWORDS := (.*?[^\\])$", makefile, re.M | re.S).group(1)
    assert set(listed.replace("\\", " ").split()) == set(ERROR_CLASSES)


def test_bg_j1_round_locked_refusal_is_bulgarian_by_default_and_russian_on_request(desk) -> None:
    token = desk.join("Сови")
    refused = joker(desk, token, "double", 3, 1)
    body = refused.get_json()
    assert refused.status_code == 409 and body["error"] == "round_locked" and body["round"] == 3
    assert body["message"] == "Кръг 3 не е отворен: не може да се играе жокер."
    russian = joker(desk, token, "double", 3, 1, lang="ru-RU,ru;q=0.9").get_json()
    assert russian["message"] == "Раунд 3 не открыт: джокер сыграть нельзя."
    english = joker(desk, token, "double", 3, 1, lang="en").get_json()
    assert english["message"] == "Round 3 is not open: no joker can be played."
    assert russian["round"] == english["round"] == 3


def test_bg_j1_conflict_names_the_joker_in_each_language(desk) -> None:
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.host(3, "open")
    assert joker(desk, token, "double", 2, 1).status_code == 201
    again = joker(desk, token, "double", 3, 1)
    assert again.status_code == 409 and again.get_json()["joker"] == "double"
    assert again.get_json()["message"] == "Двойният жокер вече е използван в тази игра."
    assert joker(desk, token, "double", 3, 1, lang="ru").get_json()["message"] == (
        "Двойной джокер уже использован в этой игре.")
    assert joker(desk, token, "double", 3, 1, lang="en").get_json()["message"] == (
        "Double joker already used in this game.")


def test_not_found_fills_its_value_into_the_translation(client, demo) -> None:
    resp = client.get("/api/events/NOSUCH/state")
    body = resp.get_json()
    assert resp.status_code == 404 and body["error"] == "not_found"
    assert body["code"] == "NOSUCH" and body["message"] == "Няма вечер с код „NOSUCH“"
    russian = client.get("/api/events/NOSUCH/state", headers={"Accept-Language": "ru"})
    assert russian.get_json()["message"] == "Нет игры с кодом «NOSUCH»"


def test_host_error_page_speaks_bulgarian(app, client, demo) -> None:
    code, _ = demo
    with app.app_context():
        event_id = db.session.scalar(db.select(Event.id).where(Event.code == code))
    with client.session_transaction() as sess:
        sess["desk"] = {str(event_id): ["host", 0, 2**40]}  # web.desk_login, a new event
    page = client.post(f"/host/{code}/rounds/2/shuffle")
    assert page.status_code == 400
    assert "Непознато действие „shuffle“" in page.get_data(as_text=True)
    english = client.post(f"/host/{code}/rounds/2/shuffle", headers={"Accept-Language": "en"})
    assert "Unknown action &#39;shuffle&#39;" in english.get_data(as_text=True)


def test_str_outside_a_request_is_english_with_the_values(app, demo) -> None:
    error = RoundLocked("Round %(round)s is locked: answers are no longer accepted.",
                        round=2, state="locked")
    assert str(error) == "Round 2 is locked: answers are no longer accepted."
    assert error.to_json() == {"error": "round_locked", "round": 2, "state": "locked",
                               "message": "Round 2 is locked: answers are no longer accepted."}
    assert str(NotFound("No such team")) == "No such team"
    code, _ = demo
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        with pytest.raises(NotFound) as refused:
            rounds.get_round(event, 99)
    assert str(refused.value) == "Round 99 does not exist"
    assert refused.value.details == {"round": 99}


def test_bg_e2_late_save_refused_in_the_phone_language(desk) -> None:
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.host(2, "close")
    late = desk.save(token, 2, 1, "Левски")
    body = late.get_json()
    assert late.status_code == 409 and body["round"] == 2
    assert body["message"] == "Кръг 2 е затворен: отговори вече не се приемат."
    russian = desk.client.put(f"/api/events/{desk.code}/answers/2/1", json={"text": "Левски"},
                              headers={"Authorization": f"Bearer {token}",
                                       "Accept-Language": "ru"}).get_json()
    assert russian["message"] == "Раунд 2 закрыт: ответы больше не принимаются."


def test_bg_g1_name_taken_in_the_phone_language(desk) -> None:
    desk.join("Авто")
    url = f"/api/events/{desk.code}/teams"
    bulgarian = desk.client.post(url, json={"name": "Aвтo"}).get_json()
    assert bulgarian["message"] == "Името „Aвтo“ вече е заето (от „Авто“); изберете друго."
    russian = desk.client.post(url, json={"name": "Aвтo"},
                               headers={"Accept-Language": "ru"}).get_json()
    assert russian["message"] == "Название «Aвтo» уже занято («Авто»); выберите другое."
