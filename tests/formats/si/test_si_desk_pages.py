"""The Своя игра desk is safe under pressure (issue 29, SI-1.2, SI-1.3, SI-2.4, SI-3):
a refusal keeps the host on the desk with its message; the second warning asks first and
a warning can be taken back; the chosen mark stands out; the uphold form names the
protester; "@Name" plays out of competition; a lost phone gets a new link; the results
export has real points, places and headers in the reader's language."""

from __future__ import annotations

import csv
import io
import re

from buzzgame import make_event, start_question
from openpyxl import load_workbook


def _player(client, code: str, name: str) -> str:
    resp = client.post(f"/api/events/{code}/teams", json={"name": name, "players": 1})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["token"]


def _send(client, code: str, token: str, q: int, text: str) -> None:
    resp = client.post(f"/api/events/{code}/si/answers", json={
        "round": 1, "question": q, "text": text}, headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 201, resp.get_json()


def _setup(app, client):
    code, password = make_event(app, "si", {1: 25})
    tokens = {name: _player(client, code, name) for name in ("Вася", "Ира", "@Гость")}
    host = app.test_client()
    host.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"
    assert host.post(f"/host/{code}/login", data={"password": password}).status_code == 302
    return code, password, tokens, host


def test_the_desk_keeps_the_host_and_marks_the_choice(app, client):
    code, password, t, host = _setup(app, client)
    start_question(client, code, password, 1, 1)
    _send(client, code, t["Вася"], 1, "answer 1.1")
    _send(client, code, t["Ира"], 1, "что-то странное")
    _send(client, code, t["@Гость"], 1, "answer 1.1")
    host.post(f"/host/{code}/si/close", data={"round": "1", "question": "1"})
    host.post(f"/host/{code}/si/decide", data={"round": "1", "question": "1",
                                               "player": "Ира", "mark": "none"})
    page = host.get(f"/host/{code}/si").get_data(as_text=True)
    row = re.search(r'<tr data-player="Ира">.*?</tr>', page, re.S).group(0)
    chosen = re.findall(r'class="si-mark chosen" aria-pressed="true">✓ ([^<]+)<', row)
    assert len(chosen) == 1
    published = host.post(f"/host/{code}/si/publish", data={"round": "1", "question": "1"},
                          follow_redirects=True)
    assert published.status_code == 200
    assert "Пульт Своей игры" in published.get_data(as_text=True)
    # SI-1.2: "@Гость" plays, scores, but is not ranked
    state = client.get(f"/api/events/{code}/state").get_json()["si"]
    rows = {s["player"]: (s["points"], s["place"], s["in_competition"])
            for s in state["scores"]}
    assert rows["@Гость"] == (1, None, False)
    assert rows["Вася"] == (1, 1, True)


def test_a_refused_publish_stays_on_the_desk_with_the_message(app, client):
    code, password, t, host = _setup(app, client)
    start_question(client, code, password, 1, 2)
    _send(client, code, t["Ира"], 2, "ans 1.2")  # the checker leaves it to the host
    host.post(f"/host/{code}/si/close", data={"round": "1", "question": "2"})
    resp = host.post(f"/host/{code}/si/publish", data={"round": "1", "question": "2"},
                     follow_redirects=True)
    text = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Пульт Своей игры" in text
    problem = re.search(r'id="si-problem"[^>]*>([^<]+)<', text).group(1)
    assert "Ира" in problem
    state = client.get(f"/api/events/{code}/state").get_json()["si"]["current"]
    assert state["state"] == "closed"  # nothing published


def test_second_warning_asks_and_a_warning_can_be_taken_back(app, client):
    code, password, t, host = _setup(app, client)
    host.post(f"/host/{code}/si/warn", data={"player": "Вася"})
    warned = lambda: client.get(f"/api/events/{code}/state").get_json()["si"]  # noqa: E731
    assert host.post(f"/host/{code}/si/warn", data={"player": "Вася"}).status_code == 302
    page = host.get(f"/host/{code}/si").get_data(as_text=True)
    assert 'id="confirm-warn"' in page and "Да, дать второе предупреждение" in page
    assert not next(s for s in warned()["scores"] if s["player"] == "Вася")["removed"]
    host.post(f"/host/{code}/si/warn", data={"player": "Вася", "confirm": "yes"})
    assert next(s for s in warned()["scores"] if s["player"] == "Вася")["removed"]
    host.post(f"/host/{code}/si/unwarn", data={"player": "Вася"})
    assert not next(s for s in warned()["scores"] if s["player"] == "Вася")["removed"]


def test_a_lost_phone_gets_a_new_link_and_plays_on_as_itself(app, client):
    code, password, t, host = _setup(app, client)
    page = host.post(f"/host/{code}/si/relink", data={"player": "Ира"}).get_data(as_text=True)
    link = re.search(r"<code>(http[^<]+#token=([\w-]+))</code>", page)
    assert link, page[:3000]
    new = link.group(2)
    old = client.get(f"/api/events/{code}/sheet", headers={"Authorization": f"Bearer {t['Ира']}"})
    assert old.status_code == 401
    sheet = client.get(f"/api/events/{code}/sheet", headers={"Authorization": f"Bearer {new}"})
    assert sheet.get_json()["si"]["player"] == "Ира"
    assert new not in host.get(f"/host/{code}/si").get_data(as_text=True)  # shown once


def test_the_results_export_has_points_places_and_the_readers_headers(app, client):
    code, password, t, host = _setup(app, client)
    start_question(client, code, password, 1, 3)
    _send(client, code, t["Ира"], 3, "answer 1.3")
    _send(client, code, t["Вася"], 3, "Ленинград")
    host.post(f"/host/{code}/si/close", data={"round": "1", "question": "3"})
    host.post(f"/host/{code}/si/publish", data={"round": "1", "question": "3"})
    host.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    data = host.get(f"/host/{code}/si/export/results.csv").get_data().decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(data)))
    assert lines[0][:3] == ["Place", "Player", "Round 1"] and lines[0][-2] == "Points"
    assert lines[1][:4] == ["1", "Ира", "3", "0"] and lines[1][-2] == "3"
    assert lines[-1][1] == "Вася" and lines[-1][-2] == "-3"
    book = load_workbook(io.BytesIO(host.get(f"/host/{code}/si/export/results.xlsx").data))
    sheet = [[c.value for c in row] for row in book.worksheets[0].iter_rows()]
    assert sheet[0][:2] == ["Place", "Player"]
    assert [(r[0], r[1], r[-2]) for r in sheet[1:]] == [
        ("1", "Ира", 3), ("—", "@Гость", 0), ("2", "Вася", -3)]
    standings = client.get(f"/api/events/{code}/standings").get_json()["standings"]
    assert [(r["team"], r["points"], r["place"]) for r in standings][0] == ("Ира", 3, 1)
    page = host.get(f"/host/{code}/standings").get_data(as_text=True)
    assert "Ира" in page and "—" in page  # @Гость: out of competition, no place
