"""The live checker (livecheck.py): verdicts proposed while teams type, in a process
of its own, so no web worker computes for the review queue (issue 5, issue 6)."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from answerdesk import livecheck
from answerdesk.core import review
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.models import Answer, AuditEntry, Team, Verdict


def proposals(app) -> dict[str, str]:
    """Team name → the outcome proposed for its answer (no verdict: absent)."""
    with app.app_context():
        return dict(db.session.execute(
            db.select(Team.name, Verdict.outcome).join(Answer, Answer.team_id == Team.id)
            .join(Verdict, Verdict.answer_id == Answer.id)
        ).all())


def test_a_pass_checks_the_open_rounds_of_every_event(app, desk, another_desk):
    desk.host(2, "open")
    another_desk.host(2, "open")
    desk.save(desk.join("Сови"), 2, 1, "Христо Ботев")
    another_desk.save(another_desk.join("Орли"), 2, 1, "Ботев или Левски")
    closed = desk.join("Бухали")
    desk.host(3, "open")
    desk.save(closed, 3, 1, "нещо")
    desk.host(3, "close")  # the close checks its own answers; nothing is left for a pass
    with app.app_context():
        assert livecheck.check_open_rounds() == 2
        assert livecheck.check_open_rounds() == 0
    assert proposals(app)["Сови"] == "wrong"
    assert proposals(app)["Орли"] == "review"  # a hedge goes to the host (issue 3)


def newest_audit_id(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.max(AuditEntry.id)))


def test_a_pass_after_the_first_looks_only_at_events_that_changed(app, desk, another_desk,
                                                                  monkeypatch):
    """Every save writes an audit entry: an event whose log did not grow since the
    log's end WINDOW seconds ago is not looked at (old open rounds cost nothing)."""
    desk.host(2, "open")
    another_desk.host(2, "open")
    desk.save(desk.join("Сови"), 2, 1, "Ботев")
    before_orli = newest_audit_id(app)
    another_desk.save(another_desk.join("Орли"), 2, 1, "Левски")
    with app.app_context():
        assert livecheck.check_open_rounds(since=newest_audit_id(app)) == 0
        assert livecheck.check_open_rounds(since=before_orli) == 1
    assert set(proposals(app)) == {"Орли"}

    clock = [1000.0]
    monkeypatch.setattr(livecheck.time, "monotonic", lambda: clock[0])
    passes = livecheck.Passes()
    with app.app_context():
        assert passes.check() == 1  # the first pass: every open round
        desk.save(desk.join("Бухали"), 2, 2, "Марица")
        clock[0] += 1
        assert passes.check() == 1
        late = Answer(team_id=db.session.scalar(db.select(Team.id).where(Team.name == "Сови")),
                      question_id=db.session.scalar(
                          db.select(Answer.question_id).join(Team).where(Team.name == "Бухали")),
                      text="Марица")
        db.session.add(late)  # committed late, with no audit entry newer than the marks
        db.session.commit()
        clock[0] += 1
        assert passes.check() == 1  # its event changed within the window: still seen
        clock[0] += 2 * passes.WINDOW
        passes.check()
        db.session.add(Answer(team_id=late.team_id, question_id=late.question_id + 1,
                              text="Ботев"))
        db.session.commit()  # no audit entry: its event has not changed for the checker
        clock[0] += 1
        another_desk.save(another_desk.join("Бухали"), 2, 2,
                          "Марица")
        assert passes.check() == 1  # the window moved on: only the event that changed


def test_the_review_page_leaves_fresh_answers_to_the_live_checker(app, desk, monkeypatch):
    """With LIVE_CHECK_WAIT the page checks only what has waited that long: the rest is
    the live checker's, so a page load holds up no phone's save. What the checker
    missed (it is not running) the page still checks itself once it has waited."""
    app.config["LIVE_CHECK_WAIT"] = 60
    desk.host(2, "open")
    desk.save(desk.join("Орли"), 2, 1, "Ботев или Левски")
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    page = desk.client.get(f"/host/{desk.code}/review")
    assert page.status_code == 200 and "Ботев или Левски" not in page.text
    assert proposals(app) == {}

    with app.app_context():
        answer = db.session.scalar(db.select(Answer))
        answer.updated_at -= dt.timedelta(seconds=61)
        db.session.commit()
    page = desk.client.get(f"/host/{desk.code}/review")
    assert "Ботев или Левски" in page.text and proposals(app) == {"Орли": "review"}


