"""Issue 31: the second round of attacks (a fair buzzer, a venue one prankster cannot stop).

One test (or a few) per finding, named test_31_N_...; each failed on the code before
its fix.
"""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from conftest import ROOT, free_port, stop_gunicorn
from factories import ON_POSTGRES

from answerdesk import create_app


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# 6. Secrets readable by every local user ---------------------------------------------------

@pytest.fixture
def loose_umask():
    """The usual umask of a shell (022): files come out 0644 unless made otherwise."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_31_6_a_new_instance_is_private(tmp_path, loose_umask, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("ORGANISER_PASSWORD", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)  # the instance's own SQLite file
    instance = tmp_path / "instance"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    result = runner.invoke(args=["demo", "--once"])
    assert result.exit_code == 0, result.output
    assert mode(instance) == 0o700
    for name in ("secret_key", "organiser_password", "demo.json", "answerdesk.sqlite",
                 "answerdesk.sqlite-wal", "answerdesk.sqlite-shm"):
        assert mode(instance / name) == 0o600, name


def test_31_6_an_old_instance_is_tightened_on_start(tmp_path, loose_umask, monkeypatch, caplog):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    instance.chmod(0o755)
    names = ("secret_key", "demo.json", "answerdesk.sqlite", "answerdesk.sqlite-wal")
    for name in names:
        (instance / name).write_text("x" * 64 if name == "secret_key" else "")
        (instance / name).chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="answerdesk.instance"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
    assert mode(instance) == 0o700
    assert all(mode(instance / name) == 0o600 for name in names)
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert all(str(instance / name) in logged for name in names)
    assert "now 700" in logged


def test_31_6_make_run_steps_make_a_private_instance(tmp_path):
    """What `make run` runs (migrate, demo, gunicorn), with a shell's umask, on a new
    instance: nothing in it is readable by another user, the WAL files included."""
    instance = tmp_path / "instance"
    env = {k: v for k, v in os.environ.items()
           if k not in ("SECRET_KEY", "ORGANISER_PASSWORD", "DATABASE_URL")}
    env.update(INSTANCE_PATH=str(instance), CHECKER_PRELOAD="0", LIVE_CHECKER="0")
    flask = [sys.executable, "-m", "flask", "--app", "answerdesk"]

    def run(args):
        return subprocess.run(["sh", "-c", 'umask 022; exec "$@"', "sh", *args], cwd=ROOT,
                              env=env, check=True, capture_output=True, timeout=120)

    run([*flask, "db", "upgrade"])
    run([*flask, "demo", "--once"])
    port = free_port()
    proc = subprocess.Popen(["sh", "-c", 'umask 022; exec "$@"', "sh", sys.executable, "-m",
                             "gunicorn", "-w", "1", "--threads", "4", "-b", f"127.0.0.1:{port}",
                             "--log-level", "warning", "wsgi:app"], cwd=ROOT, env=env)

    class Server:
        pass

    server = Server()
    server.proc = proc
    try:
        url = f"http://127.0.0.1:{port}"
        code = __import__("json").loads((instance / "demo.json").read_text())["code"]
        for _ in range(150):
            try:
                resp = requests.post(f"{url}/api/events/{code}/teams",
                                     json={"name": "Alpha", "players": 3}, timeout=2)
                break
            except requests.ConnectionError:
                __import__("time").sleep(0.2)
        assert resp.status_code == 201
    finally:
        stop_gunicorn(server)
    assert mode(instance) == 0o700
    private = [p for p in instance.iterdir() if p.is_file()]
    assert {p.name for p in private} >= {"secret_key", "organiser_password", "demo.json",
                                         "answerdesk.sqlite"}
    assert {p.name: oct(mode(p)) for p in private if mode(p) != 0o600} == {}


@pytest.mark.skipif(ON_POSTGRES, reason="the SQLite file's mode")
def test_31_6_test_databases_are_private(db_uri):
    assert mode(Path(db_uri.removeprefix("sqlite:///"))) == 0o600


# 8. Left from the last round --------------------------------------------------------------

def login(client, code: str, password: str):
    return client.post(f"/host/{code}/login", data={"password": password})


def copy_cookie(source, target) -> None:
    target.set_cookie("session", source.get_cookie("session", domain="quiz.test").value,
                      domain="quiz.test")


def test_31_8_a_host_password_reset_ends_its_sessions(app, desk):
    login(desk.client, desk.code, desk.password)
    organiser = app.test_client()
    organiser.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]})
    assert desk.client.get(f"/host/{desk.code}/").status_code == 200
    page = organiser.post(f"/events/{desk.code}/host-password").get_data(as_text=True)
    assert desk.code in page
    assert desk.client.get(f"/host/{desk.code}/").status_code == 302
    assert desk.client.post(f"/api/host/events/{desk.code}/rounds/2/open").status_code == 401


def test_31_8_organiser_logout_ends_every_copy_of_the_cookie(app, client, english):
    client.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]})
    thief = app.test_client()
    thief.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    copy_cookie(client, thief)
    assert "New event" in thief.get("/").get_data(as_text=True)
    client.post("/logout")
    assert "Organiser password" in thief.get("/").get_data(as_text=True)
    assert thief.post("/events", data={"name": "X", "format": "bg"}).status_code == 401
    client.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]})
    assert "New event" in client.get("/").get_data(as_text=True)  # a new login works


def _deep(levels: int) -> str:
    return '{"seconds": ' + "[" * levels + "]" * levels + "}"


@pytest.mark.parametrize("fmt", ["bg", "chgk", "si", "oq"])
def test_31_8_a_question_start_nested_3000_deep_is_a_400(app, client, english, fmt):
    from buzzgame import make_event

    code, password = make_event(app, fmt, {1: 3, 2: 3})
    resp = client.post(f"/api/host/events/{code}/rounds/1/questions/1/start", data=_deep(3000),
                       content_type="application/json",
                       headers={"Authorization": f"Bearer {password}"})
    assert resp.status_code == 400
    assert resp.get_json()["message"] == "The request body is nested too deeply"
    resp = client.post(f"/api/host/events/{code}/rounds/1/questions/1/start", data=_deep(40),
                       content_type="application/json",
                       headers={"Authorization": f"Bearer {password}"})
    assert resp.status_code == 400


def test_31_8_a_lone_surrogate_in_si_answers_and_protests_is_a_400(app, client, english):
    from buzzgame import make_event, start_question
    from factories import Desk

    desk = Desk(client, *make_event(app, "si", {1: 25}))
    token = desk.join("Вася", players=1)
    start_question(client, desk.code, desk.password, 1, 1)
    auth = {"Authorization": f"Bearer {token}"}
    for path in ("si/answers", "si/protests"):
        resp = client.post(f"/api/events/{desk.code}/{path}", headers=auth,
                           data='{"round": 1, "question": 1, "text": "a\\ud800b"}',
                           content_type="application/json")
        assert resp.status_code == 400, (path, resp.get_data(as_text=True))
        assert resp.get_json()["message"] == "The request body is not valid text"
    ok = client.post(f"/api/events/{desk.code}/si/answers", headers=auth,
                     json={"round": 1, "question": 1, "text": "Канбера"})
    assert ok.status_code == 201  # nothing was kept of the refused one


def test_31_8_chgk_table_with_a_list_as_action_is_a_400(app, client, english):
    from buzzgame import make_event

    code, password = make_event(app, "chgk", {1: 3})
    for action in ([], {}, 1, None):
        resp = client.post(f"/api/host/events/{code}/chgk/games/1/table",
                           json={"team": "A", "action": action, "question": 1},
                           headers={"Authorization": f"Bearer {password}"})
        assert resp.status_code == 400, (action, resp.get_data(as_text=True))
