"""A ЧГК evening through the pages only (issue 34): the organiser creates it with a real
db.chgk.info pack, the host runs the desk, three phones play, the projector follows;
two games with the auction (sealed bids from phones and one typed from paper), the
Central Table and its Decisive Round, then a second evening of the same season whose
teams keep their leagues. Every action is a click or typed text; the API only reads."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.slow

PACK = Path(__file__).parents[2] / "data" / "packs" / "chgk" / "wc13.txt"
SHOTS = Path(os.environ.get("CHGK_SHOTS", "/tmp/shots-chgk34"))
DESK = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
TEAMS = ("Сова", "Ёж", "Лис")


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _organise(page: Page, base: str, password: str | None, name: str, day: str) -> tuple[str, str]:
    page.goto(base + "/")
    if password is not None:
        page.fill("input[name=password]", password)
        page.press("input[name=password]", "Enter")
    page.fill("input[name=name]", name)
    page.fill("input[name=date]", day)
    page.select_option("select[name=format]", "chgk")
    page.select_option("select[name=screen_locale]", "ru")
    page.set_input_files("input[name=pack]", str(PACK))
    page.click("#new-event button[type=submit]")
    shown = page.locator("#host-password")
    expect(shown).to_contain_text(name)
    return shown.locator(".code").inner_text(), shown.locator(".password code").inner_text()


def _join(browser: Browser, base: str, code: str, name: str) -> Page:
    phone = browser.new_context(locale="ru-RU", viewport=PHONE).new_page()
    phone.goto(f"{base}/e/{code}")
    phone.fill("#team-name", name)
    phone.fill("#players", "4")
    phone.click("button[type=submit]")
    expect(phone).to_have_url(f"{base}/e/{code}/sheet")
    return phone


def _state(base: str, code: str) -> dict:
    return requests.get(f"{base}/api/events/{code}/chgk/standings").json()


def _start(desk: Page, game: int) -> int:
    """Spin the top, read the card, start the question on the clock; the sector."""
    section = desk.locator(f"#game-{game}")
    section.get_by_role("button", name="Spin the top").click()
    sector = int(desk.locator(f"#game-{game} input[name=sector]").input_value())
    expect(desk.locator("#desk-question")).to_have_attribute("data-question", str(sector))
    desk.locator(f"#game-{game} form:has(input[name=sector]) button[type=submit]").click()
    expect(desk.locator("#clock-state")).to_have_attribute("data-state", "open")
    return sector


def _answer(phone: Page, game: int, sector: int, text: str) -> None:
    field = phone.locator(f"input[data-key='{game}/{sector}']")
    expect(field).to_be_visible(timeout=10_000)
    field.fill(text)
    card = phone.locator(".question", has=field)
    expect(card.locator(".status")).to_have_class("status saved", timeout=5_000)


def _wait_lock_and_reveal(desk: Page) -> None:
    button = desk.get_by_role("button", name="Show the answer to the room")
    expect(button).to_be_visible(timeout=15_000)  # the desk refreshes while the clock runs
    button.click()
    expect(desk.locator(".revealed-note")).to_be_visible()


def test_chgk_evening_through_the_pages(browser: Browser, app, live_server):
    base = live_server.url
    organiser = browser.new_context(locale="en-GB", viewport=DESK).new_page()
    code, password = _organise(organiser, base, app.config["ORGANISER_PASSWORD"],
                               "ЧГК: осень, вечер 1", "2026-10-02")

    desk = browser.new_context(locale="en-GB", viewport=DESK).new_page()
    desk.goto(f"{base}/host/{code}/login")
    desk.fill("input[name=password]", password)
    desk.press("input[name=password]", "Enter")
    expect(desk).to_have_url(re.compile(r"/host/\w+/$"), timeout=30_000)  # logged in
    desk.goto(f"{base}/host/{code}/chgk")
    desk.fill("#clock-defaults input[name=seconds]", "8")
    desk.fill("#clock-defaults input[name=grace]", "1")
    desk.locator("#clock-defaults button").click()

    # The paper screen (the host's second laptop): a team that plays on paper.
    paper = browser.new_context(locale="en-GB", viewport=DESK).new_page()
    paper.goto(f"{base}/host/{code}/login")
    paper.fill("input[name=password]", password)
    paper.press("input[name=password]", "Enter")
    paper.goto(f"{base}/host/{code}/paper?round=1")
    paper.get_by_text("A team without a phone").click()
    paper.fill("form[action$='/paper/team'] input[name=name]", "Бумага")
    paper.locator("form[action$='/paper/team'] button").click()
    expect(paper.locator("#paper-sheet")).to_be_visible()

    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{base}/e/{code}/screen")
    phones = {name: _join(browser, base, code, name) for name in TEAMS}
    desk.reload()

    # Leagues: Сова and Лис are Favourites (game 2's table is theirs, CHGK-3.6).
    for name in ("Сова", "Лис"):
        desk.locator(f"#leagues tr[data-team='{name}'] select").select_option("favourites")
    desk.get_by_role("button", name="Save the leagues").click()

    # Game 1, auction: Сова and Ёж bid on their phones, Лис on paper (typed at the desk).
    for name, bid in (("Сова", "30"), ("Ёж", "20")):
        phone = phones[name]
        expect(phone.locator("#chgk-credits")).to_have_text("100", timeout=10_000)
        phone.fill("#chgk-bid", bid)
        phone.locator("#chgk-auction button[type=submit]").click()
        expect(phone.locator("#chgk-bid-handed")).to_be_visible()
    # The desk marks the phones' bids by itself, without a reload.
    expect(desk.locator("#game-1 .auction tr[data-team='Сова'] .phone-bid")).to_contain_text(
        "sealed bid handed in")
    desk.locator("#game-1 .auction tr[data-team='Лис'] input").fill("25")
    _shot(desk, "desk-auction-1366")
    _shot(phones["Сова"], "phone-bid-390")
    desk.locator("#game-1 .auction button[type=submit]").click()
    expect(desk.locator("#game-1 .seated")).to_have_text("Сова")

    # Question 1: the hall writes; Сова answers orally at the Central Table: right.
    sector = _start(desk, 1)
    right = desk.locator("#desk-question .q-answer strong").inner_text().rstrip(".")
    _shot(desk, "desk-question-1366")
    _answer(phones["Ёж"], 1, sector, right)
    _answer(phones["Лис"], 1, sector, "не знаем")
    _shot(screen, "screen-clock-1920")
    desk.locator("#game-1 button[value=answer-yes]").click()
    expect(desk.locator("#game-1 .seated")).to_have_text("Сова")
    # The paper team's sheet is typed in after the lock, before the answer is shown.
    expect(desk.get_by_role("button", name="Show the answer to the room")).to_be_visible(
        timeout=15_000)
    paper.reload()
    paper.fill(f"#paper-sheet input[name=q{sector}-text]", right)
    paper.locator("#paper-sheet button[type=submit]").click()
    expect(paper.locator("body")).to_contain_text("Бумага: 1 paper answers saved.")
    _wait_lock_and_reveal(desk)
    expect(screen.locator("#screen-answer")).to_be_visible(timeout=10_000)
    _shot(screen, "screen-answer-1920")
    # The phones show the answer shown to the room, and their verdict.
    expect(phones["Ёж"].locator(".question .correct.correct")).to_be_visible(timeout=10_000)
    expect(phones["Лис"].locator(".question .correct")).to_contain_text(right.strip("\"«»"))

    # Question 2: Сова takes the Decisive Round (right: the table's points double).
    sector = _start(desk, 1)
    desk.locator("#game-1 button[value=decisive-yes]").click()
    expect(desk.locator("#game-1 .seated")).to_have_count(0)
    _wait_lock_and_reveal(desk)
    game1 = {r["team"]: r for r in _state(base, code)["games"]["1"]["standings"]}
    assert game1["Сова"]["table_points"] == 2 and game1["Сова"]["table_rounds"] == 2
    assert game1["Ёж"]["points"] == 1 and game1["Бумага"]["points"] == 1
    desk.locator("#game-1").get_by_role("button", name="End the game").click()
    expect(desk.locator("#game-1 .badge")).not_to_have_text("open")

    # Game 2: only Favourites bid; Ёж's phone says why.
    expect(phones["Ёж"].locator("#chgk-auction")).to_contain_text(
        "Фавориты", timeout=10_000)
    phones["Лис"].fill("#chgk-bid", "10")
    phones["Лис"].locator("#chgk-auction button[type=submit]").click()
    expect(phones["Лис"].locator("#chgk-bid-handed")).to_be_visible()
    expect(desk.locator("#game-2 .auction tr[data-team='Ёж']")).to_contain_text("CHGK-3.6")
    desk.locator("#game-2 .auction button[type=submit]").click()
    expect(desk.locator("#game-2 .seated")).to_have_text("Лис")
    sector = _start(desk, 2)
    right = desk.locator("#desk-question .q-answer strong").inner_text().rstrip(".")
    for name in ("Сова", "Ёж"):
        _answer(phones[name], 2, sector, right)
    desk.locator("#game-2 button[value=answer-no]").click()
    _wait_lock_and_reveal(desk)
    desk.locator("#game-2").get_by_role("button", name="End the game").click()
    expect(desk.locator("#game-2 .badge")).not_to_have_text("open")
    _shot(desk, "desk-evening-1366")
    for size in ((1920, 1080), (1280, 720)):
        screen.set_viewport_size({"width": size[0], "height": size[1]})
        screen.reload()
        _shot(screen, f"screen-evening-{size[0]}")
    _shot(phones["Ёж"], "phone-after-390")
    data = _state(base, code)
    assert [r["team"] for r in data["leagues"]["favourites"]][:1] == ["Сова"]

    # A second evening of the season: the teams keep their leagues.
    code2, password2 = _organise(organiser, base, None, "ЧГК: осень, вечер 2", "2026-11-06")
    for name in TEAMS:
        _join(browser, base, code2, name)
    desk.goto(f"{base}/host/{code2}/login")
    desk.fill("input[name=password]", password2)
    desk.press("input[name=password]", "Enter")
    desk.goto(f"{base}/host/{code2}/chgk")
    for name, league in (("Сова", "favourites"), ("Лис", "favourites"), ("Ёж", "contenders")):
        expect(desk.locator(f"#leagues tr[data-team='{name}'] select")).to_have_value(league)
    desk.locator("#season-link").click()
    expect(desk.locator("#evenings tbody tr")).to_have_count(2)
    _shot(desk, "desk-season-1366")
    data = _state(base, code2)
    assert data["games"]["1"]["standings"]
    assert re.search(r"\w", desk.locator("#cup-winner").inner_text())
