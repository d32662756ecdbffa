"""IDOR sweep: every route of app.url_map, called by everyone who is not entitled.

Routes are enumerated from the app itself, so a route added tomorrow is swept
too. Team A saves secret answers; a team of the same event (B), a team of
another event, that event's host, and an anonymous phone call every route with
every method. None of them may read A's answers or the key of a round not yet
revealed (BG-E3) from any response, reach a host route, or change anything.
"""

from __future__ import annotations

import itertools
import json
import re

import pytest

from answerdesk.extensions import db
from answerdesk.formats.bg.demo import create_demo_event
from answerdesk.models import Answer, Question, Round, Verdict

SECRET = "ТАЙНА-на-отбор-А"
KEY = "КЛЮЧ-на-неразкрит-въпрос"
PUBLIC_KEY = "КЛЮЧ-на-разкрит-въпрос"

# Host routes live under /host/<code>/ and /api/host/; these two are for anyone.
HOST_PUBLIC = {"host.login", "host.logout"}
# Routes of the team holding the token: they act on that team only.
TEAM = {"api.sheet", "api.save_answer"}
A_AS_HOST = "team A's token as host password"
ARGUMENTS = {"round_number": [1, 2, 3], "number": [1, 2, 3], "question_number": [1],
             "action": ["open", "close", "reveal"], "filename": ["sheet.js"]}


@pytest.fixture
def night(app, desk):
    """Team A answers in a locked round (1), an open one (2) and a revealed one (3)."""
    a = desk.join("Отбор А")
    b = desk.join("Отбор Б")
    with app.app_context():
        other, other_password = create_demo_event()
        db.session.commit()
        other_code = other.code
    c = desk.client.post(f"/api/events/{other_code}/teams",
                         json={"name": "Чужди"}).get_json()["token"]
    for rnd in (1, 2, 3):
        desk.host(rnd, "open")
        for q in (1, 2):
            assert desk.save(a, rnd, q, f"{SECRET} R{rnd}Q{q}").status_code == 200
    with app.app_context():
        for rnd, key in ((1, KEY), (2, KEY), (3, PUBLIC_KEY)):
            question = db.session.scalar(
                db.select(Question).join(Round).where(Round.number == rnd, Question.number == 1,
                                                      Round.event_id == _event_id(desk.code)))
            question.key = [f"{key} {rnd}"]
        db.session.commit()
    desk.host(1, "close")
    desk.host(3, "close")
    desk.host(3, "reveal")
    with app.app_context():
        for verdict in db.session.scalars(db.select(Verdict)):
            verdict.outcome = "review"  # so the review queue has something to leak
        db.session.commit()
    return {"a": a, "b": b, "c": c, "other_code": other_code, "other_password": other_password}


def _event_id(code: str) -> int:
    from answerdesk.core.events import event_by_code

    return event_by_code(code).id


def _snapshot(app) -> tuple:
    with app.app_context():
        answers = sorted(
            (a.team_id, a.question_id, a.text, a.version)
            for a in db.session.scalars(db.select(Answer))
        )
        rounds = sorted((r.event_id, r.number, r.state)
                        for r in db.session.scalars(db.select(Round)))
        decisions = sorted((v.id, v.decision) for v in db.session.scalars(db.select(Verdict)))
        return answers, rounds, decisions


def _urls(app, code: str):
    """Every (endpoint, method, url) of the app, with the victim event's code."""
    seen = set()
    for rule in app.url_map.iter_rules():
        choices = []
        for arg in sorted(rule.arguments):
            if arg == "code":
                choices.append([(arg, code)])
            else:
                numeric = type(rule._converters[arg]).__name__ == "IntegerConverter"
                values = ARGUMENTS.get(arg, [1, 2] if numeric else ["x"])
                choices.append([(arg, value) for value in values])
        for combo in itertools.product(*choices):
            values = dict(combo)
            url = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>",
                         lambda m, values=values: str(values[m.group(1)]), rule.rule)
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                seen.add(rule.endpoint)
                yield rule.endpoint, method, url
    assert seen == {r.endpoint for r in app.url_map.iter_rules()}


