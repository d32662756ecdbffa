"""Fixtures: an app with a fresh database per test, on SQLite or PostgreSQL.

Set DATABASE_URL=postgresql://... to run the whole suite on PostgreSQL; the
default is a new SQLite file per test. The schema is built once per
session and copied (SQLite) or truncated (PostgreSQL) for each test; a test
in test_cli.py checks that the migrations build exactly the same schema.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from factories import (
    ON_POSTGRES,
    PG_URL,
    ROOT,
    Desk,
    PlainQuiz,
    Server,
    free_port,
    make_event,
    registered,
    stop_gunicorn,
)

from answerdesk import create_app
from answerdesk.config import _normalise_database_url
from answerdesk.extensions import db


def _config(uri: str, instance: Path) -> dict:
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": uri,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "SERVER_NAME": "quiz.test",
        "INSTANCE_PATH": str(instance),
        # A live-push stream ends after this (EventSource reconnects): a test that reads
        # a whole response, such as every route in test_idor.py, gets the stream's end.
        "LIVE_STREAM_SECONDS": 0.2,
    }


def _build_schema(uri: str, instance: Path) -> None:
    """The tables of models.py; test_cli.py proves the migrations build the same."""
    app = create_app(_config(uri, instance))
    with app.app_context():
        if ON_POSTGRES:
            with db.engine.begin() as conn:
                conn.exec_driver_sql("DROP SCHEMA public CASCADE")
                conn.exec_driver_sql("CREATE SCHEMA public")
        db.create_all()
        db.engine.dispose()


@pytest.fixture(scope="session")
def schema(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Build the schema once per session; return the template URI."""
    base = tmp_path_factory.mktemp("schema")
    template = base / "template.sqlite"
    uri = _normalise_database_url(PG_URL) if ON_POSTGRES else f"sqlite:///{template}"
    _build_schema(uri, base)
    return uri


@pytest.fixture
def db_uri(schema: str, tmp_path: Path) -> str:
    if ON_POSTGRES:
        return schema
    target = tmp_path / "answerdesk.sqlite"
    shutil.copy(schema.removeprefix("sqlite:///"), target)
    return f"sqlite:///{target}"


def _truncate_all(tries: int = 5) -> None:
    """Empty every table for the next test. A previous test's live-push watcher may still
    be reading (it stops once its streams end): PostgreSQL then picks TRUNCATE as the
    deadlock's victim, or its wait outlasts lock_timeout (DATABASE_LOCK_TIMEOUT), and
    it is tried again."""
    from sqlalchemy.exc import OperationalError

    tables = ", ".join(t.name for t in db.metadata.sorted_tables)
    for attempt in range(tries):
        try:
            with db.engine.begin() as conn:
                conn.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
            return
        except OperationalError as err:
            if not ("deadlock" in str(err) or "lock timeout" in str(err)) \
                    or attempt == tries - 1:
                raise
            time.sleep(0.2)


def _test_is_the_boundary(app) -> None:
    """Services flush and the request commits (issue 32); a test that calls a service in
    an app context of its own is that boundary: what it flushed is committed when the
    context ends without an error. A request has committed or rolled back before."""

    @app.teardown_appcontext
    def commit(error: BaseException | None = None) -> None:  # runs before the session's end
        if error is None and db.session.registry.has() and db.session().in_transaction():
            session = db.session()
            session.expire_on_commit = False  # what the test read stays readable after
            session.commit()


@pytest.fixture
def app(db_uri: str, tmp_path: Path):
    app = create_app(_config(db_uri, tmp_path))
    _test_is_the_boundary(app)
    with app.app_context():
        if ON_POSTGRES:
            _truncate_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


def new_demo_event(app) -> tuple[str, str]:
    """A demo evening in the test's database: (code, host password)."""
    from answerdesk.formats.bg.demo import create_demo_event

    with app.app_context():
        event, password = create_demo_event()
        db.session.commit()
        return event.code, password


@pytest.fixture
def demo(app):
    """The demo evening: returns (code, host password)."""
    return new_demo_event(app)


@pytest.fixture
def plain(app):
    """The neutral format (factories.PlainQuiz) registered for the test."""
    with registered(PlainQuiz()) as fmt:
        yield fmt


@pytest.fixture
def plain_event(app, plain):
    """An evening of the neutral format, 3 questions a round: (code, host password)."""
    with app.app_context():
        event, password = make_event()
        return event.code, password


@pytest.fixture
def plain_desk(client, plain_event) -> Desk:
    """The JSON API of the neutral evening, as its phones and host call it."""
    return Desk(client, *plain_event)


@pytest.fixture
def demo_desk(client, demo) -> Desk:
    """The demo evening, for a core test that calls the Bulgarian game's own services
    (its jokers, its final); core's own tests run on the neutral format (plain_desk,
    factories.set_keys for the keys a test answers to)."""
    return Desk(client, *demo)


@pytest.fixture
def strict_app(db_uri, tmp_path):
    """The app as served: CSRF on, rate limits on."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "test-secret",
                      "SERVER_NAME": "quiz.test", "INSTANCE_PATH": str(tmp_path),
                      "TESTING": True, "RATELIMIT_ENABLED": True})
    _test_is_the_boundary(app)
    from answerdesk.formats.bg.demo import create_demo_event

    with app.app_context():
        event, password = create_demo_event()
        db.session.commit()
        app.config["DEMO"] = (event.code, password)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def desk(client, demo) -> Desk:
    return Desk(client, *demo)


@pytest.fixture
def another_desk(app, client) -> Desk:
    """A second demo evening in the same database (what spans events)."""
    return Desk(client, *new_demo_event(app))


@pytest.fixture
def english(client) -> None:
    """The phone asks for English (the default is Bulgarian): for tests that read the
    English wording of a refusal."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"


