"""BG-E1 paper teams play jokers (BG-J1-J3) and shoot-outs (BG-S3) from the paper screen:
the host's form posts go through the phones' rules, refusals are translated and change
nothing, each entry is audited, and the standings count it."""

from __future__ import annotations

import datetime as dt
import html as markup
import re

import pytest

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.bg import shootout
from answerdesk.formats.bg.models import Joker, Shootout, ShootoutAnswer
from answerdesk.models import Answer, AuditEntry, Team

QUESTIONS = [("Година на Съединението?", "1885"), ("Височина на Мусала (м)?", "2925"),
             ("Дължина на Дунав в България (км)?", "471")]


def login(desk, lang: str = "en") -> None:
    desk.client.get(f"/lang/{lang}")
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})


def paper_team(desk, name: str = "Хартия") -> int:
    """A team without a phone, added on the paper screen."""
    resp = desk.client.post(f"/host/{desk.code}/paper/team", data={"name": name})
    assert resp.status_code == 302
    return int(re.search(r"team=(\d+)", resp.headers["Location"]).group(1))


def joker(desk, team: int, rnd: int, question: int, kind: str, **extra):
    return desk.client.post(f"/host/{desk.code}/paper/joker", data={
        "team": team, "round": rnd, "question": question, "kind": kind, **extra})


def sheet(desk, team: int, rnd: int, **lines):
    data = {"team": team, "round": rnd}
    data.update({name.replace("_", "-"): value for name, value in lines.items()})
    return desk.client.post(f"/host/{desk.code}/paper", data=data)


def numbers(desk, team: int, *values):
    data = {"team": team, "round": 2}
    data.update({f"number{i}": v for i, v in enumerate(values, 1)})
    return desk.client.post(f"/host/{desk.code}/paper/shootout", data=data)


def jokers_of(app, team: int) -> list[tuple[str, int]]:
    with app.app_context():
        return [(j.kind, j.question.number) for j in db.session.scalars(
            db.select(Joker).where(Joker.team_id == team).order_by(Joker.id))]


def audit(app, action: str) -> list[tuple[str, str, dict]]:
    with app.app_context():
        return [(e.actor, e.subject, e.after) for e in db.session.scalars(
            db.select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id))]


def by_round(desk, rnd: int) -> dict[str, float]:
    return {r["team"]: r["by_round"].get(str(rnd), 0) for r in desk.standings()}


def refusal(resp) -> str:
    found = re.search(r'id="paper-part-error">([^<]*)<', resp.get_data(as_text=True))
    return markup.unescape(found.group(1)) if found else ""


def test_bg_j1_paper_team_double_joker_counts_in_the_standings(desk, app):
    login(desk)
    team = paper_team(desk)
    desk.host(2, "open")
    page = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=2")
    html = page.get_data(as_text=True)
    assert 'id="paper-joker"' in html and '<option value="double">' in html
    resp = joker(desk, team, 2, 3, "double")
    assert resp.status_code == 302 and resp.headers["Location"].endswith("#paper-part")
    assert jokers_of(app, team) == [("double", 3)]
    # The grid now takes the second answer of question 3 (BG-J1).
    html = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=2").get_data(
        as_text=True)
    assert 'name="q3-second"' in html
    assert 'data-kind="double"' in html and "Хартия: joker played." in html
    assert sheet(desk, team, 2, q3_text="Австралия", q3_second="Австрия").status_code == 302
    desk.host(2, "close")
    assert by_round(desk, 2) == {"Хартия": 1}  # either answer right: 1 point
    assert audit(app, "joker.play") == [
        ("host", "R2Q3 Хартия",
         {"joker": "double", "copy_of": None, "hint": None, "source": "paper"})]
    log = desk.client.get(f"/host/{desk.code}/audit").get_data(as_text=True)
    assert "Хартия played a joker on question 3 of round 2" in log
    assert "entered by: paper" in log


def test_bg_j2_paper_team_copies_a_phone_team(desk, app):
    login(desk)
    phone = desk.join("Телефон")
    team = paper_team(desk)
    desk.host(2, "open")
    desk.save(phone, 2, 4, "Война и мир")
    with app.app_context():
        target = db.session.scalar(db.select(Team.id).where(Team.name == "Телефон"))
    assert joker(desk, team, 2, 4, "copy", copy_of=target).status_code == 302
    html = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=2").get_data(
        as_text=True)
    assert "Same answer as team Телефон" in html and 'name="q4-text"' not in html
    desk.host(2, "close")
    assert by_round(desk, 2) == {"Телефон": 2, "Хартия": 2}


