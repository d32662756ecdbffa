"""core/answers.py: the phone's save and the service's, on the neutral format.

BG-E2: a save is acknowledged while its round is open and then kept (with its
audit row and a receipt only the server can make), or refused once the round or
the question is locked, never both. A repeat of an edit the server already has
changes nothing; bad input is refused and writes nothing. The format adds only
what its hooks say (Format.check_save): the neutral game adds nothing.
"""

from __future__ import annotations

import pytest
from factories import (
    PLAIN,
    PlainQuiz,
    close_round,
    make_answers,
    make_event,
    make_team,
    open_round,
    registered,
)

from answerdesk.core import answer_write, answers, formats
from answerdesk.errors import DeskError, RoundLocked
from answerdesk.extensions import db
from answerdesk.models import PHONE_SAVE, Answer, AuditEntry, Event, Question, Round, Team


def _stored(app, code: str, team: str) -> list[tuple[int, int, str, int, str]]:
    """The team's answers as (round, question, text, version, source)."""
    with app.app_context():
        rows = db.session.execute(
            db.select(Round.number, Question.number, Answer.text, Answer.version,
                      Answer.source)
            .join(Answer, Answer.question_id == Question.id)
            .join(Team, Answer.team_id == Team.id)
            .join(Event, Team.event_id == Event.id)
            .join(Round, Question.round_id == Round.id)
            .where(Event.code == code, Team.name == team)
            .order_by(Question.id))
        return [tuple(row) for row in rows]


def _saves(app, code: str) -> list[AuditEntry]:
    with app.app_context():
        entries = list(db.session.scalars(
            db.select(AuditEntry).join(Event, AuditEntry.event_id == Event.id)
            .where(Event.code == code, AuditEntry.action == PHONE_SAVE)
            .order_by(AuditEntry.id)))
        db.session.expunge_all()
        return entries


def test_the_neutral_evening_is_of_the_plain_format(app, plain_desk):
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == plain_desk.code))
        assert event.format == PLAIN
        assert [(r.number, len(r.questions)) for r in event.rounds] == [
            (1, 3), (2, 3), (3, 3), (4, 3)]


def test_an_open_rounds_answer_is_accepted_kept_and_audited(app, plain_desk):
    plain_desk.host(1, "open")
    token = plain_desk.join("Owls")
    resp = plain_desk.save(token, 1, 2, "  Answer  1.2\u0000 ")
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert (body["round"], body["question"], body["text"], body["version"], body["source"]) \
        == (1, 2, "Answer 1.2", 1, "phone")
    assert body["saved_at"].endswith("Z")
    assert _stored(app, plain_desk.code, "Owls") == [(1, 2, "Answer 1.2", 1, "phone")]
    [entry] = _saves(app, plain_desk.code)
    assert (entry.actor, entry.subject, entry.before) == ("team:Owls", "R1Q2 Owls", None)
    assert entry.after["text"] == "Answer 1.2"


def test_the_receipt_is_the_servers_code_of_exactly_that_text_and_moment(app, plain_desk):
    plain_desk.host(1, "open")
    token = plain_desk.join("Owls")
    first = plain_desk.save(token, 1, 1, "Answer 1.1").get_json()
    changed = plain_desk.save(token, 1, 1, "Answer one").get_json()
    with app.app_context():
        answer = db.session.scalar(db.select(Answer))
        expected = answer_write.receipt_code(answer.team_id, answer.question_id, answer.text,
                                        answer.updated_at)
    assert changed["receipt"] == expected
    assert len(expected) == 8 and expected == expected.upper()
    assert first["receipt"] != changed["receipt"]
    assert changed["version"] == 2


def test_a_draft_or_locked_round_refuses_and_keeps_what_was_acknowledged(app, plain_desk):
    token = plain_desk.join("Owls")
    draft = plain_desk.save(token, 1, 1, "too early")
    assert draft.status_code == 409
    assert draft.get_json()["error"] == "round_locked"
    plain_desk.host(1, "open")
    assert plain_desk.save(token, 1, 1, "Answer 1.1").status_code == 200
    plain_desk.host(1, "close")
    late = plain_desk.save(token, 1, 1, "too late")
    assert late.status_code == 409
    assert late.get_json()["error"] == "round_locked"
    assert late.get_json()["state"] == "locked"
    assert _stored(app, plain_desk.code, "Owls") == [(1, 1, "Answer 1.1", 1, "phone")]
    assert len(_saves(app, plain_desk.code)) == 1


def test_a_repeated_edit_is_acknowledged_once(app, plain_desk):
    """The phone's offline queue may send an edit twice, or an older one late: the
    stored answer and the audit log move once."""
    plain_desk.host(1, "open")
    token = plain_desk.join("Owls")
    first = plain_desk.save(token, 1, 3, "Answer 1.3", seq=5)
    again = plain_desk.save(token, 1, 3, "Answer 1.3", seq=5)
    older = plain_desk.save(token, 1, 3, "an older edit", seq=4)
    assert first.status_code == again.status_code == older.status_code == 200
    assert again.get_json() == first.get_json() == older.get_json()
    assert _stored(app, plain_desk.code, "Owls") == [(1, 3, "Answer 1.3", 1, "phone")]
    assert len(_saves(app, plain_desk.code)) == 1
    newer = plain_desk.save(token, 1, 3, "a newer edit", seq=6).get_json()
    assert (newer["text"], newer["version"]) == ("a newer edit", 2)
    assert [e.before for e in _saves(app, plain_desk.code)][-1]["text"] == "Answer 1.3"


