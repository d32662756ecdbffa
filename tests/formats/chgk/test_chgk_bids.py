"""Issue 34: sealed auction bids from the phones (CHGK-4.4), paper bids typed at the
desk, all opened at once; game 2 refuses a Contender's bid (CHGK-3.6) on the phone and
on the desk, keeping what was typed."""

from __future__ import annotations

import re

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.chgk.models import ChgkAction


def _ids(app, chgk) -> dict[str, int]:
    with app.app_context():
        return {t.name: t.id for t in event_by_code(chgk.code).teams}


def _bid(chgk, token: str, bid):
    return chgk.client.put(f"/api/events/{chgk.code}/chgk/bid", json={"bid": bid},
                           headers={"Authorization": f"Bearer {token}"})


def _status(chgk, token: str) -> dict:
    return chgk.client.get(f"/api/events/{chgk.code}/chgk/auction",
                           headers={"Authorization": f"Bearer {token}"}).get_json()


def _auctions(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(ChgkAction.id))
                                 .where(ChgkAction.kind == "auction"))


def test_chgk_4_4_phones_hand_in_sealed_bids_the_desk_opens_them_with_paper_bids(
        chgk, app, english):
    tokens = {name: chgk.join(name) for name in ("Сова", "Ёж", "Лис")}
    chgk.log_in()
    assert _status(chgk, tokens["Сова"]) == {
        "game": 1, "open": True, "reason": None, "credits": 100, "bid": None,
        "league": "contenders"}
    refused = _bid(chgk, tokens["Сова"], 150)
    assert refused.status_code == 400
    assert refused.get_json()["message"] == "The bid of Сова must be from 1 to 100 credits."
    assert _bid(chgk, tokens["Сова"], 20).status_code == 200
    changed = _bid(chgk, tokens["Сова"], 30)  # a new bid replaces the earlier one
    assert changed.status_code == 200 and changed.get_json()["bid"] == 30
    assert _bid(chgk, tokens["Ёж"], 20).status_code == 200
    # The desk sees who has bid, not how much; Лис bids on paper.
    desk = chgk.client.get(f"/host/{chgk.code}/chgk").get_data(as_text=True)
    rows = dict(re.findall(r'<tr data-team="([^"]+)">.*?<td class="phone-bid">([^<]*)</td>',
                           desk, re.S))
    assert "sealed bid handed in" in rows["Сова"] and "sealed bid handed in" in rows["Ёж"]
    assert rows["Лис"] == "—" and "(2 from phones)" in desk
    ids = _ids(app, chgk)
    resp = chgk.client.post(f"/host/{chgk.code}/chgk/1/auction", data={f"bid-{ids['Лис']}": "25"})
    assert resp.status_code == 302
    data = chgk.client.get(f"/api/events/{chgk.code}/chgk/standings").get_json()
    assert data["games"]["1"]["auctions"][0]["names"] == {"Сова": 30, "Ёж": 20, "Лис": 25}
    assert data["games"]["1"]["table"] == "Сова"
    credits = {r["team"]: r["credits"] for r in data["games"]["1"]["standings"]}
    assert credits == {"Сова": 70, "Ёж": 80, "Лис": 75}  # CHGK-4.5: every bid burns
    assert _status(chgk, tokens["Сова"])["reason"] == "seated"
    assert _status(chgk, tokens["Ёж"]) == {
        "game": 1, "open": False, "reason": "taken", "credits": 80, "bid": None,
        "league": "contenders"}
    assert _bid(chgk, tokens["Ёж"], 10).status_code == 409
    # The phone page carries the auction's box and its translated words.
    page = chgk.client.get(f"/e/{chgk.code}/sheet?lang=ru").get_data(as_text=True)
    assert "chgk_phone.js" in page and 'id="sheet"' in page
    assert "Сделать ставку" in page and "Ваши кредиты" in page


def test_chgk_3_6_game_two_refuses_a_contenders_bid_and_keeps_the_typed_bids(
        chgk, app, fake_clock, english):
    tokens = {name: chgk.join(name) for name in ("Сова", "Ёж", "Лис")}
    chgk.log_in()
    ids = _ids(app, chgk)
    chgk.client.post(f"/host/{chgk.code}/chgk/leagues",
                     data={f"league-{ids['Сова']}": "favourites",
                           f"league-{ids['Лис']}": "favourites"})
    assert chgk.start(1, 1).status_code == 200
    fake_clock.advance(71)
    assert chgk.client.post(f"/host/{chgk.code}/rounds/1/close").status_code == 302
    # Game 2: the Contender's phone may not bid, and says why.
    assert _status(chgk, tokens["Ёж"])["reason"] == "contender"
    refused = _bid(chgk, tokens["Ёж"], 10)
    assert refused.status_code == 400
    assert "only Favourites" in refused.get_json()["message"]
    assert _bid(chgk, tokens["Лис"], 15).status_code == 200
    desk = chgk.client.get(f"/host/{chgk.code}/chgk").get_data(as_text=True)
    game2 = desk.split('id="game-2"')[1]
    assert f'name="bid-{ids["Ёж"]}"' not in game2
    assert "Contenders do not bid in game 2 (CHGK-3.6)" in game2
    # A form that still carries the Contender's bid: refused on the desk page itself,
    # translated, with the bids typed kept and nothing recorded.
    resp = chgk.client.post(f"/host/{chgk.code}/chgk/2/auction",
                            data={f"bid-{ids['Сова']}": "40", f"bid-{ids['Ёж']}": "5"},
                            headers={"Accept-Language": "ru"})
    assert resp.status_code == 400
    page = resp.get_data(as_text=True)
    refusal = re.search(r'id="auction-refused">([^<]*)<', page).group(1)
    assert "только Фавориты" in refusal and "Ничего не записано" in refusal
    assert f'name="bid-{ids["Сова"]}" type="number" min="1" max="100" value="40"' in page
    assert _auctions(app) == 0
    # Corrected, the typed and the phone's bids open together.
    resp = chgk.client.post(f"/host/{chgk.code}/chgk/2/auction", data={f"bid-{ids['Сова']}": "40"})
    assert resp.status_code == 302
    data = chgk.client.get(f"/api/events/{chgk.code}/chgk/standings").get_json()
    assert data["games"]["2"]["auctions"][0]["names"] == {"Лис": 15, "Сова": 40}


def test_chgk_audit_log_says_the_desk_records_in_the_readers_language(chgk, fake_clock):
    token = chgk.join("Сова")
    chgk.log_in()
    chgk.client.post(f"/host/{chgk.code}/chgk/1/draw")
    assert _bid(chgk, token, 10).status_code == 200
    chgk.start(1, 1)
    fake_clock.advance(71)
    chgk.client.post(f"/host/{chgk.code}/chgk/1/reveal", data={"question": "1"})
    log = chgk.client.get(f"/host/{chgk.code}/audit?lang=ru").get_data(as_text=True)
    assert "ЧГК: раскручен волчок (G1)" in log
    assert "ЧГК: сделана закрытая ставка (G1 Сова)" in log
    assert "ЧГК: ответ показан залу (G1 Q1)" in log
    assert ">chgk.bid<" not in log and "Final question" not in log
