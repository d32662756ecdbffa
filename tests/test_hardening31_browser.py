"""Issue 31, finding 8, on the phones themselves: a link with another player's token
(#token=…) on the Своя игра and OpenQuiz phones asks before the phone's own player is
replaced, as the BG/ЧГК sheet does; declined, the phone keeps its player. One server,
one browser, a context per phone."""

from __future__ import annotations

import pytest
from buzzgame import make_event
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "locale": "ru-RU"}
ASKED = "Эта ссылка — для другого игрока. Играть за него на этом телефоне?"


def _token(page, code: str) -> str:
    return page.evaluate(f"localStorage.getItem('answerdesk:token:{code}')")


def _follow(page, link: str, accept: bool) -> list[str]:
    """Open ``link`` on the phone and answer the question it asks; the questions asked."""
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.on("dialog", answer)
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_load_state("networkidle")
    page.remove_listener("dialog", answer)
    return asked


def test_31_8_si_and_oq_phones_ask_before_taking_a_linked_player(app, live_server,
                                                                 browser: Browser):
    base = live_server.url

    # Своя игра: two players join on their phones.
    code, _ = make_event(app, "si", {1: 25})
    phones = {}
    for name in ("Вася", "Ира"):
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{base}/e/{code}")
        page.fill("#team-name", name)
        page.locator("#join-form button[type=submit]").tap()
        page.wait_for_url(f"{base}/e/{code}/sheet")
        phones[name] = page
    vasya, ira = phones["Вася"], phones["Ира"]
    own, other = _token(vasya, code), _token(ira, code)
    link = f"{base}/e/{code}/sheet#token={other}"
    assert _follow(vasya, link, accept=False) == [ASKED]
    assert _token(vasya, code) == own and "#token" not in vasya.url
    assert _follow(vasya, link, accept=True) == [ASKED]
    assert _token(vasya, code) == other
    assert _follow(ira, link, accept=True) == []  # its own link: nothing to ask

    # OpenQuiz: two players of two teams join on the buzzer page.
    code, _ = make_event(app, "oq", {1: 3})
    tokens = {}
    for team, player in (("Альфа", "Аня"), ("Бета", "Боря")):
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{base}/e/{code}/buzzer")
        expect(page.locator("#oq-join")).to_be_visible(timeout=10_000)
        page.locator("#oq-join-team").fill(team)
        page.locator("#oq-join-player").fill(player)
        page.locator("#oq-join button[type=submit]").tap()
        expect(page.locator("#oq-you")).to_contain_text(player, timeout=10_000)
        phones[player], tokens[player] = page, _token(page, code)
    anya = phones["Аня"]
    link = f"{base}/e/{code}/buzzer#token={tokens['Боря']}"
    assert _follow(anya, link, accept=False) == [ASKED]
    assert _token(anya, code) == tokens["Аня"]
    expect(anya.locator("#oq-you")).to_contain_text("Аня", timeout=10_000)
    assert _follow(anya, link, accept=True) == [ASKED]
    expect(anya.locator("#oq-you")).to_contain_text("Боря", timeout=10_000)


def test_31_7_the_host_lists_the_teams_and_a_stranger_is_told(app, live_server,
                                                              browser: Browser, log_in_host):
    """OQ-1, issue 31: on the OpenQuiz room page the host lists the teams the game lets
    in; a stranger's phone is refused in its language, a listed team's phone joins."""
    import os

    base = live_server.url
    code, password = make_event(app, "oq", {1: 3})
    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="bg-BG").new_page()
    log_in_host(desk, base, code, password)
    desk.goto(f"{base}/host/{code}/oq")
    for team in ("Сови", "Гарвани"):  # one by one, as the host lets each team in (OQ-1)
        desk.locator("#oq-reserve-add input[name=team]").fill(team)
        desk.locator("#oq-reserve-add button").click()
        expect(desk.locator(f"#oq-reserve-list li[data-reserved='{team}']")).to_be_visible()
    expect(desk.locator("#oq-reserve textarea")).to_have_value("Сови\nГарвани")
    shots = "/tmp/shots-harden31"
    os.makedirs(shots, exist_ok=True)
    desk.screenshot(path=f"{shots}/host-oq-reserve.png", full_page=True)

    stranger = browser.new_context(**PHONE).new_page()
    stranger.goto(f"{base}/e/{code}/buzzer")
    expect(stranger.locator("#oq-join")).to_be_visible(timeout=10_000)
    stranger.locator("#oq-join-team").fill("Шегаджии")
    stranger.locator("#oq-join-player").fill("Пешо")
    stranger.locator("#oq-join button[type=submit]").tap()
    expect(stranger.locator("#oq-refusal")).to_have_text(
        "Эта игра принимает только команды из списка ведущего: попросите его добавить вашу.",
        timeout=10_000)
    stranger.screenshot(path=f"{shots}/phone-oq-not-listed.png")
    listed = browser.new_context(**PHONE).new_page()
    listed.goto(f"{base}/e/{code}/buzzer")
    expect(listed.locator("#oq-join")).to_be_visible(timeout=10_000)
    listed.locator("#oq-join-team").fill("сови")
    listed.locator("#oq-join-player").fill("Ира")
    listed.locator("#oq-join button[type=submit]").tap()
    expect(listed.locator("#oq-you")).to_contain_text("Ира", timeout=10_000)
