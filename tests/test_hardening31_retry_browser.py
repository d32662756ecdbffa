"""Issue 31: the phones honour Retry-After (static/phone.js, the one module every phone
script sends through). A 503 busy or a 429 with Retry-After: the phone sends nothing
before the server's time (plus a small jitter), shows the translated "busy, your answer
is kept" notice, not an error, and then sends the same request again: the answer is
saved once, the team joins.

Playwright's route only makes the server's first answer a 503 (or 429) with
"Retry-After: 2" and notes when the page sent each request; the players act by typing
and clicking; the API is read only for the assertions. One server for the module's
test, a context per phone."""

from __future__ import annotations

import json
import time

import pytest
import requests
from playwright.sync_api import Browser, expect

from answerdesk.extensions import db
from answerdesk.models import AuditEntry

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
BUSY = {
    "bg": "Сървърът е зает: отговорът ви е запазен на този телефон и ще бъде изпратен след малко.",
    "ru": "Сервер занят: команда войдёт через мгновение. Не закрывайте эту страницу.",
}
ASKED_S = 2


def _refused_once(status: int, error: str, sent: list[float]):
    """A route handler: the first request is refused with ``status`` and Retry-After, the
    rest go to the server; ``sent`` gets each request's time."""
    def handle(route, request) -> None:
        sent.append(time.monotonic())
        if len(sent) == 1:
            route.fulfill(status=status, content_type="application/json",
                          headers={"Retry-After": str(ASKED_S)},
                          body=json.dumps({"error": error, "message": error}))
        else:
            route.continue_()
    return handle


def test_31_phones_wait_as_long_as_the_server_asks_then_send_again(app, browser: Browser,
                                                                   live_demo):
    base, code, password = live_demo
    api = f"{base}/api/events/{code}"

    # A BG sheet: the first save is refused as busy (503, Retry-After: 2).
    team = requests.post(f"{api}/teams", json={"name": "Сови"}, timeout=30).json()["token"]
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/open", timeout=30,
                         headers={"Authorization": f"Bearer {password}"}).status_code == 200
    sheet = browser.new_context(locale="bg-BG", **PHONE).new_page()
    saves: list[float] = []
    sheet.route("**/api/events/*/answers/2/1?*", _refused_once(503, "busy", saves))
    sheet.goto(f"{base}/e/{code}/sheet#token={team}")
    box = sheet.locator("input[data-key='2/1']")
    box.fill("Левски")
    expect(sheet.locator("#net")).to_have_text(BUSY["bg"], timeout=10_000)
    expect(sheet.locator("#net")).not_to_have_class("net off")
    status = sheet.locator(".question", has=box).locator(".status")
    expect(status).to_have_class("status saved", timeout=15_000)
    first, again = saves
    assert again - first >= ASKED_S, f"sent again {again - first:.2f} s after a 503 asking 2 s"
    assert again - first < ASKED_S + 5.5  # the jitter is at most 5 s
    expect(sheet.locator("#net")).not_to_have_text(BUSY["bg"])
    saved = requests.get(f"{api}/sheet", headers={"Authorization": f"Bearer {team}"},
                         timeout=30).json()
    answers = {q["number"]: q["answer"] for r in saved["rounds"] if r["number"] == 2
               for q in r["questions"] if q["answer"]}
    assert answers[1]["text"] == "Левски"
    expect(status).to_contain_text(answers[1]["receipt"])
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(AuditEntry).where(
            AuditEntry.action == "answer.save")) == 1

    # A RU join page: the first join is refused by a limit (429, Retry-After: 2).
    joining = browser.new_context(locale="ru-RU", **PHONE).new_page()
    joins: list[float] = []
    joining.route("**/api/events/*/teams", _refused_once(429, "rate_limited", joins))
    joining.goto(f"{base}/e/{code}")
    joining.fill("#team-name", "Ёжики")
    joining.click("#join-form button")
    expect(joining.get_by_role("status")).to_have_text(BUSY["ru"], timeout=10_000)
    expect(joining.locator("#join-error")).to_be_hidden()
    expect(joining).to_have_url(f"{base}/e/{code}/sheet", timeout=15_000)
    first, again = joins
    assert again - first >= ASKED_S
    token = joining.evaluate(f"localStorage.getItem('answerdesk:token:{code}')")
    me = requests.get(f"{api}/sheet", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert me.json()["team"]["name"] == "Ёжики"

    # The module's own reading of the header and its jitter's bounds.
    P = "window.AnswerdeskPhone"
    assert joining.evaluate(f"{P}.retryAfterMs('2', 0)") == 2000
    assert joining.evaluate(f"{P}.retryAfterMs(' 0 ', 0)") == 1000  # never under 1 s
    assert joining.evaluate(f"{P}.retryAfterMs(new Date(500).toUTCString(), 1000)") == 1000
    assert joining.evaluate(f"{P}.retryAfterMs(new Date(7000).toUTCString(), 1000)") == 6000
    assert joining.evaluate(f"{P}.retryAfterMs('86400', 0)") == 600_000  # at most 10 min
    assert joining.evaluate(f"[{P}.retryAfterMs(null, 0), {P}.retryAfterMs('soon', 0)]") == [
        None, None]
    assert joining.evaluate(f"[{P}.jitterMs(2000, 0), {P}.jitterMs(2000, 0.999)]") == [0, 749]
    assert joining.evaluate(f"{P}.jitterMs(600000, 0.999)") == 4995
    # A buzzer press or a clock sample (opts.once) is not sent again late: the refusal
    # is its answer (the press would arrive after its window); fetch is the page's stub.
    assert joining.evaluate("""async () => {
        let calls = 0;
        window.fetch = () => { calls += 1; return Promise.resolve(new Response(
            '{"error": "busy", "message": "busy"}',
            {status: 503, headers: {"Retry-After": "1", "Content-Type": "application/json"}}));
        };
        const r = await window.AnswerdeskPhone.of("X", "/").request(
            "POST", "/buzz", {once: true, body: {}});
        return [r.status, calls];
    }""") == [503, 1]
