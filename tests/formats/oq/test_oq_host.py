"""The OpenQuiz room and its clocks over the API, named by rule: OQ-1 twelve teams,
captains (the first player; handed on by the captain or the host; only the captain
picks, bans and bets), OQ-8 kick and ban, OQ-4 the 30 s answer timer and its timeout,
OQ-7 speed, OQ-8 pauses (an hour; timers stand still), 30 minutes idle, 5 hours.
Time is the test's server clock (tests/buzzgame.py): nothing sleeps."""

from __future__ import annotations

import pytest
from buzzgame import T0, Phone, install_server_clock, make_event, start_question
from factories import Desk

from answerdesk.extensions import db
from answerdesk.formats.oq.models import OqGame

MIN = 60_000


@pytest.fixture
def oq(app, client, monkeypatch, english):
    clock = install_server_clock(monkeypatch)
    clock.ms = T0 - 60_000
    desk = Desk(client, *make_event(app, "oq", {1: 5, 4: 3}))
    desk.teams = {name: desk.join(name, players=3) for name in ("Альфа", "Бета")}
    # OQ-1: each team's first player (its captain) plays with a token of their own.
    phones = {name: Phone(client, desk.code, player(desk, desk.teams[name], first), clock, 0,
                          20, 20) for name, first in (("Альфа", "Ира"), ("Бета", "Петя"))}
    return desk, phones, clock


def post(desk: Desk, path: str, token: str, **body):
    return desk.client.post(f"/api/events/{desk.code}/{path}", json=body,
                            headers={"Authorization": f"Bearer {token}"})


def host(desk: Desk, path: str, **body):
    return desk.client.post(f"/api/host/events/{desk.code}/oq/{path}", json=body,
                            headers={"Authorization": f"Bearer {desk.password}"})


def state(desk: Desk) -> dict:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["oq"]


def start(desk: Desk, q: int):
    """The host starts question ``q`` of round 1 (core's start endpoint)."""
    return desk.client.post(f"/api/host/events/{desk.code}/rounds/1/questions/{q}/start",
                            headers={"Authorization": f"Bearer {desk.password}"})


def player(desk: Desk, team_token: str, name: str) -> str:
    resp = post(desk, "oq/players", team_token, name=name)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["token"]


def refusal(resp) -> tuple[int, str]:
    return resp.status_code, resp.get_json()["error"]


def test_oq1_the_thirteenth_team_is_refused_in_the_phones_language(oq):
    desk, _, _ = oq
    for n in range(3, 13):
        desk.join(f"Отбор {n}", players=3)
    thirteenth = desk.client.post(f"/api/events/{desk.code}/teams",
                                  json={"name": "Отбор 13", "players": 3})
    assert refusal(thirteenth) == (409, "game_full")
    assert thirteenth.get_json()["message"] == "This game is full: at most 12 teams."
    bulgarian = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "Отбор 13"},
                                 headers={"Accept-Language": "bg"})
    assert bulgarian.get_json()["message"] == "Играта е пълна: най-много 12 отбора."
    assert len(state(desk)["teams"]) == 12
    four = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "X", "players": 4})
    assert four.status_code == 400  # OQ-1: teams of up to 3


