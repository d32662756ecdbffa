"""A ЧГК phone in headless Chromium: the question's clock counts down from the server's
deadline (60 s + 10 s by default, CHGK-1.1; shorter here) and the card locks at the end."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 780}


def _seconds(text: str) -> int:
    minutes, seconds = re.search(r"(\d+):(\d\d)", text).groups()
    return int(minutes) * 60 + int(seconds)


def test_chgk_1_1_phone_clock_counts_down_and_the_card_locks(page: Page, chgk_event,
                                                             live_server):
    base = live_server.url
    code, password = chgk_event
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Сова")
    page.fill("#players", "4")
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{base}/e/{code}/sheet")

    started = requests.post(f"{base}/api/host/events/{code}/rounds/1/questions/7/start",
                            json={"seconds": 4, "grace": 3},
                            headers={"Authorization": f"Bearer {password}"})
    assert started.status_code == 200
    card = page.locator(".question", has=page.locator("input[data-key='1/7']"))
    expect(card).to_be_visible(timeout=10_000)
    clock = card.locator(".clock")
    expect(clock).to_have_class(re.compile("discuss"))
    first = _seconds(clock.inner_text())
    assert 1 <= first <= 4
    answer = card.locator("input[data-key='1/7']")
    answer.fill("Бунин")  # CHGK-1.5: early answers are fine
    expect(card.locator(".status")).to_have_class("status saved", timeout=5_000)
    expect(clock).to_have_class(re.compile("hand-in"), timeout=8_000)
    assert _seconds(clock.inner_text()) <= 3
    expect(clock).to_have_class(re.compile("locked"), timeout=8_000)
    expect(answer).to_have_attribute("readonly", "", timeout=2_000)
    expect(answer).to_have_value("Бунин")
    # Nobody closed anything: the server refuses a late answer by the time alone.
    token = page.evaluate("code => localStorage.getItem('answerdesk:token:' + code)", code)
    late = requests.put(f"{base}/api/events/{code}/answers/1/7", json={"text": "Чехов"},
                        headers={"Authorization": f"Bearer {token}"})
    assert late.status_code == 409