def start_gunicorn(db_uri: str, instance: Path, workers: int = 2, threads: int = 8,
                   environ: dict[str, str | None] | None = None, stdout: Any = None) -> Server:
    """The real app under gunicorn's threaded workers, as `make run` serves it; `environ`
    adds to or overrides its settings, None unsets one (the access log is off unless it
    says otherwise)."""
    port = free_port()
    given = {**os.environ, "DATABASE_URL": db_uri, "SECRET_KEY": "test-secret",
             "INSTANCE_PATH": str(instance), "CHECKER_PRELOAD": "0", "ACCESS_LOG": "off",
             **(environ or {})}
    env = {name: value for name, value in given.items() if value is not None}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", str(workers),
         "--threads", str(threads), "-b", f"127.0.0.1:{port}", "--log-level", "warning",
         "wsgi:app"],
        cwd=ROOT, env=env, stdout=stdout,
    )
    url = f"http://127.0.0.1:{port}"
    # Up once a worker answers anything: a static file, which costs the worker nothing
    # (the OpenAPI document, built per request, took over the probe's second on a
    # machine running two suites, and the server never counted as started). The
    # deadline bounds a server that never starts, not its speed: the app's import alone
    # took 25-35 s of wall time at a load average of 22.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited at start")
        try:
            requests.get(url + "/static/phone.js", timeout=5)
            return Server(url, proc, env)
        except (requests.ConnectionError, requests.Timeout):  # worker still booting
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("gunicorn did not start in 120 s")


@pytest.fixture
def live_server(app, db_uri: str, tmp_path: Path):
    server = start_gunicorn(db_uri, tmp_path)
    yield server
    stop_gunicorn(server)


@pytest.fixture
def serve(app, db_uri: str, tmp_path: Path):
    """Start gunicorn on the test's database with the workers wanted; stopped after."""
    servers: list[Server] = []

    def start(workers: int = 2, threads: int = 8, environ: dict[str, str | None] | None = None,
              stdout: Any = None) -> Server:
        servers.append(start_gunicorn(db_uri, tmp_path, workers, threads, environ, stdout))
        return servers[-1]

    yield start
    for server in servers:
        stop_gunicorn(server)


@pytest.fixture
def live_demo(app, live_server) -> tuple[str, str, str]:
    """A demo event in the served database: (base url, code, host password)."""
    return (live_server.url, *new_demo_event(app))


@pytest.fixture
def log_in_host():
    """Log a browser page in at the host's login form as a host does (password, Enter)."""
    from playwright.sync_api import expect

    def log_in(page, base: str, code: str, password: str) -> None:
        page.goto(f"{base}/host/{code}/login")
        field = page.locator("input[name=password]")
        field.fill(password)
        field.press("Enter")
        # A password is hashed at low priority (access.py): a busy machine takes longer.
        expect(page).to_have_url(re.compile(r"/host/\w+/$"), timeout=30_000)

    return log_in


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's chromium: Playwright's own browser download does not work here."""
    return {
        **browser_type_launch_args,
        "executable_path": os.environ.get("CHROMIUM", "/usr/bin/chromium"),
        "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic",
                 # The projector plays a question's sound when the desk says so (issue 19).
                 "--autoplay-policy=no-user-gesture-required"],
    }


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """The .mo files are build output (`make translations`); compile them here too, so
    every test, and the gunicorn a test starts, speaks Bulgarian and Russian."""
    from answerdesk.i18n import compile_catalogues

    compile_catalogues()


def tiny_png(width: int = 64, height: int = 48) -> bytes:
    """A real PNG (one colour), made here so no test needs a binary file."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xd0\x40\x20" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                                0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def tiny_wav(seconds: float = 3.0, rate: int = 8000) -> bytes:
    """A real WAV: a quiet 440 Hz tone, long enough for currentTime to move."""
    import io
    import math
    import struct
    import wave

    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", int(3000 * math.sin(2 * math.pi * 440 * i / rate)))
                               for i in range(int(seconds * rate))))
    return out.getvalue()


def media_bundle() -> bytes:
    """A zip bundle (docs/packs.md): pack.yaml naming a picture (R3) and a sound (R4)."""
    import io
    import zipfile

    pack = """answerdesk_pack: 1
title: "Картини и звук"
rounds:
  - number: 3
    questions:
      - text: "Коя сграда е на снимката?"
        media: stills/colosseum.png
        key: ["Колизеум"]
  - number: 4
    questions:
      - text: "Песента"
        media: {kind: audio, ref: clips/tone.wav}
        key: ["Ла"]
      - text: "Без файл"
        media: "https://example.org/clip.mp3"
        key: ["Нищо"]
"""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("pack.yaml", pack.encode("utf-8"))
        zf.writestr("stills/colosseum.png", tiny_png())
        zf.writestr("clips/tone.wav", tiny_wav())
        zf.writestr("../evil.png", b"x")
    return buf.getvalue()


@pytest.fixture
def media_files():
    """Makers of tiny real media files and of a zip bundle naming them."""
    from types import SimpleNamespace

    return SimpleNamespace(png=tiny_png, wav=tiny_wav, bundle=media_bundle)
