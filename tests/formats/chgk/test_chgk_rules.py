"""Pure ЧГК rules (RULES.md CHGK-1.6, 2.1-2.7, 3.1-3.6, 4.1-4.7): plain data, microseconds."""

from __future__ import annotations

import datetime as dt

import pytest

from answerdesk.errors import BidRefused, Conflict, DeskError, WrongTeam
from answerdesk.formats.chgk.rules import (
    CentralTable,
    GameResult,
    League,
    Season,
    SeriesEntry,
    auction,
    credits,
    draw_sector,
    evening_ranking,
    game_ranking,
    place_series_points,
    played_sector,
    season_of,
    season_table,
    series_points,
)

F, C = League.FAVOURITES, League.CONTENDERS


# ---------------------------------------------------------------- CHGK-1.6


def test_chgk_1_6_pointer_on_unplayed_sector_plays_it():
    assert played_sector(5, set()) == 5


def test_chgk_1_6_played_sector_passes_to_next_unplayed_clockwise():
    assert played_sector(5, {5, 6, 7}) == 8
    assert played_sector(12, {12, 1}) == 2  # clockwise wraps from 12 to 1


def test_chgk_1_6_a_game_plays_eleven_of_twelve_sectors_then_refuses():
    played: list[int] = []
    for i in range(11):
        played.append(draw_sector(played, seed=f"s{i}").sector)
    assert len(set(played)) == 11 and set(played) <= set(range(1, 13))
    with pytest.raises(Conflict):
        draw_sector(played, seed="twelfth")


def test_chgk_1_6_draw_is_recorded_and_replays_from_its_seed():
    first = draw_sector({1, 2}, seed="abc")
    assert first == draw_sector({1, 2}, seed="abc")
    assert 1 <= first.pointer <= 12 and first.sector == played_sector(first.pointer, {1, 2})


def test_chgk_1_6_pointer_outside_the_table_is_refused():
    with pytest.raises(DeskError):
        played_sector(13, set())


# ---------------------------------------------------------------- CHGK-2.5


def test_chgk_2_5_most_points_wins():
    places = game_ranking([GameResult("a", 5), GameResult("b", 7), GameResult("c", 6)])
    assert [(p.team, p.place) for p in places] == [("b", 1), ("c", 2), ("a", 3)]


def test_chgk_2_5_tie_broken_by_table_points_then_table_rounds_then_shared():
    places = game_ranking([
        GameResult("hall", 6), GameResult("rounds", 6, 2, 4), GameResult("points", 6, 3, 3),
        GameResult("twin", 6, 2, 4), GameResult("last", 2),
    ])
    got = {p.team: (p.place, p.shared) for p in places}
    assert got == {"points": (1, False), "rounds": (2, True), "twin": (2, True),
                   "hall": (4, False), "last": (5, False)}


# ---------------------------------------------------------------- CHGK-2.4


def test_chgk_2_4_place_points_7_5_4_3_3_2x5_then_1():
    assert [place_series_points(p) for p in range(1, 13)] == [7, 5, 4, 3, 3, 2, 2, 2, 2, 2,
                                                              1, 1]


def test_chgk_2_4_series_points_per_league_plus_central_table_series():
    results = [GameResult("f1", 9), GameResult("f2", 3), GameResult("c1", 8),
               GameResult("c2", 10), GameResult("c3", 10)]
    leagues = {"f1": F, "f2": F, "c1": C, "c2": C, "c3": C}
    got = series_points(results, leagues, {"f2": 2})
    # Favourites: f1 1st (7), f2 2nd (5) + 2 from the table; Contenders: c2, c3 share 1st.
    assert got == {"f1": 7, "f2": 7, "c2": 7, "c3": 7, "c1": 4}


# ----------------------------------------------------------- CHGK-2.6/2.7


def _games(*games):
    return [[GameResult(*r) for r in game] for game in games]


def test_chgk_2_6_evening_ranked_by_sum_of_places():
    rows = evening_ranking(_games([("a", 9), ("b", 5), ("c", 4)],
                                  [("a", 3), ("b", 6), ("c", 8)]))
    # a 1+3=4, b 2+2=4 ... a and b equal sums: see the tie-breaks; c 3+1=4 as well.
    assert sorted(r.place_sum for r in rows) == [4, 4, 4]


def test_chgk_2_7_tie_breaks_i_table_points():
    rows = evening_ranking(_games([("a", 5, 0, 0), ("b", 4, 2, 2)],
                                  [("a", 4), ("b", 5)]))
    assert [(r.team, r.tie_break) for r in rows] == [("b", "I"), ("a", "I")]


def test_chgk_2_7_tie_breaks_ii_table_rounds():
    rows = evening_ranking(_games([("a", 5, 1, 1), ("b", 4, 1, 3)],
                                  [("a", 4), ("b", 5)]))
    assert [r.team for r in rows] == ["b", "a"] and rows[0].tie_break == "II"


