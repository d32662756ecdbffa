"""The host's ЧГК desk through the Flask test client: spin, start, auction, table,
leagues, exports; BG-only pages (disputes, jokers) are not offered (CHGK-1.2)."""

from __future__ import annotations

import io
import re

from openpyxl import load_workbook

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.chgk import game
from answerdesk.formats.chgk.models import ChgkAction


def _login(chgk):
    resp = chgk.client.post(f"/host/{chgk.code}/login", data={"password": chgk.password})
    assert resp.status_code == 302


def _ids(app, chgk) -> dict[str, int]:
    with app.app_context():
        return {t.name: t.id for t in event_by_code(chgk.code).teams}


def _page(chgk) -> str:
    resp = chgk.client.get(f"/host/{chgk.code}/chgk")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def test_chgk_1_6_host_desk_spins_starts_and_records_the_table(chgk, app, english):
    teams = {name: chgk.join(name) for name in ("Сова", "Ёж", "Лис")}
    _login(chgk)
    page = _page(chgk)
    assert f"/host/{chgk.code}/chgk" in page
    assert f"/host/{chgk.code}/disputes" not in page and f"/host/{chgk.code}/rules" not in page
    assert chgk.client.post(f"/host/{chgk.code}/chgk/1/draw").status_code == 302
    page = _page(chgk)
    sector = int(re.search(r'name="sector" type="number" min="1" max="12" value="(\d+)"',
                           page).group(1))
    assert f"sector {sector} is played" in page
    resp = chgk.client.post(f"/host/{chgk.code}/chgk/1/start",
                            data={"sector": sector, "seconds": "30", "grace": "5"})
    assert resp.status_code == 302
    assert 'data-state="open"' in _page(chgk)
    assert chgk.save(teams["Ёж"], 1, sector, "Пушкин").status_code == 200
    # CHGK-4.4: a bid above the team's credits is refused, translated, nothing recorded.
    ids = _ids(app, chgk)
    resp = chgk.client.post(f"/host/{chgk.code}/chgk/1/auction",
                            data={f"bid-{ids['Сова']}": "150"}, headers={"Accept-Language": "ru"})
    assert resp.status_code == 400
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(ChgkAction.id))) == 1  # the spin
    resp = chgk.client.post(f"/host/{chgk.code}/chgk/1/auction",
                            data={f"bid-{ids['Сова']}": "40", f"bid-{ids['Лис']}": "20"})
    assert resp.status_code == 302
    assert '<strong class="seated">Сова</strong>' in _page(chgk)
    # CHGK-3.1: a Central Table verdict for a team not at the table is refused.
    wrong = chgk.client.post(f"/host/{chgk.code}/chgk/1/table",
                             data={"team": "Лис", "question": sector, "verdict": "answer-yes"})
    assert wrong.status_code == 409
    right = chgk.client.post(f"/host/{chgk.code}/chgk/1/table",
                             data={"team": "Сова", "question": sector, "verdict": "answer-yes"})
    assert right.status_code == 302
    page = _page(chgk)
    row = re.search(r"<td>Сова</td><td>[^<]*</td><td>(\d+)</td>\s*<td>(\d+)</td><td>(\d+)</td>",
                    page)
    assert row.groups() == ("1", "1", "1")
    assert chgk.client.post(f"/host/{chgk.code}/chgk/1/table",
                            data={"team": "Сова", "verdict": "leave"}).status_code == 302
    assert "The table is free" in _page(chgk)


def test_chgk_2_2_leagues_and_exports(chgk, app):
    chgk.join("Сова")
    chgk.join("Ёж")
    _login(chgk)
    ids = _ids(app, chgk)
    resp = chgk.client.post(f"/host/{chgk.code}/chgk/leagues",
                            data={f"league-{ids['Сова']}": "favourites"})
    assert resp.status_code == 302
    csv = chgk.client.get(f"/host/{chgk.code}/chgk/export/evening.csv?lang=en")
    assert csv.status_code == 200
    text = csv.get_data().decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Place,Team,League")
    assert "Сова,Favourites" in text and "Ёж,Contenders" in text
    xlsx = chgk.client.get(f"/host/{chgk.code}/chgk/export/season.xlsx?lang=en")
    sheet = load_workbook(io.BytesIO(xlsx.get_data())).active
    assert [c.value for c in sheet[1]][:4] == ["League", "Place", "Team", "Series points"]
    assert chgk.client.get(f"/host/{chgk.code}/chgk/export/other.csv").status_code == 404


