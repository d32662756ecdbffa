"""The Bulgarian rules through the API and the services: rounds, wildcard, final round,
jokers and disputes (RULES.md BG-R1..R6, BG-J1-J3, BG-D1). Test names carry rule ids."""

from __future__ import annotations

import pytest

from answerdesk.core import disputes, review
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.bg import final, scoring, wildcard
from answerdesk.formats.bg.programme import BG_SCENARIOS
from answerdesk.models import Answer, AuditEntry, Team, Verdict


def points(desk) -> dict[str, float]:
    return {r["team"]: r["points"] for r in desk.standings()}


def by_round(desk, rnd: int) -> dict[str, float]:
    return {r["team"]: r["by_round"].get(str(rnd), 0) for r in desk.standings()}


def joker(desk, token, kind, rnd, q, **extra):
    return desk.client.post(f"/api/events/{desk.code}/jokers",
                            json={"kind": kind, "round": rnd, "question": q, **extra},
                            headers={"Authorization": f"Bearer {token}"})


def question(sheet: dict, rnd: int, q: int) -> dict:
    section = next(r for r in sheet["rounds"] if r["number"] == rnd)
    return next(item for item in section["questions"] if item["number"] == q)


def choose(app, desk, scenario: str) -> None:
    with app.app_context():
        wildcard.choose_scenario(event_by_code(desk.code), scenario)


def verdict_id(app, team: str, rnd: int, q: int) -> int:
    from answerdesk.models import Question, Round

    with app.app_context():
        return db.session.scalar(
            db.select(Verdict.id).join(Answer).join(Team).join(Question).join(Round)
            .where(Team.name == team, Round.number == rnd, Question.number == q))


# ---------------------------------------------------------------- rounds and widgets


def test_bg_r1_choice_widgets_and_one_point(desk):
    a, b = desk.join("A"), desk.join("B")
    desk.host(1, "open")
    sheet = desk.sheet(a).get_json()
    assert question(sheet, 1, 1)["widget"] == {"kind": "truefalse",
                                               "options": ["вярно", "невярно"]}
    assert question(sheet, 1, 2)["widget"]["options"] == ["А", "Б", "В", "Г"]
    assert desk.save(a, 1, 1, "", fields={"choice": "вярно"}).get_json()["text"] == "вярно"
    assert desk.save(a, 1, 2, "", fields={"choice": "Б"}).get_json()["text"] == "Б"
    desk.save(b, 1, 2, "", fields={"choice": "В"})
    desk.host(1, "close")
    assert by_round(desk, 1) == {"A": 2, "B": 0}


def test_bg_r1_choice_outside_the_options_refused(desk):
    token = desk.join("A")
    desk.host(1, "open")
    resp = desk.save(token, 1, 2, "", fields={"choice": "Д"})
    assert resp.status_code == 400 and "А, Б, В, Г" in resp.get_json()["message"]


def test_bg_r2_up_to_three_errors_two_points(desk):
    a, b = desk.join("A"), desk.join("B")
    desk.host(2, "open")
    desk.save(a, 2, 1, "Васил Левски")
    desk.save(b, 2, 1, "Васил Левкси")  # one swapped pair of letters
    desk.host(2, "close")
    assert by_round(desk, 2) == {"A": 2, "B": 2}


def test_bg_r3_pictures_like_r2(desk):
    a, b = desk.join("A"), desk.join("B")
    desk.host(3, "open")
    desk.save(a, 3, 2, "Мусала")
    desk.save(b, 3, 2, "Рила")
    desk.host(3, "close")
    assert by_round(desk, 3) == {"A": 2, "B": 0}


def test_bg_r4_2_r4_3_r4_4_titles_transcriptions_and_latin_typing(desk):
    a, b, c = desk.join("A"), desk.join("B"), desk.join("C")
    desk.host(4, "open")
    desk.save(a, 4, 3, "Titanic")  # BG-R4.2 the original title
    desk.save(b, 4, 3, "Titanik")  # BG-R4.4 Bulgarian typed in Latin letters
    desk.save(c, 4, 2, "", fields={"title": "Billie Jean", "artists": "Майкъл Джексън"})
    desk.host(4, "close")  # BG-R4.3 ↑ Cyrillic transcription of a foreign name
    assert by_round(desk, 4) == {"A": 3, "B": 3, "C": 3}