def test_chgk_2_7_tie_breaks_iii_total_points():
    rows = evening_ranking(_games([("a", 9), ("b", 4), ("x", 5)],
                                  [("a", 3), ("b", 6), ("x", 4)]))
    # a: 1+3, b: 3+1 → equal sums, equal table; a has 12 points, b 10.
    a, b = next(r for r in rows if r.team == "a"), next(r for r in rows if r.team == "b")
    assert a.place < b.place and a.tie_break == "III"


def test_chgk_2_7_tie_breaks_iv_better_place_in_one_game():
    rows = evening_ranking(_games(
        [("a", 9), ("b", 8), ("c", 7), ("d", 6)],
        [("a", 1), ("b", 8), ("c", 7), ("d", 6)],
    ))
    # a 1+4=5, b 2+1=3, c 3+2=5, d 4+3=7; a and c: same sum, points a 10 < c 14 → III.
    assert [r.team for r in rows] == ["b", "c", "a", "d"]
    rows = evening_ranking(_games(
        [("a", 10), ("c", 9), ("b", 8), ("d", 1)],
        [("d", 10), ("b", 9), ("c", 8), ("a", 7)],
    ), lot_seed="x")
    # All sums 5, no table; a, b, c have 17 points (d 11: III); a's best place is 1st,
    # b's and c's 2nd: IV puts a first; b and c stay equal and go to the lot (V).
    assert [r.team for r in rows][0] == "a" and rows[0].tie_break == "IV"
    assert {r.team: r.tie_break for r in rows[1:3]} == {"b": "V", "c": "V"}
    assert rows[3].team == "d" and rows[3].tie_break == "III"


def test_chgk_2_7_tie_breaks_v_lot_recorded_and_replayable():
    games = _games([("a", 5), ("b", 5)], [("a", 5), ("b", 5)])
    first = evening_ranking(games, lot_seed="lot-1")
    assert all(r.by_lot and r.tie_break == "V" for r in first)
    assert [r.place for r in first] == [1, 2]
    assert [r.team for r in first] == [r.team for r in evening_ranking(games, "lot-1")]
    orders = {tuple(r.team for r in evening_ranking(games, f"s{i}")) for i in range(20)}
    assert orders == {("a", "b"), ("b", "a")}


def test_chgk_2_6_team_missing_a_game_takes_the_place_after_its_last():
    rows = evening_ranking(_games([("a", 5), ("b", 4)], [("a", 5)]))
    assert {r.team: r.places for r in rows} == {"a": (1, 1), "b": (2, 2)}


# ----------------------------------------------------------- CHGK-2.1-2.3


def test_chgk_2_1_seasons_are_three_calendar_months_without_gaps():
    assert season_of(dt.date(2026, 3, 1)) == Season("spring", 2026)
    assert season_of(dt.date(2026, 8, 31)) == Season("summer", 2026)
    assert season_of(dt.date(2026, 11, 30)) == Season("autumn", 2026)
    assert season_of(dt.date(2026, 12, 1)) == season_of(dt.date(2027, 2, 28)) == Season(
        "winter", 2026)


def test_chgk_2_2_2_3_season_table_and_favourites_contenders_exchange():
    day = dt.date(2026, 4, 10)
    entries = [SeriesEntry(f"f{i}", F, day, 10 - i) for i in range(5)]
    entries += [SeriesEntry(f"c{i}", C, day, 20 - i) for i in range(5)]
    entries += [SeriesEntry("f0", F, dt.date(2026, 5, 2), 7),
                SeriesEntry("f4", F, dt.date(2026, 6, 1), 50)]  # June: next season
    table = season_table(entries, Season("spring", 2026))
    favourites = table.leagues[F]
    assert [(r.team, r.points) for r in favourites][:2] == [("f0", 17), ("f1", 9)]
    assert table.leagues[C][0].team == "c0"  # CHGK-2.3: most series points wins
    assert table.promoted == ("c0", "c1", "c2")
    assert table.relegated == ("f2", "f3", "f4")


# ----------------------------------------------------------- CHGK-3.1-3.6


def test_chgk_3_2_right_answers_give_game_and_series_points():
    table = CentralTable()
    table.seat("a")
    table.answer("a", 1, True)
    table.answer("a", 2, True)
    assert table.standing("a").points == 2 and table.standing("a").series == 2
    table.leave("a")
    assert table.tallies["a"].points == 2 and table.tallies["a"].series == 2
    assert table.tallies["a"].rounds == 2 and table.seated is None


def test_chgk_3_2_wrong_answer_loses_this_stays_series_points_keeps_game_points():
    table = CentralTable()
    table.seat("a")
    table.answer("a", 1, True)
    table.answer("a", 2, True)
    table.answer("a", 3, False)
    tally = table.tallies["a"]
    assert (tally.points, tally.series, tally.rounds, table.seated) == (2, 0, 3, None)