def test_oq1_the_first_player_is_captain_and_only_the_captain_acts(oq):
    desk, ph, _ = oq
    team = desk.teams["Альфа"]
    ira = ph["Альфа"].token  # the first player: the captain
    vasya = player(desk, team, "Вася")
    assert state(desk)["teams"][0] == {"team": "Альфа", "players": ["Ира", "Вася"],
                                       "captain": "Ира"}
    # A non-captain's pick is refused, translated, and changes nothing.
    refused = post(desk, "oq/pick", vasya, round=1, question=2)
    assert refusal(refused) == (403, "not_captain")
    assert refused.get_json()["message"] == "Only the captain (Ира) can do that for the team."
    # OQ-1: the team token alone plays nothing (it only adds players): every press,
    # pick, choice, bid, bet and answer is a player's, with their own token.
    for path, body in (("oq/pick", {}), ("oq/choose", {"option": "A"}), ("oq/stake",
                       {"amount": 100}), ("oq/pass", {}), ("oq/secret", {"team": "Альфа"}),
                       ("oq/final/ban", {"theme": 1}), ("oq/final/bet", {"amount": 1}),
                       ("oq/final/answer", {"text": "x"}), ("oq/captain", {"player": "Вася"}),
                       ("buzz", {"pressed_at_ms": T0})):
        alone = post(desk, path, team, round=1, question=2, **body)
        assert refusal(alone) == (403, "player_required"), path
    assert alone.get_json()["message"] == ("Join your team as a player first: in OpenQuiz "
                                           "each player plays with their own phone.")
    russian = desk.client.post(f"/api/events/{desk.code}/oq/pick", json={"round": 1,
                               "question": 2}, headers={"Authorization": f"Bearer {vasya}",
                                                        "Accept-Language": "ru"})
    assert russian.get_json()["message"] == "Только капитан (Ира) может сделать это за команду."
    # The captain also chooses, bids and hands the secret question (OQ-1, OQ-3).
    for path in ("oq/choose", "oq/stake", "oq/pass", "oq/secret"):
        assert refusal(post(desk, path, vasya, round=1, question=2)) == (403, "not_captain")
    assert state(desk)["picked"] is None
    # A round beyond a database integer is a 400, not PostgreSQL's error (a 500).
    assert refusal(post(desk, "oq/pick", ira, round=2**31, question=2)) == (400, "bad_request")
    assert post(desk, "oq/pick", ira, round=1, question=2).status_code == 200
    # The captain hands the role on; a non-captain cannot.
    assert refusal(post(desk, "oq/captain", vasya, player="Вася")) == (403, "not_captain")
    assert post(desk, "oq/captain", ira, player="Вася").get_json() == {
        "team": "Альфа", "captain": "Вася"}
    assert state(desk)["teams"][0]["captain"] == "Вася"
    # The host hands it back; an unknown player is a 404.
    assert host(desk, "captain", team="Альфа", player="Ира").get_json()["captain"] == "Ира"
    assert host(desk, "captain", team="Альфа", player="Никой").status_code == 404
    # OQ-1: three players a team; one name once.
    assert post(desk, "oq/players", team, name="вася").status_code == 409
    player(desk, team, "Женя")
    assert refusal(post(desk, "oq/players", team, name="Петя")) == (409, "game_full")


def test_oq6_final_bans_and_bets_are_the_captains(app, oq):
    desk, ph, _ = oq
    ira, vasya = ph["Альфа"].token, player(desk, desk.teams["Альфа"], "Вася")
    assert host(desk, "scores", team="Альфа", points=300).status_code == 200
    assert refusal(post(desk, "oq/final/ban", vasya, theme=1)) == (403, "not_captain")
    assert refusal(post(desk, "oq/final/bet", vasya, amount=10)) == (403, "not_captain")
    assert state(desk)["final"]["banned"] == []
    assert post(desk, "oq/final/ban", ira, theme=1).status_code == 200
    assert post(desk, "oq/final/bet", ira, amount=10).status_code == 201