def test_with_the_live_checker_the_queue_shows_its_proposals(app, desk):
    app.config["LIVE_CHECK_WAIT"] = 60
    desk.host(2, "open")
    desk.save(desk.join("Орли"), 2, 1, "Ботев или Левски")
    with app.app_context():
        livecheck.check_open_rounds()
        event = event_by_code(desk.code)
        assert review.queue_size(event) == 1
        [item] = review.review_queue(event, checker_wait=60)
        assert [g.text for g in item.groups] == ["Ботев или Левски"]


def test_a_close_under_way_is_not_broken_by_the_live_check(app, desk, monkeypatch):
    """BG-E2 close and live check at once (PostgreSQL lets them overlap): the live
    check read an answer before the close, the close read the verdicts (none yet)
    and checks; the live check's proposal must not land in between, or the close's
    own verdict breaks on the unique answer (500). The live check queues behind the
    close for its round (postgres_locks.queue_for_round) and then changes nothing."""
    from answerdesk.core import rounds

    token = desk.join("Орли")
    desk.host(2, "open")
    desk.save(token, 2, 1, "Ботев или Левски")
    checker = rounds.check
    live_read, close_checking = threading.Event(), threading.Event()

    def check(text, key, mode):
        if threading.current_thread() is threading.main_thread():
            close_checking.set()
            time.sleep(0.5)  # time for the live check's write, were it not queued
        else:
            live_read.set()
            close_checking.wait(10)
        return checker(text, key, mode)

    monkeypatch.setattr(rounds, "check", check)
    outcome: list[int] = []

    def live_check() -> None:
        with app.app_context():
            outcome.append(rounds.check_arrived(event_by_code(desk.code)))

    thread = threading.Thread(target=live_check)
    thread.start()
    assert live_read.wait(10)
    closed = desk.host(2, "close")
    thread.join(10)
    assert closed.status_code == 200, closed.get_json()
    assert outcome == [1] and proposals(app) == {"Орли": "review"}
    with app.app_context():
        verdict = db.session.scalar(db.select(Verdict))
        answer = db.session.scalar(db.select(Answer))
        assert verdict.checked_at > answer.updated_at  # the close's verdict, not the live one


def test_a_failed_pass_is_logged_and_the_next_one_runs(app, monkeypatch, caplog):
    passes = []

    def flaky(since: int | None = None, checking=None) -> int:
        passes.append(1)
        if len(passes) == 1:
            raise RuntimeError("database restarting")
        return 0

    monkeypatch.setattr(livecheck, "check_open_rounds", flaky)
    # Alembic's logging set-up (the migration tests) disables the loggers it finds.
    monkeypatch.setattr(livecheck.log, "disabled", False)
    livecheck.run(app, interval=0, keep_going=lambda: len(passes) < 2)
    assert len(passes) == 2 and "live check failed" in caplog.text


def test_check_live_command_once(app, desk):
    desk.host(2, "open")
    desk.save(desk.join("Орли"), 2, 1, "Ботев или Левски")
    result = app.test_cli_runner().invoke(args=["check-live", "--once"])
    assert result.exit_code == 0 and result.output.strip() == "1"
    assert proposals(app) == {"Орли": "review"}


