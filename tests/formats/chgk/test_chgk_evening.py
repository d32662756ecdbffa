"""A whole ЧГК evening end to end through the Flask test client (RULES.md CHGK-1.1 … 4.7).

Two games of 11 drawn sectors each, on the question clock (60 s + 10 s, CHGK-1.1,
on a clock the test moves: conftest.fake_clock);
four teams; the Central Table with a Decisive Round, a wrong answer and a
voluntary leave; auctions with burned bids, a tie drawn by the top and refused
bids; the review queue with identical answers grouped; the game rankings' and
the evening's tie-breaks; series points per league.
"""

from __future__ import annotations

from collections.abc import Callable

from answerdesk.core import review
from answerdesk.core.events import event_by_code

SECONDS, GRACE = 60, 10


def _host(chgk):
    return chgk.host_headers()


def _post(chgk, path: str, body=None):
    return chgk.client.post(f"/api/host/events/{chgk.code}/chgk/{path}", json=body,
                            headers=_host(chgk))


def _table(chgk, game: int, team: str, action: str, question: int | None = None,
           correct: bool | None = None):
    return _post(chgk, f"games/{game}/table",
                 {"team": team, "action": action, "question": question, "correct": correct})


def _play_game(chgk, clock, game: int, tokens: dict[str, str],
               correct: Callable[[str, int], bool], table: Callable[[int], tuple | None],
               after: dict[int, Callable[[], None]], wrong: dict[int, set[str]]) -> list[int]:
    """Draw, start, answer and lock 11 questions: ``correct(team, i)`` whether the team
    writes the right answer to the i-th, ``table(i)`` the Central Table's record for
    it, ``after[i]`` what the host does after its lock, ``wrong[i]`` who writes "Дантес"."""
    sectors = []
    for i in range(11):
        drawn = _post(chgk, f"games/{game}/draw")
        assert drawn.status_code == 200, drawn.get_json()
        sector = drawn.get_json()["sector"]
        assert sector not in sectors  # CHGK-1.6: a played sector passes to the next one
        sectors.append(sector)
        started = chgk.start(game, sector)
        assert started.status_code == 200, started.get_json()
        assert (started.get_json()["seconds"], started.get_json()["grace"]) == (SECONDS, GRACE)
        clock.advance(SECONDS - 5)  # CHGK-1.5: answers come early, or late in the minute
        for name, token in tokens.items():
            if correct(name, i):
                text = chgk.answers[game][sector - 1]
            elif name in wrong.get(i, set()):
                text = "Дантес"
            else:
                continue
            assert chgk.save(token, game, sector, text).status_code == 200
        if (record := table(i)) is not None:
            resp = _table(chgk, game, record[0], record[1], sector, record[2])
            assert resp.status_code == 200, resp.get_json()
        clock.advance(GRACE + 5)  # the 10 s to hand in are over
        late = chgk.save(tokens["Альфа"], game, sector, "поздно")
        assert late.status_code == 409  # CHGK-1.1: nobody closed it
        if i in after:
            after[i]()
    # CHGK-1.6: a twelfth spin is refused; the unplayed sector never counted.
    assert _post(chgk, f"games/{game}/draw").status_code == 409
    assert len(set(sectors)) == 11
    return sectors


