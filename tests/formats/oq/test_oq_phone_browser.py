"""The OpenQuiz phone page in a browser (OQ-1, OQ-8): two players join one team on two
phones with the join form (team name and their own; the first is the captain), the
captain hands the captaincy to the teammate on the phone, and the new captain's phone
shows the captain's controls; a banned player's phone is told so and stays out."""

from __future__ import annotations

import pytest
import requests
from buzzgame import make_event
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 780}, "has_touch": True, "is_mobile": True}


def join(page, base: str, code: str, team: str, player: str) -> None:
    page.goto(f"{base}/e/{code}/buzzer")
    expect(page.locator("#oq-join")).to_be_visible(timeout=10_000)
    expect(page.locator("#press")).to_be_hidden()  # no player yet: nothing to press
    page.locator("#oq-join-team").fill(team)
    page.locator("#oq-join-player").fill(player)
    page.locator("#oq-join button[type=submit]").tap()


def test_oq1_two_players_join_one_team_and_hand_over_the_captaincy(
        app, live_server, browser: Browser):
    code, password = make_event(app, "oq", {1: 5})
    base = live_server.url
    ira = browser.new_context(**PHONE, locale="bg-BG").new_page()
    vasya = browser.new_context(**PHONE, locale="ru-RU").new_page()

    join(ira, base, code, "Сови", "Ира")
    expect(ira.locator("#oq-you")).to_have_text("Ти: Ира, капитан на Сови", timeout=10_000)
    expect(ira.locator("#press")).to_be_visible()
    expect(ira.locator("#oq-join")).to_be_hidden()
    expect(ira.locator("#oq-captaincy")).to_be_hidden()  # no teammate yet

    join(vasya, base, code, "  сови ", "Вася")  # the same team, as the form is typed
    expect(vasya.locator("#oq-you")).to_have_text("Вы: Вася (Сови)", timeout=10_000)
    expect(vasya.locator("#oq-captaincy")).to_be_hidden()  # not the captain
    expect(vasya.locator("#room")).to_have_text("Капитан: Ира", timeout=10_000)

    # The captain's phone offers the teammate; a tap hands the captaincy over.
    make = ira.get_by_role("button", name="Вася да е капитан")
    expect(make).to_be_visible(timeout=10_000)
    make.tap()
    expect(vasya.locator("#oq-you")).to_have_text("Вы: Вася, капитан команды Сови",
                                                  timeout=10_000)
    expect(vasya.get_by_role("button", name="Сделать капитаном: Ира")).to_be_visible()
    expect(ira.locator("#oq-you")).to_have_text("Ти: Ира (Сови)", timeout=10_000)
    expect(ira.locator("#oq-captaincy")).to_be_hidden()
    teams = requests.get(f"{base}/api/events/{code}/state", timeout=5).json()["oq"]["teams"]
    assert teams == [{"team": "Сови", "players": ["Ира", "Вася"], "captain": "Вася"}]

    # OQ-8: the host bans Ира; her phone is told so, in its language, and stays out,
    # even when it joins again under another name; Вася plays on.
    banned = requests.post(f"{base}/api/host/events/{code}/oq/remove", timeout=5,
                           json={"kind": "player", "team": "Сови", "player": "Ира",
                                 "ban": True}, headers={"Authorization": f"Bearer {password}"})
    assert banned.status_code == 200
    ira.reload()
    expect(ira.locator("#oq-refusal")).to_have_text(
        "Водещият е забранил на този играч да участва в играта.", timeout=10_000)
    expect(ira.locator("#press")).to_be_hidden()
    again = requests.post(f"{base}/api/events/{code}/oq/join", timeout=5,
                          json={"team": "Сови", "player": "Маша",
                                "previous": ira.evaluate(
                                    f"localStorage.getItem('answerdesk:token:{code}')")})
    assert again.status_code == 403 and again.json()["error"] == "banned"
    vasya.reload()
    expect(vasya.locator("#oq-you")).to_have_text("Вы: Вася, капитан команды Сови",
                                                  timeout=10_000)
    expect(vasya.locator("#press")).to_be_visible()
