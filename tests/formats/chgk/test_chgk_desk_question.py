"""Issue 34: «Пульт ЧГК» shows the question the host reads and judges by (CHGK-1.1,
1.3): its text, answer, Зачёт, Незачёт and comment, beside the clock."""

from __future__ import annotations

import re

from answerdesk.core.events import event_by_code
from answerdesk.formats.chgk import game


def _login(chgk):
    assert chgk.client.post(f"/host/{chgk.code}/login",
                            data={"password": chgk.password}).status_code == 302


def _card(page: str) -> str:
    found = re.search(r'<article class="chgk-card" id="desk-question".*?</article>', page, re.S)
    assert found, "no question card on the desk"
    return found.group(0)


def test_chgk_1_1_desk_shows_the_drawn_then_the_running_question(chgk, app, english,
                                                               fake_clock):
    chgk.join("Сова")
    _login(chgk)
    desk = f"/host/{chgk.code}/chgk"
    assert 'id="desk-question"' not in chgk.client.get(desk).get_data(as_text=True)
    # Draw until sector 2 (the one with Зачёт and a comment) is the next to read.
    with app.app_context():
        event = event_by_code(chgk.code)
        game.draw_sector(event, 1, seed=next(
            s for s in (f"s{i}" for i in range(200))
            if game.rules.draw_sector([], s).sector == 2))
    card = _card(chgk.client.get(desk).get_data(as_text=True))
    assert "Game 1, question 2" in card
    assert "Сектор 2 игры 1: кто или что это?" in card
    assert "<strong>Лермонтов.</strong>" in card
    assert "Also accepted (Зачёт)" in card and "Михаил Юрьевич" in card
    assert "Comment" in card and "Автор «Героя нашего времени»." in card
    # Started on the clock, the card stays with it; the question with a Незачёт too.
    assert chgk.start(1, 2).status_code == 200
    assert "Game 1, question 2" in _card(chgk.client.get(desk).get_data(as_text=True))
    fake_clock.advance(71)
    assert chgk.start(1, 1).status_code == 200
    card = _card(chgk.client.get(desk).get_data(as_text=True))
    assert "Game 1, question 1" in card and "<strong>Пушкин.</strong>" in card
    assert "Not accepted (Незачёт)" in card and "Александр" in card


def test_chgk_1_1_every_question_of_a_game_is_one_click_away(chgk, english):
    _login(chgk)
    page = chgk.client.get(f"/host/{chgk.code}/chgk").get_data(as_text=True)
    listed = re.search(r'<details class="chgk-questions">.*?</details>', page, re.S).group(0)
    assert "All questions of game 1" in listed
    assert len(re.findall(r'class="chgk-card"', listed)) == 12
    assert "Сектор 12 игры 1" in listed and "Цветаева" in listed


def test_chgk_1_1_desk_card_is_translated(chgk):
    chgk.join("Сова")
    _login(chgk)
    chgk.start(1, 1)
    card = _card(chgk.client.get(f"/host/{chgk.code}/chgk?lang=ru").get_data(as_text=True))
    assert "Незачёт" in card and "Not accepted" not in card
