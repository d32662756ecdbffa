"""A ЧГК evening through the pages only (issue 34): the organiser creates it with a real
db.chgk.info pack, the host runs the desk, three phones and a paper team play, the
projector follows. Two games of several questions with the auction (sealed bids from
phones and one typed from paper, CHGK-4), the Central Table and its Decisive Round
(CHGK-3), the host's Зачёт/Незачёт of written answers (CHGK-1.3), a shared place shown
the same on desk and projector ("3=", CHGK-2.5), the evening's winners per league
(CHGK-2.6/2.7); then a second evening of the same season, played, whose teams keep their
leagues and whose one game played (and only it, CHGK-2.4) reaches the season page.
Every action is a click or typed text; the API only reads."""

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
WRONG = "не знаем"


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


def _log_in(page: Page, base: str, code: str, password: str) -> None:
    page.goto(f"{base}/host/{code}/login")
    page.fill("input[name=password]", password)
    page.press("input[name=password]", "Enter")
    expect(page).to_have_url(re.compile(r"/host/\w+/$"), timeout=30_000)  # logged in


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


class Evening:
    """The host's desk, the paper screen and the phones of one evening."""

    def __init__(self, base: str, code: str, desk: Page, phones: dict[str, Page],
                 paper: Page | None = None) -> None:
        self.base, self.code, self.desk, self.phones, self.paper = base, code, desk, phones, paper

    def start(self, game: int) -> tuple[int, str]:
        """Spin the top (CHGK-1.6), read the card, start the question on the clock
        (CHGK-1.1): the sector and the answer the desk shows."""
        desk = self.desk
        desk.locator(f"#game-{game}").get_by_role("button", name="Spin the top").click()
        sector = int(desk.locator(f"#game-{game} input[name=sector]").input_value())
        expect(desk.locator("#desk-question")).to_have_attribute("data-question", str(sector))
        right = desk.locator("#desk-question .q-answer strong").inner_text().rstrip(".")
        desk.locator(f"#game-{game} form:has(input[name=sector]) button[type=submit]").click()
        expect(desk.locator("#clock-state")).to_have_attribute("data-state", "open")
        return sector, right

    def answer(self, name: str, game: int, sector: int, text: str) -> None:
        phone = self.phones[name]
        field = phone.locator(f"input[data-key='{game}/{sector}']")
        expect(field).to_be_visible(timeout=10_000)
        field.fill(text)
        card = phone.locator(".question", has=field)
        expect(card.locator(".status")).to_have_class("status saved", timeout=15_000)

    def table(self, game: int, verdict: str) -> None:
        self.desk.locator(f"#game-{game} button[value={verdict}]").click()
        expect(self.desk.locator(f"#game-{game} h2")).to_be_visible()

    def locked(self) -> None:
        """The clock locks by itself; the desk refreshes and offers the reveal."""
        expect(self.desk.get_by_role("button", name="Show the answer to the room")).to_be_visible(
            timeout=45_000)  # a loaded CI machine: no cost when it is quick

    def on_paper(self, game: int, sector: int, text: str) -> None:
        """The paper team's sheet, typed on the paper screen after the lock."""
        paper = self.paper
        paper.select_option("#paper-team", label="Бумага")
        paper.select_option("#paper-round", str(game))
        paper.get_by_role("button", name="Open sheet").click()
        paper.fill(f"#paper-sheet input[name=q{sector}-text]", text)
        paper.locator("#paper-sheet button[type=submit]").click()
        expect(paper.locator("body")).to_contain_text("Бумага: 1 paper answers saved.")

    def judge(self, verdicts: dict[str, str]) -> None:
        """Зачёт/Незачёт (CHGK-1.3) from the desk: the link beside the clock opens the
        question's answers; ✓ or ✗ per team."""
        desk = self.desk
        desk.locator("#judge-answers").click()
        for team, decision in verdicts.items():
            row = desk.locator("table.answers tr",
                               has=desk.get_by_role("cell", name=team, exact=True))
            row.locator(f"button[value={decision}]").click()
            expect(row.locator(f"strong.outcome.{decision}")).to_be_visible()
        desk.get_by_role("link", name="ЧГК desk").first.click()
        expect(desk.locator("#clock-state")).to_be_visible()

    def reveal(self) -> None:
        self.desk.get_by_role("button", name="Show the answer to the room").click()
        expect(self.desk.locator(".revealed-note")).to_be_visible()

    def end(self, game: int) -> None:
        self.desk.locator(f"#game-{game}").get_by_role("button", name="End the game").click()
        expect(self.desk.locator(f"#game-{game} .badge")).not_to_have_text("open")

    def bid(self, name: str, amount: str) -> None:
        phone = self.phones[name]
        phone.fill("#chgk-bid", amount)
        phone.locator("#chgk-auction button[type=submit]").click()
        expect(phone.locator("#chgk-bid-handed")).to_be_visible(timeout=10_000)


