"""The host's desk: assistant login, live version, projector control, bounded SQL."""

from __future__ import annotations

import re

import pytest
from factories import make_event
from sqlalchemy import event as sa_event

from answerdesk.core.events import event_by_code
from answerdesk.core.teams import hash_token
from answerdesk.extensions import db
from answerdesk.models import Answer, Question, Team, Verdict


def login(client, code, password):
    return client.post(f"/host/{code}/login", data={"password": password})


def assistant_client(desk, app):
    login(desk.client, desk.code, desk.password)
    page = desk.client.post(f"/host/{desk.code}/assistant").get_data(as_text=True)
    password = re.search(r'id="assistant-password">([^<]+)<', page).group(1)
    other = app.test_client()
    resp = login(other, desk.code, password)
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/review")
    return other


def test_assistant_judges_but_cannot_correct_undo_or_run_rounds(desk, app):
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 2, "река Марица")
    desk.host(2, "close")
    helper = assistant_client(desk, app)
    page = helper.get(f"/host/{desk.code}/review").get_data(as_text=True)
    ids = re.search(r'name="verdicts" value="([\d,]+)"', page).group(1)
    resp = helper.post(f"/host/{desk.code}/review", data={"verdicts": ids, "decision": "correct"})
    assert resp.status_code == 302
    assert desk.standings()[0]["points"] == 2
    with app.app_context():
        team = db.session.scalar(db.select(Team.id))
    assert helper.post(f"/host/{desk.code}/corrections",
                       data={"team": team, "points": 5, "reason": "x"}).status_code == 403
    assert helper.post(f"/host/{desk.code}/audit/1/undo").status_code == 403
    assert helper.post(f"/host/{desk.code}/assistant").status_code == 403
    assert helper.post(f"/host/{desk.code}/rounds/3/open").status_code == 302  # to login
    assert desk.client.get(f"/host/{desk.code}/").status_code == 200
    with app.app_context():
        assert event_by_code(desk.code).round(3).state == "draft"
        decided_by = db.session.scalar(db.select(Verdict.decided_by))
    assert decided_by == "assistant"
    helper.post(f"/host/{desk.code}/logout")
    assert helper.get(f"/host/{desk.code}/review").status_code == 302


def test_new_assistant_password_replaces_the_old_one(desk, app):
    assistant_client(desk, app)
    page = desk.client.post(f"/host/{desk.code}/assistant").get_data(as_text=True)
    assert re.search(r'id="assistant-password">([^<]+)<', page)
    with app.app_context():
        assert event_by_code(desk.code).assistant_password_hash.startswith(("scrypt", "pbkdf2"))


def test_live_version_moves_on_every_change(desk, app):
    login(desk.client, desk.code, desk.password)
    first = desk.client.get(f"/host/{desk.code}/live").get_json()
    token = desk.join("Сови")
    second = desk.client.get(f"/host/{desk.code}/live").get_json()
    assert first["version"] != second["version"] and second["queue"] == 0
    desk.host(2, "open")
    desk.save(token, 2, 2, "река Марица")
    desk.host(2, "close")
    third = desk.client.get(f"/host/{desk.code}/live").get_json()
    assert third["queue"] == 1
    screen = desk.client.get(f"/e/{desk.code}/screen/version").get_json()
    # the close is the newest entry of both: the desk's and the projector's newest id
    # (the count beside it differs: the projector's skips the phone's save)
    assert screen["version"].split(".")[0] == third["version"].split(".")[0]
    assert screen["version"] != third["version"]


def test_projector_version_moves_with_its_picture_not_with_phone_saves(desk, app):
    """While teams type, the desk's version moves on every save; the projector shows
    no answer of an open round, so it keeps its picture (and the Wi-Fi) until the
    round, the standings or the screen change."""
    login(desk.client, desk.code, desk.password)

    def versions() -> tuple[str, str]:
        return (desk.client.get(f"/host/{desk.code}/live").get_json()["version"],
                desk.client.get(f"/e/{desk.code}/screen/version").get_json()["version"])

    token = desk.join("Сови")
    desk.host(2, "open")
    desk_before, screen_before = versions()
    frame = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert f'data-version="{screen_before}"' in frame
    desk.save(token, 2, 1, "Левски")
    desk.save(token, 2, 1, "Васил Левски")
    desk_typing, screen_typing = versions()
    assert desk_typing != desk_before and screen_typing == screen_before
    moves = [lambda: desk.join("Бухали"), lambda: desk.host(2, "close"),
             lambda: desk.client.post(f"/host/{desk.code}/projector",
                                      data={"view": "standings"})]
    for change in moves:
        change()
        _, screen_now = versions()
        assert screen_now != screen_typing
        screen_typing = screen_now


