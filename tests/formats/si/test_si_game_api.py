"""Своя игра end to end over the API, named by rule: questions open through core's start
(no deadline: the host says ВСЁ), SI-1.2 late joining and players in or out of
competition, SI-3 protests (СТОП / СТОЮ), SI-0 the theme's author, a phone that drops
and comes back, and the host's desk that a reload loses nothing of."""

from __future__ import annotations

import re

import pytest
from buzzgame import make_event, start_question
from factories import Desk

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.models import AuditEntry


@pytest.fixture
def si(app, client, english):
    desk = Desk(client, *make_event(app, "si", {1: 25, 2: 25, 3: 25}))
    tokens = {name: desk.join(name, players=1) for name in ("Вася", "Ира", "Женя")}
    return desk, tokens


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def send(desk: Desk, token: str, rnd: int, q: int, text: str):
    return desk.client.post(f"/api/events/{desk.code}/si/answers", headers=auth(token),
                            json={"round": rnd, "question": q, "text": text})


def host(desk: Desk, path: str, **body):
    return desk.client.post(f"/api/host/events/{desk.code}/{path}", json=body,
                            headers=auth(desk.password))


def start(desk: Desk, rnd: int, q: int, **body):
    return desk.client.post(f"/api/host/events/{desk.code}/rounds/{rnd}/questions/{q}/start",
                            json=body, headers=auth(desk.password))


def play(desk: Desk, rnd: int, q: int, answers: dict[str, tuple[str, str]]) -> list[str]:
    """Start, answer, ВСЁ, publish: the lists."""
    start_question(desk.client, desk.code, desk.password, rnd, q)
    for token, text in answers.values():
        assert send(desk, token, rnd, q, text).status_code == 201
    assert host(desk, f"si/rounds/{rnd}/questions/{q}/close").status_code == 200
    return host(desk, f"si/rounds/{rnd}/questions/{q}/publish").get_json()["lists"]


def protest(desk: Desk, token: str, rnd: int, q: int, text: str = "Мой ответ верен"):
    return desk.client.post(f"/api/events/{desk.code}/si/protests", headers=auth(token),
                            json={"round": rnd, "question": q, "text": text})


def si_state(desk: Desk) -> dict:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["si"]


def actions(app, code: str) -> list[str]:
    with app.app_context():
        event = event_by_code(code)
        return list(db.session.scalars(db.select(AuditEntry.action).where(
            AuditEntry.event_id == event.id).order_by(AuditEntry.id)))


def test_si_2_2b_a_question_opens_through_core_start_without_a_deadline(app, si):
    desk, t = si
    opened = start(desk, 1, 1)
    assert opened.status_code == 200
    body = opened.get_json()
    assert (body["round"], body["question"], body["state"]) == (1, 1, "open")
    assert (body["locks_at"], body["answer_until"], body["seconds"]) == (None, None, None)
    # Open until the host's ВСЁ: the next question waits for it.
    busy = start(desk, 1, 2)
    assert busy.status_code == 409
    assert busy.get_json()["message"] == "Question 1 of round 1 is still running."
    assert start(desk, 1, 1).status_code == 409  # opened once
    assert send(desk, t["Вася"], 1, 1, "answer 1.1").status_code == 201
    host(desk, "si/rounds/1/questions/1/close")
    # The host may still set a deadline: then the start carries it.
    timed = start(desk, 1, 2, seconds=30, grace=0).get_json()
    assert timed["seconds"] == 30 and timed["locks_at"] is not None
    assert "question.start" in actions(app, desk.code)


def test_si_1_2_late_players_join_in_rounds_1_2_between_questions(app, si, client):
    desk, t = si
    start_question(client, desk.code, desk.password, 1, 1)
    refused = client.post(f"/api/events/{desk.code}/teams", json={"name": "Оля", "players": 1})
    assert refused.status_code == 409
    assert refused.get_json() == {
        "error": "join_between_questions",
        "message": "A question is being played: join between questions, once the host has "
                   "closed it (SI-1.2)."}
    host(desk, "si/rounds/1/questions/1/close")
    late = desk.join("Оля", players=1)  # between questions of round 1: in
    start_question(client, desk.code, desk.password, 1, 2)
    assert send(desk, late, 1, 2, "answer 1.2").status_code == 201
    host(desk, "si/rounds/1/questions/2/close")
    host(desk, "si/rounds/1/questions/2/publish")
    assert {s["player"]: s["points"] for s in si_state(desk)["scores"]}["Оля"] == 2
    play(desk, 2, 1, {})
    desk.join("Петя", players=1)  # between questions of round 2: still in
    play(desk, 3, 1, {})
    closed = client.post(f"/api/events/{desk.code}/teams", json={"name": "Коля", "players": 1})
    assert closed.status_code == 409
    assert closed.get_json()["error"] == "late_join_closed"
    # The refusal is translated.
    ru = client.post(f"/api/events/{desk.code}/teams", json={"name": "Коля", "players": 1},
                     headers={"Accept-Language": "ru"})
    assert ru.get_json()["message"].startswith("Опоздавшие")
    assert "Коля" not in [s["player"] for s in si_state(desk)["scores"]]


