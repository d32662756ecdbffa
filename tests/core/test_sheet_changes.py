"""core/sheets.changes_by_token (issue 33): a phone that holds its team's sheet reads
only what the team's other phones changed since, and the whole sheet whenever anything
else may have changed (the screen version moved, a round not open, a round the format
builds from the team's answers, a format without the hook, no usable ``since``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from factories import Desk, PlainQuiz, make_event, registered

from answerdesk.core import sheets
from answerdesk.extensions import db
from answerdesk.models import Answer, Event, Question, Round, Verdict

DELTA = "delta"


class DeltaQuiz(PlainQuiz):
    """The neutral game, letting phones read changes alone but in its number round
    (whose sheet, in a game like the Bulgarian one, lists the numbers used)."""

    name = DELTA

    def sheet_delta(self, rnd: Any) -> bool:
        return rnd.check_mode != "number"


@pytest.fixture
def delta_desk(app, client):
    with registered(DeltaQuiz()), app.app_context():
        event, password = make_event(DELTA)
        yield Desk(client, event.code, password)


def since(desk: Desk, token: str, sheet: dict, **override):
    params = {"since": sheet["now"], "version": sheet["version"], **override}
    return desk.client.get(f"/api/events/{desk.code}/sheet", query_string=params,
                           headers={"Authorization": f"Bearer {token}"}).get_json()


def test_a_phone_reads_what_its_team_changed_since(delta_desk):
    desk = delta_desk
    first, other = desk.join("Сови"), desk.join("Орли")
    assert desk.host(1, "open").status_code == 200
    held = desk.sheet(first).get_json()
    assert held["version"] and held["now"].endswith("Z")
    # Nothing changed: an empty delta, not the whole sheet.
    empty = since(desk, first, held)
    assert empty["delta"] is True and empty["answers"] == []
    assert empty["version"] == held["version"] and empty["now"] >= held["now"]
    # The team's other phone saves (the same token), another team saves: only the
    # team's answer comes, as the sheet would show it.
    assert desk.save(first, 1, 2, "Марица").status_code == 200
    assert desk.save(other, 1, 1, "Искър").status_code == 200
    changed = since(desk, first, held)
    assert changed["delta"] is True
    assert [(a["round"], a["question"], a["text"]) for a in changed["answers"]] == [
        (1, 2, "Марица")]
    whole = desk.sheet(first).get_json()
    shown = whole["rounds"][0]["questions"][1]["answer"]
    assert changed["answers"][0] == shown


@pytest.mark.parametrize("why", ["version moved", "number round", "no since", "bad since",
                                 "round locked"])
def test_the_whole_sheet_when_anything_else_may_have_changed(delta_desk, why):
    desk = delta_desk
    token = desk.join("Сови")
    assert desk.host(1, "open").status_code == 200
    assert desk.host(3, "open").status_code == 200
    held = desk.sheet(token).get_json()
    override: dict[str, str] = {}
    if why == "version moved":
        desk.join("Орли")  # a team joining moves the screen version
    elif why == "number round":
        assert desk.save(token, 3, 1, "7").status_code == 200
    elif why == "no since":
        override = {"since": ""}
    elif why == "bad since":
        override = {"since": "вчера"}
    else:
        assert desk.save(token, 1, 1, "Марица").status_code == 200
        assert desk.host(1, "close").status_code == 200
    got = since(desk, token, held, **override)
    assert "delta" not in got and got["rounds"], why
    assert got == {**desk.sheet(token).get_json(), "now": got["now"]}


def test_a_format_without_the_hook_always_reads_whole(plain_desk):
    desk = plain_desk
    token = desk.join("Сови")
    assert desk.host(1, "open").status_code == 200
    held = desk.sheet(token).get_json()
    got = since(desk, token, held)
    assert "delta" not in got and got["rounds"]


def test_a_save_stamped_before_the_last_read_still_comes(app, delta_desk):
    """DELTA_OVERLAP: a save stamped before the phone's read may commit after it; one
    stamped longer before was in that read."""
    desk = delta_desk
    token = desk.join("Сови")
    assert desk.host(1, "open").status_code == 200
    held = desk.sheet(token).get_json()
    assert desk.save(token, 1, 1, "Марица").status_code == 200
    assert desk.save(token, 1, 2, "Искър").status_code == 200
    read_at = dt.datetime.fromisoformat(held["now"][:-1])
    with app.app_context():
        for number, before in ((1, sheets.DELTA_OVERLAP / 2), (2, sheets.DELTA_OVERLAP * 2)):
            db.session.execute(db.update(Answer).where(Answer.question_id == db.select(
                Question.id).join(Round).join(Event).where(
                Event.code == desk.code, Round.number == 1, Question.number == number)
                .scalar_subquery()).values(updated_at=read_at - before))
        db.session.commit()
    got = since(desk, token, held)
    assert [a["question"] for a in got["answers"]] == [1]


def test_a_verdict_that_moved_in_a_locked_round_reads_whole(app, delta_desk):
    """A late check writes no audit entry (the version stands), and a phone shows the
    verdicts of a round once revealed: a verdict moved outside an open round sends
    the whole sheet."""
    desk = delta_desk
    token = desk.join("Сови")
    assert desk.host(1, "open").status_code == 200
    assert desk.save(token, 1, 1, "Марица").status_code == 200
    assert desk.host(1, "close").status_code == 200
    held = desk.sheet(token).get_json()
    with app.app_context():
        answer_id = db.session.scalar(db.select(Answer.id).join(Question).join(Round).join(
            Event).where(Event.code == desk.code, Round.number == 1, Question.number == 1))
        db.session.execute(db.update(Verdict).where(Verdict.answer_id == answer_id).values(
            checked_at=dt.datetime.fromisoformat(held["now"][:-1]) + dt.timedelta(seconds=1)))
        db.session.commit()
    got = since(desk, token, held)
    assert "delta" not in got and got["rounds"]


def test_changes_need_the_teams_token(delta_desk):
    desk = delta_desk
    token = desk.join("Сови")
    assert desk.host(1, "open").status_code == 200
    held = desk.sheet(token).get_json()
    for wrong in ("nope", ""):
        got = desk.client.get(f"/api/events/{desk.code}/sheet",
                              query_string={"since": held["now"], "version": held["version"]},
                              headers={"Authorization": f"Bearer {wrong}"})
        assert got.status_code == 401
