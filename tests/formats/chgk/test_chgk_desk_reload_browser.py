"""The ЧГК desk reloads itself every 3 s while a question's clock runs (static/chgk_desk.js,
CHGK-1.1); a host's click that submits a form must not be overtaken by that reload,
which would cancel the form's request and leave the desk as it was: the host's verdict
lost on a slow network or a busy server. Acted by clicks; the server's answer to the
host's form is held back 4.5 s, longer than the reload's period."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Request, Route, expect

pytestmark = pytest.mark.slow

DESK = {"viewport": {"width": 1366, "height": 900}, "locale": "en-GB"}


def test_chgk_1_1_a_form_sent_while_the_clock_runs_is_not_overtaken_by_the_reload(
        chgk_event, live_server, browser: Browser, log_in_host):
    base = live_server.url
    code, password = chgk_event
    desk = browser.new_context(**DESK).new_page()
    log_in_host(desk, base, code, password)
    desk.goto(f"{base}/host/{code}/chgk")
    desk.locator("#game-1").get_by_role("button", name="Spin the top").click()
    desk.locator("#game-1 form:has(input[name=sector]) button[type=submit]").click()
    expect(desk.locator("#clock-state")).to_have_attribute("data-state", "open")

    form = desk.locator("#clock-defaults")
    action = urlsplit(form.get_attribute("action") or "").path
    sent: list[tuple[float, Request]] = []
    desk.on("request", lambda r: sent.append((time.monotonic(), r)))

    def held_back(route: Route) -> None:
        time.sleep(4.5)
        route.continue_()

    desk.route(f"**{action}", held_back)
    clicked = time.monotonic()
    with desk.expect_response(lambda r: r.request.method == "POST"
                              and urlsplit(r.url).path == action, timeout=30_000):
        form.locator("button[type=submit]").click()
    reloads = [r for t, r in sent if t >= clicked and r.method == "GET"
               and r.is_navigation_request() and urlsplit(r.url).path == f"/host/{code}/chgk"]
    posted = [r for t, r in sent if t >= clicked and r.method == "POST"]
    assert len(posted) == 1
    # The only navigation after the click is the form's own (its redirect back to the
    # desk follows the POST's answer), none before it.
    assert all(r.redirected_from is not None for r in reloads), [r.url for r in reloads]
