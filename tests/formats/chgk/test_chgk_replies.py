"""ЧГК's replies are typed (issue 32, formats/chgk/replies.py): the phone's auction
status and bid (CHGK-4.4, CHGK-3.6), the host's league, draw, auction and Central Table
records (CHGK-2.2, CHGK-1.6, CHGK-4.3-4.5, CHGK-3.1-3.3) and the standings (CHGK-2.4-2.7)
fit their models strictly and the served OpenAPI document."""

from __future__ import annotations

from replycheck import fits, served_document

from answerdesk.formats.chgk.replies import (
    AuctionRun,
    AuctionStatus,
    ChgkSheet,
    ChgkStandings,
    GamePart,
    LeagueSet,
    SectorDrawn,
)

G = "/api/host/events/{code}/chgk/games/{number}/"


def test_the_auction_the_table_and_the_standings_fit(chgk, english):
    document = served_document(chgk.client)
    tokens = {name: chgk.join(name) for name in ("Сова", "Ёж", "Лис")}
    chgk.log_in()
    client, code = chgk.client, chgk.code

    def status(name: str) -> dict:
        got = client.get(f"/api/events/{code}/chgk/auction",
                         headers={"Authorization": f"Bearer {tokens[name]}"}).get_json()
        fits(document, "/api/events/{code}/chgk/auction", "get", "200", got, AuctionStatus)
        return got

    league = client.put(f"/api/host/events/{code}/chgk/leagues",
                        json={"team": "Лис", "league": "contenders"})
    fits(document, "/api/host/events/{code}/chgk/leagues", "put", "200", league.get_json(),
         LeagueSet)
    assert status("Сова")["open"] is True
    bid = client.put(f"/api/events/{code}/chgk/bid", json={"bid": 30},
                     headers={"Authorization": f"Bearer {tokens['Сова']}"})
    assert bid.status_code == 200 and bid.get_json()["bid"] == 30
    fits(document, "/api/events/{code}/chgk/bid", "put", "200", bid.get_json(), AuctionStatus)

    run = client.post(f"/api/host/events/{code}/chgk/games/1/auction",
                      json={"bids": {"Сова": 30, "Ёж": 30}})
    assert run.status_code == 200 and sorted(run.get_json()["tied"]) == ["Ёж", "Сова"]
    fits(document, G + "auction", "post", "200", run.get_json(), AuctionRun)
    winner = run.get_json()["winner"]
    assert status(winner)["reason"] == "seated"
    drawn = client.post(f"/api/host/events/{code}/chgk/games/1/draw")
    assert drawn.status_code == 200
    fits(document, G + "draw", "post", "200", drawn.get_json(), SectorDrawn)
    sector = drawn.get_json()["sector"]
    assert client.post(f"/api/host/events/{code}/rounds/1/open").status_code == 200
    assert chgk.start(1, sector).status_code == 200
    called = client.post(f"/api/host/events/{code}/chgk/games/1/table",
                         json={"team": winner, "action": "answer",
                               "question": sector, "correct": True})
    assert called.status_code == 200, called.get_json()
    fits(document, G + "table", "post", "200", called.get_json(), GamePart)

    standings = client.get(f"/api/events/{code}/chgk/standings").get_json()
    assert standings["games"]["1"]["auctions"][0]["winner"] == winner
    fits(document, "/api/events/{code}/chgk/standings", "get", "200", standings,
         ChgkStandings)


def test_the_sheet_with_its_started_questions_fits(chgk, fake_clock):
    """CHGK-1.1 on the phone: what sheet.decorate adds (a started question's clock, its
    state and answer card, no text; once revealed the answer and the verdict) is
    ChgkSheet's, and nothing else is."""
    document = served_document(chgk.client)
    token = chgk.join("Сова")
    chgk.log_in()

    def sheet() -> dict:
        got = chgk.sheet(token).get_json()
        fits(document, "/api/events/{code}/sheet", "get", "200", got, ChgkSheet)
        return got

    assert chgk.client.post(f"/api/host/events/{chgk.code}/rounds/1/open").status_code == 200
    assert sheet()["rounds"][0]["questions"] == []
    assert chgk.start(1, 1).status_code == 200
    assert chgk.save(token, 1, 1, "Пушкин").status_code == 200
    started = sheet()["rounds"][0]["questions"][0]
    assert (started["state"], started["text"], started["widget"]) == ("open", "", {"kind": "text"})
    assert started["clock"]["question"] == 1 and started["answer"]["text"] == "Пушкин"
    fake_clock.advance(71)
    chgk.client.post(f"/host/{chgk.code}/chgk/1/reveal", data={"question": "1"})
    revealed = sheet()["rounds"][0]["questions"][0]
    assert revealed["state"] == "revealed" and revealed["correct_answer"]
    assert revealed["verdict"] in ("correct", "wrong", "review")
