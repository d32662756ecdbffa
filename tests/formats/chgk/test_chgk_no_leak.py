"""The ЧГК projector shows only what the host has shown the room (issue 34, BG-E3 as the
projector's rule, CHGK-1.1 for the clock): after each question locks and before its
answer is shown, every projector view is read: no points, verdicts, answers (the key,
its Зачёт, what the teams typed) of that question may be on it, neither in the
standings nor in the chart's data; once shown, the game's standings carry them. Both
games of an evening are played, then the evening's ranking (CHGK-2.6)."""

from __future__ import annotations

import html as htmllib
import json
import re

VIEWS = ("auto", "standings", "locked", "intro", "question", "reveal")
TYPED = {"Сова": None, "Ёж": "Шифровка-икс", "Лис": None}  # None: the key's answer


def _screen(chgk, view: str, number: int) -> str:
    chgk.client.post(f"/host/{chgk.code}/projector", data={"view": view, "round": number})
    resp = chgk.client.get(f"/e/{chgk.code}/screen/live")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def _points(page: str) -> dict[str, str]:
    return dict(re.findall(
        r'<span class="name">([^<]*)</span>.*?<span class="pts">([^<]*)</span>', page, re.S))


def _chart(page: str) -> dict[str, float]:
    """Team → its last point on the projector's chart (the chart's data attribute)."""
    found = re.search(r'data-chart="([^"]*)"', page)
    if not found:
        return {}
    data = json.loads(htmllib.unescape(found.group(1)))
    return {s["name"]: s["points"][-1] for s in data["series"] if s["points"]}


def _game_points(chgk, game: int) -> dict[str, str]:
    rows = chgk.client.get(f"/api/events/{chgk.code}/chgk/standings").get_json()
    return {r["team"]: f"{r['points']:g}" for r in rows["games"][str(game)]["standings"]}


def test_chgk_projector_shows_nothing_before_the_answer_is_shown(chgk, fake_clock, english):
    tokens = {name: chgk.join(name) for name in TYPED}
    chgk.log_in()
    shown = dict.fromkeys(TYPED, "0")
    for game in (1, 2):
        for q in (1, 2, 3):
            key = chgk.answers[game][q - 1]
            assert chgk.start(game, q).status_code == 200
            typed = {name: text or key for name, text in TYPED.items()}
            if q == 2:  # Лис says nothing this time
                typed.pop("Лис")
            for name, text in typed.items():
                assert chgk.save(tokens[name], game, q, text).status_code == 200
            fake_clock.advance(71)  # CHGK-1.1: the clock locks the question
            chgk.client.get(f"/host/{chgk.code}/chgk")  # the desk records the lock and checks
            assert _game_points(chgk, game) != shown, "the question scored: it could leak"
            for view in VIEWS:
                page = _screen(chgk, view, game)
                where = f"view {view}, game {game}, question {q} locked, not shown"
                assert key not in page and "Шифровка" not in page, where
                assert 'id="screen-answer"' not in page, where
                assert _points(page) in ({}, shown), where
                chart = _chart(page)
                assert all(f"{chart[t]:g}" == shown[t] for t in chart), where
                for verdict in ("correct", "wrong", "верно", "неверно"):
                    assert f'class="verdict {verdict}' not in page, where
            # The phones learn nothing either until the answer is shown.
            sheet = chgk.sheet(tokens["Сова"]).get_json()
            card = next(c for r in sheet["rounds"] if r["number"] == game
                        for c in r["questions"] if c["number"] == q)
            assert not card.get("verdict") and not card.get("correct_answer")
            reveal = chgk.client.post(f"/host/{chgk.code}/chgk/{game}/reveal",
                                      data={"question": str(q)})
            assert reveal.status_code == 302
            shown = _game_points(chgk, game)
            page = _screen(chgk, "auto", game)
            assert _points(page) == shown and key in page
            assert _points(_screen(chgk, "standings", game)) == shown
            fake_clock.advance(1)
        chgk.client.post(f"/host/{chgk.code}/chgk/{game}/end")
        shown = dict.fromkeys(TYPED, "0")
    # Both games over: the evening's ranking and its winners, from what was shown.
    page = _screen(chgk, "auto", 2)
    assert 'id="screen-winners"' in page
    assert set(_points(page)) == set(TYPED)
