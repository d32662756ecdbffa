"""The host's Своя игра desk in headless Chromium: the board's open button opens the
question through core's start endpoint (with the desk's CSRF token), a refusal shows
translated on the page, and a reload after ВСЁ and publication loses nothing."""

from __future__ import annotations

import pytest
import requests
from buzzgame import make_event
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.slow


def test_si_desk_opens_questions_through_core_start(app, live_server, browser: Browser):
    code, password = make_event(app, "si", {1: 25})
    base = live_server.url
    token = requests.post(f"{base}/api/events/{code}/teams", timeout=5,
                          json={"name": "Вася", "players": 1}).json()["token"]
    page = browser.new_context(locale="ru-RU").new_page()
    page.goto(f"{base}/host/{code}/login")
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.goto(f"{base}/host/{code}/si")

    board = page.locator("#round-1 tr[data-theme='1'] form.open button")
    board.nth(0).click()  # the 1-point question of theme 1
    expect(page.locator("#current-state")).to_have_attribute("data-state", "open",
                                                             timeout=10_000)
    expect(board.nth(0)).to_be_disabled()
    state = requests.get(f"{base}/api/events/{code}/state", timeout=5).json()["si"]
    assert (state["current"]["round"], state["current"]["question"]) == (1, 1)

    board.nth(1).click()  # still running: refused, told in the page's language
    expect(page.locator("#si-error")).to_have_text("Вопрос 1 раунда 1 ещё идёт.",
                                                   timeout=10_000)

    sent = requests.post(f"{base}/api/events/{code}/si/answers", timeout=5,
                         headers={"Authorization": f"Bearer {token}"},
                         json={"round": 1, "question": 1, "text": "answer 1.1"})
    assert sent.status_code == 201
    page.reload()
    expect(page.locator("#answers tr[data-player='Вася']")).to_contain_text("answer 1.1")
    page.locator("#current form button").first.click()  # ВСЁ
    expect(page.locator("#current-state")).to_have_attribute("data-state", "closed")
    page.get_by_role("button", name="Опубликовать списки").click()
    expect(page.locator("#lists li")).to_have_text(["+1 Вася"])
    page.reload()
    expect(page.locator("#current-state")).to_have_attribute("data-state", "published")
    expect(page.locator("#lists li")).to_have_text(["+1 Вася"])