def children(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return {int(p) for p in out.split()}


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return state not in {"Z", "X"}


def wait_for(predicate, seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_gunicorn_runs_the_live_checker_beside_its_workers(app, live_demo, live_server):
    """Served as `make run` serves it: answers get their proposals with no host page
    open, from a process that is not a web worker; it stops with the server."""
    base, code, password = live_demo
    api = f"{base}/api/events/{code}"
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/open",
                         headers={"Authorization": f"Bearer {password}"}).status_code == 200
    token = requests.post(f"{api}/teams", json={"name": "Орли"}).json()["token"]
    assert requests.put(f"{api}/answers/2/1", json={"text": "Ботев или Левски"},
                        headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert wait_for(lambda: proposals(app) == {"Орли": "review"})

    assert len(children(live_server.proc.pid)) == 3  # 2 workers (conftest) and the checker
    checker = checker_of(live_server.proc.pid)

    live_server.proc.send_signal(signal.SIGTERM)
    live_server.proc.wait(timeout=15)
    assert wait_for(lambda: not alive(checker), 5)


def listening_inode(port: int) -> str:
    """The inode of the socket listening on 127.0.0.1:port (/proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == f"0100007F:{port:04X}" and fields[3] == "0A":
            return fields[9]
    raise AssertionError(f"nothing listens on {port}")


def sockets(pid: int) -> set[str]:
    links = (os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd"))
    return {link[8:-1] for link in links if link.startswith("socket:[")}


def checking_thread(pid: int) -> Path | None:
    """The live checker's checking thread among ``pid``'s threads, if it has one."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "comm").read_text().strip() == livecheck.THREAD_NAME:
                return task
        except OSError:
            continue
    return None


def checker_of(master: int) -> int:
    """The live checker among the master's children: the one with its checking thread,
    which runs at the checker's nice value."""
    assert wait_for(lambda: any(checking_thread(pid) for pid in children(master)), 10)
    [pid] = [pid for pid in children(master) if checking_thread(pid)]
    task = checking_thread(pid)
    assert task is not None
    nice = int((task / "stat").read_text().rsplit(")", 1)[1].split()[16])
    assert nice == livecheck.NICENESS
    main = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    assert main == 0  # its writes hold SQLite's writer: at the workers' priority
    return pid


@pytest.mark.slow
def test_the_live_checker_stops_when_its_master_is_killed(serve):
    """kill -9 of gunicorn's master alone: the checker notices and stops. It never
    held the listening socket, so it could not keep the port from the next server."""
    server = serve(workers=1)
    pids = set()
    try:
        assert wait_for(lambda: len(children(server.proc.pid)) == 2)
        pids = children(server.proc.pid)
        checker = checker_of(server.proc.pid)
        port = int(server.url.rsplit(":", 1)[1])
        inode = listening_inode(port)
        assert inode in sockets(server.proc.pid) and inode not in sockets(checker)
        server.proc.kill()
        server.proc.wait(timeout=5)
        assert wait_for(lambda: not alive(checker), 5)
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_checking_runs_niced_and_the_writes_do_not(app, desk, monkeypatch):
    """The write of a pass holds SQLite's writer: at nice 10 on a machine the workers
    kept busy, it waited 50-365 ms for the CPU with the lock held and every phone's
    save waited behind it (issue 33). The checker's CPU work runs on the niced lane;
    the proposals are written from the calling thread, at its priority."""
    from answerdesk.core import rounds

    desk.host(2, "open")
    desk.save(desk.join("Орли"), 2, 1, "Ботев или Левски")
    checked_at, written_at = [], []
    propose, execute = rounds._proposal, rounds.db.session.connection

    def niced_proposal(*args):
        checked_at.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return propose(*args)

    def connection(*args, **kwargs):
        written_at.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return execute(*args, **kwargs)

    monkeypatch.setattr(rounds, "_proposal", niced_proposal)
    monkeypatch.setattr(rounds.db.session, "connection", connection)
    passes: list[int] = []
    livecheck.run(app, interval=0, keep_going=lambda: not passes.append(1) and len(passes) < 2)
    assert checked_at == [livecheck.NICENESS]
    assert written_at and set(written_at) == {os.getpriority(os.PRIO_PROCESS, 0)}
    assert proposals(app) == {"Орли": "review"}
