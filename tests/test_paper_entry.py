"""BG-E1 paper fallback: typed-in sheets go through the same checker and queue."""

from __future__ import annotations

from answerdesk import review
from answerdesk.events import event_by_code
from answerdesk.extensions import db
from answerdesk.models import Answer, AuditEntry, Team, Verdict


def login(desk):
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})


def team_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(db.select(Team.id).where(Team.name == name))


def answers(app) -> dict[tuple[str, int], tuple[str, str, str | None]]:
    with app.app_context():
        rows = db.session.execute(
            db.select(Team.name, Answer.question_id, Answer.text, Answer.source, Verdict.outcome)
            .join(Answer, Answer.team_id == Team.id)
            .outerjoin(Verdict, Verdict.answer_id == Answer.id)
        )
        return {(n, q): (t, s, o) for n, q, t, s, o in rows}


def test_bg_e1_paper_sheet_after_the_lock_is_checked_and_queued(desk, app):
    phone = desk.join("Телефон")
    desk.host(2, "open")
    desk.save(phone, 2, 1, "Левски")
    desk.host(2, "close")
    login(desk)
    resp = desk.client.post(f"/host/{desk.code}/paper/team", data={"name": "Хартия"})
    assert resp.status_code == 302
    paper = team_id(app, "Хартия")
    resp = desk.client.post(f"/host/{desk.code}/paper", data={
        "team": paper, "round": 2, "q1": "Васил Левски", "q2": "река Марица", "q3": "",
        "q4": "Война и мир"})
    assert resp.status_code == 302
    got = {k: v for k, v in answers(app).items() if k[0] == "Хартия"}
    assert sorted(v for v in got.values()) == [
        ("Васил Левски", "paper", "correct"), ("Война и мир", "paper", "correct"),
        ("река Марица", "paper", "review")]
    with app.app_context():
        items = review.review_queue(event_by_code(desk.code))
        actions = [e.action for e in db.session.scalars(db.select(AuditEntry).where(
            AuditEntry.actor == "host", AuditEntry.action == "answer.paper"))]
    assert [(i.text, i.teams) for i in items] == [("река Марица", ["Хартия"])]
    assert len(actions) == 3
    points = {r["team"]: r["points"] for r in desk.standings()}
    assert points == {"Телефон": 2, "Хартия": 4}


def test_paper_sheet_in_an_open_round_is_a_normal_save_marked_paper(desk, app):
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Ботев")  # typed on the phone first
    login(desk)
    desk.client.post(f"/host/{desk.code}/paper", data={
        "team": team_id(app, "Сови"), "round": 2, "q1": "Левски", "q2": "Марица"})
    sheet = desk.sheet(token).get_json()
    saved = {q["number"]: q.get("answer") for r in sheet["rounds"] if r["number"] == 2
             for q in r["questions"]}
    assert saved[1]["text"] == "Левски" and saved[1]["source"] == "paper"
    desk.host(2, "close")
    outcomes = {k[1]: v for k, v in answers(app).items()}
    assert sorted(v[2] for v in outcomes.values()) == ["correct", "correct"]


def test_a_team_switches_between_phone_and_paper(desk, app):
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Левски")
    desk.host(2, "close")
    desk.host(3, "open")
    desk.host(3, "close")
    login(desk)
    desk.client.post(f"/host/{desk.code}/paper", data={
        "team": team_id(app, "Сови"), "round": 3, "q2": "Мусала"})
    sources = sorted(v[1] for v in answers(app).values())
    assert sources == ["paper", "phone"]
    assert desk.standings()[0]["points"] == 4


def test_paper_change_after_a_decision_goes_back_to_the_queue(desk, app):
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 2, "река Марица")
    desk.host(2, "close")
    with app.app_context():
        event = event_by_code(desk.code)
        review.decide(event, review.review_queue(event)[0].verdict_ids, "wrong")
    login(desk)
    desk.client.post(f"/host/{desk.code}/paper", data={
        "team": team_id(app, "Сови"), "round": 2, "q2": "реката Марица"})
    with app.app_context():
        items = review.review_queue(event_by_code(desk.code))
    assert [i.text for i in items] == ["реката Марица"]


def test_paper_grid_page_lists_questions_in_order_with_the_song_widget(desk, app):
    desk.join("Сови")
    desk.host(4, "open")
    login(desk)
    page = desk.client.get(
        f"/host/{desk.code}/paper?team={team_id(app, 'Сови')}&round=4").get_data(as_text=True)
    assert page.index('name="q1.artists"') < page.index('name="q1.title"') < \
        page.index('name="q3"')
    desk.client.post(f"/host/{desk.code}/paper", data={
        "team": team_id(app, "Сови"), "round": 4, "q1.artists": "Queen",
        "q1.title": "Bohemian Rhapsody"})
    desk.host(4, "close")
    assert desk.standings()[0]["points"] == 3


def test_paper_refused_for_a_round_not_started(desk, app):
    desk.join("Сови")
    login(desk)
    resp = desk.client.post(f"/host/{desk.code}/paper", data={
        "team": team_id(app, "Сови"), "round": 3, "q1": "Колизеум"})
    assert resp.status_code == 400
