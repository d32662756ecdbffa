"""A whole Своя игра night through the pages only (issue 29), in headless Chromium: the
organiser, the host's desk, the projector and four phones as separate browser contexts;
every action a click or a typed field; the API is only read, for assertions.

The organiser creates the event on the start page; the host imports the SIGame pack with
media (si-gametest-v4-media.siq) on the Programme page and lays its five themes over the
three rounds there (SI-1.1); its final round is said not to be played. Three phones join,
questions are played in all three rounds (text, picture, sound, a video in the answer),
answers, ВСЁ, the lists on phones and projector, a protest upheld (СТОП, СТОЮ), a late
joiner (SI-1.2), a second warning confirmed (SI-1.3), the final standings. A db.chgk.info
«Своя игра» .txt created with the event on the start page plays its first question with
its theme names. One server for the module's one test. With SI_SHOTS=<folder> the test
also saves the screenshots docs/svoya-igra.md shows."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import requests
from factories import assert_projector_fits
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.slow

PACKS = Path(__file__).resolve().parents[2] / "data" / "packs"
MEDIA_PACK = PACKS / "sigame" / "si-gametest-v4-media.siq"
TXT_PACK = PACKS / "svoyak" / "leti05sv.txt"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "locale": "ru-RU"}
DESK = {"viewport": {"width": 1366, "height": 900}, "locale": "ru-RU"}
WAIT = 15_000
SHOTS = os.environ.get("SI_SHOTS")


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def _create_event(browser: Browser, base: str, organiser_password: str, name: str,
                  pack: Path | None) -> tuple[str, str]:
    """The organiser creates an ``si`` event on the start page: (code, host password)."""
    page = browser.new_context(**DESK).new_page()
    page.goto(base + "/")
    page.fill("input[name=password]", organiser_password)
    page.press("input[name=password]", "Enter")
    page.fill("#new-event input[name=name]", name)
    page.select_option("#new-event select[name=format]", "si")
    page.select_option("#new-event select[name=screen_locale]", "ru")
    if pack is not None:
        page.set_input_files("#new-event input[name=pack]", str(pack))
    page.click("#new-event button[type=submit]")
    shown = page.locator(".password code")
    expect(shown).to_be_visible(timeout=WAIT)
    password = shown.inner_text().strip()
    code = page.locator(f"li.event:has-text('{name}')").get_attribute("data-code")
    page.context.close()
    return code, password


def _host(browser: Browser, base: str, code: str, password: str) -> Page:
    page = browser.new_context(**DESK).new_page()
    page.goto(f"{base}/host/{code}/login")
    page.fill("input[name=password]", password)
    page.press("input[name=password]", "Enter")
    expect(page).to_have_url(re.compile(rf"/host/{code}/$"))
    return page


def _join(context: BrowserContext, base: str, code: str, name: str) -> Page:
    phone = context.new_page()
    phone.goto(f"{base}/e/{code}")
    phone.fill("#team-name", name)
    phone.locator("#join-form button[type=submit]").tap()
    phone.wait_for_url(f"{base}/e/{code}/sheet")
    expect(phone.locator("#si-player")).to_have_text(name, timeout=WAIT)
    return phone


def _open(desk: Page, rnd: int, theme: int, place: int) -> None:
    """The host presses a value on the board (the place-th question of the theme)."""
    desk.locator(f"#round-{rnd} tr[data-theme='{theme}'] form.open button").nth(place - 1).click()
    expect(desk.locator("#current-state")).to_have_attribute("data-state", "open", timeout=WAIT)


def _answer(phone: Page, text: str) -> None:
    expect(phone.locator("#si-answer")).to_be_visible(timeout=WAIT)
    phone.fill("#si-text", text)
    phone.locator("#si-answer button[type=submit]").tap()
    expect(phone.locator("#si-sent")).to_contain_text(text, timeout=WAIT)


def _close_and_publish(desk: Page, players: list[str]) -> None:
    for name in players:  # the desk follows the answers by itself
        expect(desk.locator(f"#answers tr[data-player='{name}']")).to_be_visible(timeout=WAIT)
    desk.get_by_role("button", name="Закрыть вопрос (ВСЁ)").click()
    expect(desk.locator("#current-state")).to_have_attribute("data-state", "closed",
                                                             timeout=WAIT)
    desk.get_by_role("button", name="Опубликовать списки").click()
    expect(desk.locator("#current-state")).to_have_attribute("data-state", "published",
                                                             timeout=WAIT)


def _scores(base: str, code: str) -> dict[str, tuple[int, int | None, bool]]:
    state = requests.get(f"{base}/api/events/{code}/state", timeout=5).json()["si"]
    return {s["player"]: (s["points"], s["place"], s["removed"]) for s in state["scores"]}


def test_a_whole_si_night_through_the_pages(app, live_server, browser: Browser):
    base = live_server.url
    organiser = app.config["ORGANISER_PASSWORD"]

    # -- the organiser creates the event; the host imports the pack with media ----------
    code, password = _create_event(browser, base, organiser, "Своя игра в пятницу", None)
    desk = _host(browser, base, code, password)
    desk.get_by_text("Подготовка").click()
    desk.locator("#now-programme").click()  # the desk's own link to the programme
    desk.set_input_files("#pack-import input[name=pack]", str(MEDIA_PACK))
    desk.get_by_role("button", name="Предпросмотр").click()
    expect(desk.locator(".si-final")).to_contain_text("«Финал» (3 темы) не играется")
    layout = desk.locator("#si-layout select[name=layout]")
    expect(layout).to_have_count(5)
    for i, rnd in enumerate(("1", "1", "2", "2", "3")):
        layout.nth(i).select_option(rnd)
    desk.locator("#si-layout").scroll_into_view_if_needed()
    _shot(desk, "si-preview")
    desk.locator("#confirm-import").click()
    expect(desk).to_have_url(re.compile(rf"/host/{code}/$"))
    desk.get_by_role("link", name="Пульт Своей игры").click()
    expect(desk.locator("#round-1 tr[data-theme='1'] .theme-name")).to_have_text(
        "Вопросы разных типов")
    expect(desk.locator("#round-3 tr[data-theme='1'] .theme-name")).to_have_text(
        "Контент вопросов · 3")
    expect(desk.locator("#round-3 tr[data-theme='1'] form.open button").first).to_have_text("3")

    screen_context = browser.new_context(viewport={"width": 1920, "height": 1080},
                                         locale="ru-RU")
    screen = screen_context.new_page()
    screen.goto(f"{base}/e/{code}/screen")
    expect(screen.locator("#si-screen-board")).to_contain_text("Вопросы разных типов",
                                                               timeout=WAIT)

    phones = {name: _join(browser.new_context(**PHONE), base, code, name)
              for name in ("Вася", "Ира", "Женя")}

    # -- round 1, theme 1, for 1: answers, ВСЁ, the lists on phones and projector --------
    _open(desk, 1, 1, 1)
    expect(desk.locator("#current-text")).to_have_text("Это текст вопроса")
    expect(desk.locator("#current-answer")).to_contain_text("А это правильный ответ")
    for phone in phones.values():
        expect(phone.locator("#si-where")).to_have_text("Раунд 1 · Вопросы разных типов",
                                                        timeout=WAIT)
        expect(phone.locator("#si-question")).to_have_text("Это текст вопроса")
    expect(screen.locator("#si-screen-text")).to_have_text("Это текст вопроса", timeout=WAIT)
    _answer(phones["Вася"], "А это правильный ответ")
    _answer(phones["Ира"], "это ответ правильный")
    _answer(phones["Женя"], "не знаю")
    _shot(phones["Вася"], "si-phone")
    _close_and_publish_with_decisions(desk, {"Ира": "Неверно", "Женя": "Неверно"},
                                      ["Вася", "Ира", "Женя"])
    expect(desk.locator("#lists li")).to_have_text(["+1 Вася", "−1 Ира, Женя"])
    expect(screen.locator("#si-screen-lists li")).to_have_text(["+1 Вася", "−1 Ира, Женя"],
                                                               timeout=WAIT)
    expect(screen.locator("#si-screen-answer")).to_have_text("А это правильный ответ")
    expect(phones["Ира"].locator("#si-lists li")).to_have_text(["+1 Вася", "−1 Ира, Женя"],
                                                               timeout=WAIT)
    _shot(screen, "si-projector-lists")
    assert_projector_fits(screen, "si-projector-lists")

    # -- a protest (СТОП): the host acknowledges (СТОЮ) and upholds it -------------------
    ira = phones["Ира"]
    ira.locator("#si-stop-list li button").first.tap()
    ira.fill("#si-protest-text", "Мой ответ тот же, слова переставлены")
    ira.get_by_role("button", name="Отправить протест").tap()
    expect(ira.locator("#si-notice")).to_have_text("Ваш протест у ведущего.", timeout=WAIT)
    protest = desk.locator("#protests li[data-state='filed']")
    expect(protest).to_contain_text("Мой ответ тот же", timeout=WAIT)
    protest.get_by_role("button", name="Принять (СТОЮ)").click()
    heard = desk.locator("#protests li[data-state='heard']")
    expect(heard.locator("select[name=player]")).to_have_value("Ира")  # the protester
    heard.locator("select[name=mark]").select_option("correct")
    heard.get_by_role("button", name="Принять и опубликовать заново").click()
    expect(desk.locator("#protests li[data-state='upheld']")).to_be_visible()
    expect(screen.locator("#si-screen-lists li")).to_have_text(
        ["+1 Вася, Ира", "−1 Женя"], timeout=WAIT)
    expect(ira.locator("#si-points")).to_have_text("1", timeout=WAIT)

    # -- a late joiner between questions (SI-1.2) ----------------------------------------
    phones["Петя"] = _join(browser.new_context(**PHONE), base, code, "Петя")

    # -- round 1, theme 2 («· 2»), for 2 --------------------------------------------------
    _open(desk, 1, 2, 2)
    expect(desk.locator("#current-theme")).to_have_text("Вопросы разных типов · 2")
    _answer(phones["Петя"], "Ответ")
    _answer(phones["Вася"], "Ответ")
    _close_and_publish(desk, ["Петя", "Вася"])
    expect(desk.locator("#lists li")).to_have_text(["+2 Петя, Вася"])

    # -- round 2: a picture, then a sound -------------------------------------------------
    _open(desk, 2, 1, 3)
    expect(screen.locator("#screen-si img.si-media")).to_be_visible(timeout=WAIT)
    _shot(screen, "si-projector-question")
    assert_projector_fits(screen, "si-projector-question")
    _answer(phones["Женя"], "Изображение")
    _answer(phones["Ира"], "картинка")
    _close_and_publish_with_decisions(desk, {"Ира": "Неверно"}, ["Женя", "Ира"])
    expect(desk.locator("#lists li")).to_have_text(["+6 Женя", "−6 Ира"])
    _open(desk, 2, 2, 1)
    expect(screen.locator("#screen-si audio[data-si-media]")).to_have_count(1, timeout=WAIT)
    expect(screen.locator("#si-screen-text")).to_have_text("Текст")
    _answer(phones["Вася"], "Текст + звук")
    _close_and_publish(desk, ["Вася"])
    expect(desk.locator("#lists li")).to_have_text(["+2 Вася"])

    # -- a warning, and the second one only once confirmed (SI-1.3) ----------------------
    zhenya = desk.locator("#players tr[data-player='Женя']")
    zhenya.get_by_role("button", name="Предупредить").click()
    expect(phones["Женя"].locator("#si-warnings")).to_have_text("Предупреждения: 1 из 2",
                                                                timeout=WAIT)
    zhenya = desk.locator("#players tr[data-player='Женя']")
    zhenya.get_by_role("button", name="Предупредить").click()
    expect(desk.locator("#confirm-warn")).to_contain_text("Второе предупреждение снимает Женя")
    assert not _scores(base, code)["Женя"][2]
    desk.get_by_role("button", name="Да, дать второе предупреждение").click()
    expect(phones["Женя"].locator("#si-warnings")).to_have_text(
        "Вы сняты с игры (SI-1.3).", timeout=WAIT)
    assert _scores(base, code)["Женя"] == (0, None, True)

    # -- round 3: the answer brings a video ------------------------------------------------
    _open(desk, 3, 1, 1)
    expect(screen.locator("#si-screen-text")).to_have_text("Вопрос с ответом в виде видео",
                                                           timeout=WAIT)
    _answer(phones["Ира"], "Ответ")
    _answer(phones["Петя"], "Видео")
    _close_and_publish_with_decisions(desk, {"Петя": "Неверно"}, ["Ира", "Петя"])
    expect(screen.locator("#screen-si video[data-si-media]")).to_have_count(1, timeout=WAIT)
    expect(screen.locator("#si-screen-lists li")).to_have_text(["+3 Ира", "−3 Петя"])

    # -- the final standings: desk, projector, API -----------------------------------------
    scores = _scores(base, code)
    assert scores["Вася"] == (5, 1, False)  # 1 + 2 + 2
    assert scores["Ира"] == (1 - 6 + 3, 3, False)  # the protest made q1 right
    assert scores["Петя"] == (2 - 3, 2, False)
    assert scores["Женя"] == (0, None, True)
    desk.get_by_role("link", name="Турнирная таблица").click()
    table = desk.locator("table.standings tbody tr")
    expect(table.first).to_contain_text("Вася")
    expect(table.last).to_contain_text("Женя")
    expect(table.last.locator("td").first).to_have_text("—")
    standings = requests.get(f"{base}/api/events/{code}/standings", timeout=5).json()
    assert [(r["team"], r["points"], r["place"]) for r in standings["standings"]][:3] == [
        ("Вася", 5, 1), ("Петя", -1, 2), ("Ира", -2, 3)]
    screen.reload()
    expect(screen.locator("#screen-si")).to_have_attribute("data-state", "published")
    _shot(screen, "si-projector-board")
    assert_projector_fits(screen, "si-projector-board")
    screen.set_viewport_size({"width": 1280, "height": 720})
    _shot(screen, "si-projector-720")
    screen_context.close()

    # -- a db.chgk.info «Своя игра» .txt created with the event on the start page ---------
    code2, password2 = _create_event(browser, base, organiser, "Своя игра по-ЛЭТИ", TXT_PACK)
    desk2 = _host(browser, base, code2, password2)
    desk2.get_by_role("link", name="Пульт Своей игры").click()
    first = desk2.locator("#round-1 tr[data-theme='1'] .theme-name")
    expect(first).not_to_have_text(re.compile(r"^Тема \d"))
    theme = first.inner_text()
    expect(desk2.locator("#round-3 tr[data-theme='1'] form.open button")).to_have_text(
        ["3", "6", "9", "12", "15"])
    phone2 = _join(browser.new_context(**PHONE), base, code2, "Оля")
    _open(desk2, 1, 1, 1)
    expect(phone2.locator("#si-where")).to_have_text(f"Раунд 1 · {theme}", timeout=WAIT)
    answer = desk2.locator("#current-answer strong").inner_text()
    _answer(phone2, answer)
    _close_and_publish(desk2, ["Оля"])
    expect(desk2.locator("#lists li")).to_have_text(["+1 Оля"])
    desk2.evaluate("window.scrollTo(0, 0)")
    _shot(desk2, "si-desk")


def _close_and_publish_with_decisions(desk: Page, marks: dict[str, str],
                                      players: list[str]) -> None:
    """ВСЁ, the host's word where it differs from the checker's, then the lists."""
    for name in players:
        expect(desk.locator(f"#answers tr[data-player='{name}']")).to_be_visible(timeout=WAIT)
    desk.get_by_role("button", name="Закрыть вопрос (ВСЁ)").click()
    expect(desk.locator("#current-state")).to_have_attribute("data-state", "closed",
                                                             timeout=WAIT)
    for name, label in marks.items():
        row = desk.locator(f"#answers tr[data-player='{name}']")
        row.get_by_role("button", name=label).click()
        expect(desk.locator(f"#answers tr[data-player='{name}'] button.chosen")).to_contain_text(
            label, timeout=WAIT)
    desk.get_by_role("button", name="Опубликовать списки").click()
    expect(desk.locator("#current-state")).to_have_attribute("data-state", "published",
                                                             timeout=WAIT)