def test_chgk_whole_evening_two_games_table_auction_tie_breaks(chgk, app, fake_clock):
    chgk.log_in()  # the host's session: the API takes it instead of the password on each call
    tokens = {name: chgk.join(name, players) for name, players in
              (("Альфа", 3), ("Бета", 6), ("Гамма", 4), ("Дельта", 5))}
    for name, league in (("Альфа", "favourites"), ("Бета", "favourites"),
                         ("Гамма", "contenders"), ("Дельта", "contenders")):
        resp = chgk.client.put(f"/api/host/events/{chgk.code}/chgk/leagues",
                               json={"team": name, "league": league}, headers=_host(chgk))
        assert resp.status_code == 200

    # ---- game 1 -------------------------------------------------------------
    # CHGK-4.3: an auction before round 1; CHGK-4.4 refusals change nothing.
    assert _post(chgk, "games/1/auction", {"bids": {"Гамма": 101}}).status_code == 400
    assert _post(chgk, "games/1/auction", {"bids": {"Омега": 5}}).status_code == 400
    resp = _post(chgk, "games/1/auction", {"bids": {"Альфа": 30, "Бета": 50}})
    assert resp.get_json()["winner"] == "Бета" and resp.get_json()["seed"] is None
    # CHGK-3.1: a Central Table action for the wrong team is refused.
    assert _table(chgk, 1, "Гамма", "leave").status_code == 409

    roles: dict[str, str] = {}

    def tie_auction():
        # CHGK-4.5: equal highest bids → the spinning top decides, recorded.
        resp = _post(chgk, "games/1/auction", {"bids": {"Гамма": 60, "Дельта": 60}})
        body = resp.get_json()
        assert resp.status_code == 200 and sorted(body["tied"]) == ["Гамма", "Дельта"]
        assert body["seed"] and body["winner"] in ("Гамма", "Дельта")
        roles["W"] = body["winner"]
        roles["L"] = "Дельта" if body["winner"] == "Гамма" else "Гамма"

    def second_auction():
        # Альфа: 100 − 30 + 10 × 5 correct = 120 credits: a bid of 121 is refused.
        assert _post(chgk, "games/1/auction", {"bids": {"Альфа": 121}}).status_code == 400
        assert _post(chgk, "games/1/auction", {"bids": {"Альфа": 20}}).get_json()["winner"] \
            == "Альфа"

    def empty_auction():
        assert _post(chgk, "games/1/auction", {"bids": {}}).get_json()["winner"] is None

    def table1(i: int) -> tuple | None:
        records = {0: ("Бета", "answer", True), 1: ("Бета", "answer", True),
                   2: ("Бета", "decisive", True),  # CHGK-3.4: right → table points doubled
                   3: (roles.get("W"), "answer", True),
                   4: (roles.get("W"), "answer", False),  # CHGK-3.2: back to the hall
                   5: ("Альфа", "answer", True)}
        return records.get(i)

    def leave():
        assert _table(chgk, 1, "Альфа", "leave").status_code == 200  # CHGK-3.3
        empty_auction()

    def correct1(name: str, i: int) -> bool:
        # W and L are known only after question 2's auction: until then they answer alike.
        sets = {"Альфа": {0, 1, 2, 3, 4, 6, 7}, "Бета": {3, 4, 5, 6},
                roles.get("W", "W"): {0, 1, 2, 5, 6, 7, 8},
                roles.get("L", "L"): set(range(8))}
        return i in sets.get(name, {0, 1, 2})

    def check_review():
        # CHGK-1.3: an answer the key neither accepts nor rejects goes to the host;
        # identical answers of two teams make one item, judged once.
        with app.app_context():
            items = [i for i in review.review_queue(event_by_code(chgk.code))
                     if i.text == "Дантес"]
            assert len(items) == 1 and sorted(items[0].teams) == ["Альфа", "Бета"]
            ids = ",".join(str(v) for v in items[0].verdict_ids)
        resp = chgk.client.post(f"/host/{chgk.code}/review",
                                data={"verdicts": ids, "decision": "wrong"},
                                headers={"Accept": "application/json"})
        assert resp.get_json()["decided"] == 2

    _play_game(chgk, fake_clock, 1, tokens, correct1, table1,
               {2: tie_auction, 4: second_auction, 5: leave, 8: check_review},
               {8: {"Альфа", "Бета"}})
    assert chgk.client.post(f"/api/host/events/{chgk.code}/rounds/1/close",
                            headers=_host(chgk)).status_code == 200

    standings = chgk.client.get(f"/api/events/{chgk.code}/chgk/standings").get_json()
    game1 = {r["team"]: r for r in standings["games"]["1"]["standings"]}
    W, L = roles["W"], roles["L"]
    # All four have 8 points; CHGK-2.5 (I) table points: Бета 4 (2 doubled), then
    # (II) table rounds: W 2 rounds, Альфа 1 round, both with 1 table point; L none.
    assert {n: r["points"] for n, r in game1.items()} == {"Альфа": 8, "Бета": 8, W: 8, L: 8}
    assert [(game1[n]["place"], game1[n]["table_points"], game1[n]["table_rounds"])
            for n in ("Бета", W, "Альфа", L)] == [(1, 4, 3), (2, 1, 2), (3, 1, 1), (4, 0, 0)]
    # CHGK-2.4 per league, + series kept at the table (Бета 2 after the Decisive
    # Round, Альфа 1 after leaving, W lost its stay's series with the wrong answer).
    assert {n: r["series"] for n, r in game1.items()} == {"Бета": 9, "Альфа": 6, W: 7, L: 5}
    # CHGK-4.1/4.2/4.5: credits left = 100 + 10 per correct answer − bids burned.
    assert game1["Бета"]["credits"] == 100 + 10 * (3 + 4) - 50
    assert game1["Альфа"]["credits"] == 100 + 10 * (1 + 7) - 30 - 20
    assert game1[W]["credits"] == 100 + 10 * (1 + 7) - 60
    assert game1[L]["credits"] == 100 + 10 * 8 - 60

    # ---- game 2 -------------------------------------------------------------
    # CHGK-3.6: in the second game only Favourites sit: a Contender's bid is refused.
    assert _post(chgk, "games/2/auction", {"bids": {"Гамма": 10}}).status_code == 400
    assert _post(chgk, "games/2/auction", {"bids": {"Альфа": 10}}).get_json()["winner"] \
        == "Альфа"
    table2 = {0: ("Альфа", "answer", True), 1: ("Альфа", "answer", True)}.get

    def leave2():
        assert _table(chgk, 2, "Альфа", "leave").status_code == 200
        assert _post(chgk, "games/2/auction", {"bids": {}}).status_code == 200

    hall2 = {"Альфа": {2, 3, 4, 5, 6, 7}, "Бета": {0, 1, 2, 3, 4},
             W: {0, 1, 2, 3, 4, 5}, L: set(range(10))}
    _play_game(chgk, fake_clock, 2, tokens, lambda name, i: i in hall2[name], table2,
               {1: leave2}, {})
    assert chgk.client.post(f"/api/host/events/{chgk.code}/rounds/2/close",
                            headers=_host(chgk)).status_code == 200

    standings = chgk.client.get(f"/api/events/{chgk.code}/chgk/standings").get_json()
    game2 = {r["team"]: r for r in standings["games"]["2"]["standings"]}
    assert [(n, game2[n]["place"], game2[n]["points"]) for n in (L, "Альфа", W, "Бета")] == [
        (L, 1, 10), ("Альфа", 2, 8), (W, 3, 6), ("Бета", 4, 5)]
    assert {n: r["series"] for n, r in game2.items()} == {"Альфа": 9, "Бета": 5, L: 7, W: 5}
    assert len(standings["games"]["2"]["sectors"]) == 11
    # CHGK-2.6/2.7: every team's places sum to 5; (I) Central Table points decide:
    # Бета 4, Альфа 1 + 2, W 1, L 0.
    evening = standings["evening"]
    assert [(r["team"], r["place"], r["place_sum"], r["tie_break"]) for r in evening] == [
        ("Бета", 1, 5, "I"), ("Альфа", 2, 5, "I"), (W, 3, 5, "I"), (L, 4, 5, "I")]
    # Per league: Favourites Альфа (3+2) vs Бета (1+2 places within the league).
    favourites = [r["team"] for r in standings["leagues"]["favourites"]]
    assert sorted(favourites) == ["Альфа", "Бета"]
    assert standings["lot_seed"]