def test_si_1_2_out_of_competition_players_play_but_are_not_ranked(app, si):
    desk, t = si
    switched = host(desk, "si/competition", player="Ира", in_competition=False)
    assert switched.get_json() == {"player": "Ира", "in_competition": False}
    assert host(desk, "si/competition", player="Ира", in_competition="no").status_code == 400
    assert host(desk, "si/competition", player="Nobody", in_competition=True).status_code == 404
    play(desk, 1, 5, {"Ира": (t["Ира"], "answer 1.5"), "Вася": (t["Вася"], "answer 1.5"),
                      "Женя": (t["Женя"], "wrong")})
    rows = {s["player"]: (s["points"], s["in_competition"], s["place"])
            for s in si_state(desk)["scores"]}
    assert rows == {"Ира": (5, False, None), "Вася": (5, True, 1), "Женя": (-5, True, 2)}
    assert "si.competition" in actions(app, desk.code)
    # SI-3: only players in competition protest.
    refused = protest(desk, t["Ира"], 1, 5)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "protest_refused")
    host(desk, "si/competition", player="Ира", in_competition=True)
    assert {s["player"]: s["place"] for s in si_state(desk)["scores"]}["Ира"] == 1


def test_si_3_protests_in_their_window_heard_and_decided(app, si):
    desk, t = si
    start_question(desk.client, desk.code, desk.password, 1, 1)
    send(desk, t["Вася"], 1, 1, "the first answer")  # right, by the host's word later
    send(desk, t["Женя"], 1, 1, "answer 1.1")
    host(desk, "si/rounds/1/questions/1/close")
    early = protest(desk, t["Вася"], 1, 1)
    assert (early.status_code, early.get_json()["error"]) == (409, "protest_window_closed")
    host(desk, "si/rounds/1/questions/1/decide", player="Вася", mark="wrong")
    assert host(desk, "si/rounds/1/questions/1/publish").get_json()["lists"] == [
        "+1 Женя", "−1 Вася"]

    # СТОП: filed; the game stands until the host has decided.
    filed = protest(desk, t["Вася"], 1, 1)
    assert filed.status_code == 201
    pid = filed.get_json()["id"]
    assert filed.get_json() == {"id": pid, "player": "Вася", "state": "filed", "warned": False}
    assert protest(desk, t["Вася"], 1, 1).get_json()["error"] == "protest_refused"  # once
    assert si_state(desk)["protests"] == [{"id": pid, "player": "Вася", "round": 1,
                                           "question": 1, "state": "filed"}]
    stands = start(desk, 1, 2)
    assert (stands.status_code, stands.get_json()["error"]) == (409, "protest_pending")
    assert host(desk, f"si/protests/{pid}/decide", upheld=True, changes=[
        {"player": "Вася", "mark": "correct"}]).status_code == 409  # СТОЮ first
    # СТОЮ, heard, upheld: the lists are republished.
    assert host(desk, f"si/protests/{pid}/hear").get_json()["state"] == "heard"
    assert host(desk, f"si/protests/{pid}/hear").status_code == 409
    assert host(desk, f"si/protests/{pid}/decide", upheld=True).status_code == 400
    decided = host(desk, f"si/protests/{pid}/decide", upheld=True,
                   changes=[{"player": "Вася", "mark": "correct"}]).get_json()
    assert decided == {"state": "upheld", "warned": False, "lists": ["+1 Вася, Женя"]}
    assert si_state(desk)["current"]["lists"] == ["+1 Вася, Женя"]
    assert si_state(desk)["protests"] == []
    assert {s["player"]: s["points"] for s in si_state(desk)["scores"]}["Вася"] == 1

    # A groundless protest may earn a warning; a repeated one must.
    pid = protest(desk, t["Женя"], 1, 1, "Вася не прав").get_json()["id"]
    host(desk, f"si/protests/{pid}/hear")
    first = host(desk, f"si/protests/{pid}/decide", upheld=False).get_json()
    assert (first["state"], first["warned"]) == ("rejected", False)
    pid = protest(desk, t["Женя"], 1, 1, "Всё же не прав").get_json()["id"]
    host(desk, f"si/protests/{pid}/hear")
    again = host(desk, f"si/protests/{pid}/decide", upheld=False).get_json()
    assert (again["state"], again["warned"], again["lists"]) == (
        "rejected", True, ["+1 Вася, Женя"])

    # The same theme goes on: protests still taken; the next theme closes the window.
    play(desk, 1, 2, {})
    assert protest(desk, t["Вася"], 1, 1, "Ещё").status_code == 201
    pid = si_state(desk)["protests"][0]["id"]
    host(desk, f"si/protests/{pid}/hear")
    host(desk, f"si/protests/{pid}/decide", upheld=False, warn=True)
    play(desk, 1, 6, {})
    late = protest(desk, t["Вася"], 1, 1)
    assert (late.status_code, late.get_json()["error"]) == (409, "protest_window_closed")
    log = actions(app, desk.code)
    assert log.count("si.protest") == 4 and log.count("si.hear") == 4
    assert log.count("si.protest.decide") == 4 and "si.warn" in log


