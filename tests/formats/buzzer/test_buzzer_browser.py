"""Three phones and the projector in a browser (issue 15): the lower half of each phone
is the button, a touch presses it, and every screen shows the same order once the
window has closed."""

from __future__ import annotations

import time

import pytest
from buzzgame import make_event, oq_player, start_question
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 780}, "has_touch": True, "is_mobile": True,
         "locale": "ru-RU"}


def test_three_phones_press_and_every_screen_shows_the_order(app, live_server, browser: Browser):
    code, password = make_event(app, "oq", {1: 5})
    base = live_server.url
    phones = []
    for name in ("Сови", "Лисици", "Мечки"):
        token = oq_player(base, code, name)
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{base}/e/{code}/buzzer#token={token}")
        phones.append(page)
    screen = browser.new_context(viewport={"width": 1280, "height": 720}, locale="bg-BG").new_page()
    screen.goto(f"{base}/e/{code}/buzzer/screen")
    expect(screen.locator("#question")).to_have_text("Чакаме следващия въпрос")

    button = phones[0].locator("#press")
    box = button.bounding_box()
    assert box is not None and box["y"] >= 780 / 2 - 1 and box["height"] >= 780 / 2 - 1

    time.sleep(2)  # the phones' first clock syncs
    start_question(base, code, password, 1, 1)
    for page in phones:
        expect(page.locator("#question")).to_have_text("Раунд 1, вопрос 1", timeout=10_000)
    phones[1].locator("#press").tap()
    phones[2].locator("#press").tap()
    phones[0].locator("#press").tap()
    expect(phones[1].locator("#result")).to_have_text("Нажато", timeout=5_000)

    # On a busy machine a tap may come more than a second after the first press: it is
    # refused (the window closed) and told so; every screen shows the same order.
    expect(screen.locator("#phase")).to_have_text("Ред на натисканията", timeout=10_000)
    shown = screen.locator("#order li").evaluate_all("els => els.map(e => e.dataset.team)")
    assert shown[0] == "Лисици"
    for page in phones:
        expect(page.locator("#order li")).to_have_count(len(shown), timeout=10_000)
        assert page.locator("#order li").evaluate_all(
            "els => els.map(e => e.dataset.team)") == shown
    for page, name in zip(phones, ("Сови", "Лисици", "Мечки"), strict=True):
        expected = "Нажато" if name in shown else "Поздно: время нажатий истекло."
        expect(page.locator("#result")).to_have_text(expected, timeout=5_000)
    assert screen.locator("#press").count() == 0
    expect(phones[1].locator("#press")).to_be_disabled()
