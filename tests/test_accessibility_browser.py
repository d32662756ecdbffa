"""Accessibility (issue 19): axe-core (vendored, tests/vendor) finds no serious or
critical violation on the phone sheet, the host's desk, the projector and the Своя игра
phone; every page says its language; the phones' tap targets are at least 44 px."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests
from buzzgame import make_event, start_question
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def _serious(page: Page) -> list[str]:
    """axe's serious and critical findings: rule id and the first offending element."""
    page.evaluate(AXE)  # evaluated by the test, so the pages' CSP needs no exception
    return page.evaluate("""axe.run(document, {resultTypes: ["violations"]}).then(r =>
        r.violations.filter(v => ["serious", "critical"].includes(v.impact))
         .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n =>
              n.target.join(" ") + " " + (n.any[0] || {message: ""}).message).join(", ")))""")


@pytest.fixture
def night(app, live_demo):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    token = requests.post(f"{base}/api/events/{code}/teams", json={"name": "Сови"}).json()["token"]
    for number in (1, 2):
        requests.post(f"{base}/api/host/events/{code}/rounds/{number}/open", headers=host)
    requests.put(f"{base}/api/events/{code}/answers/1/1", json={"text": "вярно"},
                 headers={"Authorization": f"Bearer {token}"})
    requests.post(f"{base}/api/host/events/{code}/rounds/1/close", headers=host)
    return base, code, password


def test_phone_sheet(page: Page, night) -> None:
    base, code, _ = night
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Бухали")
    page.fill("#players", "3")
    page.click("button[type=submit]")
    page.locator("input[data-key='2/1']").wait_for()
    assert page.evaluate("document.documentElement.lang") == "en"  # the phone's own language
    assert _serious(page) == []
    _no_small_targets(page)


def _no_small_targets(page: Page) -> None:
    small = page.evaluate("""[...document.querySelectorAll(
        'button, input:not([type=hidden]), select, textarea, a[href]')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
        .filter(([, r]) => r.height < 44 || (r.width < 44))
        .map(([html, r]) => html + " " + Math.round(r.width) + "x" + Math.round(r.height))""")
    assert not small, "\n".join(small)


def test_si_phone(page: Page, app, live_server) -> None:
    """The Своя игра phone with a question open, then with its lists and СТОП."""
    code, password = make_event(app, "si", {1: 25})
    base = live_server.url
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Вася")
    page.click("button[type=submit]")
    expect(page.locator("#si-player")).to_have_text("Вася", timeout=10_000)  # joined
    start_question(base, code, password, 1, 1)
    expect(page.locator("#si-answer")).to_be_visible(timeout=10_000)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert _serious(page) == []
    _no_small_targets(page)
    page.fill("#si-text", "answer 1.1")
    page.click("#si-answer button[type=submit]")
    expect(page.locator("#si-sent")).to_have_text("Sent: answer 1.1")
    host = {"Authorization": f"Bearer {password}"}
    q = f"{base}/api/host/events/{code}/si/rounds/1/questions/1"
    requests.post(f"{q}/close", headers=host, timeout=5).raise_for_status()
    requests.post(f"{q}/decide", headers=host, timeout=5,
                  json={"player": "Вася", "mark": "correct"}).raise_for_status()
    requests.post(f"{q}/publish", headers=host, timeout=5).raise_for_status()
    page.locator("#si-stop-list li[data-question='1'] button").click(timeout=10_000)
    expect(page.locator("#si-protest")).to_be_visible()  # СТОП on the question, SI-3
    assert _serious(page) == []
    _no_small_targets(page)


def test_desk_and_projector(page: Page, night, log_in_host) -> None:
    base, code, password = night
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in_host(page, base, code, password)
    assert page.evaluate("document.documentElement.lang") in ("bg", "ru", "en")
    assert _serious(page) == []
    page.goto(f"{base}/e/{code}/screen")
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert page.evaluate("document.documentElement.lang") == "bg"
    assert _serious(page) == []
