"""The OpenQuiz room on a phone and at the host's page in a browser (OQ-1, OQ-4, OQ-8):
the phone shows its team's captain, the answering team's time left and a pause; the
host pauses from the room page."""

from __future__ import annotations

import time

import pytest
import requests
from buzzgame import make_event, start_question
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 780}, "has_touch": True, "is_mobile": True,
         "locale": "bg-BG"}


def test_oq_phone_shows_captain_time_left_and_pause(app, live_server, browser: Browser,
                                                     log_in_host):
    code, password = make_event(app, "oq", {1: 5})
    base = live_server.url
    token = requests.post(f"{base}/api/events/{code}/teams", timeout=5,
                          json={"name": "Сови", "players": 3}).json()["token"]
    players = {}
    for name in ("Ира", "Вася"):
        joined = requests.post(f"{base}/api/events/{code}/oq/players", timeout=5,
                               json={"name": name}, headers={"Authorization": f"Bearer {token}"})
        assert joined.status_code == 201
        players[name] = joined.json()["token"]
    token = players["Ира"]  # OQ-1: the phone of a player, who presses with their own token
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{base}/e/{code}/buzzer#token={token}")
    expect(phone.locator("#room")).to_have_text("Капитан: Ира", timeout=10_000)

    start_question(base, code, password, 1, 1)
    assert requests.post(f"{base}/api/events/{code}/buzz", timeout=5,
                         json={"round": 1, "question": 1,
                               "pressed_at_ms": int(time.time() * 1000)},
                         headers={"Authorization": f"Bearer {token}"}).status_code == 202
    expect(phone.locator("#room")).to_contain_text("Сови отговаря: остават", timeout=10_000)

    host = browser.new_context(locale="bg-BG").new_page()
    log_in_host(host, base, code, password)
    host.goto(f"{base}/host/{code}/oq")
    expect(host.locator(".oq-team[data-team='Сови'] .captain")).to_have_text("капитан")
    host.locator("#oq-clock button", has_text="Пауза").click()
    expect(host.locator("#oq-pause")).to_have_attribute("data-paused", "1")
    expect(phone.locator("#room")).to_have_text("Капитан: Ира · На пауза", timeout=10_000)
