"""Issue 34: the ЧГК projector shows only what the room has been shown (BG-E3): no
points when the clock locks, the question's points once the host shows its answer;
tied places read the same on the desk and the projector ("2=")."""

from __future__ import annotations

import re


def _screen(chgk) -> str:
    resp = chgk.client.get(f"/e/{chgk.code}/screen/live")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def _ranks(page: str) -> dict[str, tuple[str, str]]:
    """Team → (place as shown, points) from the projector's standings."""
    return {name: (place, pts) for place, name, pts in re.findall(
        r'<span class="place">([^<]*)</span>\s*<span class="name">([^<]*)</span>.*?'
        r'<span class="pts">([^<]*)</span>', page, re.S)}


def test_chgk_points_reach_the_projector_only_when_the_answer_is_shown(chgk, fake_clock,
                                                                       english):
    tokens = {name: chgk.join(name) for name in ("Сова", "Ёж", "Лис")}
    chgk.log_in()
    assert chgk.start(1, 1).status_code == 200
    assert chgk.save(tokens["Сова"], 1, 1, "Пушкин").status_code == 200
    assert chgk.save(tokens["Ёж"], 1, 1, "Пушкин").status_code == 200
    fake_clock.advance(71)
    page = _screen(chgk)
    assert re.search(r'class="huge clock"[^>]*>[^<]+</p>', page)  # time is up
    assert 'class="now open"' not in page  # and not "answers are open" beside it
    assert set(_ranks(page).values()) == {("1=", "0")}, "points before the reveal"
    assert 'id="screen-answer"' not in page and "Пушкин" not in page
    # The desk already counts them (the host judges), and offers the reveal.
    desk = chgk.client.get(f"/host/{chgk.code}/chgk").get_data(as_text=True)
    assert "Show the answer to the room" in desk
    # A question still running cannot be shown.
    fake_clock.advance(1)
    assert chgk.start(1, 2).status_code == 200
    early = chgk.client.post(f"/host/{chgk.code}/chgk/1/reveal", data={"question": "2"})
    assert early.status_code == 409
    assert chgk.client.post(f"/host/{chgk.code}/chgk/1/reveal",
                            data={"question": "1"}).status_code == 302
    page = _screen(chgk)
    assert _ranks(page) == {"Сова": ("1=", "1"), "Ёж": ("1=", "1"), "Лис": ("3", "0")}
    assert "1" in re.search(r'id="screen-ranked">([^<]*)<', page).group(1)
    # The desk's game ranking shows the tie the same way.
    desk = chgk.client.get(f"/host/{chgk.code}/chgk").get_data(as_text=True)
    game1 = desk.split('id="game-1"')[1].split("</section>")[0]
    assert re.findall(r"<tr><td>(\d+=?)</td><td>([^<]+)</td>", game1) == [
        ("1=", "Ёж"), ("1=", "Сова"), ("3", "Лис")]
    # The phones see the answer and their verdict once shown, not before.
    sheet = chgk.sheet(tokens["Сова"]).get_json()
    q1 = next(q for q in sheet["rounds"][0]["questions"] if q["number"] == 1)
    assert q1["verdict"] == "correct" and "Пушкин" in q1["correct_answer"]


def test_chgk_the_shown_answer_is_on_the_projector(chgk, fake_clock, english):
    chgk.join("Сова")
    chgk.log_in()
    chgk.start(1, 3)
    fake_clock.advance(71)
    chgk.client.post(f"/host/{chgk.code}/chgk/1/reveal", data={"question": "3"})
    page = _screen(chgk)
    assert re.search(r'id="screen-answer">[^<]*<strong>Гоголь\.</strong>', page)
    assert "The answer is shown to the room." in chgk.client.get(
        f"/host/{chgk.code}/chgk").get_data(as_text=True)


def test_chgk_the_phone_shows_the_answer_as_the_room_sees_it(app, chgk, fake_clock, english):
    """A duplet's answer is shown to the room as the pack writes it, numbered parts and
    all (CHGK-1.3); the phones show the same words, not the checker's key (the parts
    joined by "; "), so a player reads on the phone what the projector says."""
    from answerdesk.core.events import event_by_code
    from answerdesk.extensions import db

    written = '1. "... мотоциклу...". 2. "... доски...".'
    with app.app_context():
        question = event_by_code(chgk.code).round(1).questions[0]
        question.details = {**(question.details or {}), "answer": written}
        question.key = {"accept": ['"... мотоциклу..."; "... доски..."'], "reject": []}
        db.session.commit()
    token = chgk.join("Сова")
    chgk.log_in()
    assert chgk.start(1, 1).status_code == 200
    fake_clock.advance(71)
    assert chgk.client.post(f"/host/{chgk.code}/chgk/1/reveal",
                            data={"question": "1"}).status_code == 302
    page = _screen(chgk)
    shown = re.search(r'id="screen-answer">[^<]*<strong>([^<]*)</strong>', page).group(1)
    sheet = chgk.sheet(token).get_json()
    q1 = next(q for q in sheet["rounds"][0]["questions"] if q["number"] == 1)
    assert q1["correct_answer"] == written
    assert shown.replace("&#34;", '"') == written