def test_projector_version_is_read_from_its_partial_index(app):
    """Without the index the projector's poll would walk back over every phone save of
    the round: the query live.screen_version sends must say `action <> 'answer.save'`
    as a literal, as the index does, or the database cannot use it."""
    from answerdesk import live

    sent = []

    def listener(conn, cursor, statement, parameters, context, executemany):
        if "audit_entry" in statement:  # not a new connection's PRAGMAs
            sent.append((statement, parameters))

    with app.app_context():
        event_id = make_event("bg", questions=1)[0].id
        sa_event.listen(db.engine, "before_cursor_execute", listener)
        try:
            live.screen_version(event_id)
        finally:
            sa_event.remove(db.engine, "before_cursor_execute", listener)
        ((statement, parameters),) = sent
        conn = db.session.connection()
        if conn.dialect.name == "postgresql":
            # As a statement prepared once and run all night: PostgreSQL then plans
            # it without the parameters' values, and a parameter in place of the
            # literal would not match the index's predicate.
            names = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", statement)))
            prepared = re.sub(r"%\((\w+)\)s", lambda m: f"${names.index(m[1]) + 1}", statement)
            # The planner picks by the table's statistics: on a table of a few rows the
            # primary key's backward scan costs as little. Give it a round's phone saves
            # (rolled back below), as a night has, so the choice the test makes is the
            # night's choice.
            conn.exec_driver_sql(
                "INSERT INTO audit_entry (event_id, at, actor, action, subject) "
                f"SELECT {event_id}, now(), 'team', 'answer.save', '' "
                "FROM generate_series(1, 20000)"
            )
            conn.exec_driver_sql("ANALYZE audit_entry")
            conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
            conn.exec_driver_sql("SET LOCAL plan_cache_mode = force_generic_plan")
            conn.exec_driver_sql(f"PREPARE screen_version AS {prepared}")
            values = ", ".join(
                str(value) if isinstance(value, int) else "'{}'".format(value.replace("'", "''"))
                for value in (parameters[name] for name in names)
            )
            rows = conn.exec_driver_sql(f"EXPLAIN EXECUTE screen_version({values})").all()
            conn.exec_driver_sql("DEALLOCATE screen_version")
        else:
            rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
        db.session.rollback()
        plan = " ".join(str(row) for row in rows)
    assert "ix_audit_entry_event_id_id_not_phone_save" in plan, plan


def test_projector_intro_locked_reveal_one_by_one_and_standings(desk, app):
    token = desk.join("Сови")
    login(desk.client, desk.code, desk.password)
    url = f"/host/{desk.code}/projector"
    desk.client.post(url, data={"view": "intro", "round": 2})
    live_url = f"/e/{desk.code}/screen/live"
    page = desk.client.get(live_url).get_data(as_text=True)
    assert "Я, това го знам бре!" in page and "view-intro" in page
    desk.host(2, "open")
    desk.save(token, 2, 2, "Марица")
    assert desk.client.post(url, data={"view": "reveal", "round": 2}).status_code == 409
    desk.host(2, "close")
    desk.client.post(url, data={"view": "locked", "round": 2})
    assert "view-locked" in desk.client.get(live_url).get_data(as_text=True)
    desk.client.post(url, data={"view": "reveal", "round": 2})
    page = desk.client.get(live_url).get_data(as_text=True)
    assert "Васил Левски" in page and "Марица" not in page  # one question at a time
    desk.client.post(url, data={"view": "reveal", "round": 2, "step": 1})
    page = desk.client.get(live_url).get_data(as_text=True)
    assert "Марица" in page and "Австрия" not in page
    desk.client.post(url, data={"view": "reveal", "round": 2, "step": -1})
    assert "Марица" not in desk.client.get(live_url).get_data(as_text=True)
    desk.client.post(url, data={"view": "standings"})
    page = desk.client.get(live_url).get_data(as_text=True)
    assert "view-standings" in page and "Сови" in page


def test_projector_standings_show_moves_since_the_last_round(desk, app):
    a, b = desk.join("А-отбор"), desk.join("Б-отбор")
    desk.host(2, "open")
    desk.save(a, 2, 1, "Левски")
    desk.host(2, "close")
    desk.host(2, "reveal")
    desk.host(3, "open")
    desk.save(b, 3, 1, "Колизеум")
    desk.save(b, 3, 2, "Мусала")
    desk.host(3, "close")
    desk.host(3, "reveal")  # BG-E3: the screen's standings move once the answers are shown
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    desk.client.post(f"/host/{desk.code}/projector", data={"view": "standings"})
    page = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert "▲1" in page and "▼1" in page


def seed(app, code: str, teams: int, questions: int = 10) -> None:
    """A locked round of ``questions`` with every team's answer in review."""
    with app.app_context():
        event = event_by_code(code)
        rnd = event.round(2)
        for number in range(len(rnd.questions) + 1, questions + 1):
            db.session.add(Question(round=rnd, number=number, text=f"Въпрос {number}",
                                    key=[f"Отговор {number}"]))
        rnd.state = "locked"
        db.session.flush()
        qs = db.session.scalars(db.select(Question).where(Question.round_id == rnd.id)).all()
        for i in range(teams):
            team = Team(event_id=event.id, name=f"Отбор {i}", name_key=f"отбор {i}",
                        token_hash=hash_token(f"{code}{i}"))
            db.session.add(team)
            db.session.flush()
            for q in qs:
                answer = Answer(team_id=team.id, question_id=q.id,
                                text=f"вариант {i % 7} {q.number}")
                db.session.add(answer)
                db.session.flush()
                db.session.add(Verdict(answer_id=answer.id, outcome="review", reason="test"))
        db.session.commit()


def count_queries(app, client, url: str) -> int:
    seen = []
    with app.app_context():
        engine = db.engine

    def listener(*args):
        seen.append(args[2])

    sa_event.listen(engine, "before_cursor_execute", listener)
    try:
        resp = client.get(url)
    finally:
        sa_event.remove(engine, "before_cursor_execute", listener)
    assert resp.status_code == 200
    return len(seen)


@pytest.mark.parametrize("page", ["review", "answers/2/5", "review/items", "live"])
def test_desk_pages_issue_a_bounded_number_of_queries(app, page):
    from answerdesk.formats.bg.demo import create_demo_event

    counts = []
    for teams in (10, 60):
        with app.app_context():
            event, password = create_demo_event()
            db.session.commit()
            code = event.code
        seed(app, code, teams)
        client = app.test_client()
        login(client, code, password)
        counts.append(count_queries(app, client, f"/host/{code}/{page}"))
    assert counts[0] == counts[1] and counts[1] <= 25, counts
