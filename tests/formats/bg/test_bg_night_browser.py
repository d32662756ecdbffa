"""A whole Bulgarian pub-quiz night through the pages only (issue 34, "What it must show").

The organiser creates a `bg` event on the start page with a native pack of its own (a zip
bundle: a picture for R3 and scenario 5.2's picture under `wildcard`); the host desk, the
projector (1920x1080) and three phones (390x844) are browser contexts of their own; a
paper team is typed at the desk. Every action is a click or a typed field; the API is
only read, for the asserts.

The night: R1-R4 with the three jokers (double in R2, copy in R3, first letter in R4);
after each close the projector's standings still show only what was revealed (BG-E3),
and after each reveal the right points; the phones show their verdicts only after the
reveal; a dispute upheld on R2 (BG-D1); the last team picks scenario 5.2 on its phone
and the projector shows its picture (BG-R5); R6's final question one at a time; a tie
for first place broken by the shoot-out on the phones (BG-S3)."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
import requests
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESK = {"viewport": {"width": 1366, "height": 900}, "locale": "en-GB"}
WAIT = 30_000

PACK = """answerdesk_pack: 1
title: "Нощ на страниците"
rounds:
  - number: 1
    questions:
      - text: "Вярно или невярно: Рила е най-високата планина на Балканите."
        key: ["вярно"]
      - text: "Коя е столицата на Австралия?"
        options: {А: "Сидни", Б: "Канбера", В: "Мелбърн", Г: "Пърт"}
        key: ["Б"]
  - number: 2
    questions:
      - text: "Кой е наричан „Апостола на свободата“?"
        key: ["Левски"]
      - text: "Коя река минава през Пловдив?"
        key: ["Марица"]
  - number: 3
    questions:
      - text: "Кой връх е на снимката?"
        media: stills/peak.png
        key: ["Мусала"]
  - number: 4
    questions:
      - text: "Видео: от кой филм е откъсът?"
        key: ["Титаник"]
        hint: "Т"
  - number: 5                       # played as 5.1 until a scenario is chosen
    questions:
      - {text: "Коя е най-голямата планета?", key: ["Юпитер"]}
  - number: 6
    kind: final
    questions:
      - text: "Кое е най-дълбокото езеро в света?"
        key: ["Байкал"]
wildcard:
  "5.1":
    - {text: "Коя е най-голямата планета?", key: ["Юпитер"]}
  "5.2":
    - text: "Кой град е на снимката?"
      media: sets/paris.png
      key: ["Париж"]