def test_oq8_the_host_kicks_and_bans_players_and_teams(oq):
    desk, ph, clock = oq
    alpha, beta = desk.teams["Альфа"], desk.teams["Бета"]
    ira = ph["Альфа"].token
    vasya = player(desk, alpha, "Вася")
    # A kicked captain: the next player takes the role; the token no longer acts.
    kicked = host(desk, "remove", kind="player", team="Альфа", player="Ира")
    assert kicked.get_json() == {"kind": "player", "removed": "Альфа: Ира", "banned": False}
    assert state(desk)["teams"][0] == {"team": "Альфа", "players": ["Вася"], "captain": "Вася"}
    assert post(desk, "oq/pick", ira, round=1, question=1).status_code == 401
    ira = player(desk, alpha, "Ира")  # kicked, not banned: she may come back
    assert host(desk, "remove", kind="player", team="Альфа", player="Ира",
                ban=True).status_code == 200
    again = post(desk, "oq/players", alpha, name="ира")
    assert refusal(again) == (403, "banned")
    assert again.get_json()["message"] == "The host has banned this player from the game."
    # OQ-8: the ban holds the person, not the name: her own token is refused everywhere,
    # translated, and changes nothing, even under another name or in another team.
    before = state(desk)
    her = Phone(desk.client, desk.code, ira, clock, 0, 20, 20)
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0)
    for refused in (post(desk, "oq/pick", ira, round=1, question=1), her.press(T0 + 50),
                    desk.client.post(f"/api/events/{desk.code}/clock", json={"client_ms": 1},
                                     headers=her.auth),
                    desk.client.get(f"/api/events/{desk.code}/oq/me", headers=her.auth),
                    post(desk, "oq/players", ira, name="Маша"),
                    post(desk, "oq/players", alpha, name="Маша", previous=ira),
                    desk.client.post(f"/api/events/{desk.code}/oq/join",
                                     json={"team": "Нови", "player": "Маша", "previous": ira})):
        assert refusal(refused) == (403, "banned")
    assert refused.get_json()["message"] == "The host has banned this player from the game."
    russian = desk.client.get(f"/api/events/{desk.code}/oq/me",
                              headers={**her.auth, "Accept-Language": "ru"}).get_json()
    assert russian["message"] != "The host has banned this player from the game."
    after = state(desk)
    assert (after["teams"], after["scores"]) == (before["teams"], before["scores"])
    # Her teammate goes on: he presses, and the order is his alone.
    vasya_phone = Phone(desk.client, desk.code, vasya, clock, 0, 20, 20)
    assert vasya_phone.press(T0 + 60).status_code == 202
    clock.ms = T0 + 1_200
    order = desk.client.get(f"/api/events/{desk.code}/state").get_json()["buzzer"]["order"]
    assert [o["team"] for o in order] == ["Альфа"]
    assert desk.client.get(f"/api/events/{desk.code}/oq/me",
                           headers=vasya_phone.auth).get_json() == {
        "team": "Альфа", "player": "Вася", "players": ["Вася"], "captain": "Вася"}
    # A kicked team is out (its tokens no longer work) and may join again from scratch.
    assert host(desk, "remove", kind="team", team="Бета").status_code == 200
    assert post(desk, "oq/players", beta, name="Петя").status_code == 401
    assert ph["Бета"].press(T0 + 70).status_code == 401
    assert [t["team"] for t in state(desk)["teams"]] == ["Альфа"]
    desk.join("Бета", players=3)
    assert host(desk, "remove", kind="team", team="Бета", ban=True).status_code == 200
    banned = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "  бета "})
    assert refusal(banned) == (403, "banned")
    assert banned.get_json()["message"] == "The host has banned this team from the game."
    assert host(desk, "remove", kind="crowd", team="Альфа").status_code == 400
    assert host(desk, "remove", kind="team", team="Никой").status_code == 404


def _buzz_won_by_alpha(app, desk, ph, clock, q: int = 1, at: int = T0) -> None:
    start_question(desk.client, desk.code, desk.password, 1, q, clock=clock, at_ms=at)
    assert ph["Альфа"].press(at + 100, 1, q).status_code == 202
    clock.ms = at + 1_200  # the window (1 s after the first press) has closed


def test_oq4_the_answer_timer_runs_out_into_a_timeout_once(app, oq):
    desk, ph, clock = oq
    _buzz_won_by_alpha(app, desk, ph, clock)
    answer = state(desk)["clock"]["answer"]
    closes = T0 + 100 + 20 + 1_000
    assert answer == {"team": "Альфа", "seconds": 30.0, "deadline_ms": closes + 30_000}
    clock.ms = closes + 30_001
    after = state(desk)  # the read applies the timeout, as at the deadline
    assert {s["team"]: s["points"] for s in after["scores"]}["Альфа"] == -100
    assert after["clock"]["answer"] is None
    assert state(desk)["scores"][-1] == {"team": "Альфа", "points": -100}  # applied once
    buzzer = desk.client.get(f"/api/events/{desk.code}/state").get_json()["buzzer"]
    assert (buzzer["attempt"], buzzer["armed_ms"]) == (2, closes + 30_000)
    # The question returned to the others; the team that timed out is out.
    assert refusal(ph["Альфа"].press(clock.ms, 1, 1)) == (409, "team_is_out")
    assert ph["Бета"].press(clock.ms, 1, 1).status_code == 202