def test_bg_r4_1_song_title_and_performers_fields_partial_one_of_three(desk):
    a, b, c, d = (desk.join(n) for n in "ABCD")
    desk.host(4, "open")
    assert question(desk.sheet(a).get_json(), 4, 1)["widget"] == {"kind": "song"}
    full = desk.save(a, 4, 1, "", fields={"title": "Bohemian Rhapsody", "artists": "Queen"})
    assert full.get_json()["text"] == "Queen – Bohemian Rhapsody"
    desk.save(b, 4, 1, "", fields={"title": "Bohemian Rhapsody", "artists": ""})
    desk.save(c, 4, 1, "Queen - Bohemian Rhapsody")  # one free-text line
    desk.save(d, 4, 1, "", fields={"title": "", "artists": "ABBA"})
    desk.host(4, "close")
    assert by_round(desk, 4) == {"A": 3, "B": 1, "C": 3, "D": 0}


def test_bg_r5_4_number_twice_refused_and_used_numbers_shown(desk, app):
    token = desk.join("A")
    choose(app, desk, "5.4")
    desk.host(5, "open")
    sheet = desk.sheet(token).get_json()
    assert question(sheet, 5, 1)["widget"]["kind"] == "number"
    assert desk.save(token, 5, 7, "7").status_code == 200
    refused = desk.save(token, 5, 3, "седем")
    assert refused.status_code == 409
    assert "7" in refused.get_json()["message"] and refused.get_json()["question"] == 7
    assert desk.save(token, 5, 3, "", fields={"number": "seven"}).status_code == 409
    assert desk.save(token, 5, 3, "три").status_code == 200
    assert desk.save(token, 5, 7, "седем").status_code == 200  # the same question again
    section = next(r for r in desk.sheet(token).get_json()["rounds"] if r["number"] == 5)
    assert section["used_numbers"] == {"7": 7, "3": 3}
    desk.host(5, "close")
    assert by_round(desk, 5) == {"A": 2}


def test_bg_r5_5_all_in_pickers_all_or_nothing(desk, app):
    a, b = desk.join("A"), desk.join("B")
    choose(app, desk, "5.5")
    desk.host(5, "open")
    assert question(desk.sheet(a).get_json(), 5, 1)["widget"] == {
        "kind": "pairs", "numbers": ["1", "2", "3", "4"], "letters": ["А", "Б", "В", "Г"]}
    full = desk.save(a, 5, 1, "", fields={"pairs": {"1": "В", "2": "А", "3": "Б", "4": "Г"}})
    assert full.get_json()["text"] == "1В 2А 3Б 4Г"
    assert desk.save(b, 5, 1, "", fields={"pairs": {"1": "В", "2": "А", "3": "Б"}}).status_code \
        == 200
    desk.host(5, "close")
    assert by_round(desk, 5) == {"A": 5, "B": 0}  # 3 of 4 pairs → 0


def test_bg_r5_5_invalid_pairing_refused(desk, english, app):
    token = desk.join("A")
    choose(app, desk, "5.5")
    desk.host(5, "open")
    resp = desk.save(token, 5, 1, "", fields={"pairs": {"1": "В", "2": "В"}})
    assert resp.status_code == 400 and "one number" in resp.get_json()["message"]


@pytest.mark.parametrize("scenario", sorted(BG_SCENARIOS))
def test_bg_r5_scenario_sets_check_mode_points_and_questions(desk, app, scenario):
    choose(app, desk, scenario)
    expected = {"5.1": ("exact", 2), "5.2": ("exact", 2), "5.3": ("typo5", 2),
                "5.4": ("number", 1), "5.5": ("pairs", 5)}[scenario]
    with app.app_context():
        rnd = event_by_code(desk.code).round(5)
        assert (rnd.check_mode, rnd.points) == expected
        assert rnd.partial_points == (0 if scenario == "5.3" else None)
        assert len(rnd.questions) == {"5.4": 10, "5.5": 1}.get(scenario, 2)