"""


def bundle(media_files) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("pack.yaml", PACK.encode("utf-8"))
        zf.writestr("stills/peak.png", media_files.png(120, 90))
        zf.writestr("sets/paris.png", media_files.png(160, 90))
    return buf.getvalue()


def box(page: Page, key: str):
    return page.locator(".question", has=page.locator(f"input[data-key='{key}']"))


def saved(page: Page, key: str) -> None:
    expect(box(page, key).locator(".status")).to_have_class("status saved", timeout=WAIT)


def test_bg_a_whole_night_through_the_pages(app, live_server, browser: Browser, tmp_path,
                                            media_files, log_in_host):
    base = live_server.url
    pack = tmp_path / "night.zip"
    pack.write_bytes(bundle(media_files))

    # The organiser creates the event with the pack on the start page.
    org = browser.new_context(**DESK).new_page()
    org.goto(base + "/")
    org.fill("input[name=password]", app.config["ORGANISER_PASSWORD"])
    org.press("input[name=password]", "Enter")
    org.fill("input[name=name]", "Куиз нощ")
    org.select_option("select[name=format]", "bg")
    org.set_input_files("input[name=pack]", str(pack))
    org.click("#new-event button[type=submit]")
    expect(org.locator("#host-password")).to_contain_text("Event created: Куиз нощ",
                                                         timeout=WAIT)
    shown = org.locator("#new-password")  # filled by start.js from the address's fragment
    expect(shown).to_have_text(re.compile(r"\S"), timeout=WAIT)
    password = shown.inner_text()
    code = org.locator("#host-password .code").inner_text()
    org.context.close()

    def standings() -> dict[str, int]:
        rows = requests.get(f"{base}/api/events/{code}/standings", timeout=10).json()
        return {r["team"]: r["points"] for r in rows["standings"]}

    desk = browser.new_context(**DESK).new_page()
    log_in_host(desk, base, code, password)
    projector = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    projector.goto(f"{base}/e/{code}/screen")

    phones: dict[str, Page] = {}
    for team in ("Сови", "Орли", "Лисици"):
        phone = browser.new_context(**PHONE, locale="bg-BG").new_page()
        phone.goto(f"{base}/e/{code}")
        phone.fill("#team-name", team)
        phone.click("#join-form button[type=submit]")
        expect(phone).to_have_url(f"{base}/e/{code}/sheet", timeout=WAIT)
        expect(phone.locator("#jokers-left")).to_be_visible(timeout=WAIT)
        phones[team] = phone
    sovi, orli, lisici = phones["Сови"], phones["Орли"], phones["Лисици"]

    # A team without a phone, added on the paper screen.
    desk.goto(f"{base}/host/{code}/paper")
    desk.locator("details.new-team summary").click()
    desk.locator("details.new-team input[name=name]").fill("Хартия")
    desk.locator("details.new-team button[type=submit]").click()
    expect(desk.locator("#paper-team option", has_text="Хартия")).to_have_count(1,
                                                                                timeout=WAIT)

    def round_button(number: int, action: str) -> None:
        desk.goto(f"{base}/host/{code}/")
        desk.locator(f"#rounds tr[data-round='{number}'] button[value={action}]").click()
        state = {"open": "open", "close": "locked", "reveal": "revealed"}[action]
        expect(desk.locator(f"#rounds tr[data-round='{number}']")).to_have_class(
            state, timeout=WAIT)

    def screen_standings() -> None:
        desk.goto(f"{base}/host/{code}/")
        desk.locator("#now form:has(input[name=view][value=standings]) button").click()
        expect(projector.locator("#screen-standings")).to_be_visible(timeout=WAIT)

    def screen_shows(points: dict[str, int]) -> None:
        for team, pts in points.items():
            row = projector.locator("#screen-standings li", has_text=team)
            expect(row.locator(".pts")).to_have_text(str(pts), timeout=WAIT)

    def paper_sheet(number: int, fill) -> None:
        desk.goto(f"{base}/host/{code}/paper?round={number}")
        desk.select_option("#paper-team", label="Хартия")
        desk.locator("form.pick button[type=submit]").click()
        expect(desk.locator("#paper-sheet h2")).to_contain_text("Хартия", timeout=WAIT)
        fill()
        desk.locator("#paper-sheet button[type=submit]").click()
        expect(desk.locator(".flash, [role=status]").first).to_be_visible(timeout=WAIT)

    def verdict(page: Page, key: str, outcome: str) -> None:
        expect(box(page, key).locator("p.correct")).to_have_class(
            re.compile(rf"\b{outcome}\b"), timeout=WAIT)

    # ---- R1: choice buttons on the phones, radio buttons on the paper sheet.
    round_button(1, "open")
    for phone, first, second in ((sovi, "вярно", "Б"), (orli, "невярно", "Б"),
                                 (lisici, "невярно", "А")):
        button = box(phone, "1/1").locator(f"button[data-option='{first}']")
        expect(button).to_be_visible(timeout=WAIT)
        button.click()
        saved(phone, "1/1")
        box(phone, "1/2").locator(f"button[data-option='{second}']").click()
        saved(phone, "1/2")

    def paper_r1() -> None:
        desk.locator("input[name=q1-choice][value='вярно']").check()
        desk.locator("input[name=q2-choice][value='Б']").check()

    paper_sheet(1, paper_r1)
    round_button(1, "close")
    screen_standings()
    screen_shows({"Сови": 0, "Орли": 0, "Лисици": 0, "Хартия": 0})  # BG-E3: not revealed
    expect(box(sovi, "1/1").locator("p.correct")).to_have_count(0)
    round_button(1, "reveal")
    expect(projector.locator(".view-reveal")).to_be_visible(timeout=WAIT)
    verdict(sovi, "1/1", "correct")
    verdict(orli, "1/1", "wrong")
    screen_standings()
    screen_shows({"Сови": 2, "Орли": 1, "Лисици": 0, "Хартия": 2})

    # ---- R2: Сови's double joker (BG-J1); a wrong answer of Лисици disputed later.
    round_button(2, "open")
    expect(box(sovi, "2/1").locator("button.double")).to_be_visible(timeout=WAIT)
    box(sovi, "2/1").locator("button.double").click()
    expect(box(sovi, "2/1").locator("input.second")).to_be_visible(timeout=WAIT)
    box(sovi, "2/1").locator("input[data-key='2/1']").fill("Ботев")
    box(sovi, "2/1").locator("input.second").fill("Левски")
    saved(sovi, "2/1")
    for phone, first, second in ((sovi, None, "Марица"), (orli, "Левски", "Марица"),
                                 (lisici, "Раковски", "Дунав")):
        if first:
            phone.locator("input[data-key='2/1']").fill(first)
            saved(phone, "2/1")
        phone.locator("input[data-key='2/2']").fill(second)
        saved(phone, "2/2")

    def paper_r2() -> None:
        desk.locator("input[name=q1-text]").fill("Левски")
        desk.locator("input[name=q2-text]").fill("Марица")

    paper_sheet(2, paper_r2)
    round_button(2, "close")
    screen_standings()
    screen_shows({"Сови": 2, "Орли": 1, "Лисици": 0, "Хартия": 2})  # R1 only
    round_button(2, "reveal")
    verdict(lisici, "2/2", "wrong")
    screen_standings()
    screen_shows({"Сови": 5, "Орли": 5, "Лисици": 0, "Хартия": 6})

    # BG-D1: the host upholds Лисици's dispute on R2Q2, with a reason.
    desk.goto(f"{base}/host/{code}/disputes")
    item = desk.locator("#q2-2")
    item.locator("summary").click()
    uphold = item.locator("form", has=desk.locator("button[value=uphold]"))
    uphold.locator("select[name=team]").select_option(label="Лисици")
    uphold.locator("input[name=reason]").fill("Дунав минава и през Пловдив на картата им")
    uphold.locator("button[value=uphold]").click()
    expect(desk.locator("#decisions")).to_contain_text("Лисици", timeout=WAIT)
    screen_standings()
    screen_shows({"Лисици": 2})

    # ---- R3: a picture; Орли copies Сови (BG-J2).
    round_button(3, "open")
    sovi.locator("input[data-key='3/1']").fill("Мусала")
    saved(sovi, "3/1")
    lisici.locator("input[data-key='3/1']").fill("Еверест")
    saved(lisici, "3/1")
    expect(box(orli, "3/1").locator("button.copy")).to_be_visible(timeout=WAIT)
    box(orli, "3/1").locator("button.copy").click()
    box(orli, "3/1").locator(".copy-pick select").select_option("Сови")
    box(orli, "3/1").locator(".copy-pick button").click()
    expect(box(orli, "3/1").locator(".copies")).to_contain_text("Сови", timeout=WAIT)
    round_button(3, "close")
    screen_standings()
    screen_shows({"Сови": 5, "Орли": 5, "Лисици": 2, "Хартия": 6})
    round_button(3, "reveal")
    screen_standings()
    screen_shows({"Сови": 7, "Орли": 7, "Лисици": 2, "Хартия": 6})

    # ---- R4: Лисици's first-letter joker (BG-J3).
    round_button(4, "open")
    expect(box(lisici, "4/1").locator("button.first-letter")).to_be_visible(timeout=WAIT)
    lisici.once("dialog", lambda dialog: dialog.accept())
    box(lisici, "4/1").locator("button.first-letter").click()
    expect(box(lisici, "4/1").locator(".hint-letter")).to_have_text("Т", timeout=WAIT)
    for phone in (sovi, orli, lisici):
        phone.locator("input[data-key='4/1']").fill("Титаник")
        saved(phone, "4/1")
    round_button(4, "close")
    screen_standings()
    screen_shows({"Сови": 7, "Орли": 7, "Лисици": 2, "Хартия": 6})
    round_button(4, "reveal")
    verdict(lisici, "4/1", "correct")
    screen_standings()
    screen_shows({"Сови": 10, "Орли": 10, "Лисици": 5, "Хартия": 6})
    assert standings() == {"Сови": 10, "Орли": 10, "Лисици": 5, "Хартия": 6}

    # ---- R5: the last team after R4 picks scenario 5.2 on its phone (BG-R5.0); the
    # projector shows the scenario's picture from the bundle.
    desk.goto(f"{base}/host/{code}/rules")
    desk.locator("#wildcard button[type=submit]").first.click()
    expect(desk.locator("#wildcard-chooser")).to_have_text("Лисици", timeout=WAIT)
    choice = lisici.locator("#wildcard-choice button", has_text="5.2")
    expect(choice).to_be_visible(timeout=WAIT)
    choice.click()
    expect(lisici.locator("#wildcard-choice")).to_have_count(0, timeout=WAIT)
    desk.goto(f"{base}/host/{code}/rules")
    expect(desk.locator("#wildcard-scenario")).to_contain_text("5.2")
    round_button(5, "open")
    desk.goto(f"{base}/host/{code}/projector")
    desk.locator("tr", has_text="R5 ·").locator(
        "form:has(input[name=view][value=question]) button").click()
    picture = projector.locator("#screen-question img.full")
    expect(picture).to_be_visible(timeout=WAIT)
    projector.wait_for_function(
        "() => { const i = document.querySelector('#screen-question img.full');"
        " return i && i.complete && i.naturalWidth === 160; }", timeout=WAIT)
    for phone in (sovi, orli):
        phone.locator("input[data-key='5/1']").fill("Париж")
        saved(phone, "5/1")
    lisici.locator("input[data-key='5/1']").fill("Лондон")
    saved(lisici, "5/1")
    round_button(5, "close")
    screen_standings()
    screen_shows({"Сови": 10, "Орли": 10, "Лисици": 5, "Хартия": 6})
    round_button(5, "reveal")
    verdict(sovi, "5/1", "correct")
    verdict(lisici, "5/1", "wrong")
    screen_standings()
    screen_shows({"Сови": 12, "Орли": 12, "Лисици": 5, "Хартия": 6})

    # ---- R6: the final question, one at a time, from the rules page (BG-R6).
    def final_step(label: str) -> None:
        desk.goto(f"{base}/host/{code}/rules")
        desk.locator("#final tr[data-question='1']").get_by_role("button", name=label).click()

    final_step("Open")
    for phone in (sovi, orli):
        expect(phone.locator("input[data-key='6/1']")).to_be_visible(timeout=WAIT)
        phone.locator("input[data-key='6/1']").fill("Байкал")
        saved(phone, "6/1")
    lisici.locator("input[data-key='6/1']").fill("Охрид")
    saved(lisici, "6/1")
    final_step("Lock and check")
    expect(sovi.locator("input[data-key='6/1']")).to_have_attribute("readonly", "",
                                                                    timeout=WAIT)
    screen_standings()
    screen_shows({"Сови": 12, "Орли": 12, "Лисици": 5, "Хартия": 6})
    final_step("Reveal")
    verdict(sovi, "6/1", "correct")
    screen_standings()
    screen_shows({"Сови": 17, "Орли": 17, "Лисици": 5, "Хартия": 6})
    assert standings() == {"Сови": 17, "Орли": 17, "Лисици": 5, "Хартия": 6}

    # ---- The tie for first place: the shoot-out on the phones (BG-S3).
    desk.goto(f"{base}/host/{code}/rules")
    start = desk.locator("#shootout form")
    expect(start).to_be_visible(timeout=WAIT)
    for i, (text, number) in enumerate((("Година на Съединението?", "1885"),
                                        ("Височина на Мусала в метри?", "2925"),
                                        ("Дължина на Дунав в България, км?", "471")), 1):
        start.locator(f"input[name=text{i}]").fill(text)
        start.locator(f"input[name=answer{i}]").fill(number)
    start.locator("button[type=submit]").click()
    for phone, numbers in ((sovi, ("1885", "2900", "470")), (orli, ("1800", "2000", "400"))):
        expect(phone.locator("#shootout input").first).to_be_visible(timeout=WAIT)
        for index, value in enumerate(numbers):
            phone.locator("#shootout input").nth(index).fill(value)
        expect(phone.locator("#shootout .status")).to_have_class("status saved", timeout=WAIT)
        phone.locator("#shootout h2").click()  # done typing: the field lets go
    expect(lisici.locator("#shootout input")).to_have_count(0)
    # The rules page refreshes itself while the shoot-out runs: a click that a refresh
    # swallowed is clicked again.
    order = desk.locator("#shootout .shootout-order")
    for _attempt in range(3):
        desk.goto(f"{base}/host/{code}/rules")
        lock = desk.locator("#shootout").get_by_role("button", name="Lock now")
        if lock.count():
            lock.click()
        try:
            expect(order).to_contain_text("1. Сови", timeout=10_000)
            break
        except AssertionError:
            continue
    expect(order).to_contain_text("1. Сови", timeout=WAIT)
    for phone in (sovi, orli):
        expect(phone.locator("#shootout")).to_contain_text("Сови › Орли", timeout=WAIT)
    screen_standings()
    expect(projector.locator("#screen-standings li").first).to_contain_text("Сови",
                                                                            timeout=WAIT)
    expect(projector.locator("#screen-standings li").nth(1)).to_contain_text("Орли")
    rows = requests.get(f"{base}/api/events/{code}/standings", timeout=10).json()["standings"]
    assert [(r["team"], r["place"], r["points"]) for r in rows] == [
        ("Сови", 1, 17), ("Орли", 2, 17), ("Хартия", 3, 6), ("Лисици", 4, 5)]
