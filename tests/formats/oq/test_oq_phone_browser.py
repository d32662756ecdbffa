"""The OpenQuiz phone page in a browser (OQ-1, OQ-8, OQ-3.4): a player makes a team with
the join form (team name and their own; the first is the captain); a stranger who types
the team's name is refused; the teammate joins through the invitation link the
captain's phone shows (with its QR code), typing only their own name; the captain hands
the captaincy to the teammate on the phone, and the new captain's phone shows the
captain's controls; a banned player's phone is told so and stays out. The captain
picks a secret question's price among the pack's on the phone; a fixed price is shown.
The team's share link (its team token) lets a player join it too."""

from __future__ import annotations

import re

import pytest
import requests
from buzzgame import make_event, oq_player, start_question
from playwright.sync_api import Browser, expect

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 780}, "has_touch": True, "is_mobile": True}


def join(page, base: str, code: str, team: str, player: str) -> None:
    page.goto(f"{base}/e/{code}/buzzer")
    expect(page.locator("#oq-join")).to_be_visible(timeout=10_000)
    expect(page.locator("#press")).to_be_hidden()  # no player yet: nothing to press
    page.locator("#oq-join-team").fill(team)
    page.locator("#oq-join-player").fill(player)
    page.locator("#oq-join button[type=submit]").tap()


def invitation_link(page, summary: str) -> str:
    """Open "Invite teammates" on a player's phone: its QR code and link."""
    invite = page.locator("#oq-invite")
    expect(invite).to_be_visible(timeout=10_000)
    invite.get_by_text(summary).tap()
    expect(invite.locator("svg.qr")).to_be_visible(timeout=10_000)
    link = invite.locator("#oq-invite-link")
    expect(link).to_have_attribute("href", link.inner_text())
    return link.get_attribute("href")


def test_oq1_two_players_join_one_team_and_hand_over_the_captaincy(
        app, live_server, browser: Browser):
    code, password = make_event(app, "oq", {1: 5})
    base = live_server.url
    ira = browser.new_context(**PHONE, locale="bg-BG").new_page()
    vasya = browser.new_context(**PHONE, locale="ru-RU").new_page()

    join(ira, base, code, "Сови", "Ира")
    expect(ira.locator("#oq-you")).to_have_text("Ти: Ира, капитан на Сови", timeout=10_000)
    # a player's phone (the button shows once a question plays, issue 29)
    expect(ira.locator("body")).not_to_have_class(re.compile("oq-no-player"))
    expect(ira.locator("#oq-join")).to_be_hidden()
    expect(ira.locator("#oq-captaincy")).to_be_hidden()  # no teammate yet

    # OQ-1: typing the team's name (as typed: case and spaces aside) is not enough.
    join(vasya, base, code, "  сови ", "Вася")
    expect(vasya.locator("#oq-refusal")).to_have_text(
        "Команда «Сови» уже есть: попросите у её капитана ссылку-приглашение.",
        timeout=10_000)
    assert requests.get(f"{base}/api/events/{code}/state", timeout=5).json()["oq"][
        "teams"] == [{"team": "Сови", "players": ["Ира"], "captain": "Ира"}]
    # The captain's phone shows the invitation: the link opens the phone page with the
    # team and the invitation filled in (in the fragment); Вася types only his name.
    link = invitation_link(ira, "Покани съотборници")
    assert link.startswith(f"{base}/e/{code}/buzzer#") and "invite=" in link
    vasya.goto("about:blank")
    vasya.goto(link)
    expect(vasya.locator("#oq-join-team")).to_have_value("Сови", timeout=10_000)
    vasya.locator("#oq-join-player").fill("Вася")
    vasya.locator("#oq-join button[type=submit]").tap()
    expect(vasya.locator("#oq-you")).to_have_text("Вы: Вася (Сови)", timeout=10_000)
    assert "invite" not in vasya.url  # the fragment is gone once joined
    assert invitation_link(vasya, "Пригласить в команду") == link  # every player's phone
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
    expect(vasya.locator("body")).not_to_have_class(re.compile("oq-no-player"))


def test_oq3_4_the_captain_picks_the_secret_questions_price_on_the_phone(
        app, live_server, browser: Browser):
    code, password = make_event(app, "oq", {1: 2})
    with app.app_context():
        first, second = event_by_code(code).round(1).questions
        first.details = {"variant": "secret", "price": {"min": 100, "max": 500, "step": 200}}
        second.details = {"variant": "secret", "price": {"min": 700, "max": 700, "step": 0}}
        db.session.commit()
    base = live_server.url
    sovi = oq_player(base, code, "Сови", "Ира")
    # Лисици joined as in every game (the team token); its share link is an invitation
    # too: the phone shows the join form with the team filled in.
    lisici = requests.post(f"{base}/api/events/{code}/teams", json={"name": "Лисици"},
                           timeout=5).json()["token"]
    petya = browser.new_context(**PHONE, locale="ru-RU").new_page()
    petya.goto(f"{base}/e/{code}/buzzer#token={lisici}")
    expect(petya.locator("#oq-join-team")).to_have_value("Лисици", timeout=10_000)
    petya.locator("#oq-join-player").fill("Петя")
    petya.locator("#oq-join button[type=submit]").tap()
    expect(petya.locator("#oq-you")).to_have_text("Вы: Петя, капитан команды Лисици",
                                                  timeout=10_000)
    page = browser.new_context(**PHONE, locale="bg-BG").new_page()
    page.goto(f"{base}/e/{code}/buzzer#token={sovi}")

    def api(path: str, token: str | None = None, **body) -> dict:
        auth = {"Authorization": f"Bearer {token or password}"}
        prefix = "/api/events" if token else "/api/host/events"
        resp = requests.post(f"{base}{prefix}/{code}/{path}", json=body, headers=auth,
                             timeout=5)
        assert resp.status_code < 300, resp.text
        return resp.json()

    def play() -> dict:
        return requests.get(f"{base}/api/events/{code}/state", timeout=5).json()["oq"]["play"]

    # A choice of prices: the captain picks one (the lowest offered first) and hands it.
    api("oq/pick", sovi, round=1, question=1)
    price = page.locator("#oq-price")
    expect(price).to_be_visible(timeout=10_000)
    expect(price.locator("option")).to_have_text(["100", "300", "500"])
    expect(price).to_have_value("100")
    expect(page.locator("#oq-price-fixed")).to_be_hidden()
    price.select_option("500")
    page.get_by_role("button", name="Дай на Лисици").tap()
    expect(page.locator("#oq-answering")).to_have_text("Отговаря Лисици", timeout=10_000)
    assert (play()["answering"], play()["value"]) == ("Лисици", 500)
    start_question(base, code, password, 1, 1)
    api("oq/rounds/1/questions/1/judge", outcome="reject")

    # A fixed price: shown, nothing to pick.
    api("oq/pick", sovi, round=1, question=2)
    expect(page.locator("#oq-price-fixed")).to_have_text("Цена: 700", timeout=10_000)
    expect(page.locator("#oq-price-choice")).to_be_hidden()
    page.get_by_role("button", name="Дай на Сови").tap()
    expect(page.locator("#oq-answering")).to_have_text("Отговаря Сови", timeout=10_000)
    assert (play()["answering"], play()["value"], play()["prices"]) == ("Сови", 700, [700])
