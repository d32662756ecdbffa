"""The lean path (answerdesk/lean.py, issue 18): the phone's save and state poll run
the same Core statements on a raw connection, and must store, refuse and audit
exactly as the Session path does (BG-E2), on SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from buzzgame import install_server_clock, make_event
from factories import ON_POSTGRES, Desk
from psycopg import pq
from sqlalchemy import event

from answerdesk.core import answer_statements, answers, formats
from answerdesk.core.answer_write import receipt_code
from answerdesk.core.events import create_event, event_by_code
from answerdesk.core.sheets import public_state, state_by_code
from answerdesk.core.states import GateState
from answerdesk.core.teams import TeamRef
from answerdesk.database.readonly import read_only
from answerdesk.extensions import db
from answerdesk.lean import Prepared, RawExecutor, raw_transaction
from answerdesk.models import (
    PHONE_SAVE,
    Answer,
    AuditEntry,
    Event,
    Question,
    QuestionGate,
    Round,
    Team,
    utcnow,
)
from answerdesk.web import json_response


def _entries(app, subject: str) -> list[AuditEntry]:
    with app.app_context():
        entries = list(db.session.scalars(
            db.select(AuditEntry).where(AuditEntry.action == PHONE_SAVE,
                                        AuditEntry.subject == subject)
            .order_by(AuditEntry.id)))
        db.session.expunge_all()
        return entries


def _answer(app, team: str, rnd: int, q: int) -> Answer | None:
    with app.app_context():
        answer = db.session.scalar(
            db.select(Answer).join(Team).join(Question).join(Round)
            .where(Team.name == team, Round.number == rnd, Question.number == q))
        db.session.expunge_all()
        return answer


def test_a_phone_save_stores_and_audits_as_a_service_save(app, desk):
    """The same answer saved by a phone (lean path) and by a service (the Session's
    transaction): the same rows, the same audit entries, receipts that verify."""
    desk.host(2, "open")
    token = desk.join("Сови")
    first = desk.save(token, 2, 1, "Васил  Левски", seq=1).get_json()
    with app.app_context():
        team = db.session.scalar(db.select(Team).where(Team.name == "Сови"))
        team_id = team.id
        ref = TeamRef(team.id, team.event_id, team.name, "bg")
        second = answers.save_answer(ref, 2, 1, "Левски", seq=2).to_json()
    third = desk.save(token, 2, 1, "Апостола", seq=3).get_json()
    assert [s["text"] for s in (first, second, third)] == ["Васил Левски", "Левски", "Апостола"]
    assert [s["version"] for s in (first, second, third)] == [1, 2, 3]
    assert first.keys() == second.keys() == third.keys()
    stored = _answer(app, "Сови", 2, 1)
    assert (stored.text, stored.version, stored.client_seq, stored.source, stored.fields) == (
        "Апостола", 3, 3, "phone", None)
    entries = _entries(app, "R2Q1 Сови")
    assert [e.actor for e in entries] == ["team:Сови"] * 3
    assert [e.before for e in entries] == [
        None, {"text": "Васил Левски", "fields": None, "source": "phone"},
        {"text": "Левски", "fields": None, "source": "phone"}]
    assert [e.after["text"] for e in entries] == ["Васил Левски", "Левски", "Апостола"]
    assert all(e.after.keys() == {"text", "fields", "source", "saved_at"} for e in entries)
    with app.app_context():
        for saved, entry in zip((first, second, third), entries, strict=True):
            at = dt.datetime.fromisoformat(entry.after["saved_at"])
            assert saved["saved_at"] == at.isoformat(timespec="milliseconds") + "Z"
            assert saved["receipt"] == receipt_code(team_id, stored.question_id,
                                                    saved["text"], at)
    for saved in (first, second, third):
        check = desk.client.get(
            f"/api/host/events/{desk.code}/receipts/2/1",
            query_string={"team": "Сови", "code": saved["receipt"]},
            headers={"Authorization": f"Bearer {desk.password}"}).get_json()
        assert check["valid"] and check["text"] == saved["text"]


def test_a_replayed_edit_changes_nothing_and_returns_the_stored_receipt(app, desk):
    desk.host(2, "open")
    token = desk.join("Сови")
    newer = desk.save(token, 2, 2, "Марица", seq=5).get_json()
    replay = desk.save(token, 2, 2, "Тунджа", seq=4)
    assert replay.status_code == 200
    assert replay.get_json() == newer
    same = desk.save(token, 2, 2, "Марица").get_json()  # the same text again: no new version
    assert same == newer
    assert len(_entries(app, "R2Q2 Сови")) == 1


def test_bg_e2_the_lean_save_refuses_after_the_lock_and_writes_nothing(app, desk):
    desk.host(2, "open")
    token = desk.join("Сови")
    assert desk.save(token, 2, 3, "Левски").status_code == 200
    assert desk.host(2, "close").status_code == 200
    refused = desk.save(token, 2, 3, "Ботев")
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "round_locked"
    assert _answer(app, "Сови", 2, 3).text == "Левски"
    assert len(_entries(app, "R2Q3 Сови")) == 1


def test_refusals_in_the_order_the_api_promises(desk, english):
    """A team proves who it is before its body is looked at; a bad body writes nothing."""
    desk.host(2, "open")
    token = desk.join("Сови")
    url = f"/api/events/{desk.code}/answers/2/1"
    put = desk.client.put
    assert put(url, json={"text": "x"}).status_code == 401
    assert put(url, data="not json", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert put("/api/events/NOSUCH/answers/2/1", json={"text": "x"},
               headers={"Authorization": f"Bearer {token}"}).status_code == 404
    bearer = {"Authorization": f"Bearer {token}"}
    not_object = put(url, json=["x"], headers=bearer)
    assert not_object.status_code == 400
    assert not_object.get_json()["message"] == "The request body must be a JSON object"
    bad_seq = put(url, json={"text": "x", "seq": -1}, headers=bearer)
    assert bad_seq.get_json()["message"] == "seq must be a non-negative whole number"
    too_long = put(url, json={"text": "я" * 501}, headers=bearer)
    assert too_long.status_code == 400
    assert put(f"/api/events/{desk.code}/answers/2/99", json={"text": "x"},
               headers=bearer).status_code == 404
    assert put(f"/api/events/{desk.code}/answers/9/1", json={"text": "x"},
               headers=bearer).status_code == 404
    assert desk.sheet(token).get_json()["rounds"][0]["questions"][0]["answer"] is None


STATE_FORMATS = {"bg": {1: 3, 2: 3}, "chgk": {1: 3, 2: 3}, "si": {1: 3}, "oq": {1: 3}}


def _state_bytes(app, code: str, now: dt.datetime | None) -> tuple[bytes, bytes]:
    """The state poll's body by the lean path and by the ORM path, at ``now``, once a
    poll has applied what ran out (OpenQuiz settles a timer, and its audit entry moves
    the version both paths read first)."""
    with app.test_request_context():
        state_by_code(code.lower(), now)
        db.session.remove()
        lean = json_response(state_by_code(code.lower(), now)).data
        db.session.remove()
        with read_only():
            orm = json_response(public_state(event_by_code(code), now)).data
        db.session.remove()
    return lean, orm


@pytest.mark.parametrize("fmt", sorted(STATE_FORMATS))
def test_the_lean_state_poll_is_the_orm_state_byte_for_byte(app, client, monkeypatch, fmt):
    """GET /state (sheets.state_by_code: one statement, no Event) sends exactly what the
    ORM path (round_states, clock.marker, the format's public_state) sends: before any
    question starts, with a question on the clock running and past its deadline, after a
    question started without a deadline, after a recorded lock; for every format."""
    install_server_clock(monkeypatch)  # OpenQuiz's buzzer state reads the server's clock
    desk = Desk(client, *make_event(app, fmt, STATE_FORMATS[fmt]))
    for name in ("Сови", "Ежи"):
        desk.join(name, players=(formats.get(fmt).team_size or (1,))[0])
    with app.app_context():
        event = event_by_code(desk.code)
        rnd = event.round(1)
        rnd.state = "open"
        questions = {q.number: q.id for q in rnd.questions}
        db.session.commit()
    t0 = utcnow().replace(microsecond=0) - dt.timedelta(hours=1)
    moments = (None, t0, t0 + dt.timedelta(seconds=69), t0 + dt.timedelta(seconds=70),
               t0 + dt.timedelta(hours=3))

    def same(marker: dict | None) -> None:
        for now in moments:
            lean, orm = _state_bytes(app, desk.code, now)
            assert lean == orm, now
        polled = client.get(f"/api/events/{desk.code.lower()}/state")
        assert polled.status_code == 200
        assert polled.headers["Cache-Control"] == "no-store"
        assert polled.data == _state_bytes(app, desk.code, None)[1]
        assert polled.get_json()["question"] == marker
        assert {"number": 1, "state": "open"} in polled.get_json()["rounds"]

    def gate(question: int, **columns) -> None:
        with app.app_context():
            db.session.add(QuestionGate(question_id=questions[question], **columns))
            db.session.commit()

    same(None)
    gate(1, state="open", opened_at=t0, seconds=60, grace=10,
         locks_at=t0 + dt.timedelta(seconds=70))  # CHGK-1.1, its deadline an hour ago
    same({"round": 1, "question": 1, "state": "locked"})
    gate(2, state="open", opened_at=t0)  # a question started without a deadline
    same({"round": 1, "question": 1, "state": "locked"})
    gate(3, state="open", opened_at=t0, seconds=60, grace=10,
         locks_at=t0 + dt.timedelta(hours=2))  # running
    same({"round": 1, "question": 3, "state": "open"})
    with app.app_context():
        db.session.execute(db.update(QuestionGate).where(
            QuestionGate.question_id == questions[3]).values(state="locked"))
        db.session.commit()
    same({"round": 1, "question": 3, "state": "locked"})


def test_the_state_poll_of_an_event_without_rounds_and_of_no_event(app, client):
    with app.app_context():
        event, _ = create_event("Без кръгове")
        db.session.commit()
        event.rounds.clear()
        db.session.commit()
        code = event.code
    lean, orm = _state_bytes(app, code, None)
    assert lean == orm
    polled = client.get(f"/api/events/{code}/state").get_json()
    assert polled == {"rounds": [], "question": None, "version": polled["version"]}
    missing = client.get("/api/events/NOSUCH/state")
    assert missing.status_code == 404
    assert missing.get_json()["error"] == "not_found"


def test_prepared_statements_store_what_core_stores(app, demo):
    """Prepared runs a Core statement with SQLAlchemy's own type processors: JSON (None
    as JSON null), datetimes and literals of the statement land as Core writes them."""
    at = dt.datetime(2026, 12, 1, 20, 15, 30, 123456)
    entry = {"entry_event_id": None, "entry_at": at, "entry_actor": "team:Сови",
             "entry_action": PHONE_SAVE, "entry_subject": "R2Q1 Сови", "entry_before": None,
             "entry_after": {"text": "Левски", "fields": None}, "entry_undoes_id": None}
    with app.app_context():
        event_id = db.session.scalar(db.select(Event.id).where(Event.code == demo[0]))
        db.session.rollback()  # one connection of this thread at a time holds the writer
        entry["entry_event_id"] = event_id
        with db.engine.begin() as conn:
            conn.execute(answer_statements.AUDIT, {**entry, "entry_subject": "core"})
        with raw_transaction(db.engine) as ex:
            ex.rowcount(answer_statements.AUDIT, {**entry, "entry_subject": "raw"})
            ex.commit()
        audit = AuditEntry.__table__
        with db.engine.connect() as conn:
            rows = {subject: rest for subject, *rest in conn.execute(
                db.select(audit.c.subject, db.cast(audit.c.before, db.Text),
                          db.cast(audit.c.after, db.Text), audit.c.at, audit.c.actor)
                .where(audit.c.subject.in_(("core", "raw"))))}
        assert rows["raw"] == rows["core"]
        assert rows["raw"][2] == at
        with raw_transaction(db.engine) as ex:
            row = ex.first(answer_statements.statements().target, {"event_id": event_id, "round": 2,
                                                         "question": 1, "team_id": 0})
        assert (row.number, row.state, row.bg_copy_joker, row.answer_id) == (2, "draft", False,
                                                                             None)
        prepared = Prepared(answer_statements.statements().target, db.engine.dialect)
        assert "copy" in [v for v in prepared.fixed.values()]
        with pytest.raises(ValueError):  # its SQL would depend on the list's length
            Prepared(db.select(Round.id).where(Round.id.in_([1, 2])), db.engine.dialect)


def test_the_same_text_with_a_newer_seq_records_only_the_seq(app, desk):
    """The sheet saves while the team types: the same text again with a newer edit
    counter moves the counter (so a late older edit stays refused), no new version,
    no new audit entry (answer_statements.RESEQ, the one write of the save judged by its row
    count)."""
    desk.host(2, "open")
    token = desk.join("Сови")
    first = desk.save(token, 2, 4, "Марица", seq=3).get_json()
    again = desk.save(token, 2, 4, "Марица", seq=7)
    assert again.status_code == 200
    assert again.get_json() == first
    stored = _answer(app, "Сови", 2, 4)
    assert (stored.text, stored.version, stored.client_seq) == ("Марица", 1, 7)
    late = desk.save(token, 2, 4, "Тунджа", seq=5)  # older than the recorded 7
    assert late.get_json() == first
    assert _answer(app, "Сови", 2, 4).text == "Марица"
    assert len(_entries(app, "R2Q4 Сови")) == 1


def test_two_phones_creating_one_answer_the_second_retries_as_an_update(app, desk,
                                                                        monkeypatch):
    """Two phones of a team create the same answer at once: the second one's INSERT
    fails the unique constraint, its transaction rolls back whole, and the retry
    updates the row the first one wrote: both acknowledged, both audited, the
    connection clean for the next request. (On PostgreSQL the blinded read is the
    optimistic save's: its INSERT fails, and the full save updates the row.)"""
    desk.host(2, "open")
    token = desk.join("Сови")
    assert desk.save(token, 2, 3, "Ботев", seq=1).status_code == 200
    real_first = RawExecutor.first
    blinded = []

    def first(self, statement, params):
        row = real_first(self, statement, params)
        built = answer_statements.statements()
        if statement in (built.target, built.team_target) and not blinded:
            # as if read before the other save
            blinded.append(row.answer_id)
            row = row._replace(answer_id=None)
        return row

    monkeypatch.setattr(RawExecutor, "first", first)
    second = desk.save(token, 2, 3, "Левски", seq=2)
    monkeypatch.undo()
    assert blinded and blinded[0] is not None
    assert second.status_code == 200
    assert (second.get_json()["text"], second.get_json()["version"]) == ("Левски", 2)
    stored = _answer(app, "Сови", 2, 3)
    assert (stored.text, stored.version, stored.client_seq) == ("Левски", 2, 2)
    assert [e.after["text"] for e in _entries(app, "R2Q3 Сови")] == ["Ботев", "Левски"]
    assert desk.save(token, 2, 3, "Раковски", seq=3).get_json()["version"] == 3


def test_a_raw_transaction_left_without_commit_stores_nothing(app, demo):
    """What a raw write transaction did is kept only by commit(): leaving the block
    otherwise (an error, a refusal) rolls it all back."""
    entry = {"entry_event_id": None, "entry_at": utcnow(), "entry_actor": "team:Сови",
             "entry_action": PHONE_SAVE, "entry_before": None, "entry_after": None,
             "entry_undoes_id": None}
    with app.app_context():
        entry["entry_event_id"] = db.session.scalar(
            db.select(Event.id).where(Event.code == demo[0]))
        db.session.rollback()
        with pytest.raises(RuntimeError), raw_transaction(db.engine) as ex:
            ex.rowcount(answer_statements.AUDIT, {**entry, "entry_subject": "left by an error"})
            raise RuntimeError("refused")
        with raw_transaction(db.engine) as ex:
            ex.rowcount(answer_statements.AUDIT, {**entry, "entry_subject": "left uncommitted"})
        with raw_transaction(db.engine) as ex:
            ex.rowcount(answer_statements.AUDIT, {**entry, "entry_subject": "committed"})
            ex.commit()
        with db.engine.connect() as conn:
            subjects = set(conn.scalars(db.select(AuditEntry.subject).where(
                AuditEntry.subject.in_(("left by an error", "left uncommitted",
                                        "committed")))))
        assert subjects == {"committed"}


# The optimistic save (answer_optimistic.py, PostgreSQL): one read without the
# lock, then ONE statement that takes the round's queue lock and writes only if
# nothing its decision rested on moved (BG-E2). These drive what may happen between
# the two deterministically, from inside the save (its write's RawExecutor.first).
on_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="PostgreSQL's optimistic save")


