"""GET /state from a read kept a moment per process (core/recent.py, issue 18): polls
that follow read no statement; a change this process commits is seen at once, another
process's within STATE_CACHE_SECONDS; the question clock still locks on time; what a
Session's open transaction sees, or a format with a public state of its own, is never
kept. SQLite and PostgreSQL. Under gunicorn, across workers:
tests/formats/bg/test_bg_recent_served.py (a served evening is a bundled format's)."""

from __future__ import annotations

import datetime as dt

import pytest
from buzzgame import make_event
from factories import Desk

from answerdesk.core import recent, sheets
from answerdesk.core.events import event_by_code
from answerdesk.core.sheets import state_by_code
from answerdesk.extensions import db
from answerdesk.models import QuestionGate, utcnow


@pytest.fixture
def desk(plain_desk) -> Desk:
    """Core's reads on the neutral format (factories.PlainQuiz), not on a game's evening."""
    return plain_desk


def _poll(desk: Desk) -> dict:
    polled = desk.client.get(f"/api/events/{desk.code}/state")
    assert polled.status_code == 200
    return polled.get_json()


def _round(state: dict, number: int) -> str:
    return next(r["state"] for r in state["rounds"] if r["number"] == number)


class _Reads:
    """The state polls' reads of the database (sheets._read_state) while counted."""

    def __init__(self, monkeypatch) -> None:
        self.codes: list[str] = []
        read = sheets._read_state

        def counted(code: str):
            self.codes.append(code)
            return read(code)

        monkeypatch.setattr(sheets, "_read_state", counted)

    def __enter__(self) -> list[str]:
        self.codes.clear()
        return self.codes

    def __exit__(self, *exc) -> None:
        return None


class _Clock:
    """recent.py's monotonic clock, moved by hand."""

    def __init__(self, monkeypatch) -> None:
        self.now = 1000.0
        monkeypatch.setattr(recent.time, "monotonic", lambda: self.now)


def _other_process_locks_round(app, code: str, number: int) -> None:
    """What another worker's commit looks like here: the row changes in the database,
    and no Session of this process commits it."""
    with app.app_context():
        event_id = event_by_code(code).id
        db.session.remove()
        with db.engine.begin() as conn:
            conn.execute(db.text("UPDATE round SET state = 'locked' "
                                 "WHERE event_id = :event AND number = :number"),
                         {"event": event_id, "number": number})


def test_polls_that_follow_read_nothing_until_the_read_is_old(app, desk, monkeypatch):
    clock = _Clock(monkeypatch)
    reads = _Reads(monkeypatch)
    assert desk.host(2, "open").status_code == 200
    assert _round(_poll(desk), 2) == "open"
    with reads as read:
        for _ in range(5):
            assert _round(_poll(desk), 2) == "open"
    assert read == []

    _other_process_locks_round(app, desk.code, 2)
    clock.now += 0.4  # within STATE_CACHE_SECONDS (0.5): the kept read still serves
    assert _round(_poll(desk), 2) == "open"
    clock.now += 0.1  # its age reaches STATE_CACHE_SECONDS: read again
    with reads as read:
        assert _round(_poll(desk), 2) == "locked"
    assert len(read) == 1


def test_a_change_this_process_commits_is_polled_at_once(app, desk, monkeypatch):
    """The host's close (a Session commit) forgets every kept read: the phone's next
    poll, a moment later on this process's clock, shows the round locked (BG-E2)."""
    _Clock(monkeypatch)
    assert desk.host(2, "open").status_code == 200
    assert _round(_poll(desk), 2) == "open"
    assert desk.host(2, "close").status_code == 200
    assert _round(_poll(desk), 2) == "locked"
    assert desk.host(2, "reveal").status_code == 200
    assert _round(_poll(desk), 2) == "revealed"