def test_bg_r5_1_exact_match_only(desk, app):
    a, b = desk.join("A"), desk.join("B")
    choose(app, desk, "5.1")
    desk.host(5, "open")
    desk.save(a, 5, 1, "«юпитер»")
    desk.save(b, 5, 1, "Юпитэр")
    desk.host(5, "close")
    assert by_round(desk, 5) == {"A": 2, "B": 0}


def test_bg_r5_3_media_no_partial_credit(desk, app):
    a, b = desk.join("A"), desk.join("B")
    choose(app, desk, "5.3")
    desk.host(5, "open")
    desk.save(a, 5, 1, "", fields={"title": "Yesterday", "artists": "The Beatles"})
    desk.save(b, 5, 1, "", fields={"title": "Yesterday", "artists": ""})
    desk.host(5, "close")
    assert by_round(desk, 5) == {"A": 2, "B": 0}


def lock_r4(desk, answers: dict[str, str]) -> dict[str, str]:
    tokens = {name: desk.join(name) for name in answers}
    desk.host(4, "open")
    for name, text in answers.items():
        if text:
            desk.save(tokens[name], 4, 3, text)
    desk.host(4, "close")
    return tokens


def test_bg_r5_0_single_last_team_chooses_without_draw(desk, app):
    tokens = lock_r4(desk, {"A": "Титаник", "B": "Титаник", "C": ""})
    with app.app_context():
        row = wildcard.name_chooser(event_by_code(desk.code))
        assert row.chooser.name == "C" and row.seed is None
    play = desk.client.get(f"/api/events/{desk.code}/play",
                           headers={"Authorization": f"Bearer {tokens['C']}"}).get_json()
    assert play["wildcard"]["can_choose"] is True


def test_bg_r5_0_tie_for_last_drawn_recorded_and_shown(desk, app):
    lock_r4(desk, {"A": "Титаник", "B": "", "C": ""})
    with app.app_context():
        row = wildcard.name_chooser(event_by_code(desk.code), seed=12345)
        chosen, candidates = row.chooser.name, [c["name"] for c in row.candidates]
        assert row.seed == "12345" and sorted(candidates) == ["B", "C"]
        ids = [c["id"] for c in row.candidates]
        replay = scoring.last_place_draw(
            [scoring.Standing(t, 0, 2, True, False) for t in ids], seed=12345)
        assert db.session.get(Team, replay.chosen).name == chosen
        entry = db.session.scalar(db.select(AuditEntry).where(
            AuditEntry.action == "wildcard.draw"))
        assert entry.after["seed"] == "12345" and entry.after["chosen"] == chosen
    screen = desk.client.get(f"/e/{desk.code}/screen").get_data(as_text=True)
    assert "12345" in screen and chosen in screen


def test_bg_r5_0_chooser_picks_on_phone_others_refused(desk, app):
    tokens = lock_r4(desk, {"A": "Титаник", "B": ""})
    with app.app_context():
        wildcard.name_chooser(event_by_code(desk.code))
    url = f"/api/events/{desk.code}/wildcard"
    other = desk.client.post(url, json={"scenario": "5.5"},
                             headers={"Authorization": f"Bearer {tokens['A']}"})
    assert other.status_code == 409
    mine = desk.client.post(url, json={"scenario": "5.5"},
                            headers={"Authorization": f"Bearer {tokens['B']}"})
    assert mine.get_json() == {"round": 5, "kind": "pairs", "check_mode": "pairs", "points": 5}
    again = desk.client.post(url, json={"scenario": "5.1"},
                             headers={"Authorization": f"Bearer {tokens['B']}"})
    assert again.status_code == 409
    desk.host(5, "open")
    late = desk.client.post(url, json={"scenario": "5.1"},
                            headers={"Authorization": f"Bearer {tokens['B']}"})
    assert late.status_code == 409


def test_bg_r5_0_draw_needs_round_4_locked(desk, app):
    desk.join("A")
    with app.app_context(), pytest.raises(Exception, match="Round 4"):
        wildcard.name_chooser(event_by_code(desk.code))