def _round_trips(app, tmp_path: Path, act: Callable[[], object]) -> tuple[int, object]:
    """How many times the server answered what the client had sent while ``act`` ran
    (libpq's protocol trace of every connection the pool hands out), and its result."""
    with app.app_context():
        engine = db.engine
    traced = []

    def trace(dbapi_conn, _record, _proxy) -> None:
        dbapi_conn.pgconn.trace(log.fileno())
        dbapi_conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        traced.append(dbapi_conn)

    with (tmp_path / "trace").open("w") as log:
        event.listen(engine, "checkout", trace)
        try:
            result = act()
        finally:
            event.remove(engine, "checkout", trace)
            for dbapi_conn in traced:
                dbapi_conn.pgconn.untrace()
    sides = [line[0] for line in (tmp_path / "trace").read_text().splitlines() if line]
    assert traced and sides, "nothing was traced"
    answered = sum(1 for i in range(1, len(sides)) if sides[i - 1:i + 1] == ["F", "B"])
    return answered, result


@on_postgres
def test_the_phone_save_takes_two_round_trips_on_postgresql(app, desk, tmp_path):
    """Was 5 (BEGIN, team and lock, target, write, COMMIT): now the read, and the lock
    with the write and its audit row in one statement of its own; a replay only reads."""
    desk.host(2, "open")
    token = desk.join("Сови")
    for n in range(9):  # psycopg prepares a statement (a round trip of its own, once per
        # connection) when it runs for the sixth time: the counts below are of afterwards
        assert desk.save(token, 2, 1, f"edit {n}", seq=n + 1).status_code == 200
    saves = {"change": ("Левски", 2, 1, 10), "new answer": ("Ботев", 2, 2, 1),
             "newer seq": ("Ботев", 2, 2, 2), "replay": ("Раковски", 2, 2, 1)}
    trips = {}
    for what, (text, rnd, q, seq) in saves.items():
        trips[what], resp = _round_trips(
            app, tmp_path, lambda save=(token, rnd, q, text), seq=seq: desk.save(*save, seq=seq))
        assert resp.status_code == 200
    assert trips == {"change": 2, "new answer": 2, "newer seq": 2, "replay": 1}
    assert _answer(app, "Сови", 2, 2).client_seq == 2
    assert [e.after["text"] for e in _entries(app, "R2Q2 Сови")] == ["Ботев"]


