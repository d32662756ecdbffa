"""The projector shows only what the host has revealed (BG-E3), one thing at a time.

After each close and before each reveal, every projector view is read: no
points, verdicts or answers of the closed round may be on it; after the reveal
the standings carry them.
"""

from __future__ import annotations

import re

from answerdesk.extensions import db
from answerdesk.models import Question, Round

VIEWS = ("auto", "standings", "locked", "intro", "question")


def login(desk) -> None:
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})


def keys_of(app, number: int) -> list[list[str]]:
    """Each question's accepted answers, in order (what the room must not see early);
    the first is the one the phones type, the others those not in any question's text."""
    with app.app_context():
        rows = db.session.scalars(
            db.select(Question).join(Round, Question.round_id == Round.id)
            .where(Round.number == number).order_by(Question.number)).all()
        texts = " ".join(q.text for q in rows)
        listed = [q.key if isinstance(q.key, list) else [] for q in rows]
        return [[(keys or [q.shown_answer])[0],
                 *[k for k in [q.shown_answer, *keys]
                   if isinstance(k, str) and len(k) >= 4 and k not in texts]]
                for q, keys in zip(rows, listed, strict=True)]


def screen(desk, view: str, number: int | None) -> str:
    desk.client.post(f"/host/{desk.code}/projector",
                     data={"view": view, "round": "" if number is None else number})
    return desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)


def points_on(html: str) -> dict[str, str]:
    """Team name → points, as the projector's standings show them."""
    return dict(re.findall(
        r'<span class="name">([^<]*)</span>.*?<span class="pts">([^<]*)</span>', html, re.S))


def full_points(desk) -> dict[str, str]:
    return {r["team"]: f"{r['points']:g}" for r in desk.standings()}


def assert_nothing_unrevealed(desk, number: int, keys: list[list[str]], shown: dict,
                              typed: str) -> None:
    for view in VIEWS:
        html = screen(desk, view, number)
        where = f"view {view} after closing round {number}"
        assert typed not in html, where
        for accepted in keys:
            for key in accepted[1:]:
                assert key not in html, f"{where}: the key {key!r} is shown"
        assert 'class="a"' not in html, where
        on_screen = points_on(html)
        if view in ("auto", "standings"):
            assert on_screen == shown, where
        for verdict in ("вярно", "грешно", "correct", "wrong"):
            assert f'class="verdict {verdict}' not in html, where


def test_bg_e3_projector_shows_no_points_before_the_reveal(desk, app):
    login(desk)
    tokens = {name: desk.join(name) for name in ("Сови", "Лисици", "Ежове")}
    shown = {name: "0" for name in tokens}
    for number in (1, 2, 3, 4):
        keys = keys_of(app, number)
        desk.client.post(f"/host/{desk.code}/rounds/{number}/open")
        for q, accepted in enumerate(keys, start=1):
            desk.save(tokens["Сови"], number, q, accepted[0])
            desk.save(tokens["Лисици"], number, q, "Бъркотия-хикс")
        desk.client.post(f"/host/{desk.code}/rounds/{number}/close")
        assert full_points(desk) != shown  # the round scored: something could leak
        assert_nothing_unrevealed(desk, number, keys, shown, "Бъркотия-хикс")
        desk.client.post(f"/host/{desk.code}/rounds/{number}/reveal")
        shown = full_points(desk)
        html = screen(desk, "standings", None)
        assert points_on(html) == shown

    # BG-R6.1: each final question is revealed on its own.
    keys = keys_of(app, 6)
    for q, accepted in enumerate(keys, start=1):
        desk.client.post(f"/host/{desk.code}/rules/final/{q}/open")
        html = screen(desk, "auto", None)
        assert 'id="screen-final"' in html
        assert 'class="now open"' not in html  # one thing at a time: the question only
        saved = desk.save(tokens["Сови"], 6, q, accepted[0])
        assert saved.status_code == 200, saved.get_json()
        desk.client.post(f"/host/{desk.code}/rules/final/{q}/lock")
        assert full_points(desk) != shown
        html = screen(desk, "auto", None)
        assert accepted[0] not in html and points_on(html) == {}  # the question alone
        html = screen(desk, "standings", None)
        assert points_on(html) == shown, f"standings after locking final question {q}"
        assert accepted[0] not in html
        desk.client.post(f"/host/{desk.code}/rules/final/{q}/reveal")
        shown = full_points(desk)
        assert accepted[0] in screen(desk, "auto", None)
        assert points_on(screen(desk, "standings", None)) == shown


