"""The OQ-3 question types on two phones in a browser (Bulgarian and Russian): the
auction's stake and pass, the options of choices for all, the secret's hand-over by the
team with the turn, the buzzer winner's choice; the buzzer's button is hidden for the
types played without it."""

from __future__ import annotations

import pytest
import requests
from buzzgame import make_event, oq_player, start_question
from playwright.sync_api import Browser, expect

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 780}, "has_touch": True, "is_mobile": True}


def test_oq3_phones_bid_pass_choose_and_hand_the_secret(app, live_server, browser: Browser):
    code, password = make_event(app, "oq", {1: 4})
    with app.app_context():
        for q, variant in zip(event_by_code(code).round(1).questions,
                              ("auction", "choices_all", "secret", "choices"), strict=True):
            q.details = {"variant": variant, "options": {"A": "Искър", "B": "Дунав"}}
            q.key = ["B"]
        db.session.commit()
    base = live_server.url
    host = {"Authorization": f"Bearer {password}"}
    tokens, phones = {}, {}
    for name, locale in (("Сови", "bg-BG"), ("Лисици", "ru-RU")):
        tokens[name] = oq_player(base, code, name)
        page = browser.new_context(**PHONE, locale=locale).new_page()
        page.goto(f"{base}/e/{code}/buzzer#token={tokens[name]}")
        phones[name] = page
    sovi, lisici = phones["Сови"], phones["Лисици"]

    def api(path: str, who: str | None = None, **body) -> dict:
        auth = {"Authorization": f"Bearer {tokens[who]}"} if who else host
        prefix = "/api/events" if who else "/api/host/events"
        resp = requests.post(f"{base}{prefix}/{code}/{path}", json=body, headers=auth, timeout=5)
        assert resp.status_code < 300, resp.text
        return resp.json()

    api("oq/scores", team="Лисици", points=500)
    # The auction: Лисици bids on its phone, Сови passes on its phone; the bidding ends.
    api("oq/pick", "Сови", round=1, question=1)
    expect(sovi.locator("#oq-what")).to_have_text("Търг · 100 точки", timeout=10_000)
    expect(sovi.locator("#press")).to_be_hidden()
    expect(lisici.locator("#oq-highest")).to_have_text("Ставок ещё нет: не меньше 100",
                                                       timeout=10_000)
    lisici.locator("#oq-stake").fill("300")
    lisici.get_by_role("button", name="Ставлю").tap()
    expect(lisici.locator("#result")).to_have_text("Готово", timeout=10_000)
    expect(sovi.locator("#oq-highest")).to_have_text("Най-висок залог: 300 (Лисици)",
                                                     timeout=10_000)
    sovi.get_by_role("button", name="Пас").tap()
    expect(sovi.locator("#oq-answering")).to_have_text("Отговаря Лисици", timeout=10_000)
    expect(lisici.locator("#oq-auction")).to_be_hidden(timeout=10_000)
    start_question(base, code, password, 1, 1)
    assert api("oq/rounds/1/questions/1/judge", outcome="accept")["points"] == 300

    # Choices for all: each phone chooses once; closed when both have chosen.
    api("oq/pick", "Лисици", round=1, question=2)
    start_question(base, code, password, 1, 2)
    expect(sovi.get_by_role("button", name="B · Дунав")).to_be_enabled(timeout=10_000)
    sovi.get_by_role("button", name="B · Дунав").tap()
    expect(sovi.locator("#oq-answering")).to_have_text("Вашият избор: B", timeout=10_000)
    expect(sovi.get_by_role("button", name="A · Искър")).to_be_disabled()
    lisici.get_by_role("button", name="A · Искър").tap()
    expect(lisici.locator("#oq-answering")).to_have_text("Ваш выбор: A", timeout=10_000)
    scores = requests.get(f"{base}/api/events/{code}/state", timeout=5).json()["oq"]["scores"]
    assert {s["team"]: s["points"] for s in scores} == {"Лисици": 600, "Сови": 200}

    # The secret: only the team with the turn (Лисици) sees the teams to hand it to.
    api("oq/pick", "Лисици", round=1, question=3)
    expect(lisici.get_by_role("button", name="Отдать: Сови")).to_be_visible(timeout=10_000)
    expect(sovi.locator("#oq-secret")).to_be_hidden()
    lisici.get_by_role("button", name="Отдать: Сови").tap()
    expect(sovi.locator("#oq-answering")).to_have_text("Отговаря Сови", timeout=10_000)
    expect(lisici.locator("#oq-secret")).to_be_hidden()
    start_question(base, code, password, 1, 3)
    assert api("oq/rounds/1/questions/3/judge", outcome="accept")["points"] == 300

    # Choices: the buzzer's winner sees its options in the button's place and chooses.
    api("oq/pick", "Сови", round=1, question=4)
    start_question(base, code, password, 1, 4)
    expect(lisici.locator("#question")).to_have_text("Раунд 1, вопрос 4", timeout=10_000)
    lisici.locator("#press").tap()
    expect(lisici.locator("#press")).to_be_hidden(timeout=10_000)
    lisici.get_by_role("button", name="B · Дунав").tap()
    expect(lisici.locator("#oq-answering")).to_have_text("Ваш выбор: B", timeout=10_000)
    expect(sovi.get_by_role("button", name="A · Искър")).to_be_disabled()