def _between_read_and_write(monkeypatch, meanwhile: Callable[..., object]) -> list:
    """Run ``meanwhile(run, executor, statement, params)`` in place of the first
    optimistic write, where ``run`` runs it for real (``meanwhile`` must call it);
    what it returns is collected."""
    real = RawExecutor.first
    writes = set(answer_statements.statements().optimistic.values())
    seen: list = []

    def first(self, statement, params):
        if seen or statement not in writes:
            return real(self, statement, params)
        seen.append(None)
        seen[0] = meanwhile(real, self, statement, params)
        return seen[0]

    monkeypatch.setattr(RawExecutor, "first", first)
    return seen


@on_postgres
@pytest.mark.parametrize("move", ["round closed", "question locked"])
def test_bg_e2_a_lock_committed_between_the_read_and_the_write_refuses_the_save(
        app, desk, monkeypatch, move, english):
    """The round closed (by the host, through the API) or the question's gate locked
    after the optimistic read saw them open: the write writes nothing, and the save
    is refused as the full save refuses it, never acknowledged."""
    desk.host(2, "open")
    token = desk.join("Сови")
    assert desk.save(token, 2, 3, "Левски", seq=1).status_code == 200

    def meanwhile(real, ex, *args):
        if move == "round closed":
            assert desk.host(2, "close").status_code == 200
        else:
            with app.app_context(), db.engine.begin() as conn:
                question_id = conn.scalar(
                    db.select(Question.id).join(Round).join(Event)
                    .where(Event.code == desk.code, Round.number == 2, Question.number == 3))
                conn.execute(QuestionGate.__table__.insert().values(
                    question_id=question_id, state=GateState.LOCKED, opened_at=utcnow()))
        return real(ex, *args)

    seen = _between_read_and_write(monkeypatch, meanwhile)
    refused = desk.save(token, 2, 3, "Ботев", seq=2)
    monkeypatch.undo()
    assert seen == [None]  # the optimistic write ran, and wrote nothing
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "round_locked"
    assert ("Question 3" in refused.get_json()["message"]) == (move == "question locked")
    stored = _answer(app, "Сови", 2, 3)
    assert (stored.text, stored.version, stored.client_seq) == ("Левски", 1, 1)
    assert len(_entries(app, "R2Q3 Сови")) == 1


