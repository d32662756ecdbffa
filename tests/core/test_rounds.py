"""core.rounds.question_of: the one lookup of a question by the numbers the host and
the phones use. Every caller refuses a missing question with the same translated 404
and changes nothing (BG-E2 saves, CHGK-1.1 clock, BG-D1 disputes, receipts, the desk's
answers page), on the neutral format; the Bulgarian game's own callers (BG-J jokers,
BG-R6 final) are in tests/formats/bg/test_bg_question_lookup.py."""

from __future__ import annotations

import pytest
from factories import refuses_missing_question

from answerdesk.core import clock, disputes, receipts, rounds
from answerdesk.errors import NotFound
from answerdesk.extensions import db
from answerdesk.models import Event, Team

LOCKS = ({}, {"for_update": True}, {"for_share": True})


def _event(code: str) -> Event:
    return db.session.scalar(db.select(Event).where(Event.code == code))


@pytest.mark.parametrize("lock", LOCKS, ids=("unlocked", "for_update", "for_share"))
def test_question_of_finds_every_question_under_every_lock(app, plain_event, lock) -> None:
    code, _ = plain_event
    with app.app_context():
        event = _event(code)
        wanted = [(r.number, q.number, q.id) for r in event.rounds for q in r.questions]
        assert wanted
        for round_number, number, question_id in wanted:
            rnd, question = rounds.question_of(event, round_number, number, **lock)
            assert (rnd.number, question.number, question.id) == \
                (round_number, number, question_id)
            assert question.round_id == rnd.id
        db.session.rollback()


@pytest.mark.parametrize("lock", LOCKS, ids=("unlocked", "for_update", "for_share"))
def test_question_of_refuses_a_missing_question_or_round(app, plain_event, lock) -> None:
    code, _ = plain_event
    with app.app_context():
        event = _event(code)
        with pytest.raises(NotFound) as refused:
            rounds.question_of(event, 2, 99, **lock)
        assert str(refused.value) == "Round 2 has no question 99"
        assert refused.value.details == {"round": 2, "question": 99}
        db.session.rollback()
        with pytest.raises(NotFound) as refused:
            rounds.question_of(event, 99, 1, **lock)
        assert str(refused.value) == "Round 99 does not exist"
        db.session.rollback()


def _callers(event: Event, team: Team) -> dict:
    return {
        "receipt": lambda r, q: receipts.verify_receipt(event, team.name, r, q, "ABCD1234"),
        "dispute": lambda r, q: disputes.annul(event, r, q, "misprint"),
        "clock": lambda r, q: clock.start_question(event, r, q),
    }


@pytest.mark.parametrize("caller", ("receipt", "dispute", "clock"))
def test_every_caller_refuses_a_missing_question_alike(app, plain_desk, caller) -> None:
    desk = plain_desk
    desk.join("Сови")
    with app.app_context():
        event = _event(desk.code)
        team = db.session.scalar(db.select(Team).where(Team.event_id == event.id))
        round_number = 2
        refuses_missing_question(_callers(event, team)[caller], round_number)


def test_desk_answers_page_refuses_a_missing_question_in_the_hosts_language(
        plain_desk) -> None:
    """The desk's answers page: the same refusal, translated, instead of a bare 404."""
    desk = plain_desk
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    for lang, text in (("bg", "Кръг 2 няма въпрос 99"), ("ru", "В раунде 2 нет вопроса 99"),
                       ("en", "Round 2 has no question 99")):
        page = desk.client.get(f"/host/{desk.code}/answers/2/99",
                               headers={"Accept-Language": lang})
        assert page.status_code == 404
        assert text in page.get_data(as_text=True)