def test_chgk_evening_through_the_pages(browser: Browser, app, live_server):
    base = live_server.url
    organiser = browser.new_context(locale="en-GB", viewport=DESK).new_page()
    code, password = _organise(organiser, base, app.config["ORGANISER_PASSWORD"],
                               "ЧГК: осень, вечер 1", "2026-10-02")

    desk = browser.new_context(locale="en-GB", viewport=DESK).new_page()
    _log_in(desk, base, code, password)
    desk.goto(f"{base}/host/{code}/chgk")
    desk.fill("#clock-defaults input[name=seconds]", "8")
    desk.fill("#clock-defaults input[name=grace]", "1")
    desk.locator("#clock-defaults button").click()

    # The paper screen (the host's second laptop): a team that plays on paper.
    paper = browser.new_context(locale="en-GB", viewport=DESK).new_page()
    _log_in(paper, base, code, password)
    paper.goto(f"{base}/host/{code}/paper?round=1")
    paper.get_by_text("A team without a phone").click()
    paper.fill("form[action$='/paper/team'] input[name=name]", "Бумага")
    paper.locator("form[action$='/paper/team'] button").click()
    expect(paper.locator("#paper-sheet")).to_be_visible()

    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{base}/e/{code}/screen")
    phones = {name: _join(browser, base, code, name) for name in TEAMS}
    night = Evening(base, code, desk, phones, paper)
    desk.reload()

    # Leagues: Сова and Лис are Favourites (game 2's table is theirs, CHGK-3.6).
    for name in ("Сова", "Лис"):
        desk.locator(f"#leagues tr[data-team='{name}'] select").select_option("favourites")
    desk.get_by_role("button", name="Save the leagues").click()

    # Game 1, auction: Сова and Ёж bid on their phones, Лис on paper (typed at the desk).
    expect(phones["Сова"].locator("#chgk-credits")).to_have_text("100", timeout=10_000)
    night.bid("Сова", "30")
    night.bid("Ёж", "20")
    # The desk marks the phones' bids by itself, without a reload.
    expect(desk.locator("#game-1 .auction tr[data-team='Сова'] .phone-bid")).to_contain_text(
        "sealed bid handed in")
    desk.locator("#game-1 .auction tr[data-team='Лис'] input").fill("25")
    _shot(desk, "desk-auction-1366")
    _shot(phones["Сова"], "phone-bid-390")
    desk.locator("#game-1 .auction button[type=submit]").click()
    expect(desk.locator("#game-1 .seated")).to_have_text("Сова")

    # Question 1: Сова answers right at the Central Table (CHGK-3.1); the hall writes.
    sector, right = night.start(1)
    _shot(desk, "desk-question-1366")
    night.answer("Ёж", 1, sector, right)
    night.answer("Лис", 1, sector, WRONG)
    _shot(screen, "screen-clock-1920")
    night.table(1, "answer-yes")
    expect(desk.locator("#game-1 .seated")).to_have_text("Сова")
    night.locked()
    night.on_paper(1, sector, WRONG)
    night.reveal()
    expect(screen.locator("#screen-answer")).to_be_visible(timeout=10_000)
    _shot(screen, "screen-answer-1920")
    # The phones show the answer shown to the room, and their verdict.
    expect(phones["Ёж"].locator(".question .correct.correct")).to_be_visible(timeout=10_000)
    expect(phones["Лис"].locator(".question .correct")).to_contain_text(right.strip("\"«»"))

    # Question 2: Сова takes the Decisive Round (right: the table's points double,
    # CHGK-3.4); the host gives Ёж's wrong answer a Зачёт and Лис's right one a Незачёт.
    sector, right = night.start(1)
    night.answer("Ёж", 1, sector, WRONG)
    night.answer("Лис", 1, sector, right)
    night.table(1, "decisive-yes")
    expect(desk.locator("#game-1 .seated")).to_have_count(0)
    night.locked()
    night.on_paper(1, sector, WRONG)
    night.judge({"Ёж": "correct", "Лис": "wrong"})
    night.reveal()
    game1 = {r["team"]: r for r in _state(base, code)["games"]["1"]["standings"]}
    assert game1["Сова"]["table_points"] == 2 and game1["Сова"]["table_rounds"] == 2
    assert game1["Ёж"]["points"] == 2 and game1["Лис"]["points"] == 0

    # The table is free: an auction again (CHGK-4.1); Ёж wins it from its phone.
    night.bid("Ёж", "10")
    expect(desk.locator("#game-1 .auction tr[data-team='Ёж'] .phone-bid")).to_contain_text(
        "sealed bid handed in")
    desk.locator("#game-1 .auction button[type=submit]").click()
    expect(desk.locator("#game-1 .seated")).to_have_text("Ёж")

    # Question 3: Ёж is wrong at the table (back to the hall, CHGK-3.3); Лис, Сова and
    # the paper team are right: Лис and Бумага share third place (CHGK-2.5).
    sector, right = night.start(1)
    night.answer("Лис", 1, sector, right)
    night.answer("Сова", 1, sector, right)
    night.table(1, "answer-no")
    night.locked()
    night.on_paper(1, sector, right)
    night.reveal()
    rows = desk.locator("#game-1 table.standings tbody tr")
    expect(rows.filter(has_text="Бумага").locator("td").first).to_have_text("3=")
    expect(rows.filter(has_text="Лис").locator("td").first).to_have_text("3=")
    shown = screen.locator("#screen-standings li")
    # The projector redraws with the answer shown and its points, then the same tie.
    expect(screen.locator("#screen-answer")).to_contain_text(right, timeout=10_000)
    expect(shown.filter(has_text="Бумага").locator(".pts")).to_have_text("1")
    expect(shown.filter(has_text="Лис").locator(".pts")).to_have_text("1")
    expect(shown.filter(has_text="Бумага").locator(".place")).to_have_text("3=")
    expect(shown.filter(has_text="Лис").locator(".place")).to_have_text("3=")
    _shot(screen, "screen-tie-1920")
    night.end(1)

    # Game 2: only Favourites bid; Ёж's phone says why (CHGK-3.6).
    expect(phones["Ёж"].locator("#chgk-auction")).to_contain_text("Фавориты", timeout=10_000)
    night.bid("Лис", "10")
    expect(desk.locator("#game-2 .auction tr[data-team='Ёж']")).to_contain_text("CHGK-3.6")
    desk.locator("#game-2 .auction button[type=submit]").click()
    expect(desk.locator("#game-2 .seated")).to_have_text("Лис")
    sector, right = night.start(2)
    for name in ("Сова", "Ёж"):
        night.answer(name, 2, sector, right)
    night.table(2, "answer-no")
    night.locked()
    night.on_paper(2, sector, right)
    night.reveal()
    sector, right = night.start(2)
    night.answer("Ёж", 2, sector, right)
    night.answer("Лис", 2, sector, WRONG)
    night.locked()
    night.reveal()
    night.end(2)

    # The evening's winners per league (CHGK-2.6/2.7), the same on desk and projector.
    data = _state(base, code)
    winners = {league: rows[0]["team"] for league, rows in data["leagues"].items() if rows}
    assert set(winners) == {"favourites", "contenders"}
    for league, team in winners.items():
        expect(desk.locator(f"#winners-{league} .winner")).to_have_text(team)
    shown = screen.locator("#screen-winners")
    for team in winners.values():
        expect(shown).to_contain_text(team, timeout=10_000)
    _shot(desk, "desk-evening-1366")
    for size in ((1920, 1080), (1280, 720)):
        screen.set_viewport_size({"width": size[0], "height": size[1]})
        _shot(screen, f"screen-evening-{size[0]}")
    _shot(phones["Ёж"], "phone-after-390")
    series1 = {g: {r["team"]: r["series"] for r in data["games"][g]["standings"]}
               for g in ("1", "2")}

    # A second evening of the season: the teams keep their leagues, and it is played.
    code2, password2 = _organise(organiser, base, None, "ЧГК: осень, вечер 2", "2026-11-06")
    phones2 = {name: _join(browser, base, code2, name) for name in TEAMS}
    _log_in(desk, base, code2, password2)
    desk.goto(f"{base}/host/{code2}/chgk")
    for name, league in (("Сова", "favourites"), ("Лис", "favourites"), ("Ёж", "contenders")):
        expect(desk.locator(f"#leagues tr[data-team='{name}'] select")).to_have_value(league)
    desk.fill("#clock-defaults input[name=seconds]", "8")
    desk.fill("#clock-defaults input[name=grace]", "1")
    desk.locator("#clock-defaults button").click()
    second = Evening(base, code2, desk, phones2)
    desk.locator("#game-1 .auction tr[data-team='Ёж'] input").fill("5")
    desk.locator("#game-1 .auction button[type=submit]").click()
    expect(desk.locator("#game-1 .seated")).to_have_text("Ёж")
    for _ in range(2):
        sector, right = second.start(1)
        second.answer("Сова", 1, sector, right)
        second.table(1, "answer-yes")
        second.locked()
        second.reveal()
    second.end(1)  # game 2 of this evening is never started: it gives nothing (CHGK-2.4)
    data2 = _state(base, code2)
    series2 = {r["team"]: r["series"] for r in data2["games"]["1"]["standings"]}
    assert all(r["series"] == 0 for r in data2["games"]["2"]["standings"])

    # The season page: both leagues' tables with the series points of the games played.
    desk.locator("#season-link").click()
    expect(desk.locator("#evenings tbody tr")).to_have_count(2)
    expect(desk.locator("#evenings tbody tr").nth(1).locator("td").nth(2)).to_have_text("1")
    expected = {name: series1["1"][name] + series1["2"][name] + series2[name] for name in TEAMS}
    expected["Бумага"] = series1["1"]["Бумага"] + series1["2"]["Бумага"]
    for league, teams in (("favourites", ("Сова", "Лис")), ("contenders", ("Ёж", "Бумага"))):
        table = desk.locator(f".season-league[data-league='{league}'] tbody tr")
        for name in teams:
            expect(table.filter(has_text=name).locator("td").nth(2)).to_have_text(
                str(expected[name]))
    _shot(desk, "desk-season-1366")
    assert re.search(r"\w", desk.locator("#cup-winner").inner_text())