def stoppable(desk: Desk, token: str) -> list[tuple[int, int, str | None]]:
    """The questions the phone offers СТОП for: (round, question, own protest state)."""
    return [(q["round"], q["question"], q["protest"])
            for q in desk.sheet(token).get_json()["si"]["protestable"]]


def test_si_3_the_phone_sheet_lists_each_question_whose_protest_window_is_open(app, si):
    """SI-3 on the phone: the board's question and the earlier published ones of its
    theme, until a question of another theme starts; each names its question."""
    desk, t = si
    assert stoppable(desk, t["Вася"]) == []
    play(desk, 1, 1, {"Вася": (t["Вася"], "answer 1.1")})
    item = desk.sheet(t["Вася"]).get_json()["si"]["protestable"]
    assert item == [{"round": 1, "question": 1, "theme": 1, "theme_name": None, "value": 1,
                     "answer": "answer 1.1", "protest": None}]
    # The next question of the theme opens: the earlier one stays protestable (it is
    # not on the board), the open one is not yet (its answer is not published).
    start_question(desk.client, desk.code, desk.password, 1, 2)
    assert stoppable(desk, t["Вася"]) == [(1, 1, None)]
    assert protest(desk, t["Вася"], 1, 2).get_json()["error"] == "protest_window_closed"
    host(desk, "si/rounds/1/questions/2/close")
    assert stoppable(desk, t["Вася"]) == [(1, 1, None)]  # closed, not published
    host(desk, "si/rounds/1/questions/2/publish")
    assert stoppable(desk, t["Вася"]) == [(1, 1, None), (1, 2, None)]
    # СТОП on the earlier question: it is listed with its state, for this player only.
    assert protest(desk, t["Вася"], 1, 1).status_code == 201
    assert stoppable(desk, t["Вася"]) == [(1, 1, "filed"), (1, 2, None)]
    assert stoppable(desk, t["Ира"]) == [(1, 1, None), (1, 2, None)]
    pid = si_state(desk)["protests"][0]["id"]
    host(desk, f"si/protests/{pid}/hear")
    assert stoppable(desk, t["Вася"]) == [(1, 1, "heard"), (1, 2, None)]
    host(desk, f"si/protests/{pid}/decide", upheld=False)
    assert stoppable(desk, t["Вася"]) == [(1, 1, "rejected"), (1, 2, None)]
    # Out of competition: no СТОП at all (the API refuses it too).
    host(desk, "si/competition", player="Ира", in_competition=False)
    assert stoppable(desk, t["Ира"]) == []
    # A question of another theme starts: every window of theme 1 closes at once.
    start_question(desk.client, desk.code, desk.password, 1, 6)
    assert stoppable(desk, t["Вася"]) == [] and stoppable(desk, t["Женя"]) == []
    for q in (1, 2):
        late = protest(desk, t["Женя"], 1, q)
        assert (late.status_code, late.get_json()["error"]) == (409, "protest_window_closed")