def test_bg_j3_paper_first_letter_needs_the_confirmation_and_shows_the_hint(desk, app):
    login(desk)
    team = paper_team(desk)
    desk.host(2, "open")
    resp = joker(desk, team, 2, 1, "first_letter")
    assert resp.status_code == 400
    assert refusal(resp) == "Confirm the first letter joker: it cannot be undone."
    assert jokers_of(app, team) == []
    assert joker(desk, team, 2, 1, "first_letter", confirm="1").status_code == 302
    html = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=2").get_data(
        as_text=True)
    assert re.search(r"hint shown: <strong>В</strong>", html)


def test_bg_j_paper_refusals_are_the_phones_and_change_nothing(desk, app):
    login(desk)
    team = paper_team(desk)
    other = paper_team(desk, "Друг")
    desk.host(1, "open")
    desk.host(2, "open")
    assert joker(desk, team, 2, 1, "double").status_code == 302
    before = jokers_of(app, team)
    cases = [
        (joker(desk, team, 2, 2, "double"), 409, "Double joker already used in this game."),
        (joker(desk, team, 1, 1, "first_letter", confirm="1"), 409,
         "First letter joker only in rounds 2-4."),
        (joker(desk, team, 2, 9, "copy", copy_of=other), 404, "Round 2 has no question 9"),
        (joker(desk, team, 2, 2, "copy"), 400, "Name the team whose answer you copy."),
        (joker(desk, team, 2, 2, "copy", copy_of=team), 400, "A team cannot copy itself."),
        (joker(desk, team, 2, 2, "trump"), 409, "Unknown joker 'trump'."),
        (joker(desk, team, 2, "x", "copy", copy_of=other), 400,
         "question must be a whole number from 0 to 1000"),
    ]
    for resp, status, message in cases:
        assert (resp.status_code, refusal(resp)) == (status, message)
        assert 'id="paper-sheet"' in resp.get_data(as_text=True)  # back on the team's sheet
    assert jokers_of(app, team) == before
    assert len(audit(app, "joker.play")) == 1
    # BG-E1: the paper reaches the desk at the lock, so its joker is typed after it ...
    desk.host(2, "close")
    html = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=2").get_data(
        as_text=True)
    assert 'id="paper-joker"' in html
    assert joker(desk, team, 2, 2, "copy", copy_of=other).status_code == 302
    assert len(jokers_of(app, team)) == len(before) + 1
    # ... until the round's answers are shown (BG-E3): then the form says why it is gone.
    desk.host(3, "open")
    desk.host(3, "close")
    desk.host(3, "reveal")
    resp = joker(desk, team, 3, 1, "first_letter", confirm="1")
    assert (resp.status_code, refusal(resp)) == (
        409, "Round 3 is not open: no joker can be played.")
    html = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=3").get_data(
        as_text=True)
    assert 'id="paper-joker"' not in html and 'id="paper-joker-closed"' in html
    assert len(audit(app, "joker.play")) == 2


def test_bg_j_paper_refusal_in_the_hosts_language(desk, app):
    login(desk, "bg")
    team = paper_team(desk)
    desk.host(2, "open")
    joker(desk, team, 2, 1, "double")
    resp = joker(desk, team, 2, 2, "double")
    assert resp.status_code == 409
    assert refusal(resp) == "Двойният жокер вече е използван в тази игра."


def tied_paper_and_phone(desk, app) -> tuple[int, str, int]:
    """A phone team and a paper team both answered R2Q1 right: tied for first (BG-S2);
    the shoot-out is started. Returns (paper team id, phone token, shoot-out id)."""
    login(desk)
    phone = desk.join("Телефон")
    team = paper_team(desk)
    desk.host(2, "open")
    desk.save(phone, 2, 1, "Левски")
    assert sheet(desk, team, 2, q1_text="Левски").status_code == 302
    desk.host(2, "close")
    with app.app_context():
        started = shootout.start_shootout(event_by_code(desk.code), QUESTIONS).id
    return team, phone, started