def _attackers(app, desk, night):
    """(name, test client, headers) of everyone who is not A nor A's host."""
    other_host = app.test_client()
    other_host.post(f"/host/{night['other_code']}/login",
                    data={"password": night["other_password"]})
    bearer = lambda token: {"Authorization": f"Bearer {token}"}  # noqa: E731
    return [
        ("anonymous", app.test_client(), {}),
        ("team B", app.test_client(), bearer(night["b"])),
        ("other event's team", app.test_client(), bearer(night["c"])),
        ("other event's host (login)", other_host, {}),
        ("other event's host (password)", app.test_client(), bearer(night["other_password"])),
        (A_AS_HOST, app.test_client(), bearer(night["a"])),
    ]


def _call(client, method: str, url: str, headers: dict):
    body = {"text": "взлом", "name": "Взлом", "players": 2, "seq": 1}
    form = {"password": "x", "decision": "correct", "verdicts": "1,2,3,4,5,6"}
    if url.startswith("/api/"):
        return client.open(url, method=method, headers=headers, json=body,
                           query_string={"team": "Отбор А", "code": "ABCD1234"})
    return client.open(url, method=method, headers=headers, data=form,
                       query_string={"team": "Отбор А", "round": 1, "question": 1,
                                     "code": "ABCD1234"})


def _text(resp) -> str:
    """The response as a person reads it (JSON without \\u escapes)."""
    if resp.is_json:
        return json.dumps(resp.get_json(), ensure_ascii=False)
    return resp.get_data(as_text=True)


def test_every_route_refuses_every_outsider(app, desk, night):
    before = _snapshot(app)
    calls = 0
    for endpoint, method, url in _urls(app, desk.code):
        for who, client, headers in _attackers(app, desk, night):
            host_route = url.startswith(("/host/", "/api/host/")) and endpoint not in HOST_PUBLIC
            if who == A_AS_HOST and not host_route:
                continue  # that is team A itself, not an outsider
            resp = _call(client, method, url, headers)
            calls += 1
            body = _text(resp)
            where = f"{who}: {method} {url} -> {resp.status_code}"
            assert resp.status_code < 500, where
            assert SECRET not in body, f"team A's answer leaked to {where}"
            assert KEY not in body, f"an unrevealed key leaked to {where}"
            if endpoint in TEAM:
                if who == "team B":
                    continue  # B's own sheet and answers: content checked above
                assert resp.status_code == 401, where
                continue
            if not host_route:
                continue  # phone pages, projector, standings: the content checks above
            if resp.status_code == 302:
                assert "/login" in resp.headers["Location"], where
            else:
                assert resp.status_code in (401, 403), where
    assert calls > 100
    after = _snapshot(app)
    a_team_answers = lambda snap: [row for row in snap[0] if SECRET in row[2]]  # noqa: E731
    assert a_team_answers(after) == a_team_answers(before), "team A's answers changed"
    assert after[1] == before[1], "a round changed state"
    assert after[2] == before[2], "a verdict was decided"


def test_team_b_writes_only_its_own_answer(desk, night):
    """The answer URL names no team: the token decides whose answer it is."""
    resp = desk.save(night["b"], 2, 1, "ОТГОВОР-НА-Б")
    assert resp.status_code == 200
    a_sheet = desk.sheet(night["a"]).get_json()
    round2 = next(r for r in a_sheet["rounds"] if r["number"] == 2)
    assert round2["questions"][0]["answer"]["text"] == f"{SECRET} R2Q1"
    assert "ОТГОВОР-НА-Б" not in str(a_sheet)


def test_host_sees_what_outsiders_cannot(app, desk, night):
    """The sweep is not vacuous: the host of the event does see the secrets."""
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    review = desk.client.get(f"/host/{desk.code}/review").get_data(as_text=True)
    assert SECRET in review and KEY in review
    own = _text(desk.sheet(night["a"]))
    assert SECRET in own and KEY not in own and PUBLIC_KEY in own