def test_oq4_a_press_after_the_deadline_applies_the_timeout_first(app, oq):
    desk, ph, clock = oq
    _buzz_won_by_alpha(app, desk, ph, clock)
    assert ph["Бета"].press(T0 + 40_000, 1, 1).status_code == 202  # no read in between
    clock.ms = T0 + 41_100
    s = desk.client.get(f"/api/events/{desk.code}/state").get_json()
    assert [o["team"] for o in s["buzzer"]["order"]] == ["Бета"]
    assert {x["team"]: x["points"] for x in s["oq"]["scores"]} == {"Альфа": -100, "Бета": 0}


@pytest.mark.parametrize(("speed", "seconds"), [("slow", 45), ("fast", 15)])
def test_oq7_speed_scales_the_answer_timer(app, oq, speed, seconds):
    desk, ph, clock = oq
    assert host(desk, "speed", speed=speed).get_json() == {"speed": speed}
    _buzz_won_by_alpha(app, desk, ph, clock)
    answer = state(desk)["clock"]["answer"]
    assert answer["seconds"] == seconds
    assert answer["deadline_ms"] == T0 + 1_120 + seconds * 1_000
    assert host(desk, "speed", speed="warp").status_code == 400


def test_oq8_a_pause_freezes_the_timer_and_play_waits(app, oq):
    desk, ph, clock = oq
    _buzz_won_by_alpha(app, desk, ph, clock)
    deadline = state(desk)["clock"]["answer"]["deadline_ms"]
    paused = host(desk, "pause", paused=True).get_json()
    assert (paused["paused"], paused["pause_left_ms"]) == (True, 60 * MIN)
    clock.ms += 10 * MIN
    shown = state(desk)["clock"]
    assert (shown["paused"], shown["stopped"]) == (True, None)
    assert shown["answer"]["deadline_ms"] == deadline + 10 * MIN  # it stood still
    for refused in (post(desk, "oq/pick", ph["Бета"].token, round=1, question=2),
                    desk.client.post(f"/api/host/events/{desk.code}/oq/rounds/1/questions/1/"
                                     "judge", json={"outcome": "accept"},
                                     headers={"Authorization": f"Bearer {desk.password}"}),
                    ph["Бета"].press(clock.ms - 20, 1, 1)):  # it arrives now
        assert refusal(refused) == (409, "game_paused")
    assert refusal(host(desk, "pause", paused=True)) == (409, "pause_refused")
    resumed = host(desk, "pause", paused=False).get_json()
    assert (resumed["paused"], resumed["pause_left_ms"]) == (False, 50 * MIN)
    assert refusal(host(desk, "pause", paused=False)) == (409, "pause_refused")
    assert state(desk)["clock"]["answer"]["deadline_ms"] - clock.ms == deadline - T0 - 1_200
    judged = desk.client.post(f"/api/host/events/{desk.code}/oq/rounds/1/questions/1/judge",
                              json={"outcome": "accept"},
                              headers={"Authorization": f"Bearer {desk.password}"})
    assert judged.get_json()["points"] == 100


def test_oq8_an_hour_of_pauses_then_the_game_goes_on_and_cannot_pause(oq):
    desk, _, clock = oq
    clock.ms = T0
    host(desk, "pause", paused=True)
    assert refusal(start(desk, 1)) == (409, "game_paused")  # the host starts nothing
    clock.ms += 25 * MIN
    host(desk, "pause", paused=False)
    host(desk, "pause", paused=True)
    clock.ms += 40 * MIN  # the hour ran out 35 minutes into this pause
    shown = state(desk)["clock"]
    assert (shown["paused"], shown["pause_left_ms"], shown["stopped"]) == (False, 0, None)
    used_up = host(desk, "pause", paused=True)
    assert refusal(used_up) == (409, "pause_refused")
    assert used_up.get_json()["message"] == "The hour of pauses of this game is used up."


