"""BG-E1 paper fallback (core/paper.py with the BG rules): typed-in sheets use the
phone's widgets and rules, and go through the same checker and queue."""

from __future__ import annotations

from answerdesk.core import review
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.bg import final, wildcard
from answerdesk.models import Answer, AuditEntry, Question, Round, Team, Verdict


def login(desk):
    desk.client.get("/lang/en")  # the refusals below are read in English
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


def stored(app, team: str, rnd: int) -> dict[int, tuple[str, object, str]]:
    """question number → (text, fields, source) of the team's answers in a round."""
    with app.app_context():
        rows = db.session.execute(
            db.select(Question.number, Answer.text, Answer.fields, Answer.source)
            .join(Answer, Answer.question_id == Question.id).join(Team)
            .join(Round, Question.round_id == Round.id)
            .where(Team.name == team, Round.number == rnd))
        return {n: (t, f, s) for n, t, f, s in rows}


def by_round(desk, rnd: int) -> dict[str, float]:
    return {r["team"]: r["by_round"].get(str(rnd), 0) for r in desk.standings()}


def paper(desk, app, team: str, rnd: int, **lines):
    """Post a paper sheet; ``q1_choice="Б"`` is the form field ``q1-choice``."""
    data = {"team": team_id(app, team), "round": rnd}
    data.update({name.replace("_", "-"): value for name, value in lines.items()})
    return desk.client.post(f"/host/{desk.code}/paper", data=data)


def choose(app, desk, scenario: str) -> None:
    with app.app_context():
        wildcard.choose_scenario(event_by_code(desk.code), scenario)


def test_bg_e1_paper_sheet_after_the_lock_is_checked_and_queued(desk, app):
    desk.join("Телефон")
    desk.host(2, "open")
    desk.save(desk.join("Втори"), 2, 1, "Левски")
    desk.host(2, "close")
    login(desk)
    resp = desk.client.post(f"/host/{desk.code}/paper/team", data={"name": "Хартия"})
    assert resp.status_code == 302
    resp = paper(desk, app, "Хартия", 2, q1_text="Васил Левски", q2_text="река Марица",
                 q3_text="", q4_text="Война и мир")
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
    assert points == {"Телефон": 0, "Втори": 2, "Хартия": 4}


def test_bg_e1_paper_r1_choice_widgets(desk, app):
    desk.join("Сови")
    desk.host(1, "open")
    login(desk)
    page = desk.client.get(
        f"/host/{desk.code}/paper?team={team_id(app, 'Сови')}&round=1").get_data(as_text=True)
    assert page.count('type="radio" name="q1-choice"') == 2  # true / false
    assert page.count('type="radio" name="q2-choice"') == 4  # А Б В Г
    assert page.index('name="q1-choice"') < page.index('name="q2-choice"') < \
        page.index('name="q4-choice"')
    assert paper(desk, app, "Сови", 1, q1_choice="вярно", q2_choice="Б",
                 q4_choice="Г").status_code == 302
    assert stored(app, "Сови", 1) == {1: ("вярно", {"choice": "вярно"}, "paper"),
                                      2: ("Б", {"choice": "Б"}, "paper"),
                                      4: ("Г", {"choice": "Г"}, "paper")}
    # The grid posts every line as it stands (an emptied paper line is cleared, issue 34).
    refused = paper(desk, app, "Сови", 1, q1_choice="вярно", q2_choice="Б", q3_choice="Д",
                    q4_choice="Г")
    assert refused.status_code == 400
    assert "Choose one of" in refused.get_data(as_text=True)
    assert 3 not in stored(app, "Сови", 1)
    desk.host(1, "close")
    assert by_round(desk, 1) == {"Сови": 2}


def test_bg_r4_1_paper_song_title_and_performers_partial(desk, app):
    desk.join("Сови")
    desk.join("Орли")
    desk.host(4, "open")
    login(desk)
    page = desk.client.get(
        f"/host/{desk.code}/paper?team={team_id(app, 'Сови')}&round=4").get_data(as_text=True)
    assert page.index('name="q1-title"') < page.index('name="q1-artists"') < \
        page.index('name="q1-line"') < page.index('name="q2-title"') < page.index('name="q3-text"')
    paper(desk, app, "Сови", 4, q1_title="Bohemian Rhapsody", q2_artists="Michael Jackson",
          q2_title="Billie Jean")
    paper(desk, app, "Орли", 4, q1_line="Queen - Bohemian Rhapsody", q2_title="Thriller")
    assert stored(app, "Сови", 4)[2][0] == "Michael Jackson – Billie Jean"
    desk.host(4, "close")
    assert by_round(desk, 4) == {"Сови": 1 + 3, "Орли": 3}  # title alone: 1 of 3 (BG-R4.1)