@on_postgres
def test_bg_j2_a_copy_joker_played_between_the_read_and_the_write_refuses_the_save(
        app, desk, monkeypatch, english):
    """The BG format's guard (Format.save_guard, answerdesk_bg_save_guard) re-checks
    the copy joker under the round's lock beside core's: a copy joker recorded after
    the optimistic read makes its write write nothing, and the full save refuses."""
    from answerdesk.formats.bg.models import Joker

    desk.host(2, "open")
    token = desk.join("Сови")
    assert desk.save(token, 2, 3, "Левски", seq=1).status_code == 200

    def meanwhile(real, ex, *args):
        with app.app_context(), db.engine.begin() as conn:
            question_id, team_id = conn.execute(
                db.select(Question.id, Team.id).join(Round).join(Event)
                .join(Team, Team.event_id == Event.id)
                .where(Event.code == desk.code, Round.number == 2, Question.number == 3,
                       Team.name == "Сови")).one()
            conn.execute(Joker.__table__.insert().values(
                team_id=team_id, kind="copy", question_id=question_id, second_reason="",
                created_at=utcnow()))
        return real(ex, *args)

    seen = _between_read_and_write(monkeypatch, meanwhile)
    refused = desk.save(token, 2, 3, "Ботев", seq=2)
    monkeypatch.undo()
    assert seen == [None]  # the optimistic write ran, and wrote nothing
    assert refused.status_code == 409
    assert refused.get_json()["message"] == \
        "Your team copies another team's answer on this question."
    stored = _answer(app, "Сови", 2, 3)
    assert (stored.text, stored.version, stored.client_seq) == ("Левски", 1, 1)


