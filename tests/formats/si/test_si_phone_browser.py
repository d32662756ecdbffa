"""The Своя игра player's phone in headless Chromium (issue 15; SI-1.2, SI-2.2, SI-2.2b,
SI-2.4, SI-3): two players' phones and the host's desk. The host opens a question
through core's start endpoint, both phones see it, each sends one private answer and a
second is refused in the phone's language; after ВСЁ and the publication the phones
show the lists, points and places; a reloaded phone finds its points and state."""

from __future__ import annotations

import pytest
import requests
from buzzgame import make_event, start_question
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True,
         "locale": "ru-RU"}
WAIT = 10_000


def _host_desk(browser: Browser, base: str, code: str, password: str) -> Page:
    page = browser.new_context(locale="ru-RU").new_page()
    page.goto(f"{base}/host/{code}/login")
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.goto(f"{base}/host/{code}/si")
    return page


def _one_player(app, base: str, browser: Browser, name: str) -> tuple[str, str, str, Page]:
    """A Своя игра event with one player, joined over the API, and the player's phone
    on the game: (code, host password, the player's token, the phone)."""
    code, password = make_event(app, "si", {1: 25})
    token = requests.post(f"{base}/api/events/{code}/teams", timeout=5,
                          json={"name": name, "players": 1}).json()["token"]
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{base}/e/{code}/sheet#token={token}")
    return code, password, token, phone


def _send(phone: Page, text: str) -> None:
    phone.fill("#si-text", text)
    phone.locator("#si-answer button[type=submit]").tap()


def test_si_phones_answer_once_and_follow_the_game_to_the_lists(app, live_server,
                                                                 browser: Browser):
    code, password = make_event(app, "si", {1: 25})
    base = live_server.url

    # SI-1.2: a player joins on the phone: a name, no team size to fill in.
    vasya = browser.new_context(**PHONE).new_page()
    vasya.goto(f"{base}/e/{code}")
    expect(vasya.locator("#players")).to_be_hidden()
    vasya.fill("#team-name", "Вася")
    vasya.locator("#join-form button[type=submit]").tap()
    vasya.wait_for_url(f"{base}/e/{code}/sheet")
    token = requests.post(f"{base}/api/events/{code}/teams", timeout=5,
                          json={"name": "Ира", "players": 1}).json()["token"]
    ira = browser.new_context(**PHONE).new_page()
    ira.goto(f"{base}/e/{code}/sheet#token={token}")
    phones = (vasya, ira)
    for phone, name in zip(phones, ("Вася", "Ира"), strict=True):
        expect(phone.locator("#si-player")).to_have_text(name, timeout=WAIT)
        expect(phone.locator("#si-value")).to_have_text("Ждём, пока ведущий откроет вопрос")
        expect(phone.locator("#si-answer")).to_be_hidden()

    # The host opens the 1-point question of theme 1 (the desk calls core's start).
    desk = _host_desk(browser, base, code, password)
    desk.locator("#round-1 tr[data-theme='1'] form.open button").nth(0).click()
    expect(desk.locator("#current-state")).to_have_attribute("data-state", "open", timeout=WAIT)
    for phone in phones:
        expect(phone.locator("#si-board")).to_have_attribute("data-state", "open", timeout=WAIT)
        expect(phone.locator("#si-where")).to_have_text("Раунд 1 · Тема 1")
        expect(phone.locator("#si-value")).to_have_text("Цена вопроса: 1")
        expect(phone.locator("#si-question")).to_have_text("Q1.1")
        expect(phone.locator("#si-status")).to_have_text("Открыт: отправьте ответ")
        send = phone.locator("#si-answer button[type=submit]").bounding_box()
        assert send is not None and send["height"] >= 44 and send["width"] >= 44

    # SI-2.2: one private answer each; a second is refused, the first stands.
    _send(vasya, "answer 1.1")
    _send(ira, "нет")
    expect(vasya.locator("#si-sent")).to_have_text("Отправлен: answer 1.1", timeout=WAIT)
    expect(ira.locator("#si-sent")).to_have_text("Отправлен: нет", timeout=WAIT)
    _send(vasya, "другое")
    expect(vasya.locator("#si-error")).to_have_text(
        "Засчитывается только первый ответ; он уже получен.", timeout=WAIT)
    expect(vasya.locator("#si-sent")).to_have_text("Отправлен: answer 1.1")

    # SI-2.2b ВСЁ: the phones stop taking answers.
    desk.reload()
    expect(desk.locator("#answers tr[data-player='Вася']")).to_contain_text("answer 1.1")
    desk.locator("#current form button").first.click()
    expect(desk.locator("#current-state")).to_have_attribute("data-state", "closed")
    for phone in phones:
        expect(phone.locator("#si-board")).to_have_attribute("data-state", "closed",
                                                             timeout=WAIT)
        expect(phone.locator("#si-answer")).to_be_hidden()

    # The host decides and publishes; SI-2.4: the lists, points and places on the phones.
    desk.locator("#answers tr[data-player='Вася'] button[value=correct]").click()
    desk.locator("#answers tr[data-player='Ира'] button[value=wrong]").click()
    desk.get_by_role("button", name="Опубликовать списки").click()
    expect(desk.locator("#lists li")).to_have_text(["+1 Вася", "−1 Ира"])
    for phone in phones:
        expect(phone.locator("#si-lists li")).to_have_text(["+1 Вася", "−1 Ира"],
                                                           timeout=WAIT)
        expect(phone.locator("#si-correct")).to_have_text("answer 1.1")
        expect(phone.locator("#si-claim")).to_be_hidden()  # both answers are listed
        expect(phone.locator("#si-stop-list li")).to_have_count(1)  # SI-3: its window is open
    expect(vasya.locator("#si-points")).to_have_text("1")
    expect(vasya.locator("#si-place")).to_have_text("Место 1")
    expect(ira.locator("#si-points")).to_have_text("-1")
    expect(ira.locator("#si-place")).to_have_text("Место 2")

    # SI-3 СТОП from the phone: the protest goes to the host.
    ira.locator("#si-stop-list li[data-question='1'] button").tap()
    ira.fill("#si-protest-text", "Мой ответ верен")
    ira.locator("#si-protest button[type=submit]").tap()
    expect(ira.locator("#si-notice")).to_have_text("Ваш протест у ведущего.", timeout=WAIT)
    expect(ira.locator("#si-protest")).to_be_hidden()
    expect(ira.locator("#si-stop-list li button")).to_have_count(0)  # one pending at a time
    desk.reload()
    expect(desk.locator("body")).to_contain_text("Мой ответ верен")

    # A phone that reloads (rejoins with its token) finds its points and the game's state.
    ira.reload()
    expect(ira.locator("#si-player")).to_have_text("Ира", timeout=WAIT)
    expect(ira.locator("#si-points")).to_have_text("-1")
    expect(ira.locator("#si-place")).to_have_text("Место 2")
    expect(ira.locator("#si-sent")).to_have_text("Отправлен: нет")
    expect(ira.locator("#si-lists li")).to_have_text(["+1 Вася", "−1 Ира"])
    expect(ira.locator("#si-notice")).to_have_text("Ваш протест у ведущего.")
    vasya.goto(f"{base}/e/{code}")  # the join page sends a joined phone to its game
    vasya.wait_for_url(f"{base}/e/{code}/sheet")
    expect(vasya.locator("#si-points")).to_have_text("1", timeout=WAIT)
    expect(vasya.locator("#si-board")).to_have_attribute("data-state", "published")