def test_bg_r5_5_paper_all_in_pickers_and_invalid_pairing_refused(desk, app):
    desk.join("Сови")
    desk.join("Орли")
    choose(app, desk, "5.5")
    desk.host(5, "open")
    login(desk)
    page = desk.client.get(
        f"/host/{desk.code}/paper?team={team_id(app, 'Сови')}&round=5").get_data(as_text=True)
    assert all(f'<select name="q1-pair-{n}">' in page for n in "1234")
    ok = paper(desk, app, "Сови", 5, **{"q1_pair_1": "В", "q1_pair_2": "А", "q1_pair_3": "Б",
                                        "q1_pair_4": "Г"})
    assert ok.status_code == 302
    assert stored(app, "Сови", 5)[1][0] == "1В 2А 3Б 4Г"
    refused = paper(desk, app, "Орли", 5, q1_pair_1="В", q1_pair_2="В")
    body = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "one number only" in body
    assert "<option selected>В</option>" in body  # the host's typing is kept to fix it
    assert stored(app, "Орли", 5) == {}
    desk.host(5, "close")
    assert by_round(desk, 5) == {"Сови": 5, "Орли": 0}


def test_bg_r5_4_paper_number_used_twice_refused(desk, app):
    token = desk.join("Сови")
    choose(app, desk, "5.4")
    desk.host(5, "open")
    assert desk.save(token, 5, 7, "седем").status_code == 200  # on the phone, as a word
    login(desk)
    page = desk.client.get(
        f"/host/{desk.code}/paper?team={team_id(app, 'Сови')}&round=5").get_data(as_text=True)
    assert 'class="chip used" data-number="7"' in page and 'data-number="7">' in page
    assert 'name="q3-number"' in page
    refused = paper(desk, app, "Сови", 5, q3_number="7", q1_number="1", q2_number="1")
    body = refused.get_data(as_text=True)
    assert refused.status_code == 400
    assert "The number 7 is already your answer to question 7." in body
    assert "The number 1 is already your answer to question 1." in body
    assert stored(app, "Сови", 5) == {1: ("1", {"number": "1"}, "paper"),
                                      7: ("седем", None, "phone")}


def test_bg_e1_a_team_switches_between_phone_and_paper(desk, app):
    token = desk.join("Сови")
    desk.host(1, "open")
    desk.save(token, 1, 2, "", fields={"choice": "Б"})  # round 1 on the phone
    desk.host(1, "close")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Левски")  # the phone dies during round 2
    login(desk)
    resp = paper(desk, app, "Сови", 2, q1_text="Левски", q2_text="Марица")  # the sheet again
    assert resp.status_code == 302
    desk.host(2, "close")
    desk.host(3, "open")
    desk.save(token, 3, 2, "Мусала")  # charged: round 3 on the phone again
    desk.host(3, "close")
    assert {n: s for n, (_t, _f, s) in stored(app, "Сови", 2).items()} == {1: "phone",
                                                                             2: "paper"}
    assert stored(app, "Сови", 1)[2][2] == "phone" and stored(app, "Сови", 3)[2][2] == "phone"
    assert by_round(desk, 1) == {"Сови": 1} and by_round(desk, 2) == {"Сови": 4}
    assert by_round(desk, 3) == {"Сови": 2}
    sheet = desk.sheet(token).get_json()
    r2 = next(r for r in sheet["rounds"] if r["number"] == 2)
    assert r2["questions"][1]["answer"]["source"] == "paper"  # the phone shows the paper


def test_paper_sheet_in_an_open_round_is_a_normal_save_marked_paper(desk, app):
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Ботев")  # typed on the phone first
    login(desk)
    paper(desk, app, "Сови", 2, q1_text="Левски", q2_text="Марица")
    sheet = desk.sheet(token).get_json()
    saved = {q["number"]: q.get("answer") for r in sheet["rounds"] if r["number"] == 2
             for q in r["questions"]}
    assert saved[1]["text"] == "Левски" and saved[1]["source"] == "paper"
    desk.host(2, "close")
    outcomes = {k[1]: v for k, v in answers(app).items()}
    assert sorted(v[2] for v in outcomes.values()) == ["correct", "correct"]


def test_bg_e1_locked_round_paper_gets_the_phone_rules(desk, app):
    """Past the lock the desk runs widgets.prepare_answer like a phone save."""
    token = desk.join("Сови")
    choose(app, desk, "5.4")
    desk.host(5, "open")
    desk.save(token, 5, 7, "7")
    desk.host(5, "close")
    login(desk)
    refused = paper(desk, app, "Сови", 5, q3_number="seven", q1_number="1")
    assert refused.status_code == 400
    assert "The number 7 is already your answer to question 7." in refused.get_data(as_text=True)
    assert sorted(stored(app, "Сови", 5)) == [1, 7]
    assert by_round(desk, 5) == {"Сови": 2}  # question 1 checked at once, past the lock
    with app.app_context():
        subjects = [e.subject for e in db.session.scalars(
            db.select(AuditEntry).where(AuditEntry.action == "answer.paper"))]
    assert subjects == ["R5Q1 Сови"]


