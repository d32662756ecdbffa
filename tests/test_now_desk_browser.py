"""One desk for the night (issue 19): the host drives a whole BG round from the one page
— open, teams answer, close and check, decide the review inline, reveal — on a
1366×768 laptop, and the page still works on a tablet."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

from answerdesk.extensions import db
from answerdesk.models import Answer, Verdict

pytestmark = pytest.mark.slow

ANSWERS = {"Сови": "вярно", "Бухали": "невярно", "Лисици": "може би"}
# The projector and the desk follow by polling (1.5 s, 2 s) and redrawing; this bounds a
# slow run on a loaded machine. The flake on PostgreSQL was a change missed for good, not
# slowness: a page read its version after its picture (tests/test_live_versions.py).
FOLLOW_MS = 30_000


def _in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box and size and box["y"] + box["height"] <= size["height"], (selector, box, size)


def test_the_desk_drives_a_whole_round(page: Page, app, live_demo, log_in_host):
    base, code, password = live_demo
    page.set_viewport_size({"width": 1366, "height": 768})
    tokens = {name: requests.post(f"{base}/api/events/{code}/teams", json={"name": name})
              .json()["token"] for name in ANSWERS}
    log_in_host(page, base, code, password)
    page.goto(f"{base}/lang/bg?next=/host/{code}/")
    projector = page.context.new_page()
    projector.goto(f"{base}/e/{code}/screen")

    step = page.locator("#next-action")
    expect(step).to_have_text("Отвори кръг 1")
    _in_view(page, "#next-action")
    step.click()
    expect(page.locator("#now-state")).to_have_text("отворен")
    expect(step).to_have_text("Затвори кръг 1 и провери")
    expect(projector.locator(".now.open")).to_be_visible(timeout=FOLLOW_MS)

    for name, text in ANSWERS.items():
        resp = requests.put(f"{base}/api/events/{code}/answers/1/1", json={"text": text},
                            headers={"Authorization": f"Bearer {tokens[name]}"})
        assert resp.status_code == 200
    # The desk redraws itself when teams answer: no reload by the host.
    expect(page.locator("#answered-now strong")).to_have_text("3", timeout=FOLLOW_MS)

    step.click()
    expect(page.locator("#now-state")).to_have_text("затворен")
    with app.app_context():  # whatever the checker made of "може би", the host decides it
        verdict = db.session.scalar(db.select(Verdict).join(Answer)
                                    .where(Answer.text == "може би"))
        verdict.outcome, verdict.decision = "review", None
        db.session.commit()
    page.reload()
    expect(page.locator("#queue-size")).to_have_text("1")
    item = page.locator("#now-review article.review-item")
    expect(item).to_have_count(1)
    item.get_by_role("button", name="Грешен").click()
    expect(page.locator("#queue-size")).to_have_text("0")
    expect(page.locator("#now-review")).to_have_count(0)

    expect(step).to_have_text("Покажи отговорите на кръг 1")
    step.click()
    expect(projector.locator(".now.revealed")).to_be_visible(timeout=FOLLOW_MS)
    expect(step).to_have_text("Отвори кръг 2")
    standings = requests.get(f"{base}/api/events/{code}/standings").json()["standings"]
    assert {r["team"]: r["points"] for r in standings} == {"Сови": 1, "Бухали": 0, "Лисици": 0}

    page.set_viewport_size({"width": 820, "height": 1180})  # a tablet, upright
    page.reload()
    _in_view(page, "#next-action")
    _in_view(page, "#queue-size")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
