"""A team plays on a phone-sized browser: R1 choice buttons, an R4 song with the
first-letter joker (BG-J3), and the R5.5 All-in pickers chosen by the last team."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

from answerdesk.core.events import event_by_code
from answerdesk.formats.bg import wildcard

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 780}


def box(page: Page, key: str):
    return page.locator(".question", has=page.locator(f"input[data-key='{key}']"))


def test_team_plays_r1_r4_song_first_letter_and_r5_all_in(page: Page, live_demo, app):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}

    def round_action(number: int, action: str) -> None:
        resp = requests.post(f"{base}/api/host/events/{code}/rounds/{number}/{action}",
                             headers=host, timeout=30)  # a close checks every answer
        assert resp.status_code == 200, resp.text

    page.set_viewport_size(PHONE)
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Сови")
    page.fill("#players", "4")
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{base}/e/{code}/sheet")
    expect(page.locator("#jokers-left")).to_be_visible(timeout=10_000)

    # BG-R1: big buttons, no typing.
    round_action(1, "open")
    true_button = box(page, "1/1").locator("button[data-option='вярно']")
    expect(true_button).to_be_visible(timeout=10_000)
    true_button.click()
    expect(true_button).to_have_class("choice chosen")
    expect(box(page, "1/1").locator(".status")).to_have_class("status saved", timeout=10_000)
    box(page, "1/2").locator("button[data-option='Б']").click()
    expect(box(page, "1/2").locator(".status")).to_have_class("status saved", timeout=10_000)
    round_action(1, "close")

    # BG-R4: song title and performers; one free line; the first-letter joker.
    round_action(4, "open")
    song = box(page, "4/1")
    expect(song.locator(".song-title")).to_be_visible(timeout=10_000)
    song.locator(".song-title").fill("Bohemian Rhapsody")
    song.locator(".song-artists").fill("Queen")
    expect(song.locator(".status")).to_have_class("status saved", timeout=10_000)
    line = box(page, "4/2")
    line.locator(".song-toggle").click()
    line.locator("input[data-key='4/2']").fill("Michael Jackson - Billie Jean")
    expect(line.locator(".status")).to_have_class("status saved", timeout=10_000)

    film = box(page, "4/3")
    page.once("dialog", lambda dialog: dialog.accept())
    film.locator("button.first-letter").click()
    expect(box(page, "4/3").locator(".hint-letter")).to_have_text("Т", timeout=10_000)
    expect(page.locator("#jokers-left")).not_to_contain_text("First letter")
    expect(page.locator("button.first-letter")).to_have_count(0)  # irreversible, used once
    box(page, "4/3").locator("input[data-key='4/3']").fill("Титаник")
    expect(box(page, "4/3").locator(".status")).to_have_class("status saved", timeout=10_000)
    round_action(4, "close")

    # BG-R5.0: the last (only) team picks the scenario on its phone; BG-R5.5 pickers.
    with app.app_context():
        wildcard.name_chooser(event_by_code(code))
    choice = page.locator("#wildcard-choice button", has_text="5.5")
    expect(choice).to_be_visible(timeout=10_000)
    choice.click()
    expect(page.locator("#wildcard-choice")).to_have_count(0, timeout=10_000)
    round_action(5, "open")
    pairs = box(page, "5/1")
    expect(pairs.locator("button[data-pair='1В']")).to_be_visible(timeout=10_000)
    pairs.locator("button[data-pair='1В']").click()
    expect(box(page, "5/1").locator("button[data-pair='2В']")).to_be_disabled()
    for pair in ("2А", "3Б", "4Г"):
        box(page, "5/1").locator(f"button[data-pair='{pair}']").click()
    expect(box(page, "5/1").locator(".status")).to_have_class("status saved", timeout=10_000)
    round_action(5, "close")

    standings = requests.get(f"{base}/api/events/{code}/standings", timeout=10).json()
    row = standings["standings"][0]
    assert row["team"] == "Сови"
    assert row["by_round"] == {"1": 2, "4": 9, "5": 5}


def test_team_plays_double_copy_final_question_and_shootout(page: Page, live_demo, app):
    from answerdesk.formats.bg import final, shootout

    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    orli = requests.post(f"{base}/api/events/{code}/teams", json={"name": "Орли"},
                         timeout=10).json()["token"]

    def round_action(number: int, action: str) -> None:
        resp = requests.post(f"{base}/api/host/events/{code}/rounds/{number}/{action}",
                             headers=host, timeout=30)  # a close checks every answer
        assert resp.status_code == 200, resp.text

    def orli_saves(rnd: int, q: int, text: str) -> None:
        resp = requests.put(f"{base}/api/events/{code}/answers/{rnd}/{q}", json={"text": text},
                            headers={"Authorization": f"Bearer {orli}"}, timeout=10)
        assert resp.status_code == 200, resp.text

    page.set_viewport_size(PHONE)
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Сови")
    page.click("button[type=submit]")
    expect(page.locator("#jokers-left")).to_be_visible(timeout=10_000)

    round_action(1, "open")
    orli_saves(1, 2, "Б")
    round_action(1, "close")

    # BG-J1: a second answer field on one R2 question.
    round_action(2, "open")
    expect(box(page, "2/3").locator("button.double")).to_be_visible(timeout=10_000)
    box(page, "2/3").locator("button.double").click()
    second = box(page, "2/3").locator("input.second")
    expect(second).to_be_visible(timeout=10_000)
    box(page, "2/3").locator("input[data-key='2/3']").fill("Германия")
    second.fill("Австрия")
    expect(box(page, "2/3").locator(".status")).to_have_class("status saved", timeout=10_000)

    # BG-J2: "same as team X" in R3.
    round_action(3, "open")
    orli_saves(3, 2, "Мусала")
    expect(box(page, "3/2").locator("button.copy")).to_be_visible(timeout=10_000)
    box(page, "3/2").locator("button.copy").click()
    box(page, "3/2").locator(".copy-pick select").select_option("Орли")
    box(page, "3/2").locator(".copy-pick button").click()
    expect(box(page, "3/2").locator(".copies")).to_contain_text("Орли", timeout=10_000)
    expect(page.locator("#jokers-left")).to_contain_text("First letter")
    round_action(2, "close")
    round_action(3, "close")

    # BG-R6.1: the final question appears on the phone only when the host opens it.
    with app.app_context():
        final.open_question(event_by_code(code), 1)
    expect(page.locator("input[data-key='6/1']")).to_be_visible(timeout=10_000)
    expect(page.locator("input[data-key='6/2']")).to_have_count(0)
    page.locator("input[data-key='6/1']").fill("Борис")
    expect(box(page, "6/1").locator(".status")).to_have_class("status saved", timeout=10_000)
    orli_saves(6, 1, "Княз Борис")
    with app.app_context():
        final.lock_question(event_by_code(code), 1)
    expect(page.locator("input[data-key='6/1']")).to_have_attribute("readonly", "",
                                                                   timeout=10_000)
    with app.app_context():  # the final's last question: the rounds are played (BG-S2)
        final.open_question(event_by_code(code), 2)
        final.lock_question(event_by_code(code), 2)

    # BG-S3: 8 points each: the shoot-out appears on the phone with its minute.
    with app.app_context():
        run = shootout.start_shootout(event_by_code(code), [("Година?", 1885),
                                                            ("Метри?", 2925), ("Км?", 471)])
        run_id = run.id
    expect(page.locator("#shootout-clock")).to_be_visible(timeout=10_000)
    inputs = page.locator("#shootout input")
    for index, value in enumerate(("1885", "2900", "470")):
        inputs.nth(index).fill(value)
    expect(page.locator("#shootout .status")).to_have_class("status saved", timeout=10_000)
    requests.put(f"{base}/api/events/{code}/shootout", json={"numbers": [1800, 2000, 400]},
                 headers={"Authorization": f"Bearer {orli}"}, timeout=10)
    with app.app_context():
        shootout.lock_shootout(event_by_code(code), run_id)
    expect(page.locator("#shootout")).to_contain_text("Сови › Орли", timeout=15_000)
    standings = requests.get(f"{base}/api/events/{code}/standings", timeout=10).json()
    assert [(r["team"], r["place"], r["points"]) for r in standings["standings"]] == [
        ("Сови", 1, 8), ("Орли", 2, 8)]