def test_bg_r5_5_locked_round_paper_invalid_pairing_refused(desk, app):
    desk.join("Сови")
    choose(app, desk, "5.5")
    desk.host(5, "open")
    desk.host(5, "close")
    login(desk)
    resp = paper(desk, app, "Сови", 5, q1_pair_1="А", q1_pair_2="Б", q1_pair_3="А")
    assert resp.status_code == 400 and "one number only" in resp.get_data(as_text=True)
    assert stored(app, "Сови", 5) == {}


def test_bg_j2_paper_refused_where_the_team_copies(desk, app):
    a, b = desk.join("A"), desk.join("B")
    desk.host(2, "open")
    desk.save(a, 2, 4, "Война и мир")
    assert desk.client.post(f"/api/events/{desk.code}/jokers",
                            json={"kind": "copy", "round": 2, "question": 4, "copy_of": "A"},
                            headers={"Authorization": f"Bearer {b}"}).status_code == 201
    desk.host(2, "close")
    login(desk)
    page = desk.client.get(f"/host/{desk.code}/paper?team={team_id(app, 'B')}&round=2")
    assert 'name="q4-text"' not in page.get_data(as_text=True)  # "copies A" instead
    resp = paper(desk, app, "B", 2, q1_text="Левски", q4_text="Анна Каренина")
    assert resp.status_code == 400
    assert "copies another team" in resp.get_data(as_text=True)
    assert [n for n in stored(app, "B", 2)] == [1]


def test_bg_r6_paper_past_a_question_lock_but_not_before_it_is_shown(desk, app):
    desk.join("Сови")
    with app.app_context():
        final.open_question(event_by_code(desk.code), 1)
        final.lock_question(event_by_code(desk.code), 1)
    login(desk)
    page = desk.client.get(
        f"/host/{desk.code}/paper?team={team_id(app, 'Сови')}&round=6").get_data(as_text=True)
    assert 'name="q1-text"' in page and 'name="q2-text"' not in page
    resp = paper(desk, app, "Сови", 6, q1_text="Борис I", q2_text="Байкал")
    assert resp.status_code == 400
    assert "Question 2 of round 6 is not open for answers." in resp.get_data(as_text=True)
    assert stored(app, "Сови", 6) == {1: ("Борис I", {"text": "Борис I"}, "paper")}
    assert by_round(desk, 6) == {"Сови": 5}


def phone_answer_decided(desk, app, decision: str) -> None:
    """Team "Сови" answered R2Q2 "река Марица" on its phone; the round is closed and
    the host decided the answer."""
    token = desk.join("Сови")
    desk.host(2, "open")
    desk.save(token, 2, 2, "река Марица")
    desk.host(2, "close")
    with app.app_context():
        event = event_by_code(desk.code)
        review.decide(event, review.review_queue(event)[0].verdict_ids, decision)
        db.session.commit()


def test_paper_change_after_a_decision_goes_back_to_the_queue(desk, app):
    phone_answer_decided(desk, app, "wrong")
    login(desk)
    paper(desk, app, "Сови", 2, q2_text="реката Марица")
    with app.app_context():
        items = review.review_queue(event_by_code(desk.code))
    assert [i.text for i in items] == ["реката Марица"]


def test_paper_unchanged_line_keeps_the_phone_answer_and_its_decision(desk, app):
    phone_answer_decided(desk, app, "correct")
    login(desk)
    assert paper(desk, app, "Сови", 2, q2_text="река Марица", q3_text="Австрия") \
        .status_code == 302
    assert {n: s for n, (_t, _f, s) in stored(app, "Сови", 2).items()} == {2: "phone",
                                                                             3: "paper"}
    assert by_round(desk, 2) == {"Сови": 4}


def test_paper_refused_for_a_round_not_started(desk, app):
    desk.join("Сови")
    login(desk)
    resp = paper(desk, app, "Сови", 3, q1_text="Колизеум")
    assert resp.status_code == 400 and "has not started yet" in resp.get_data(as_text=True)


def test_bg_j1_paper_second_answer_only_with_the_double_joker(desk, app):
    token = desk.join("Сови")
    desk.host(2, "open")
    assert desk.client.post(f"/api/events/{desk.code}/jokers",
                            json={"kind": "double", "round": 2, "question": 3},
                            headers={"Authorization": f"Bearer {token}"}).status_code == 201
    desk.host(2, "close")
    login(desk)
    page = desk.client.get(
        f"/host/{desk.code}/paper?team={team_id(app, 'Сови')}&round=2").get_data(as_text=True)
    assert 'name="q3-second"' in page and 'name="q2-second"' not in page
    resp = paper(desk, app, "Сови", 2, q3_text="Австралия", q3_second="Австрия",
                 q2_text="Марица", q2_second="Дунав")
    assert resp.status_code == 400
    assert "A second answer needs the double joker" in resp.get_data(as_text=True)
    assert stored(app, "Сови", 2) == {3: ("Австралия", {"text": "Австралия",
                                                       "second": "Австрия"}, "paper")}
    assert by_round(desk, 2) == {"Сови": 1}  # BG-J1: either answer right → 1 point