# ---------------------------------------------------------------- final round


def test_bg_r6_1_r6_2_one_question_at_a_time(desk, app):
    a, b = desk.join("A"), desk.join("B")
    with app.app_context():
        final.open_question(event_by_code(desk.code), 1)
    sheet = desk.sheet(a).get_json()
    r6 = next(r for r in sheet["rounds"] if r["number"] == 6)
    assert [q["number"] for q in r6["questions"]] == [1]
    assert "Байкал" not in str(sheet)
    assert desk.save(a, 6, 2, "Байкал").status_code == 409  # not shown yet
    assert desk.save(a, 6, 1, "Борис").status_code == 200
    desk.save(b, 6, 1, "Симеон")
    with app.app_context():
        event = event_by_code(desk.code)
        with pytest.raises(Exception, match="Lock the open question"):
            final.open_question(event, 2)
        final.lock_question(event, 1)
    late = desk.save(a, 6, 1, "Борис I")
    assert late.status_code == 409 and late.get_json()["error"] == "round_locked"
    assert points(desk) == {"A": 5, "B": 0}
    with app.app_context():
        event = event_by_code(desk.code)
        final.reveal_question(event, 1)
        final.open_question(event, 2)
    sheet = desk.sheet(a).get_json()
    r6 = next(r for r in sheet["rounds"] if r["number"] == 6)
    assert [(q["number"], q["state"]) for q in r6["questions"]] == [(1, "revealed"),
                                                                      (2, "open")]
    assert r6["questions"][0]["correct_answer"].startswith("Борис I")
    assert r6["questions"][0]["verdict"] == "correct"
    assert desk.save(a, 6, 2, "Байкал").status_code == 200


def test_bg_r6_1_anything_but_a_near_match_goes_to_the_host(desk, app):
    a, b, c = desk.join("A"), desk.join("B"), desk.join("C")
    with app.app_context():
        final.open_question(event_by_code(desk.code), 2)
    desk.save(a, 6, 2, "Байкаль")
    desk.save(b, 6, 2, "Танганайка")
    desk.save(c, 6, 2, "")
    with app.app_context():
        final.lock_question(event_by_code(desk.code), 2)
        outcomes = dict(db.session.execute(
            db.select(Team.name, Verdict.outcome).join(Answer, Answer.team_id == Team.id)
            .join(Verdict)).all())
    assert outcomes == {"A": "correct", "B": "review", "C": "wrong"}


# ---------------------------------------------------------------- jokers


def test_bg_j1_double_joker_one_point_if_either_is_right(desk):
    a, b = desk.join("A"), desk.join("B")
    desk.host(2, "open")
    no_joker = desk.save(a, 2, 3, "", fields={"text": "Германия", "second": "Австрия"})
    assert no_joker.status_code == 400
    assert joker(desk, a, "double", 2, 3).status_code == 201
    assert desk.save(a, 2, 3, "", fields={"text": "Германия", "second": "Австрия"}) \
        .status_code == 200
    desk.save(b, 2, 3, "Австрия")
    desk.host(2, "close")
    assert by_round(desk, 2) == {"A": 1, "B": 2}


def test_bg_j1_double_second_use_and_wrong_round_refused(desk, english):
    token = desk.join("A")
    desk.host(2, "open")
    desk.host(4, "open")
    refused = joker(desk, token, "double", 4, 1)
    assert refused.status_code == 409 and "rounds 2-3" in refused.get_json()["message"]
    assert joker(desk, token, "double", 2, 1).status_code == 201
    desk.host(3, "open")
    again = joker(desk, token, "double", 3, 1)
    assert again.status_code == 409 and "already used" in again.get_json()["message"]