def test_oq8_thirty_minutes_without_activity_stop_the_game(app, oq):
    desk, ph, clock = oq
    clock.ms = T0
    assert post(desk, "oq/pick", ph["Альфа"].token, round=1, question=1).status_code == 200
    clock.ms = T0 + 29 * MIN  # ticking timers are not activity, a pick is
    assert state(desk)["clock"]["stopped"] is None
    assert host(desk, "speed", speed="fast").status_code == 200
    clock.ms = T0 + 59 * MIN + 1
    assert state(desk)["clock"]["stopped"] == {"reason": "idle", "at_ms": T0 + 59 * MIN}
    stopped = post(desk, "oq/pick", ph["Альфа"].token, round=1, question=2)
    assert refusal(stopped) == (409, "game_stopped")
    assert stopped.get_json()["message"] == "The game has stopped: 30 minutes without activity."
    assert refusal(host(desk, "pause", paused=True)) == (409, "game_stopped")
    assert refusal(ph["Бета"].press(clock.ms, 1, 1)) == (409, "game_stopped")
    assert refusal(start(desk, 1)) == (409, "game_stopped")


def test_oq8_a_game_lives_at_most_five_hours(oq):
    desk, _, clock = oq
    clock.ms = T0
    for _ in range(15):  # activity every 20 minutes
        assert host(desk, "speed", speed="normal").status_code == 200
        clock.ms += 20 * MIN
    # The game started with the players joining, a minute before T0.
    assert state(desk)["clock"]["stopped"] == {"reason": "lifetime", "at_ms": T0 + 299 * MIN}
    assert refusal(host(desk, "speed", speed="slow")) == (409, "game_stopped")


def test_oq1_oq8_the_hosts_room_page_shows_captains_and_kicks(oq):
    desk, ph, clock = oq
    ira = ph["Альфа"].token
    player(desk, desk.teams["Альфа"], "Вася")
    desk.join("Гама", players=3)
    assert desk.client.post(f"/host/{desk.code}/login",
                            data={"password": desk.password}).status_code == 302
    page = desk.client.get(f"/host/{desk.code}/oq").get_data(as_text=True)
    assert "OpenQuiz room" in page and "Ира" in page and "captain" in page
    assert "No player has joined yet" in page  # Гама
    back = desk.client.post(f"/host/{desk.code}/oq/captain",
                            data={"team": "Альфа", "player": "Вася"})
    assert back.status_code == 302 and back.headers["Location"].endswith(f"/host/{desk.code}/oq")
    assert state(desk)["teams"][0]["captain"] == "Вася"
    desk.client.post(f"/host/{desk.code}/oq/remove",
                     data={"kind": "player", "team": "Альфа", "player": "Ира", "ban": "1"})
    assert state(desk)["teams"][0]["players"] == ["Вася"]
    assert refusal(post(desk, "oq/pick", ira, round=1, question=1)) == (403, "banned")
    desk.client.post(f"/host/{desk.code}/oq/speed", data={"speed": "slow"})
    desk.client.post(f"/host/{desk.code}/oq/pause", data={"paused": "1"})
    shown = state(desk)["clock"]
    assert (shown["speed"], shown["paused"]) == ("slow", True)
    page = desk.client.get(f"/host/{desk.code}/oq").get_data(as_text=True)
    assert 'data-paused="1"' in page and "Resume" in page


def test_oq8_the_host_starting_a_question_is_activity(app, oq):
    desk, ph, clock = oq
    clock.ms = T0
    assert post(desk, "oq/pick", ph["Альфа"].token, round=1, question=1).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock,
                   at_ms=T0 + 25 * MIN, seconds=3600)  # OQ-4.1: an hour to press
    clock.ms = T0 + 50 * MIN
    assert state(desk)["clock"]["stopped"] is None
    assert ph["Бета"].press(T0 + 50 * MIN, 1, 1).status_code == 202


