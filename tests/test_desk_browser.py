"""A host judges a 10-item queue with the keyboard only; the projector follows without a reload."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from answerdesk.extensions import db
from answerdesk.models import Verdict

pytestmark = pytest.mark.slow

NAMES = ("Ботев", "Раковски", "Каравелов", "Бенковски", "Стамболов", "Яворов", "Смирненски",
         "Дебелянов", "Алеко", "Пенчо")


def test_host_judges_ten_items_by_keyboard_and_projector_follows(page: Page, app, live_demo,
                                                                  log_in_host):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    requests.post(f"{base}/api/host/events/{code}/rounds/2/open", headers=host)
    for i, text in enumerate(NAMES):
        token = requests.post(f"{base}/api/events/{code}/teams",
                              json={"name": f"Отбор {i}"}).json()["token"]
        resp = requests.put(f"{base}/api/events/{code}/answers/2/1", json={"text": text},
                            headers={"Authorization": f"Bearer {token}"})
        assert resp.status_code == 200
    requests.post(f"{base}/api/host/events/{code}/rounds/2/close", headers=host)
    with app.app_context():
        for verdict in db.session.scalars(db.select(Verdict)):
            verdict.outcome = "review"  # ten different answers the checker sent to the host
        db.session.commit()

    projector = page.context.new_page()
    projector.goto(f"{base}/e/{code}/screen")
    projector.evaluate("window.notReloaded = true")
    points = projector.locator("#screen-standings .pts")
    expect(points.filter(has_text=re.compile(r"^2$"))).to_have_count(0)

    log_in_host(page, base, code, password)
    page.goto(f"{base}/host/{code}/review")
    count = page.locator("#queue-count")
    expect(count).to_have_text("10")
    for left, key in zip(range(9, -1, -1), "cwcwcwcccw", strict=True):
        expect(page.locator("article.review-item[aria-current=true]")).to_have_count(1)
        page.keyboard.press(key)
        expect(count).to_have_text(str(left), timeout=10_000)
    expect(page.locator("#queue-empty")).to_be_visible()
    # BG-E3: the round is judged but not revealed, so the room sees no points yet; the
    # reveal shows its answers at once, and the host then puts the standings up.
    expect(points.filter(has_text=re.compile(r"^2$"))).to_have_count(0)
    requests.post(f"{base}/api/host/events/{code}/rounds/2/reveal", headers=host)
    expect(projector.locator(".view-reveal")).to_be_visible(timeout=10_000)
    page.goto(f"{base}/host/{code}/")
    page.locator("form:has(input[name=view][value=standings]) button").first.click()
    expect(points.filter(has_text=re.compile(r"^2$"))).to_have_count(6, timeout=10_000)
    assert projector.evaluate("window.notReloaded") is True
    standings = requests.get(f"{base}/api/events/{code}/standings").json()["standings"]
    assert sorted(r["points"] for r in standings) == [0] * 4 + [2] * 6