@on_postgres
def test_bg_e2_a_close_the_write_waited_for_refuses_the_save(app, desk, monkeypatch):
    """The close holds the round's queue lock when the optimistic write arrives: the
    write waits for it, and must then read the round in a snapshot taken after the
    lock was granted (the statement's own snapshot, older, still sees it open)."""
    desk.host(2, "open")
    token = desk.join("Сови")
    assert desk.save(token, 2, 3, "Левски", seq=1).status_code == 200
    with app.app_context():
        engine = db.engine
        event_id = db.session.scalar(db.select(Event.id).where(Event.code == desk.code))
        db.session.rollback()
    closer = engine.raw_connection()
    closing = closer.cursor()
    closing.execute("SELECT pg_advisory_xact_lock(%s, 2)", (event_id,))
    closing.execute("UPDATE round SET state = 'locked' WHERE event_id = %s AND number = 2",
                    (event_id,))

    def waiting() -> int:
        with engine.connect() as conn:
            return conn.scalar(db.text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND database = (SELECT oid FROM pg_database"
                " WHERE datname = current_database())"))

    def meanwhile(real, ex, *args):
        done: dict = {}

        def write() -> None:
            try:
                done["row"] = real(ex, *args)
            except BaseException as error:  # re-raised below, in the request's thread
                done["error"] = error

        writer = threading.Thread(target=write)
        writer.start()
        for _ in range(600):
            if waiting():
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the optimistic write never waited for the close")
        closer.commit()
        writer.join()
        if "error" in done:
            raise done["error"]
        return done["row"]

    try:
        seen = _between_read_and_write(monkeypatch, meanwhile)
        refused = desk.save(token, 2, 3, "Ботев", seq=2)
        monkeypatch.undo()
    finally:
        closer.close()
    assert seen == [None]
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "round_locked"
    assert _answer(app, "Сови", 2, 3).text == "Левски"
    assert len(_entries(app, "R2Q3 Сови")) == 1