def test_si_0_a_theme_author_plays_it_only_by_its_most_expensive_question(app, si):
    desk, t = si
    named = host(desk, "si/themes", round=1, theme=1, author="Ира")
    assert named.get_json() == {"round": 1, "theme": 1, "author": "Ира"}
    assert host(desk, "si/themes", round=1, theme=6, author="Ира").status_code == 400
    assert host(desk, "si/themes", round=1, theme=1, author="Никто").status_code == 404
    start_question(desk.client, desk.code, desk.password, 1, 3)
    refused = send(desk, t["Ира"], 1, 3, "answer 1.3")
    assert (refused.status_code, refused.get_json()["error"]) == (409, "authors_theme")
    assert send(desk, t["Вася"], 1, 3, "answer 1.3").status_code == 201
    host(desk, "si/rounds/1/questions/3/close")
    assert play(desk, 1, 5, {"Ира": (t["Ира"], "answer 1.5")}) == ["+5 Ира"]
    # Another theme: the author plays as anyone.
    assert play(desk, 1, 6, {"Ира": (t["Ира"], "answer 1.6")}) == ["+1 Ира"]
    assert host(desk, "si/themes", round=1, theme=1, author=None).get_json()["author"] is None
    assert "si.author" in actions(app, desk.code)


def test_si_2_2_phones_see_only_the_questions_the_host_started(app, si):
    desk, t = si
    assert all(r["questions"] == [] for r in desk.sheet(t["Вася"]).get_json()["rounds"])
    start_question(desk.client, desk.code, desk.password, 1, 7)
    rounds = desk.sheet(t["Вася"]).get_json()["rounds"]
    assert [(r["number"], [q["number"] for q in r["questions"]]) for r in rounds] == [(1, [7])]
    assert rounds[0]["questions"][0]["text"] == "Q1.7"


def test_a_phone_that_drops_rejoins_where_the_game_stands_with_its_score(app, si):
    desk, t = si
    play(desk, 1, 4, {"Вася": (t["Вася"], "answer 1.4")})
    start_question(desk.client, desk.code, desk.password, 1, 5)
    send(desk, t["Вася"], 1, 5, "answer 1.5")
    # The phone drops; a new connection with the token it kept.
    phone = app.test_client()
    sheet = phone.get(f"/api/events/{desk.code}/sheet", headers=auth(t["Вася"])).get_json()
    assert sheet["si"]["player"] == "Вася"
    assert (sheet["si"]["points"], sheet["si"]["place"]) == (4, 1)
    assert sheet["si"]["current"] == {"round": 1, "question": 5, "answer": "answer 1.5",
                                      "late": False, "listed": False, "may_answer": True,
                                      "claim": None}
    again = send(Desk(phone, desk.code, desk.password), t["Вася"], 1, 5, "другое")
    assert again.status_code == 409  # SI-2.2: the first answer stands
    state = phone.get(f"/api/events/{desk.code}/state").get_json()["si"]
    assert state["current"]["question"] == 5 and state["current"]["state"] == "open"


def test_the_host_desk_opens_through_core_start_and_a_reload_loses_nothing(app, si):
    desk, t = si
    assert desk.client.post(f"/host/{desk.code}/login",
                            data={"password": desk.password}).status_code == 302
    page = desk.client.get(f"/host/{desk.code}/si")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # The open button calls core's start endpoint (the form posts to the desk without script).
    assert f'data-api="/api/host/events/{desk.code}/rounds/1/questions/1/start"' in html
    opened = desk.client.post(f"/host/{desk.code}/si/open", data={"round": 1, "question": 1})
    assert opened.status_code == 302
    send(desk, t["Вася"], 1, 1, "answer 1.1")
    desk.client.post(f"/host/{desk.code}/si/close", data={"round": 1, "question": 1})
    desk.client.post(f"/host/{desk.code}/si/publish", data={"round": 1, "question": 1})
    desk.client.post(f"/host/{desk.code}/si/competition",
                     data={"player": "Ира", "in_competition": "no"})
    desk.client.post(f"/host/{desk.code}/si/author",
                     data={"round": 1, "theme": 2, "author": "Женя"})
    protest(desk, t["Женя"], 1, 1)
    first, second = (re.sub(r'name="csrf_token" value="[^"]*"', "", desk.client.get(
        f"/host/{desk.code}/si").get_data(as_text=True)) for _ in range(2))
    assert first == second  # all from the database: the page reloads to the same desk
    assert 'data-state="published"' in second and "+1 Вася" in second
    assert 'data-player="Ира" data-in="no"' in second
    assert '<option selected>Женя</option>' in second
    assert 'data-state="filed"' in second
    pid = si_state(desk)["protests"][0]["id"]
    desk.client.post(f"/host/{desk.code}/si/protests/{pid}/hear")
    assert 'data-state="heard"' in desk.client.get(f"/host/{desk.code}/si").get_data(as_text=True)