def test_bg_j2_copy_scores_what_x_scores_and_follows_a_later_verdict_change(desk, app):
    a, b = desk.join("A"), desk.join("B")
    desk.host(2, "open")
    desk.save(a, 2, 4, "Анна Каренина")
    assert joker(desk, b, "copy", 2, 4, copy_of="a").status_code == 201  # BG-G1 folding
    assert desk.save(b, 2, 4, "Война и мир").status_code == 409  # copied: no own answer
    desk.host(2, "close")
    assert by_round(desk, 2) == {"A": 0, "B": 0}
    decided = verdict_id(app, "A", 2, 4)
    with app.app_context():
        review.decide(event_by_code(desk.code), [decided], "correct", override=True)
    assert by_round(desk, 2) == {"A": 2, "B": 2}


def test_bg_j2_copy_chain_followed_cycle_scores_zero(desk):
    a, b, c, d, e = (desk.join(n) for n in "ABCDE")
    desk.host(1, "open")
    desk.save(a, 1, 2, "", fields={"choice": "Б"})
    joker(desk, b, "copy", 1, 2, copy_of="A")
    joker(desk, c, "copy", 1, 2, copy_of="B")
    joker(desk, d, "copy", 1, 2, copy_of="E")
    joker(desk, e, "copy", 1, 2, copy_of="D")
    desk.host(1, "close")
    assert by_round(desk, 1) == {"A": 1, "B": 1, "C": 1, "D": 0, "E": 0}


def test_bg_j2_copy_limits(desk):
    a = desk.join("A")
    desk.join("B")
    desk.host(5, "open")
    assert joker(desk, a, "copy", 5, 1, copy_of="B").status_code == 409  # R1-R4 only
    desk.host(1, "open")
    assert joker(desk, a, "copy", 1, 1, copy_of="A").status_code == 400  # not itself
    assert joker(desk, a, "copy", 1, 1, copy_of="Nobody").status_code == 404
    assert joker(desk, a, "copy", 1, 1, copy_of="B").status_code == 201
    assert joker(desk, a, "copy", 1, 2, copy_of="B").status_code == 409  # once per game


def test_bg_j3_first_letter_confirmed_irreversible_and_only_on_that_phone(
        desk, english, app):
    a, b = desk.join("A"), desk.join("B")
    desk.host(1, "open")
    desk.host(2, "open")
    assert joker(desk, a, "first_letter", 1, 1, confirm=True).status_code == 409  # R2-R4
    unconfirmed = joker(desk, a, "first_letter", 2, 2)
    assert unconfirmed.status_code == 400 and "cannot be undone" in \
        unconfirmed.get_json()["message"]
    used = joker(desk, a, "first_letter", 2, 2, confirm=True)
    assert used.status_code == 201 and used.get_json()["hint"] == "М"
    assert joker(desk, a, "first_letter", 2, 1, confirm=True).status_code == 409
    mine = desk.sheet(a).get_json()["play"]["jokers"]
    assert mine["played"] == [{"kind": "first_letter", "round": 2, "question": 2,
                               "copy_of": None, "hint": "М"}]
    assert "first_letter" not in mine["remaining"]
    theirs = desk.sheet(b).get_json()["play"]["jokers"]
    assert theirs["played"] == [] and "first_letter" in theirs["remaining"]
    desk.save(a, 2, 2, "Марица")
    desk.host(2, "close")
    assert by_round(desk, 2)["A"] == 2  # normal points
    with app.app_context():
        entry = db.session.scalar(db.select(AuditEntry).where(AuditEntry.action == "joker.play"))
        assert entry.after["hint"] == "М" and entry.subject == "R2Q2 A"


def test_bg_j3_hint_from_the_key_of_a_song_is_the_band(desk):
    token = desk.join("A")
    desk.host(4, "open")
    assert joker(desk, token, "first_letter", 4, 1, confirm=True).get_json()["hint"] == "Q"


def test_bg_j_joker_refused_when_the_round_is_locked(desk):
    token = desk.join("A")
    desk.host(2, "open")
    desk.host(2, "close")
    assert joker(desk, token, "double", 2, 1).status_code == 409


# ---------------------------------------------------------------- disputes


def close_r2(desk, answers: dict[str, str], q: int = 2) -> None:
    tokens = {name: desk.join(name) for name in answers}
    desk.host(2, "open")
    for name, text in answers.items():
        if text:
            desk.save(tokens[name], 2, q, text)
    desk.host(2, "close")


