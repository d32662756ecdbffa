"""Своя игра's route replies are typed (issue 32, formats/si/replies.py): a player's
answer and claim (SI-2.2, SI-2.4), the host's ВСЁ, decision and lists (SI-2.2b, SI-2.4),
the protests (SI-3), competition, authors and warnings (SI-1.2, SI-0, SI-1.3) fit their
models strictly and the served OpenAPI document. Its part of GET /state:
tests/test_openapi_replies.py."""

from __future__ import annotations

from buzzgame import make_event, start_question
from factories import Desk
from replycheck import fits, served_document

from answerdesk.formats.si.replies import (
    SiClaimSent,
    SiClosed,
    SiCompetitionSet,
    SiDecided,
    SiLists,
    SiProtestDecided,
    SiProtestRow,
    SiReceived,
    SiSheet,
    SiThemeSet,
    SiWarned,
)

Q = "/api/host/events/{code}/si/rounds/{round}/questions/{question}/"
HOST = "/api/host/events/{code}/si/"


def test_the_players_and_the_hosts_actions_fit(app, client, english):
    document = served_document(client)
    desk = Desk(client, *make_event(app, "si", {1: 25, 2: 25}))
    t = {name: desk.join(name, players=1) for name in ("Вася", "Ира", "Женя")}

    def player(name: str, path: str, **body):
        return client.post(f"/api/events/{desk.code}/si/{path}", json=body,
                           headers={"Authorization": f"Bearer {t[name]}"})

    def host(path: str, **body):
        return client.post(f"/api/host/events/{desk.code}/si/{path}", json=body,
                           headers={"Authorization": f"Bearer {desk.password}"})

    start_question(client, desk.code, desk.password, 1, 1)
    for name, text in (("Вася", "answer 1.1"), ("Женя", "не знам")):
        sent = player(name, "answers", round=1, question=1, text=text)
        assert sent.status_code == 201
        fits(document, "/api/events/{code}/si/answers", "post", "201", sent.get_json(),
             SiReceived)
    closed = host("rounds/1/questions/1/close")
    assert [a["player"] for a in closed.get_json()["answers"]] == ["Вася", "Женя"]
    fits(document, Q + "close", "post", "200", closed.get_json(), SiClosed)
    late = player("Ира", "answers", round=1, question=1, text="answer 1.1")
    assert late.get_json()["late"] is True
    decided = host("rounds/1/questions/1/decide", player="Женя", mark="wrong")
    fits(document, Q + "decide", "post", "200", decided.get_json(), SiDecided)
    published = host("rounds/1/questions/1/publish")
    assert published.get_json()["lists"]
    fits(document, Q + "publish", "post", "200", published.get_json(), SiLists)
    claim = player("Ира", "claims", round=1, question=1)
    assert claim.status_code == 200 and claim.get_json()["on_time"] is False
    fits(document, "/api/events/{code}/si/claims", "post", "200", claim.get_json(),
         SiClaimSent)

    filed = player("Женя", "protests", round=1, question=1, text="Мой ответ верен")
    assert filed.status_code == 201
    fits(document, "/api/events/{code}/si/protests", "post", "201", filed.get_json(),
         SiProtestRow)
    pid = filed.get_json()["id"]
    heard = host(f"protests/{pid}/hear")
    fits(document, HOST + "protests/{protest}/hear", "post", "200", heard.get_json(),
         SiProtestRow)
    rejected = host(f"protests/{pid}/decide", upheld=False, warn=True)
    assert rejected.get_json()["warned"] is True
    fits(document, HOST + "protests/{protest}/decide", "post", "200", rejected.get_json(),
         SiProtestDecided)

    out = host("competition", player="Ира", in_competition=False)
    fits(document, HOST + "competition", "post", "200", out.get_json(), SiCompetitionSet)
    author = host("themes", round=2, theme=1, author="Ира")
    assert author.status_code == 200, author.get_json()
    fits(document, HOST + "themes", "post", "200", author.get_json(), SiThemeSet)
    nobody = host("themes", round=2, theme=1, author=None)
    fits(document, HOST + "themes", "post", "200", nobody.get_json(), SiThemeSet)
    warned = host("warnings", player="Женя")
    assert warned.get_json() == {"warnings": 2, "removed": True}
    fits(document, HOST + "warnings", "post", "200", warned.get_json(), SiWarned)


def test_the_players_sheet_fits(app, client):
    """Своя игра's sheet (screens.decorate): only the started questions and the player's
    part — its answer, its ПРОПУСТИЛИ claim (SI-2.4), what it may protest and its
    protests (SI-3) — are SiSheet's."""
    document = served_document(client)
    desk = Desk(client, *make_event(app, "si", {1: 25}))
    t = {name: desk.join(name, players=1) for name in ("Вася", "Ира")}

    def sheet(name: str) -> dict:
        got = desk.sheet(t[name]).get_json()
        fits(document, "/api/events/{code}/sheet", "get", "200", got, SiSheet)
        return got

    def player(name: str, path: str, **body):
        return client.post(f"/api/events/{desk.code}/si/{path}", json=body,
                           headers={"Authorization": f"Bearer {t[name]}"})

    assert sheet("Вася")["si"]["current"] is None
    start_question(client, desk.code, desk.password, 1, 1)
    assert player("Вася", "answers", round=1, question=1, text="не знам").status_code == 201
    mine = sheet("Вася")
    assert [q["number"] for q in mine["rounds"][0]["questions"]] == [1]
    assert mine["si"]["current"]["answer"] == "не знам"
    for step in ("close", "publish"):
        assert client.post(f"/api/host/events/{desk.code}/si/rounds/1/questions/1/{step}",
                           headers={"Authorization": f"Bearer {desk.password}"}
                           ).status_code == 200
    assert player("Вася", "claims", round=1, question=1).status_code == 200
    assert sheet("Вася")["si"]["current"]["claim"] == "pending"
    assert sheet("Ира")["si"]["protestable"]
    assert player("Ира", "protests", round=1, question=1, text="Верен").status_code == 201
    assert sheet("Ира")["si"]["protests"][0]["state"] == "filed"