def test_bg_s3_paper_team_shootout_numbers_decide_the_place(desk, app):
    team, phone, started = tied_paper_and_phone(desk, app)
    html = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=2").get_data(
        as_text=True)
    assert 'id="paper-shootout"' in html and "Година на Съединението?" in html
    assert "1885" not in html  # the key stays with the host's rules page
    resp = numbers(desk, team, "1885", "2 925", "470,5")
    assert resp.status_code == 302
    desk.client.put(f"/api/events/{desk.code}/shootout", json={"numbers": [1880, 2000, 400]},
                    headers={"Authorization": f"Bearer {phone}"})
    html = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=2").get_data(
        as_text=True)
    assert 'name="number3" inputmode="decimal" autocomplete="off"\n         value="470.5"' in html
    with app.app_context():
        shootout.lock_shootout(event_by_code(desk.code), started)
    places = {r["team"]: (r["place"], r["shared"]) for r in desk.standings()}
    assert places == {"Хартия": (1, False), "Телефон": (2, False)}
    assert audit(app, "shootout.numbers") == [
        ("host", "Хартия", {"numbers": [1885, 2925, 470.5], "source": "paper"})]
    log = desk.client.get(f"/host/{desk.code}/audit").get_data(as_text=True)
    assert "Shoot-out numbers of Хартия typed from the paper sheet" in log
    assert "numbers: 1885, 2925, 470.5" in log


def test_bg_s3_paper_numbers_checked_like_a_phones_and_typed_after_the_minute(desk, app):
    team, phone_token, started = tied_paper_and_phone(desk, app)
    assert numbers(desk, team, "1885", "", "").status_code == 302
    resp = numbers(desk, team, "1885", "около 3000", "471")
    assert (resp.status_code, refusal(resp)) == (400, "'около 3000' is not a number")
    outsider = paper_team(desk, "Трети")
    resp = numbers(desk, outsider, "1", "2", "3")
    assert (resp.status_code, refusal(resp)) == (404, "Трети plays in no shoot-out")
    with app.app_context():
        row = db.session.get(Shootout, started)
        row.started_at -= dt.timedelta(seconds=61)
        db.session.commit()
    with app.app_context():
        saved = db.session.scalars(db.select(ShootoutAnswer.numbers)).all()
    assert saved == [[1885.0, None, None]]
    assert len(audit(app, "shootout.numbers")) == 1
    # The paper was written within the minute and reaches the desk after it (BG-E1):
    # the host still types it; a phone's numbers after the minute are refused.
    late = numbers(desk, team, "1885", "2925", "471")
    assert late.status_code == 302
    phone = desk.client.put(f"/api/events/{desk.code}/shootout",
                            json={"numbers": [1, 2, 3]},
                            headers={"Authorization": f"Bearer {phone_token}"})
    assert phone.status_code == 409
    with app.app_context():
        saved = sorted(db.session.scalars(db.select(ShootoutAnswer.numbers)).all())
    assert saved == [[1885.0, 2925.0, 471.0]]
    assert len(audit(app, "shootout.numbers")) == 2


@pytest.mark.parametrize("locale", ("bg", "ru", "en"))
def test_paper_jokers_and_shootout_speak_the_hosts_language(desk, app, locale):
    from test_i18n_crawl import PageText, foreign_words, user_words

    team, _phone, _started = tied_paper_and_phone(desk, app)
    desk.host(3, "open")
    joker(desk, team, 3, 1, "double")
    desk.client.get(f"/host/{desk.code}/paper")  # the English confirmations, read
    desk.client.get(f"/lang/{locale}")
    page = desk.client.get(f"/host/{desk.code}/paper?team={team}&round=3")
    html = page.get_data(as_text=True)
    assert 'id="paper-joker"' in html and 'id="paper-shootout"' in html
    assert 'data-kind="double"' in html
    text = PageText()
    text.feed(html)
    words = re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in user_words(app)))
    shown = words.sub(" ", "\n".join(text.parts))
    keys = {"Tab", "Enter"}  # the keyboard's own words; single letters are keys too (А/A)
    assert [w for w in foreign_words(shown, locale) if w not in keys and len(w) > 1] == [], \
        shown


