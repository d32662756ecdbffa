"""What a phone's page sends while its team types (issue 33): a save's answer carries
the state, so a typing phone does not poll besides; /play is fetched only when the
state's version moved (a team joined), not on a clock. Acted by clicks and typing;
the requests are observed, never sent by the test."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, Request, expect

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "bg-BG"}
WAIT = 20_000


def _join(browser: Browser, base: str, code: str, name: str) -> Page:
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{base}/e/{code}")
    phone.fill("#team-name", name)
    phone.click("#join-form button[type=submit]")
    expect(phone).to_have_url(f"{base}/e/{code}/sheet", timeout=WAIT)
    return phone


def _round_2_open(browser: Browser, base: str, code: str, password: str, log_in_host) -> None:
    """The host logs in at the desk and opens round 2 there."""
    desk = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    log_in_host(desk, base, code, password)
    desk.locator("#rounds tr[data-round='2'] button[value=open]").click()
    expect(desk.locator("#rounds tr[data-round='2']")).to_have_class("open", timeout=WAIT)


def _kind(request: Request) -> str | None:
    path = request.url.split("?")[0]
    if request.method == "PUT" and "/answers/" in path:
        return "save"
    for kind in ("/state", "/play", "/sheet"):
        if request.method == "GET" and path.endswith(kind):
            return kind[1:]
    return None


def test_a_typing_phone_polls_only_what_moved(browser: Browser, live_demo, log_in_host):
    base, code, password = live_demo
    _round_2_open(browser, base, code, password, log_in_host)

    phone = _join(browser, base, code, "Сови")
    sent: list[tuple[float, str, Request]] = []
    phone.on("request", lambda r: sent.append((time.monotonic(), _kind(r) or "", r)))
    fields = phone.locator("input[data-key^='2/']")
    expect(fields.first).to_be_visible(timeout=WAIT)

    def between(start: float, end: float, kind: str) -> list[Request]:
        return [r for t, k, r in sent if start <= t < end and k == kind]

    # The team types the round's answers, a word a second or so: each pause saves.
    began = time.monotonic()
    for round_trip in range(2):
        for i in range(fields.count()):
            fields.nth(i).press_sequentially(f"Отговор {round_trip}{i}", delay=60)
            phone.wait_for_timeout(700)
    typed = time.monotonic()
    expect(phone.locator(".status.saved")).to_have_count(fields.count(), timeout=WAIT)
    saves = between(began, typed, "save")
    assert len(saves) >= 6 and all("with=state" in r.url for r in saves)
    # Every save answered with the state: at most one poll slipped between two saves.
    assert len(between(began, typed, "state")) <= 1, typed - began
    # Nothing of the rules moved: no /play at all.
    assert between(began, typed, "play") == []

    # Another team joins on its phone: the version moves, the first phone fetches /play
    # once and its copy-joker list knows the new team.
    joined = time.monotonic()
    _join(browser, base, code, "Орли")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not between(joined, time.monotonic(), "play"):
        phone.wait_for_timeout(250)
    fetched = between(joined, time.monotonic(), "play")
    assert len(fetched) == 1
    response = fetched[0].response()
    assert response is not None and "Орли" in response.json()["teams"]

    # Idle: the phone polls the state every 3 s, and fetches nothing else.
    idle = time.monotonic()
    phone.wait_for_timeout(7_500)
    now = time.monotonic()
    assert 2 <= len(between(idle, now, "state")) <= 3
    assert between(idle, now, "play") == [] and between(idle, now, "save") == []


def test_a_second_phone_sees_its_teammates_answers_by_changes_alone(
        browser: Browser, live_demo, log_in_host):
    """Two phones of one team: what one types reaches the other within the 10 s
    re-read, as the answers changed since its last read, not the whole sheet."""
    base, code, password = live_demo
    _round_2_open(browser, base, code, password, log_in_host)

    typing = _join(browser, base, code, "Сови")
    expect(typing.locator("input[data-key='2/1']")).to_be_visible(timeout=WAIT)
    typing.locator("details summary", has_text="телефон").click()
    link = typing.locator("#share-link").input_value()
    watching = browser.new_context(**PHONE).new_page()
    reads: list[dict] = []

    def noted(response) -> None:
        if "/sheet?since=" in response.url:
            reads.append(response.json())

    watching.on("response", noted)
    watching.goto(link)
    expect(watching.locator("input[data-key='2/1']")).to_be_visible(timeout=WAIT)

    typing.locator("input[data-key='2/1']").press_sequentially("Левски", delay=60)
    expect(typing.locator(".question:has(input[data-key='2/1']) .status")).to_have_class(
        "status saved", timeout=WAIT)
    expect(watching.locator("input[data-key='2/1']")).to_have_value("Левски", timeout=25_000)
    assert any(r.get("delta") and any(a["text"] == "Левски" for a in r["answers"])
               for r in reads), reads