def test_chgk_3_3_leave_only_after_a_right_answer():
    table = CentralTable()
    table.seat("a")
    with pytest.raises(Conflict):
        table.leave("a")


def test_chgk_3_4_decisive_round_right_doubles_table_points_series_unaffected():
    table = CentralTable()
    table.seat("a")
    for q in (1, 2, 3):
        table.answer("a", q, True)
    table.decisive("a", 4, True)
    tally = table.tallies["a"]
    assert (tally.points, tally.series, tally.rounds, table.seated) == (6, 3, 4, None)


def test_chgk_3_4_decisive_round_wrong_zeroes_table_points_series_unaffected():
    table = CentralTable()
    table.seat("a")
    table.answer("a", 1, True)
    table.answer("a", 2, True)
    table.decisive("a", 3, False)
    tally = table.tallies["a"]
    assert (tally.points, tally.series, tally.rounds) == (0, 2, 3)


def test_chgk_3_5_a_new_stay_counts_from_zero_and_keeps_earlier_series():
    table = CentralTable()
    table.seat("a")
    table.answer("a", 1, True)
    table.leave("a")
    table.seat("b")
    table.answer("b", 2, False)
    table.seat("a")
    table.answer("a", 3, True)
    table.answer("a", 4, False)  # loses this stay's 1 series point, not the first stay's
    tally = table.tallies["a"]
    assert (tally.points, tally.series, tally.rounds) == (2, 1, 3)


def test_chgk_3_6_second_game_only_favourites_sit():
    table = CentralTable()
    with pytest.raises(WrongTeam):
        table.seat("c", league=C, game=2)
    table.seat("c", league=C, game=1)
    assert table.seated == "c"


def test_chgk_3_1_actions_for_the_wrong_team_are_refused():
    table = CentralTable()
    with pytest.raises(WrongTeam):
        table.answer("a", 1, True)
    table.seat("a")
    with pytest.raises(WrongTeam):
        table.answer("b", 1, True)
    with pytest.raises(Conflict):
        table.seat("b")


def test_chgk_4_6_end_of_game_keeps_what_the_seated_team_won():
    table = CentralTable()
    table.seat("a")
    table.answer("a", 1, True)
    table.close_game()
    assert (table.tallies["a"].points, table.tallies["a"].series) == (1, 1)


# ----------------------------------------------------------- CHGK-4.1-4.7


def test_chgk_4_1_4_2_credits_start_at_100_plus_10_per_point_less_burned_bids():
    assert credits(0, 0) == 100
    assert credits(3, 40) == 90


def test_chgk_4_5_highest_bid_wins_and_all_bids_burn():
    result = auction({"a": 30, "b": 50}, {"a": 100, "b": 100, "c": 100})
    assert result.winner == "b" and result.bids == {"a": 30, "b": 50} and result.seed is None


def test_chgk_4_5_tie_drawn_by_the_spinning_top_recorded():
    result = auction({"a": 50, "b": 50, "c": 10}, {"a": 100, "b": 100, "c": 100}, seed="t")
    assert result.tied == ("a", "b") and result.winner in ("a", "b") and result.seed == "t"
    assert auction({"a": 50, "b": 50}, {"a": 100, "b": 100}, seed="t").winner == result.winner
    winners = {auction({"a": 5, "b": 5}, {"a": 9, "b": 9}, seed=f"s{i}").winner
               for i in range(20)}
    assert winners == {"a", "b"}


@pytest.mark.parametrize("bid", [0, 101, -5, 2.5, True, "10"])
def test_chgk_4_4_bid_outside_1_to_credits_is_refused(bid):
    with pytest.raises(BidRefused):
        auction({"a": bid}, {"a": 100})


def test_chgk_4_3_bid_from_team_not_in_the_auction_is_refused():
    with pytest.raises(BidRefused):
        auction({"z": 5}, {"a": 100})


def test_chgk_4_3_no_bids_no_winner():
    assert auction({}, {"a": 100}).winner is None


def test_chgk_2_2_the_cup_winner_is_never_relegated_from_a_small_league():
    day = dt.date(2026, 10, 2)
    entries = [SeriesEntry("f0", F, day, 15), SeriesEntry("f1", F, day, 10)]
    entries += [SeriesEntry(f"c{i}", C, day, 14 - i) for i in range(3)]
    table = season_table(entries, Season("autumn", 2026))
    assert table.promoted == ("c0", "c1", "c2")
    assert table.relegated == ("f1",)  # f0 holds the Season Cup (CHGK-2.2)
    assert season_table(entries[2:], Season("autumn", 2026)).promoted == ("c0", "c1", "c2")