def test_chgk_1_2_no_appeals_and_no_bg_jokers(chgk):
    token = chgk.join("Сова")
    _login(chgk)
    assert chgk.client.get(f"/host/{chgk.code}/disputes").status_code == 409
    chgk.start(1, 1)
    resp = chgk.client.post(f"/api/events/{chgk.code}/jokers",
                            json={"kind": "copy", "round": 1, "question": 1, "copy_of": "x"},
                            headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 409
    assert not chgk.sheet(token).get_json()["play"].get("jokers")


def test_chgk_1_2_appeals_only_when_the_event_allows_them(chgk, app):
    _login(chgk)
    settings = f"/host/{chgk.code}/settings"
    assert chgk.client.post(settings, data={"appeals": "maybe"}).status_code == 400
    with app.app_context():
        assert event_by_code(chgk.code).appeals is None
    assert chgk.client.get(f"/host/{chgk.code}/disputes").status_code == 409

    assert chgk.client.post(settings, data={"appeals": "yes"}).status_code == 302
    assert chgk.client.get(f"/host/{chgk.code}/disputes").status_code == 200
    assert f"/host/{chgk.code}/disputes" in _page(chgk)
    with app.app_context():
        assert event_by_code(chgk.code).appeals is True

    assert chgk.client.post(settings, data={"appeals": ""}).status_code == 302
    assert chgk.client.get(f"/host/{chgk.code}/disputes").status_code == 409


def test_chgk_1_6_projector_shows_question_clock_spin_and_table(chgk, app, english):
    chgk.join("Сова")
    _login(chgk)
    chgk.client.post(f"/host/{chgk.code}/chgk/1/draw")
    page = chgk.client.get(f"/e/{chgk.code}/screen").get_data(as_text=True)
    with app.app_context():
        draw = game.draws(event_by_code(chgk.code), 1)[-1].payload
    sector = draw["sector"]
    draw_line = re.search(r'id="screen-draw">([^<]*)<', page).group(1)
    assert str(draw["pointer"]) in draw_line and str(sector) in draw_line
    assert "data-locks-at" not in page
    chgk.start(1, sector)
    chgk.client.post(f"/host/{chgk.code}/chgk/1/auction",
                     data={f"bid-{_ids(app, chgk)['Сова']}": "10"})
    page = chgk.client.get(f"/e/{chgk.code}/screen/live").get_data(as_text=True)
    assert re.search(rf'<h2 class="huge">\w+ {sector}</h2>', page)
    assert 'data-locks-at="' in page
    assert re.search(r'id="screen-table">[^<]*<strong>Сова</strong>', page)


def test_chgk_1_7_teams_of_three_to_six_players(chgk, english):
    for players in (2, 7):
        resp = chgk.client.post(f"/api/events/{chgk.code}/teams",
                                json={"name": f"Команда {players}", "players": players})
        assert resp.status_code == 400
        assert resp.get_json()["message"] == "A team of this game has 3 to 6 players."
    assert chgk.join("Тройка", 3) and chgk.join("Шестёрка", 6)


def test_chgk_1_1_event_keeps_its_own_clock_set_on_the_desk(chgk, app):
    _login(chgk)
    assert chgk.client.post(f"/host/{chgk.code}/chgk/clock",
                            data={"seconds": "20", "grace": "5"}).status_code == 302
    assert 'name="seconds" type="number" min="0" value="20"' in _page(chgk)
    clock = chgk.start(1, 4).get_json()
    assert (clock["seconds"], clock["grace"]) == (20, 5)
    bad = chgk.client.post(f"/host/{chgk.code}/chgk/clock", data={"seconds": "0", "grace": "0"})
    assert bad.status_code == 400
    with app.app_context():
        event = event_by_code(chgk.code)
        assert (event.question_seconds, event.question_grace) == (20, 5)
