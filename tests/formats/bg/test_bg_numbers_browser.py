"""BG-R5.4 «От 1 до 10» on the phone: a number already given to another question is
refused with a message that stays until the team changes the line (issue 34)."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

from answerdesk.core.events import event_by_code
from answerdesk.formats.bg import wildcard

pytestmark = pytest.mark.slow


def test_bg_r5_4_a_repeated_number_is_refused_and_the_message_stays(page: Page, live_demo,
                                                                      app):
    base, code, password = live_demo
    with app.app_context():
        wildcard.choose_scenario(event_by_code(code), "5.4")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Сови")
    page.fill("#players", "4")
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{base}/e/{code}/sheet")
    requests.post(f"{base}/api/host/events/{code}/rounds/5/open",
                  headers={"Authorization": f"Bearer {password}"}, timeout=30)
    first = page.locator("input[data-key='5/1']")
    expect(first).to_be_visible(timeout=10_000)
    first.fill("3")
    status = page.locator(".question", has=first).locator(".status")
    expect(status).to_have_class("status saved", timeout=10_000)
    second = page.locator("input[data-key='5/2']")
    second.fill("3")
    refused = page.locator(".question", has=second).locator(".status")
    expect(refused).to_have_class("status refused", timeout=5_000)
    page.wait_for_timeout(12_000)  # past the sheet's polls and its full reload
    expect(refused).to_have_class("status refused")
    expect(refused).to_contain_text("3")
    expect(page.locator("input[data-key='5/2']")).to_have_value("3")
    page.screenshot(path="/tmp/shots-bg34/phone-r5-4-refused.png")
    page.locator("input[data-key='5/2']").fill("4")
    expect(page.locator(".question", has=second).locator(".status")).to_have_class(
        "status saved", timeout=10_000)