@on_postgres
@pytest.mark.parametrize(("late_seq", "kept"), [(7, "Раковски"), (4, "Левски")])
def test_a_save_between_the_read_and_the_write_is_neither_lost_nor_audited_twice(
        app, desk, monkeypatch, late_seq, kept):
    """Another phone of the team saves the answer after this save's optimistic read:
    this write writes nothing (the version moved), and the full save decides on
    what the other stored: a newer edit changes it once more, an older one changes
    nothing. Every acknowledged change is stored or superseded, each audited once."""
    desk.host(2, "open")
    token = desk.join("Сови")
    assert desk.save(token, 2, 3, "Ботев", seq=1).status_code == 200
    others: list = []

    def meanwhile(real, ex, *args):
        others.append(desk.save(token, 2, 3, "Левски", seq=5).get_json())
        return real(ex, *args)

    seen = _between_read_and_write(monkeypatch, meanwhile)
    late = desk.save(token, 2, 3, "Раковски", seq=late_seq)
    monkeypatch.undo()
    assert seen == [None]
    assert (others[0]["text"], others[0]["version"]) == ("Левски", 2)
    assert late.status_code == 200
    stored = _answer(app, "Сови", 2, 3)
    assert (late.get_json()["text"], late.get_json()["version"]) == (kept, stored.version)
    assert (stored.text, stored.client_seq) == (kept, max(late_seq, 5))
    texts = ["Ботев", "Левски"] + (["Раковски"] if kept == "Раковски" else [])
    entries = _entries(app, "R2Q3 Сови")
    assert [e.after["text"] for e in entries] == texts
    assert [e.before and e.before["text"] for e in entries] == [None, *texts[:-1]]