def test_a_bulk_update_through_the_session_forgets_kept_reads(app, desk, monkeypatch):
    _Clock(monkeypatch)
    assert desk.host(2, "open").status_code == 200
    assert _round(_poll(desk), 2) == "open"
    with app.app_context():
        event = event_by_code(desk.code)
        db.session.execute(db.update(type(event.round(2))).where(
            type(event.round(2)).id == event.round(2).id).values(state="locked"))
        db.session.commit()
    assert _round(_poll(desk), 2) == "locked"


def test_a_read_that_a_commit_overtook_is_not_kept(app, desk, monkeypatch):
    """A poll that read the rows while this process committed a change to them may
    hold the rows from before it: it answers with them once, and keeps nothing."""
    _Clock(monkeypatch)
    reads = _Reads(monkeypatch)
    assert desk.host(2, "open").status_code == 200
    real_read = recent.RecentStates.rows

    def read_then_commit(self, code, read, keep):
        def overtaken():
            rows = read()
            recent.CHANGES.moved()  # the host's commit, between the read and the keep
            return rows
        return real_read(self, code, overtaken, keep)

    monkeypatch.setattr(recent.RecentStates, "rows", read_then_commit)
    _poll(desk)
    monkeypatch.setattr(recent.RecentStates, "rows", real_read)
    with reads as read:
        _poll(desk)
    assert len(read) == 1


def test_the_question_clock_locks_on_time_from_a_kept_read(app, client, monkeypatch):
    """CHGK-1.1: the kept rows hold the deadline; open or locked is worked out on
    every poll, so a phone sees the question lock at its deadline, not up to
    STATE_CACHE_SECONDS after it."""
    _Clock(monkeypatch)
    reads = _Reads(monkeypatch)
    code, _ = make_event(app, "chgk", {1: 3})
    t0 = utcnow().replace(microsecond=0)
    with app.app_context():
        rnd = event_by_code(code).round(1)
        rnd.state = "open"
        db.session.add(QuestionGate(question_id=rnd.questions[0].id, state="open",
                                    opened_at=t0, seconds=60, grace=10,
                                    locks_at=t0 + dt.timedelta(seconds=70)))
        db.session.commit()
    with app.test_request_context():
        assert state_by_code(code, t0)["question"]["state"] == "open"
        with reads as read:
            before = state_by_code(code, t0 + dt.timedelta(seconds=69, microseconds=999999))
            at = state_by_code(code, t0 + dt.timedelta(seconds=70))
        db.session.remove()
    assert read == []
    assert before["question"] == {"round": 1, "question": 1, "state": "open"}
    assert at["question"] == {"round": 1, "question": 1, "state": "locked"}


@pytest.mark.parametrize("fmt", ["si", "oq"])
def test_a_format_with_a_public_state_of_its_own_is_read_every_poll(app, client,
                                                                   monkeypatch, fmt):
    """Своя игра's and OpenQuiz's own state is read on every poll; their rounds are not
    kept either, so that the two parts of one answer agree."""
    _Clock(monkeypatch)
    reads = _Reads(monkeypatch)
    code, _ = make_event(app, fmt, {1: 3})
    assert client.get(f"/api/events/{code}/state").status_code == 200
    with reads as read:
        assert client.get(f"/api/events/{code}/state").status_code == 200
    assert read == [code]


def test_a_read_inside_a_sessions_open_transaction_is_not_kept(app, desk, monkeypatch):
    """A caller holding a transaction (a script, a service) reads what it has not
    committed: that may yet roll back, so it is not kept for the next polls."""
    _Clock(monkeypatch)
    assert desk.host(2, "open").status_code == 200
    with app.test_request_context():
        rnd = event_by_code(desk.code).round(2)
        rnd.state = "locked"
        db.session.flush()
        assert _round(state_by_code(desk.code), 2) == "locked"
        db.session.rollback()
        db.session.remove()
    assert _round(_poll(desk), 2) == "open"


def test_no_kept_reads_when_switched_off(app, desk, monkeypatch):
    _Clock(monkeypatch)
    reads = _Reads(monkeypatch)
    app.config["STATE_CACHE_SECONDS"] = 0
    with reads as read:
        _poll(desk)
        _poll(desk)
    assert len(read) == 2
