"""Issue 34: leagues last (CHGK-2.2): a team's league carries over from evening to
evening in the season, and the season's end moves the top 3 Contenders up and the
bottom 3 Favourites down; the evening's winners per league (CHGK-2.6, 2.7) and the
season page (CHGK-2.1-2.3)."""

from __future__ import annotations

import datetime as dt
import re

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.chgk import game

FAVOURITES = ["Ф1", "Ф2", "Ф3", "Ф4"]
CONTENDERS = ["П1", "П2", "П3", "П4"]


def _evening(app, make_chgk, day: dt.date):
    desk = make_chgk()
    with app.app_context():
        event_by_code(desk.code).date = day
        db.session.commit()
    desk.log_in()
    return desk


def _play_one_question(desk, tokens: dict[str, str], right: list[str], clock) -> None:
    """Game 1, question 1: the teams in ``right`` answer it; the game then ends."""
    assert desk.start(1, 1).status_code == 200
    for name in right:
        assert desk.save(tokens[name], 1, 1, "Пушкин").status_code == 200
    clock.advance(71)
    assert desk.client.post(f"/host/{desk.code}/rounds/1/close").status_code == 302


def _leagues(app, code: str) -> dict[str, str]:
    with app.app_context():
        event = event_by_code(code)
        lg = game.leagues(event)
        return {t.name: lg[t.id].value for t in event.teams}


def test_chgk_2_2_leagues_carry_over_and_the_season_end_exchanges_three(
        app, client, make_chgk, fake_clock, english):
    # Autumn 2026, evening 1: the host places the leagues.
    first = _evening(app, make_chgk, dt.date(2026, 10, 2))
    tokens = {name: first.join(name) for name in FAVOURITES + CONTENDERS}
    with app.app_context():
        ids = {t.name: t.id for t in event_by_code(first.code).teams}
    client.post(f"/host/{first.code}/chgk/leagues",
                data={f"league-{ids[n]}": "favourites" for n in FAVOURITES})
    # Ф1, П1, П2 and П3 answer right: they win their league's game.
    _play_one_question(first, tokens, ["Ф1", "П1", "П2", "П3"], fake_clock)

    # Evening 2 of the same season: nobody sets a league, each team keeps its own.
    second = _evening(app, make_chgk, dt.date(2026, 11, 6))
    for name in FAVOURITES + CONTENDERS + ["Новички"]:
        second.join(name)
    expected = {**dict.fromkeys(FAVOURITES, "favourites"),
                **dict.fromkeys(CONTENDERS, "contenders"), "Новички": "contenders"}
    assert _leagues(app, second.code) == expected
    desk = client.get(f"/host/{second.code}/chgk").get_data(as_text=True)
    desk = desk.split('id="leagues"')[1]
    row = re.search(r'<tr data-team="Ф2">.*?</tr>', desk, re.S).group(0)
    assert 'value="favourites" selected' in row
    assert "as at ЧГК вечер (2026-10-02)" in row

    # The season page: both leagues, the cup, the exchange, the evenings.
    page = client.get(f"/host/{second.code}/chgk/season").get_data(as_text=True)
    assert "Season autumn 2026" in page
    assert re.search(r'id="cup-winner">[^<]*<strong>Ф1</strong>', page)
    assert re.search(r'id="promoted">П1, П2, П3<', page)
    relegated = re.search(r'id="relegated">([^<]*)<', page).group(1).split(", ")
    assert len(relegated) == 3 and "Ф1" not in relegated
    evenings = re.findall(r'<tr data-code="(\w+)">', page)
    assert evenings == [first.code, second.code]
    ru = client.get(f"/host/{second.code}/chgk/season?lang=ru").get_data(as_text=True)
    assert "Сезон осень 2026" in ru and "Кубок Сезона" in ru and "autumn" not in ru

    # Winter 2026: the first evening starts every team in its league after the exchange.
    winter = _evening(app, make_chgk, dt.date(2026, 12, 4))
    for name in FAVOURITES + CONTENDERS:
        winter.join(name)
    after = _leagues(app, winter.code)
    assert {n for n, lg in after.items() if lg == "favourites"} == (
        {"Ф1", "П1", "П2", "П3"})
    desk = client.get(f"/host/{winter.code}/chgk").get_data(as_text=True)
    desk = desk.split('id="leagues"')[1]
    row = re.search(r'<tr data-team="П1">.*?</tr>', desk, re.S).group(0)
    assert "moved at the end of season autumn 2026" in row
    # The host may still change a team's league; that stands.
    with app.app_context():
        wid = {t.name: t.id for t in event_by_code(winter.code).teams}
    client.post(f"/host/{winter.code}/chgk/leagues", data={f"league-{wid['П1']}": "contenders"})
    assert _leagues(app, winter.code)["П1"] == "contenders"


def test_chgk_2_6_evening_winners_per_league_on_the_desk(chgk, app, fake_clock, english):
    tokens = {name: chgk.join(name) for name in ("Ф1", "Ф2", "П1", "П2")}
    chgk.log_in()
    with app.app_context():
        ids = {t.name: t.id for t in event_by_code(chgk.code).teams}
    chgk.client.post(f"/host/{chgk.code}/chgk/leagues",
                     data={f"league-{ids['Ф1']}": "favourites",
                           f"league-{ids['Ф2']}": "favourites"})
    _play_one_question(chgk, tokens, ["Ф2", "П1"], fake_clock)
    page = chgk.client.get(f"/host/{chgk.code}/chgk").get_data(as_text=True)
    assert re.search(r'id="winners-favourites">[^<]*<strong class="winner">Ф2</strong>', page)
    assert re.search(r'id="winners-contenders">[^<]*<strong class="winner">П1</strong>', page)
    assert "V lot" in page
