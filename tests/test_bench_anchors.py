"""bench/'s bare anchors (issue 18): each does a save's whole work and refuses what
answerdesk refuses, so that a ratio to them compares like with like."""

from __future__ import annotations

import argparse
import importlib.util
import secrets
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
from factories import ON_POSTGRES, PG_URL

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH.parent))
from bench import harness  # noqa: E402


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"anchor_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _init(args: list[str]) -> list[tuple[str, str]]:
    made = subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True)
    return [tuple(line.split()) for line in made.stdout.splitlines()]


def _night(client, teams: list[tuple[str, str]], close) -> None:
    """Two saves of one answer, a wrong token, then the round closed: refused."""
    team, token = teams[0]
    auth = {"Authorization": f"Bearer {token}"}
    first = client.put(f"/save/{team}/1", json={"text": "Левски"}, headers=auth)
    assert first.status_code == 200 and first.get_json()["version"] == 1
    again = client.put(f"/save/{team}/1", json={"text": "Левски София"}, headers=auth)
    assert again.status_code == 200 and again.get_json()["version"] == 2
    wrong = client.put(f"/save/{team}/1", json={"text": "x"},
                       headers={"Authorization": f"Bearer {teams[1][1]}"})
    assert wrong.status_code == 401
    close()
    late = client.put(f"/save/{team}/2", json={"text": "късно"}, headers=auth)
    assert late.status_code == 409
    assert client.get("/state").get_json()["rounds"][1] == {"number": 2, "state": "locked"}


def test_sqlite_anchor_saves_audits_and_refuses(tmp_path, monkeypatch):
    database = str(tmp_path / "bare.sqlite")
    teams = _init([str(BENCH / "bare_anchor.py"), "init", database, "2"])
    monkeypatch.setenv("BARE_DB", database)
    anchor = _load("bare_anchor")

    def close():
        with sqlite3.connect(database) as db:
            db.execute("UPDATE round SET state = 'locked' WHERE number = 2")

    _night(anchor.app.test_client(), teams, close)
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT text, version FROM answer").fetchall() == [("Левски София", 2)]
        assert db.execute("SELECT count(*) FROM audit").fetchone() == (2,)


@pytest.fixture
def pg_anchor(monkeypatch):
    if not ON_POSTGRES:
        pytest.skip("the PostgreSQL anchor needs DATABASE_URL=postgresql://...")
    schema = f"bare_anchor_test_{secrets.token_hex(4)}"
    script = str(BENCH / "bare_anchor_pg.py")
    teams = _init([script, "init", PG_URL, schema, "2"])
    monkeypatch.setenv("BARE_DB", PG_URL)
    monkeypatch.setenv("BARE_SCHEMA", schema)
    anchor = _load("bare_anchor_pg")
    db = anchor.connect(PG_URL, schema)
    try:
        yield anchor, teams, db
    finally:
        if hasattr(anchor._local, "conn"):
            anchor._local.conn.close()
        db.rollback()  # a test that failed with its transaction open
        db.autocommit = True
        subprocess.run([sys.executable, script, "drop", PG_URL, schema], check=True)
        found = db.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,))
        assert found.fetchone() is None
        db.close()


def test_postgres_anchor_saves_audits_and_refuses(pg_anchor):
    anchor, teams, db = pg_anchor
    _night(anchor.app.test_client(), teams,
           lambda: db.execute("UPDATE round SET state = 'locked' WHERE number = 2"))
    assert db.execute("SELECT text, version FROM answer").fetchall() == [("Левски София", 2)]
    assert db.execute("SELECT count(*) FROM audit").fetchone() == (2,)
    assert db.execute("SELECT after FROM audit ORDER BY id").fetchone()[0].startswith(
        '{"text": "Левски"')


def test_postgres_anchor_reads_the_round_after_its_lock(pg_anchor):
    """A close that holds the round's lock when the save arrives: the save waits for
    it, then reads the round as the close left it (as answerdesk's guard does)."""
    anchor, teams, db = pg_anchor
    team, token = teams[0]
    db.autocommit = False
    db.execute("SELECT pg_advisory_xact_lock(2)")
    db.execute("UPDATE round SET state = 'locked' WHERE number = 2")
    answered = {}

    def save():
        client = anchor.app.test_client()
        answered["status"] = client.put(f"/save/{team}/1", json={"text": "Левски"},
                                        headers={"Authorization": f"Bearer {token}"}).status_code
        anchor._local.conn.close()

    writer = threading.Thread(target=save)
    writer.start()
    time.sleep(0.5)
    assert "status" not in answered  # waiting for the close's lock
    db.commit()
    writer.join(10)
    assert answered["status"] == 409
    db.autocommit = True
    assert db.execute("SELECT count(*) FROM answer").fetchone() == (0,)


def test_shares_are_ratios_of_saves_and_gets():
    ours = {"save_capacity": 300.0, "trivial_capacity": 900.0}
    anchor = {"save_capacity": 600.0, "trivial_capacity": 1000.0}
    assert harness.shares(ours, anchor) == (0.5, 0.9)


@pytest.mark.slow
def test_anchor_capacity_serves_measures_and_cleans_up(tmp_path):
    """load's anchor phase, run small under gunicorn: both closed loops got answers,
    and on PostgreSQL the anchor's schema is gone afterwards."""
    url = PG_URL if ON_POSTGRES else None
    measured = harness.anchor_capacity(str(tmp_path), workers=1, threads=2, seconds=0.5,
                                       concurrency=2, teams=3, postgres_url=url)
    assert measured["save_capacity"] > 0 and measured["trivial_capacity"] > 0
    if url:
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as db:
            left = db.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE %s",
                              ("bare_anchor_%",)).fetchall()
        assert left == []


def test_pg_anchor_that_cannot_be_set_up_is_reported_not_fatal(tmp_path, capsys):
    """load has printed answerdesk's figures by then: a database where the anchor cannot
    make its schema (here: nobody listens) gets a line saying why, and load goes on."""
    args = argparse.Namespace(workers=1, threads=2, capacity_seconds=0.5, concurrency=2)
    url = "postgresql://nobody:nothing@127.0.0.1:1/none"
    assert harness.pg_anchor_capacity(str(tmp_path), args, url) is None
    printed = capsys.readouterr().out
    assert "bare anchor on PostgreSQL: not measured, its set-up failed: " in printed
    assert printed.split("its set-up failed: ")[1].startswith("psycopg.OperationalError")
    assert "dropped" not in printed  # its init is all or nothing: nothing was made
