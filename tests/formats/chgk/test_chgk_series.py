"""Issue 34: series points are right across evenings (CHGK-2.4): a game not played
gives nothing, on the desk, in the API and in the season's table."""

from __future__ import annotations

from answerdesk.core.events import event_by_code
from answerdesk.formats.chgk import game


def test_chgk_2_4_a_game_not_started_gives_no_series_points(chgk, app, fake_clock):
    tokens = {name: chgk.join(name) for name in ("Сова", "Ёж", "Лис")}
    chgk.log_in()
    assert chgk.start(1, 1).status_code == 200
    assert chgk.save(tokens["Сова"], 1, 1, "Пушкин").status_code == 200
    fake_clock.advance(71)
    assert chgk.client.post(f"/host/{chgk.code}/rounds/1/close").status_code == 302

    data = chgk.client.get(f"/api/events/{chgk.code}/chgk/standings").get_json()
    first = {r["team"]: r["series"] for r in data["games"]["1"]["standings"]}
    assert first == {"Сова": 7, "Ёж": 5, "Лис": 5}  # CHGK-2.4: 1st 7, shared 2nd 5 each
    second = data["games"]["2"]["standings"]
    assert {r["team"]: r["series"] for r in second} == {"Сова": 0, "Ёж": 0, "Лис": 0}
    assert not any(r["played"] for r in second)
    # The evening sums the places of the games played (CHGK-2.6): game 1's only.
    assert {r["team"]: r["place_sum"] for r in data["evening"]} == {"Сова": 1, "Ёж": 2, "Лис": 2}

    with app.app_context():
        table = game.season_table(event_by_code(chgk.code).date)
        points = {row.team: row.points for rows in table.leagues.values() for row in rows}
    assert points == {"Сова": 7, "Ёж": 5, "Лис": 5}


def test_chgk_2_4_desk_says_a_game_not_started_gives_nothing(chgk):
    chgk.join("Сова")
    chgk.log_in()
    page = chgk.client.get(f"/host/{chgk.code}/chgk?lang=ru").get_data(as_text=True)
    assert page.count('class="muted not-played"') == 2
    assert "очков серии не даёт" in page