def test_si_phone_out_of_competition_and_warnings(app, live_server, browser: Browser):
    """SI-1.2: out of competition the phone shows no place and offers no СТОП;
    SI-1.3: a warning shows on the phone, the second removes the player."""
    base = live_server.url
    code, password, _, phone = _one_player(app, base, browser, "Женя")
    host = {"Authorization": f"Bearer {password}"}
    expect(phone.locator("#si-place")).to_have_text("Место 1", timeout=WAIT)
    assert requests.post(f"{base}/api/host/events/{code}/si/competition", headers=host,
                         json={"player": "Женя", "in_competition": False},
                         timeout=5).status_code == 200
    expect(phone.locator("#si-place")).to_have_text("вне зачёта", timeout=WAIT)
    requests.post(f"{base}/api/host/events/{code}/si/warnings", headers=host,
                  json={"player": "Женя"}, timeout=5).raise_for_status()
    expect(phone.locator("#si-warnings")).to_have_text("Предупреждения: 1 из 2", timeout=WAIT)
    requests.post(f"{base}/api/host/events/{code}/si/warnings", headers=host,
                  json={"player": "Женя"}, timeout=5).raise_for_status()
    expect(phone.locator("#si-warnings")).to_have_text(
        "Вы сняты с игры (SI-1.3).", timeout=WAIT)


def test_si_phone_keeps_an_answer_the_network_lost(app, live_server, browser: Browser):
    """Weak Wi-Fi: an answer sent while offline stays on the phone and goes once the
    network is back, while its question is open (SI-2.2: it is then the first)."""
    base = live_server.url
    code, password, token, phone = _one_player(app, base, browser, "Женя")
    context = phone.context
    expect(phone.locator("#si-player")).to_have_text("Женя", timeout=WAIT)
    start_question(base, code, password, 1, 1)
    expect(phone.locator("#si-answer")).to_be_visible(timeout=WAIT)
    context.set_offline(True)
    _send(phone, "ответ без сети")
    expect(phone.locator("#si-error")).to_have_text(
        "Нет сети: ответ уйдёт, как только она появится.", timeout=WAIT)
    expect(phone.locator("#net")).to_have_text("ждём сеть", timeout=WAIT)
    context.set_offline(False)
    expect(phone.locator("#si-sent")).to_have_text("Отправлен: ответ без сети", timeout=WAIT)
    expect(phone.locator("#si-error")).to_be_hidden()
    state = requests.get(f"{base}/api/events/{code}/sheet", timeout=5,
                         headers={"Authorization": f"Bearer {token}"}).json()["si"]
    assert state["current"]["answer"] == "ответ без сети"