def test_oq8_a_press_is_activity_counted_from_its_own_row(app, oq):
    desk, ph, clock = oq
    # The game starts with the host's first start.
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0,
                   seconds=3600)  # OQ-4.1: an hour to press
    assert ph["Бета"].press(T0 + 29 * MIN, 1, 1).status_code == 202
    with app.app_context():  # a press writes its row and nothing more (no hot game row)
        assert db.session.scalar(db.select(OqGame.active_ms)) == T0  # the host's start
    clock.ms = T0 + 59 * MIN
    assert state(desk)["clock"]["stopped"] is None
    clock.ms = T0 + 59 * MIN + 21
    assert state(desk)["clock"]["stopped"] == {"reason": "idle", "at_ms": T0 + 59 * MIN + 20}


def unpressed(app) -> int:
    """How many times a press timer closed a question (its audit entries)."""
    from answerdesk.models import AuditEntry

    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(AuditEntry).where(
            AuditEntry.action == "oq.unpressed"))


def test_oq4_1_nobody_presses_the_question_closes_once_and_no_score_changes(app, oq):
    desk, ph, clock = oq
    clock.ms = T0
    assert post(desk, "oq/pick", ph["Альфа"].token, round=1, question=2).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 2, clock=clock, at_ms=T0)
    assert state(desk)["clock"]["press"] == {"seconds": 20.0, "deadline_ms": T0 + 20_000}
    clock.ms = T0 + 19_999
    assert state(desk)["play"]["state"] == "open"
    clock.ms = T0 + 20_001  # the read applies it, as at the deadline
    after = desk.client.get(f"/api/events/{desk.code}/state").get_json()
    play = after["oq"]["play"]
    assert (play["state"], play["answer"]) == ("done", "answer 1.2")  # the answer shown
    assert after["buzzer"] is None and after["oq"]["clock"]["press"] is None
    assert {s["team"]: s["points"] for s in after["oq"]["scores"]} == {"Альфа": 0, "Бета": 0}
    assert after["oq"]["turn"] == "Альфа"  # OQ-2: nobody was right: the turn stays
    state(desk)
    assert unpressed(app) == 1  # applied once
    late = ph["Бета"].press(T0 + 20_100, 1, 2)
    assert refusal(late) == (409, "buzzer_not_armed")
    assert late.get_json()["message"] == "The buzzer is not armed for this question."


def test_oq4_1_the_hosts_next_start_applies_a_press_timer_run_out(app, oq):
    desk, ph, clock = oq
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0)
    # Nobody read the state since: the host's next start applies it first, once.
    start_question(desk.client, desk.code, desk.password, 1, 2, clock=clock,
                   at_ms=T0 + 25_000)
    assert unpressed(app) == 1
    assert state(desk)["clock"]["press"]["deadline_ms"] == T0 + 45_000


@pytest.mark.parametrize(("speed", "seconds"), [("slow", 30), ("fast", 10)])
def test_oq4_1_oq7_speed_scales_the_press_timer_not_the_hosts_seconds(oq, speed, seconds):
    desk, _, clock = oq
    assert host(desk, "speed", speed=speed).status_code == 200
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0)
    assert state(desk)["clock"]["press"] == {"seconds": seconds,
                                             "deadline_ms": T0 + seconds * 1_000}
    clock.ms = T0 + seconds * 1_000 + 1
    assert state(desk)["play"]["state"] == "done"
    start_question(desk.client, desk.code, desk.password, 1, 2, clock=clock,
                   at_ms=T0 + 60_000, seconds=8, grace=2)  # the host's own: as given
    assert state(desk)["clock"]["press"] == {"seconds": 10, "deadline_ms": T0 + 70_000}


def test_oq4_1_oq8_a_pause_freezes_the_press_timer(app, oq):
    desk, _, clock = oq
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0)
    clock.ms = T0 + 5_000
    host(desk, "pause", paused=True)
    clock.ms = T0 + 5_000 + 10 * MIN
    assert state(desk)["clock"]["press"]["deadline_ms"] == T0 + 20_000 + 10 * MIN
    host(desk, "pause", paused=False)
    clock.ms = T0 + 19_000 + 10 * MIN
    assert state(desk)["play"]["state"] == "open"  # 14 s of the 20 have run
    clock.ms = T0 + 20_001 + 10 * MIN
    assert state(desk)["play"]["state"] == "done"
    assert unpressed(app) == 1