@pytest.mark.parametrize("body, field", [
    ({"text": "x" * 501}, "text"),
    ({"text": 42}, "text"),
    ({"text": "ok", "seq": -1}, None),
    ({"text": "ok", "seq": True}, None),
    ({"text": "ok", "fields": "not an object"}, None),
])
def test_bad_input_is_refused_and_writes_nothing(app, plain_desk, body, field):
    """Too long, not text, a bad edit counter, fields that are no object: a 400 and
    nothing stored, nothing audited."""
    plain_desk.host(1, "open")
    token = plain_desk.join("Owls")
    resp = plain_desk.client.put(f"/api/events/{plain_desk.code}/answers/1/1", json=body,
                                 headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 400, resp.get_json()
    if field is not None:
        assert resp.get_json().get("field") == field
    assert _stored(app, plain_desk.code, "Owls") == []
    assert _saves(app, plain_desk.code) == []


def test_a_body_that_is_not_an_object_is_refused(app, plain_desk):
    plain_desk.host(1, "open")
    token = plain_desk.join("Owls")
    resp = plain_desk.client.put(f"/api/events/{plain_desk.code}/answers/1/1", json=["x"],
                                 headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 400
    assert _stored(app, plain_desk.code, "Owls") == []


def test_a_missing_round_or_question_and_a_wrong_token(app, plain_desk):
    plain_desk.host(1, "open")
    token = plain_desk.join("Owls")
    assert plain_desk.save(token, 9, 1, "x").status_code == 404
    assert plain_desk.save(token, 1, 9, "x").status_code == 404
    assert plain_desk.save("not-a-token", 1, 1, "x").status_code == 401
    assert _stored(app, plain_desk.code, "Owls") == []


def test_a_question_of_a_round_played_one_at_a_time_takes_answers_only_while_open(
        app, plain_desk):
    """Format.one_at_a_time: the neutral game's fourth round opens question by question
    (core's start, question gates); the save reads the gate in its one read."""
    plain_desk.host(4, "open")
    token = plain_desk.join("Owls")
    not_yet = plain_desk.save(token, 4, 1, "Answer 4.1")
    assert not_yet.status_code == 409
    assert not_yet.get_json()["error"] == "round_locked"
    assert _stored(app, plain_desk.code, "Owls") == []


def test_the_neutral_game_adds_no_rule_of_another_game(app, plain_desk):
    """The same number twice in a round of numbers and a second answer in the fields
    are kept: refusing them is a format's rule (Format.check_save), not core's."""
    plain_desk.host(3, "open")
    token = plain_desk.join("Owls")
    assert plain_desk.save(token, 3, 1, "7").status_code == 200
    assert plain_desk.save(token, 3, 2, "7").status_code == 200
    second = plain_desk.save(token, 3, 3, "", fields={"number": "3", "second": "4"})
    assert second.status_code == 200, second.get_json()
    assert _stored(app, plain_desk.code, "Owls") == [
        (3, 1, "7", 1, "phone"), (3, 2, "7", 1, "phone"), (3, 3, "3", 1, "phone")]


class _Picky(PlainQuiz):
    """A game whose rule refuses one answer, to show the save asks the format."""

    name = "picky"

    def check_save(self, team_id, target, text, fields, run):
        if text == "forbidden":
            raise DeskError("That answer is not allowed here.")


def test_the_formats_check_save_refuses_inside_the_save(app, client):
    with app.app_context(), registered(_Picky()):
        event, _ = make_event("picky")
        team, token = make_team(event, "Owls")
        open_round(event, 1)
        db.session.commit()  # the test is the boundary its requests read after
        with pytest.raises(DeskError) as refused:
            answers.save_answer(team, 1, 1, "forbidden")
        assert refused.value.message == "That answer is not allowed here."
        resp = client.put(f"/api/events/{event.code}/answers/1/1", json={"text": "forbidden"},
                          headers={"Authorization": f"Bearer {token}"})
        assert resp.status_code == 400
        assert client.put(f"/api/events/{event.code}/answers/1/1", json={"text": "fine"},
                          headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert db.session.scalars(db.select(Answer.text)).all() == ["fine"]
    assert "picky" not in formats.REGISTRY


def test_the_service_save_keeps_its_source_and_refuses_a_locked_round(app, plain):
    """save_answer (paper entry, services): the same checks as the phone's save."""
    with app.app_context():
        event, _ = make_event()
        team, _ = make_team(event, "Owls")
        open_round(event, 1)
        saved = make_answers(team, 1, ["Answer 1.1", "Answer 1.2"], source="paper")
        assert [(s.question, s.text, s.source, s.version) for s in saved] == [
            (1, "Answer 1.1", "paper", 1), (2, "Answer 1.2", "paper", 1)]
        close_round(event, 1)
        with pytest.raises(RoundLocked):
            answers.save_answer(team, 1, 1, "late", source="paper")
        code = event.code
    assert _stored(app, code, "Owls") == [(1, 1, "Answer 1.1", 1, "paper"),
                                          (1, 2, "Answer 1.2", 1, "paper")]