def test_si_3_stop_on_an_earlier_question_of_the_theme_until_another_theme_starts(
        app, live_server, browser: Browser):
    """SI-3 on the phone: while the theme goes on, СТОП is offered for each of its
    published questions, each named by round, theme and value with its answer; a
    protest on the earlier one goes to the host; a question of another theme closes
    every window and the phone offers none."""
    base = live_server.url
    code, password, token, phone = _one_player(app, base, browser, "Вася")
    host = {"Authorization": f"Bearer {password}"}
    expect(phone.locator("#si-player")).to_have_text("Вася", timeout=WAIT)

    def call(path: str, **body) -> dict:
        resp = requests.post(f"{base}/api/host/events/{code}/{path}", headers=host,
                             json=body, timeout=30)
        assert resp.status_code == 200, resp.text
        return resp.json()

    def played(q: int, text: str, mark: str) -> None:
        start_question(base, code, password, 1, q)
        requests.post(f"{base}/api/events/{code}/si/answers", timeout=5, json={
            "round": 1, "question": q, "text": text},
            headers={"Authorization": f"Bearer {token}"}).raise_for_status()
        call(f"si/rounds/1/questions/{q}/close")
        call(f"si/rounds/1/questions/{q}/decide", player="Вася", mark=mark)
        call(f"si/rounds/1/questions/{q}/publish")

    played(1, "мой ответ", "wrong")
    # The next question of theme 1 is on the board and open: the earlier one keeps its СТОП.
    start_question(base, code, password, 1, 2)
    expect(phone.locator("#si-board")).to_have_attribute("data-state", "open", timeout=WAIT)
    expect(phone.locator("#si-answer")).to_be_visible()
    earlier = phone.locator("#si-stop-list li[data-question='1']")
    expect(phone.locator("#si-stop-list li")).to_have_count(1)
    expect(earlier.locator("strong")).to_have_text("Раунд 1 · Тема 1 · вопрос за 1")
    expect(earlier).to_contain_text("Правильный ответ: answer 1.1")
    stop = earlier.locator("button")
    box = stop.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 200  # one thumb
    stop.tap()
    expect(phone.locator("#si-protest-about")).to_have_text("Раунд 1 · Тема 1 · вопрос за 1")
    phone.fill("#si-protest-text", "«мой ответ» тоже верен")
    phone.locator("#si-protest button[type=submit]").tap()
    expect(earlier.locator(".si-stop-state")).to_have_text("Ваш протест у ведущего.",
                                                           timeout=WAIT)
    expect(earlier.locator("button")).to_have_count(0)
    expect(phone.locator("#si-protest")).to_be_hidden()
    protests = requests.get(f"{base}/api/events/{code}/state", timeout=5).json()["si"]["protests"]
    assert [(p["player"], p["round"], p["question"]) for p in protests] == [("Вася", 1, 1)]

    # The host hears it and upholds it; question 2 is published: both are offered.
    call(f"si/protests/{protests[0]['id']}/hear")
    call(f"si/protests/{protests[0]['id']}/decide", upheld=True,
         changes=[{"player": "Вася", "mark": "correct"}])
    call("si/rounds/1/questions/2/close")
    call("si/rounds/1/questions/2/publish")
    expect(phone.locator("#si-stop-list li")).to_have_count(2, timeout=WAIT)
    expect(earlier.locator(".si-stop-state")).to_have_text("Ваш протест принят.")
    expect(phone.locator("#si-points")).to_have_text("1")
    phone.locator("#si-stop-list li[data-question='2'] button").tap()
    expect(phone.locator("#si-protest-about")).to_have_text("Раунд 1 · Тема 1 · вопрос за 2")

    # A question of theme 2 starts: the windows of theme 1 close, the phone offers no СТОП.
    start_question(base, code, password, 1, 6)
    expect(phone.locator("#si-where")).to_have_text("Раунд 1 · Тема 2", timeout=WAIT)
    expect(phone.locator("#si-stop")).to_be_hidden()
    expect(phone.locator("#si-protest")).to_be_hidden()
    late = requests.post(f"{base}/api/events/{code}/si/protests", timeout=5, json={
        "round": 1, "question": 1, "text": "ещё"}, headers={"Authorization": f"Bearer {token}"})
    assert (late.status_code, late.json()["error"]) == (409, "protest_window_closed")