def test_oq4_1_a_timeout_returns_the_question_and_its_press_timer_closes_it(app, oq):
    desk, ph, clock = oq
    _buzz_won_by_alpha(app, desk, ph, clock, q=2)
    answered = T0 + 1_120 + 30_000  # the answer timer's deadline: −200, and it returns
    clock.ms = answered + 20_001  # … and nobody pressed on the return: both, in order
    after = state(desk)
    assert {s["team"]: s["points"] for s in after["scores"]} == {"Альфа": -200, "Бета": 0}
    assert (after["play"]["state"], after["turn"]) == ("done", "Альфа")
    assert unpressed(app) == 1


def test_oq4_1_in_reading_mode_the_press_timer_counts_from_the_readings_end(oq):
    desk, _, clock = oq
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0)
    clock.ms = T0 + 1_000
    assert host(desk, "rounds/1/questions/1/reading", seconds=5).status_code == 200
    assert state(desk)["clock"]["press"]["deadline_ms"] == T0 + 25_000


def test_oq4_oq8_a_pause_freezes_the_reading(app, oq):
    desk, ph, clock = oq
    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0,
                   seconds=3600)
    assert host(desk, "rounds/1/questions/1/reading", seconds=3).get_json() == {
        "reading_until_ms": T0 + 3_000}
    clock.ms = T0 + 1_000
    host(desk, "pause", paused=True)
    clock.ms = T0 + 61_000
    buzzer = desk.client.get(f"/api/events/{desk.code}/state").get_json()["buzzer"]
    assert buzzer["reading_until_ms"] == T0 + 63_000  # it stands still while paused
    host(desk, "pause", paused=False)
    # 2 s of the reading are left after the pause: a press now is during the reading.
    assert ph["Бета"].press(T0 + 62_000, 1, 1).status_code == 202
    clock.ms = T0 + 63_100
    order = desk.client.get(f"/api/events/{desk.code}/state").get_json()["buzzer"]["order"]
    assert (order[0]["team"], order[0]["penalty_ms"]) == ("Бета", 2_000)
    assert "reading" in order[0]["flags"]


def test_oq1_the_join_forms_route_makes_a_team_or_joins_one_of_fewer_than_three(oq):
    desk, _, _ = oq
    join = lambda **body: desk.client.post(  # noqa: E731
        f"/api/events/{desk.code}/oq/join", json=body)
    first = join(team="Гама", player="Оля")
    assert first.status_code == 201
    assert {k: first.get_json()[k] for k in ("team", "player", "captain")} == {
        "team": "Гама", "player": "Оля", "captain": True}
    invite = first.get_json()["invite"]  # OQ-1: an existing team takes its invited
    for name in ("Коля", "Тоня"):  # the name as typed: case and spaces aside
        assert join(team=" гама ", player=name, invite=invite).get_json()["captain"] is False
    full = join(team="ГАМА", player="Петя", invite=invite)
    assert refusal(full) == (409, "game_full")
    assert full.get_json()["message"] == "This team is full: at most 3 players."
    # A refused player leaves no team behind; the team token alone plays nothing.
    assert refusal(join(team="Делта", player="  ")) == (400, "bad_request")
    assert [t["team"] for t in state(desk)["teams"]] == ["Альфа", "Бета", "Гама"]
    assert state(desk)["teams"][2] == {"team": "Гама", "players": ["Оля", "Коля", "Тоня"],
                                       "captain": "Оля"}
    me = desk.client.get(f"/api/events/{desk.code}/oq/me",
                         headers={"Authorization": f"Bearer {desk.teams['Альфа']}"})
    assert me.get_json() == {"team": "Альфа", "player": None, "players": ["Ира"],
                             "captain": "Ира"}