def test_bg_e1_the_assistant_enters_a_paper_joker_under_its_own_name(desk, app):
    from answerdesk.core.assistants import new_assistant_password

    login(desk)
    team = paper_team(desk)
    desk.host(2, "open")
    with app.app_context():
        password = new_assistant_password(event_by_code(desk.code), actor="host")
        db.session.commit()
        db.session.commit()
    desk.client.get(f"/host/{desk.code}/logout")
    desk.client.post(f"/host/{desk.code}/login", data={"password": password})
    assert joker(desk, team, 2, 4, "double").status_code == 302
    assert [actor for actor, _s, _a in audit(app, "joker.play")] == ["assistant"]


def test_bg_s3_no_winner_before_the_paper_numbers_and_numbers_as_typed(desk, app):
    """The minute is over but the paper team's numbers are not typed yet: no phone, no
    projector and no standings name a winner until the host closes the shoot-out."""
    team, phone, started = tied_paper_and_phone(desk, app)
    desk.client.put(f"/api/events/{desk.code}/shootout", json={"numbers": ["1878", 2000, 400]},
                    headers={"Authorization": f"Bearer {phone}"})
    with app.app_context():
        row = db.session.get(Shootout, started)
        row.started_at -= dt.timedelta(seconds=61)
        db.session.commit()
    so = desk.sheet(phone).get_json()["play"]["shootout"]
    assert so["locked"] and not so["decided"] and "order" not in so
    assert so["numbers"] == [1878, 2000, 400]
    screen = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert 'id="screen-shootout' in screen and 'id="screen-shootout-result"' not in screen
    assert {r["team"]: r["shared"] for r in desk.standings()} == {"Хартия": True,
                                                                   "Телефон": True}
    rules = desk.client.get(f"/host/{desk.code}/rules").get_data(as_text=True)
    assert 'id="shootout-missing"' in rules and "Хартия" in rules
    assert numbers(desk, team, "1885", "2925", "471").status_code == 302
    desk.client.post(f"/host/{desk.code}/rules/shootout/{started}/lock")
    so = desk.sheet(phone).get_json()["play"]["shootout"]
    assert so["order"] == [["Хартия"], ["Телефон"]]
    screen = desk.client.get(f"/e/{desk.code}/screen/live").get_data(as_text=True)
    assert 'id="screen-shootout-result"' in screen
    assert "1878" in screen and "1878.0" not in screen and "1885.0" not in screen


def test_bg_s3_no_shootout_offered_before_any_round(desk, app):
    login(desk)
    desk.join("А"), desk.join("Б")
    rules = desk.client.get(f"/host/{desk.code}/rules").get_data(as_text=True)
    assert 'id="shootout-later"' in rules
    assert f'action="/host/{desk.code}/rules/shootout"' not in rules
    refused = desk.client.post(f"/host/{desk.code}/rules/shootout", data={
        "text1": "Q1", "answer1": "1", "text2": "Q2", "answer2": "2", "text3": "Q3",
        "answer3": "3"})
    assert refused.status_code == 409


@pytest.mark.parametrize("closed", (False, True))
def test_bg_e1_an_emptied_paper_line_is_cleared_and_copy_then_plays(desk, app, closed):
    """The host empties a paper answer: it is cleared (not kept), and the copy joker
    BG-J2, which needs no answer of the team's own, is then accepted."""
    login(desk)
    other = desk.join("Телефон")
    team = paper_team(desk)
    desk.host(3, "open")
    desk.save(other, 3, 1, "Колизеум")
    assert sheet(desk, team, 3, q1_text="Колизеум").status_code == 302
    if closed:
        desk.host(3, "close")
    assert sheet(desk, team, 3, q1_text="").status_code == 302
    with app.app_context():
        texts = db.session.scalars(db.select(Answer.text).where(Answer.team_id == team)).all()
    assert texts == [""]
    resp = joker(desk, team, 3, 1, "copy", copy_of=db_team_id(app, "Телефон"))
    assert resp.status_code == 302, refusal(resp)
    assert jokers_of(app, team) == [("copy", 1)]
    # A phone answer is never dropped from the desk: its empty line changes nothing.
    assert sheet(desk, db_team_id(app, "Телефон"), 3, q1_text="").status_code == 302
    with app.app_context():
        kept = db.session.scalars(db.select(Answer.text).where(
            Answer.team_id == db_team_id(app, "Телефон"))).all()
    assert kept == ["Колизеум"]


def db_team_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(db.select(Team.id).where(Team.name == name))
