"""The access log (issue 32): one line a request under gunicorn, on by default, off with
ACCESS_LOG=off, and a line a client cannot break (answerdesk/access_log.py)."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import requests
from factories import stop_gunicorn
from gunicorn.config import Config

from answerdesk.access_log import AccessLogger, line
from answerdesk.logs import REQUEST_ID_KEY

STAMP = "2026-12-07 21:04:13"


def environ(target: str, **more: str) -> dict[str, str]:
    return {"REMOTE_ADDR": "10.0.0.7", "REQUEST_METHOD": "PUT", "RAW_URI": target,
            "PATH_INFO": target, **more}


def resp(status: int | None = 409, sent: int | None = 112) -> SimpleNamespace:
    return SimpleNamespace(status_code=status, sent=sent)


def test_a_line_names_client_request_status_size_time_and_request_id():
    got = line(STAMP, resp(), environ("/api/events/ABCD/answers/3", HTTP_X_REQUEST_ID="7f3a9c"),
               timedelta(milliseconds=4, microseconds=100))
    assert got == f"{STAMP} 10.0.0.7 PUT /api/events/ABCD/answers/3 409 112 4.1ms [7f3a9c]"


def test_a_missing_request_id_size_or_status_is_a_dash():
    got = line(STAMP, resp(None, None), environ("/"), timedelta(0))
    assert got == f"{STAMP} 10.0.0.7 PUT / - - 0.0ms [-]"
    never_started = SimpleNamespace(sent=0)  # gunicorn's Response before start_response
    assert line(STAMP, never_started, environ("/"), timedelta(0)).endswith(" / - 0 0.0ms [-]")


def test_the_id_the_apps_log_used_wins_over_the_header():
    given = environ("/", HTTP_X_REQUEST_ID="proxy-1", **{REQUEST_ID_KEY: "c0ffee"})
    got = line(STAMP, resp(), given, timedelta(0))
    assert got.endswith("[c0ffee]")


def test_a_cyrillic_path_sent_raw_reads_as_cyrillic_and_percent_encoded_as_sent():
    raw = "/отбор/Яна?q=ё".encode().decode("latin-1")  # how gunicorn hands the request line on
    assert " /отбор/Яна?q=ё 409 " in line(STAMP, resp(), environ(raw), timedelta(0))
    encoded = "/%D0%BE%D1%82?x=1"
    assert f" {encoded} 409 " in line(STAMP, resp(), environ(encoded), timedelta(0))


def test_odd_characters_cannot_break_or_forge_a_line():
    odd = "/a b\n2026-12-07 10.0.0.1 GET / 200\t\\\x00\xff"
    got = line(STAMP, resp(), environ(odd, HTTP_X_REQUEST_ID="x]\n[y"), timedelta(0))
    assert "\n" not in got and "\t" not in got
    assert got.split(" ")[4] == ("/a\\x20b\\n2026-12-07\\x2010.0.0.1\\x20GET\\x20/\\x20200"
                                 "\\t\\\\\\x00\\xff")
    assert got.endswith("[x]\\n[y]")
    assert len(got.split(" ")) == 9


def logger_to(path: Path | None) -> AccessLogger:
    cfg = Config()
    cfg.set("accesslog", None if path is None else str(path))
    return AccessLogger(cfg)


def test_lines_wait_in_the_queue_until_written_and_rotation_reopens_the_file(tmp_path):
    path = tmp_path / "access.log"
    log = logger_to(path)
    log.access(resp(200, 5), None, environ("/one"), timedelta(milliseconds=2))
    assert path.read_text() == ""  # queued, not written by the request
    log.flush()
    assert re.fullmatch(r"\S+ \S+ 10\.0\.0\.7 PUT /one 200 5 2\.0ms \[-\]\n", path.read_text())
    path.rename(tmp_path / "access.log.1")
    log.access(resp(200, 5), None, environ("/two"), timedelta(0))
    log.reopen_files()  # USR1: what was queued goes to the old file
    log.access(resp(200, 5), None, environ("/three"), timedelta(0))
    log.flush()
    assert " /two " in (tmp_path / "access.log.1").read_text()
    assert " /three " in path.read_text() and " /two " not in path.read_text()


def test_the_writer_thread_writes_a_line_within_about_a_second(tmp_path):
    path = tmp_path / "access.log"
    log = logger_to(path)
    log.access(resp(200, 5), None, environ("/soon"), timedelta(0))
    deadline = time.monotonic() + 30
    while " /soon " not in path.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert " /soon " in path.read_text()


def test_no_target_writes_nothing(tmp_path):
    log = logger_to(None)
    log.access(resp(), None, environ("/"), timedelta(0))
    assert not log._queue


def test_under_gunicorn_each_request_has_its_line_on_stdout_by_default(serve, tmp_path):
    out = tmp_path / "stdout.txt"
    with out.open("w") as stdout:
        server = serve(workers=1, threads=4, environ={"ACCESS_LOG": None}, stdout=stdout)
        ok = requests.get(server.url + "/api/openapi.json", headers={"X-Request-Id": "night-42"})
        refused = requests.get(server.url + "/api/events/NOPE99/standings")
        assert (ok.status_code, refused.status_code) == (200, 404)
        stop_gunicorn(server)  # at once: the worker writes its queue as it exits
    text = out.read_text()
    assert '"GET' not in text, "gunicorn's own access line is written too"
    assert re.search(rf" 127\.0\.0\.1 GET /api/openapi\.json 200 {len(ok.content)} "
                     r"[\d.]+ms \[night-42\]$", text, re.M), text
    # No header: the id the app's own log gave the refusal (on stderr).
    assert re.search(r" GET /api/events/NOPE99/standings 404 \d+ [\d.]+ms \[[0-9a-f]{12}\]$",
                     text, re.M), text


def test_under_gunicorn_access_log_off_writes_no_line(serve, tmp_path):
    out = tmp_path / "stdout.txt"
    with out.open("w") as stdout:
        server = serve(workers=1, threads=4, environ={"ACCESS_LOG": "off"}, stdout=stdout)
        assert requests.get(server.url + "/api/openapi.json").status_code == 200
        stop_gunicorn(server)
    assert "/api/openapi.json" not in out.read_text()
