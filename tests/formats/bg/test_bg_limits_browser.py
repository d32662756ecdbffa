"""BG-G2b on a phone: a join over the event's players limit is refused in the phone's
language, and a join within it goes on to the sheet."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from answerdesk.core import limits
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db

pytestmark = pytest.mark.slow


def test_bg_g2b_phone_join_over_the_limit(browser: Browser, app, live_demo) -> None:
    base, code, _password = live_demo
    with app.app_context():
        limits.set_limits(event_by_code(code), max_players="4", handicaps="", invited="")
        db.session.commit()
    context = browser.new_context(locale="bg-BG", viewport={"width": 390, "height": 780})
    page = context.new_page()
    try:
        page.goto(f"{base}/e/{code}")
        page.fill("#team-name", "Сови")
        page.fill("#players", "6")
        page.click("button[type=submit]")
        expect(page.get_by_role("alert")).to_have_text(
            "На това събитие отборите са най-много 4 играчи")
        page.fill("#players", "4")
        page.click("button[type=submit]")
        expect(page).to_have_url(f"{base}/e/{code}/sheet")
    finally:
        context.close()
