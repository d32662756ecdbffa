"""BG-E1: the host types a team's paper sheets for R1 and R4 with the keyboard only."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow


def test_bg_e1_host_types_paper_sheets_by_keyboard_only(page: Page, live_demo,
                                                        log_in_host):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    requests.post(f"{base}/api/events/{code}/teams", json={"name": "Сови"})
    for rnd in (1, 4):
        requests.post(f"{base}/api/host/events/{code}/rounds/{rnd}/open", headers=host)

    log_in_host(page, base, code, password)

    page.goto(f"{base}/host/{code}/paper?round=1")
    page.focus("#paper-team")
    page.keyboard.press("ArrowDown")  # the only team
    page.keyboard.press("Enter")
    expect(page.locator("#paper-sheet h2")).to_contain_text("Сови")
    # R1: one key per line, the focus moves on by itself; the last one saves the sheet.
    expect(page.locator("input[name=q1-choice]").first).to_be_focused()
    for key in ("t", "b", "f"):  # вярно, Б, невярно; the habit "letter, then Enter"
        page.keyboard.press(key)
        page.keyboard.press("Enter")  # changes nothing: no question is skipped
    expect(page.locator("input[name=q4-choice]").first).to_be_focused()
    page.keyboard.press("c")  # В, the last line: saves
    expect(page.locator(".flash, [role=status]").first).to_contain_text("4")

    page.focus("#paper-round")
    for _step in range(3):
        page.keyboard.press("ArrowDown")  # R1 → R4
    page.keyboard.press("Enter")
    expect(page.locator("input[name=q1-title]")).to_be_focused()
    page.keyboard.type("Bohemian Rhapsody")
    page.keyboard.press("Tab")
    page.keyboard.type("Queen")
    page.keyboard.press("Enter")  # skips the one-line field of a song already typed
    expect(page.locator("input[name=q2-title]")).to_be_focused()
    page.keyboard.type("Billie Jean")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # no performers on this sheet
    expect(page.locator("input[name=q3-text]")).to_be_focused()
    page.keyboard.type("Титаник")
    page.keyboard.press("Enter")  # the last line: saves
    expect(page.locator(".flash, [role=status]").first).to_contain_text("3")

    for rnd in (1, 4):
        requests.post(f"{base}/api/host/events/{code}/rounds/{rnd}/close", headers=host)
    row = requests.get(f"{base}/api/events/{code}/standings").json()["standings"][0]
    assert row["by_round"] == {"1": 4, "4": 3 + 1 + 3}  # Billie Jean alone: 1 of 3 (BG-R4.1)


def test_bg_r5_5_paper_pickers_by_keyboard_cannot_pair_a_letter_twice(page: Page, app,
                                                                      live_demo, log_in_host):
    from answerdesk.core.events import event_by_code
    from answerdesk.formats.bg import wildcard

    base, code, password = live_demo
    with app.app_context():
        wildcard.choose_scenario(event_by_code(code), "5.5")
    host = {"Authorization": f"Bearer {password}"}
    requests.post(f"{base}/api/events/{code}/teams", json={"name": "Сови"})
    requests.post(f"{base}/api/host/events/{code}/rounds/5/open", headers=host)
    log_in_host(page, base, code, password)
    page.goto(f"{base}/host/{code}/paper?round=5")
    page.focus("#paper-team")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    first, second = page.locator("select[name=q1-pair-1]"), page.locator("select[name=q1-pair-2]")
    expect(first).to_be_focused()
    page.keyboard.press("c")  # 1 → В, on to 2
    expect(second).to_be_focused()
    expect(second.locator("option", has_text="В")).to_be_disabled()
    page.keyboard.press("v")  # В again: refused, 2 stays empty and focused
    expect(second).to_have_value("")
    expect(second).to_be_focused()
    for key in ("a", "b", "d"):  # 2 → А, 3 → Б, 4 → Г, and the sheet is saved
        page.keyboard.press(key)
    expect(page.locator(".flash")).to_contain_text("1")
    requests.post(f"{base}/api/host/events/{code}/rounds/5/close", headers=host)
    row = requests.get(f"{base}/api/events/{code}/standings").json()["standings"][0]
    assert row["by_round"] == {"5": 5}


def test_bg_e1_paper_team_plays_a_joker_from_the_paper_screen(page: Page, live_demo,
                                                              log_in_host):
    """BG-J1 for a team on paper: the host picks the joker and the question, the second
    answer's field appears in the grid. A copy joker naming no team is refused beside the
    form, in the host's language."""
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    requests.post(f"{base}/api/events/{code}/teams", json={"name": "Сови"})
    requests.post(f"{base}/api/host/events/{code}/rounds/2/open", headers=host)
    log_in_host(page, base, code, password)
    page.goto(f"{base}/lang/bg?next=/host/{code}/paper?round=2")
    page.select_option("#paper-team", label="Сови")
    page.get_by_role("button", name="Отвори листа").click()
    page.select_option("#paper-joker-kind", "copy")
    page.get_by_role("button", name="Изиграй жокера").click()
    expect(page.locator("#paper-part-error")).to_have_text(
        "Посочете отбора, чийто отговор преписвате.")
    page.select_option("#paper-joker-kind", "double")
    page.select_option("#paper-joker-question", "3")
    page.get_by_role("button", name="Изиграй жокера").click()
    expect(page.locator("#paper-jokers-played [data-kind=double]")).to_contain_text("R2Q3")
    expect(page.locator("input[name=q3-second]")).to_be_visible()
    page.locator("input[name=q3-text]").fill("Австралия")
    page.locator("input[name=q3-second]").fill("Австрия")
    page.get_by_role("button", name="Запази листа и към следващия отбор").click()
    requests.post(f"{base}/api/host/events/{code}/rounds/2/close", headers=host)
    row = requests.get(f"{base}/api/events/{code}/standings").json()["standings"][0]
    assert row["by_round"] == {"2": 1}  # BG-J1: either answer right, 1 point
