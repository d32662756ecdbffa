"""A Russian-speaking team on a phone: the browser's language is picked up, every
label of the join page and the answer sheet (JS messages included) is Russian,
and the switcher changes it."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 780}


def test_phone_sheet_in_russian(browser: Browser, live_demo) -> None:
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    context = browser.new_context(locale="ru-RU", viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{base}/e/{code}")
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        expect(page.locator("label", has=page.locator("#team-name"))).to_contain_text(
            "Название команды")
        expect(page.locator("button[type=submit]")).to_have_text("Войти")
        page.fill("#team-name", "Совы")
        page.click("button[type=submit]")
        expect(page).to_have_url(f"{base}/e/{code}/sheet")
        expect(page.locator("#sheet")).to_contain_text("Пока ни один раунд не открыт")
        expect(page.locator("#net")).to_have_text("онлайн")

        requests.post(f"{base}/api/host/events/{code}/rounds/2/open", headers=host)
        answer = page.locator("input[data-key='2/2']")
        expect(answer).to_be_visible(timeout=10_000)
        expect(page.locator("section[data-round='2'] h2")).to_contain_text("Раунд 2")
        expect(page.locator("section[data-round='2'] .badge")).to_have_text("открыт")
        answer.fill("Марица")
        status = page.locator(".question", has=answer).locator(".status")
        expect(status).to_contain_text("сохранено", timeout=10_000)
        expect(status).to_contain_text("квитанция")

        requests.post(f"{base}/api/host/events/{code}/rounds/2/close", headers=host)
        expect(page.locator("section[data-round='2'] .badge")).to_have_text(
            "закрыт", timeout=10_000)
        expect(page.locator("footer summary")).to_have_text("Подключить ещё один телефон команды")

        page.click(".lang-switch a[hreflang=en]")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("footer summary")).to_have_text("Add another phone of this team")
        expect(page.locator("section[data-round='2'] .badge")).to_have_text("locked",
                                                                            timeout=10_000)
        page.click(".lang-switch a[hreflang=ru]")
        expect(page.locator("section[data-round='2'] h2")).to_contain_text("Раунд 2",
                                                                         timeout=10_000)
    finally:
        context.close()