def test_projector_follows_the_host_from_pictures_to_the_answers(desk, app):
    """After R3's pictures, "reveal the answers of round 3" puts the answers up at once;
    opening the next round then shows that round, not the old reveal."""
    login(desk)
    keys = keys_of(app, 3)
    desk.client.post(f"/host/{desk.code}/rounds/3/open")
    desk.client.post(f"/host/{desk.code}/projector", data={"view": "question", "round": 3})
    desk.client.post(f"/host/{desk.code}/projector",
                     data={"view": "question", "round": 3, "step": 1})
    assert 'id="screen-question"' in desk.client.get(f"/e/{desk.code}/screen/live").get_data(
        as_text=True)
    desk.client.post(f"/host/{desk.code}/rounds/3/close")
    desk.client.post(f"/host/{desk.code}/rounds/3/reveal")
    html = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert 'id="screen-question"' not in html and "view-reveal" in html
    assert keys[0][0] in html and keys[1][0] not in html  # the host steps through
    desk_page = desk.client.get(f"/host/{desk.code}/").get_data(as_text=True)
    assert 'id="now-reveal-steps"' in desk_page
    for _ in keys[1:]:
        stepped = desk.client.post(f"/host/{desk.code}/projector", data={
            "view": "reveal", "round": 3, "step": 1, "back": "desk"})
        assert stepped.headers["Location"].endswith(f"/host/{desk.code}/")
    html = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert all(accepted[0] in html for accepted in keys)
    desk.client.post(f"/host/{desk.code}/projector", data={"view": "standings"})
    desk.client.post(f"/host/{desk.code}/rounds/4/open")
    html = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert 'class="now open"' in html and "view-auto" in html


R1_PACK = """answerdesk_pack: 1
title: "Реки"
rounds:
  - number: 1
    questions:
      - text: "Коя река минава през Пловдив?"
        options: {А: "Искър", Б: "Марица", В: "Тунджа", Г: "Янтра"}
        key: ["Б"]
      - text: "Вярно или невярно: Дунав е най-дългата река в Европа."
        key: ["невярно"]
"""


def test_bg_r1_options_on_the_phone_and_the_projector(desk, app):
    """A pack's options (docs/packs.md) reach the phone's buttons and the projector's
    question view (BG-R1); the key stays hidden on both."""
    from answerdesk.core.events import event_by_code
    from answerdesk.packs import parse_pack
    from answerdesk.packs.importer import import_pack

    with app.app_context():
        import_pack(event_by_code(desk.code), parse_pack(R1_PACK.encode(), "r1.yaml"),
                    actor="test")
        db.session.commit()
    login(desk)
    token = desk.join("Сови")
    desk.client.post(f"/host/{desk.code}/rounds/1/open")
    r1 = next(r for r in desk.sheet(token).get_json()["rounds"] if r["number"] == 1)
    choice = next(q for q in r1["questions"] if q["number"] == 1)
    assert choice["widget"]["options"] == ["А", "Б", "В", "Г"]
    assert choice["widget"]["texts"] == {"А": "Искър", "Б": "Марица", "В": "Тунджа",
                                         "Г": "Янтра"}
    assert "texts" not in next(q for q in r1["questions"] if q["number"] == 2)["widget"]
    html = screen(desk, "question", 1)
    assert 'id="screen-options"' in html
    for letter, text in (("А", "Искър"), ("Б", "Марица"), ("В", "Тунджа"), ("Г", "Янтра")):
        assert f"<strong>{letter})</strong> {text}" in html
    assert "correct" not in html and 'class="a"' not in html
    desk.client.post(f"/host/{desk.code}/rounds/1/close")
    desk.client.post(f"/host/{desk.code}/rounds/1/reveal")
    html = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert '<strong class="a">Б) Марица</strong>' in html  # the revealed choice, in words