def test_bg_d1_uphold_for_one_team_only(desk, app):
    close_r2(desk, {"A": "Тунджа", "B": "Тунджа"})
    with app.app_context():
        event = event_by_code(desk.code)
        team = db.session.scalar(db.select(Team).where(Team.name == "A"))
        disputes.uphold(event, 2, 2, team, "showed a map")
    assert by_round(desk, 2) == {"A": 2, "B": 0}


def test_bg_d1_accepted_answer_rechecks_every_team_at_once(desk, app):
    close_r2(desk, {"A": "Тунджа", "B": "тунджа!", "C": "Искър"})
    assert by_round(desk, 2) == {"A": 0, "B": 0, "C": 0}
    with app.app_context():
        disputes.accept_answer(event_by_code(desk.code), 2, 2, "Тунджа", "source: atlas")
        entry = db.session.scalar(db.select(AuditEntry).where(
            AuditEntry.action == "dispute.accept"))
        assert entry.before["outcomes"] == {"A": "wrong", "B": "wrong", "C": "wrong"}
        assert entry.after["outcomes"] == {"A": "correct", "B": "correct", "C": "wrong"}
        assert entry.after["reason"] == "source: atlas"
    assert by_round(desk, 2) == {"A": 2, "B": 2, "C": 0}


def test_bg_d1_annul_credits_every_team(desk, app):
    close_r2(desk, {"A": "Марица", "B": "Искър", "C": ""})
    with app.app_context():
        disputes.annul(event_by_code(desk.code), 2, 2, "two rivers fit")
    assert by_round(desk, 2) == {"A": 2, "B": 2, "C": 2}


def test_bg_d1_every_decision_needs_a_reason_and_a_locked_round(desk, app):
    close_r2(desk, {"A": "Марица"})
    with app.app_context():
        event = event_by_code(desk.code)
        with pytest.raises(Exception, match="reason"):
            disputes.annul(event, 2, 2, "  ")
        with pytest.raises(Exception, match="locked"):
            disputes.annul(event, 3, 1, "too early")


def test_bg_d1_host_pages_decide_disputes(desk, app):
    close_r2(desk, {"A": "Тунджа"})
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    page = desk.client.get(f"/host/{desk.code}/disputes").get_data(as_text=True)
    assert "Марица" in page
    resp = desk.client.post(f"/host/{desk.code}/disputes", data={
        "kind": "accept", "round": 2, "question": 2, "answer": "Тунджа", "reason": "atlas"})
    assert resp.status_code == 302
    assert by_round(desk, 2) == {"A": 2}
    assert "atlas" in desk.client.get(f"/host/{desk.code}/disputes").get_data(as_text=True)


def test_bg_r6_1_a_final_answer_reaches_the_review_queue_at_once(desk, app):
    """The queue is live: the host sees the answer while the question is open, and
    still after its lock."""
    token = desk.join("A")
    with app.app_context():
        final.open_question(event_by_code(desk.code), 1)
    desk.save(token, 6, 1, "Симеон Велики")
    with app.app_context():
        event = event_by_code(desk.code)
        items = review.review_queue(event)
        assert [(i.round, i.question, i.text) for i in items] == [(6, 1, "Симеон Велики")]
        final.lock_question(event, 1)
        items = review.review_queue(event)
        assert [(i.round, i.question) for i in items] == [(6, 1)]


def test_bg_r6_2_locking_the_last_question_locks_the_round(desk, app):
    desk.join("A")
    with app.app_context():
        event = event_by_code(desk.code)
        for number in (1, 2):
            final.open_question(event, number)
            final.lock_question(event, number)
        assert event_by_code(desk.code).round(6).state == "locked"
        with pytest.raises(Exception, match="Round 6 is "):
            final.open_question(event, 1)
    # The refusal names the state in the reader's words, not the code "locked".
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    refused = desk.client.post(f"/host/{desk.code}/rules/final/1/open",
                               headers={"Accept-Language": "bg"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 409 and "затворен" in text and "locked" not in text
