"""Issue 31: the second round of attacks (a fair buzzer, a venue one prankster cannot stop).

One test (or a few) per finding, named test_31_N_...; each failed on the code before
its fix.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import stat
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import requests
from factories import ON_POSTGRES, ROOT, free_port, stop_gunicorn

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
        code = json.loads((instance / "demo.json").read_text())["code"]
        for _ in range(150):
            try:
                resp = requests.post(f"{url}/api/events/{code}/teams",
                                     json={"name": "Alpha", "players": 3}, timeout=2)
                break
            except requests.ConnectionError:
                time.sleep(0.2)
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
        assert resp.get_json()["message"] == "text is not valid text"
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


# 4 and 5. Archives: zip bombs, a million entries, the preview and the upload store ------

def _zip(files: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


SPELLINGS = ["big.mp4", "./big.mp4", "a/../big.mp4", "./a/../big.mp4", ".//big.mp4"]


def _bundle(refs: list[str], files: dict[str, bytes]) -> bytes:
    lines = ["answerdesk_pack: 1", "title: bundle", "rounds:", "- number: 4", "  kind: media",
             "  check_mode: typo3", "  points: 1", "  questions:"]
    for i, ref in enumerate(refs, start=1):
        lines += [f"  - number: {i}", "    text: What is it?", "    key: x",
                  f"    media: [{{kind: video, ref: '{ref}'}}]"]
    return _zip({"pack.yaml": "\n".join(lines) + "\n", **files})


def test_31_4_a_bundle_entry_inflating_far_beyond_its_size_is_refused():
    from answerdesk.packs import PackError, parse_pack

    bomb = _bundle(SPELLINGS, {"big.mp4": b"\x00" * (160 * 1024 * 1024)})
    assert len(bomb) < 200_000
    with pytest.raises(PackError) as err:
        parse_pack(bomb, "bomb.zip")
    assert "inflates" in err.value.message and "big.mp4" in err.value.message


def test_31_4_a_file_named_by_several_spellings_is_read_once(monkeypatch):
    from answerdesk.packs import parse_pack

    video = os.urandom(200_000)  # media do not compress: no ratio to refuse
    reads: list[str] = []
    real = zipfile.ZipFile.read

    def spy(self, name, *args, **kwargs):
        reads.append(getattr(name, "filename", name))
        return real(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "read", spy)
    pack = parse_pack(_bundle(SPELLINGS, {"big.mp4": video}), "bundle.zip")
    assert reads.count("big.mp4") == 1
    assert set(pack.media) == set(SPELLINGS)
    assert len({id(data) for data in pack.media.values()}) == 1  # one copy in memory


def test_31_4_the_guard_bounds_every_archive(monkeypatch):
    from answerdesk.packs import PackError, parse_pack
    from answerdesk.packs import archive as guard

    stored = _zip({"pack.yaml": "answerdesk_pack: 1\nrounds: []\n",
                   "one.mp4": os.urandom(4096), "two.mp4": os.urandom(4096)},
                  zipfile.ZIP_STORED)
    monkeypatch.setattr(guard, "MAX_TOTAL_BYTES", 6000)
    with pytest.raises(PackError, match="inflates to more than"):
        parse_pack(stored, "pack.zip")
    monkeypatch.setattr(guard, "MAX_TOTAL_BYTES", 250 * 1024 * 1024)
    monkeypatch.setattr(guard, "MAX_ENTRY_BYTES", 4000)
    archive = guard.Archive(stored, "pack.zip")
    with pytest.raises(PackError, match="larger than"):
        archive.read("one.mp4")
    monkeypatch.setattr(guard, "MAX_ENTRIES", 2)
    for name in ("pack.zip", "pack.siq"):
        with pytest.raises(PackError, match="more than 2 files"):
            parse_pack(stored, name)


def _many_entries(count: int) -> bytes:
    """A .siq whose central directory lists ``count`` empty entries (what a million
    took 16.6 s and 700 MB to open), written directly: zipfile would take minutes."""
    local, directory = io.BytesIO(), io.BytesIO()
    for i in range(count):
        name = f"Images/{i}.png".encode()
        offset = local.tell()
        local.write(struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0,
                                len(name), 0) + name)
        directory.write(struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0,
                                    0, 0, len(name), 0, 0, 0, 0, 0, offset) + name)
    body, listing = local.getvalue(), directory.getvalue()
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, min(count, 0xFFFF),
                      min(count, 0xFFFF), len(listing), len(body), 0)
    return body + listing + end


def test_31_5_a_siq_of_a_million_entries_is_refused_before_it_is_parsed(monkeypatch):
    from answerdesk.packs import PackError, parse_pack

    parsed: list[int] = []
    real = zipfile.ZipFile._RealGetContents
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents",
                        lambda self: parsed.append(1) or real(self))
    data = _many_entries(1_000_000)
    with pytest.raises(PackError, match="more than 10000 files"):
        parse_pack(data, "million.siq")
    assert parsed == []  # refused from the end record: the directory was never read


def test_31_5_the_preview_lists_a_bounded_number_of_warnings(app, desk, english):
    from answerdesk.packs.importer import MAX_LISTED

    content = (f'<?xml version="1.0" encoding="utf-8"?><package name="t" version="5" '
               f'xmlns="{V5_NS}"><rounds><round name="R"><themes><theme name="T"><questions>'
               + "".join(f'<question price="{100 * (i + 1)}"><params><param name="question" '
                         f'type="content"><item>Q{i}</item></param></params>'
                         f'<right><answer>A</answer></right><type name="weird{i}"/></question>'
                         for i in range(120))
               + "</questions></theme></themes></round></rounds></package>")
    files = {"content.xml": content}
    files.update({f"Images/unused{i}.png": b"" for i in range(5000)})
    login(desk.client, desk.code, desk.password)
    resp = desk.client.post(f"/host/{desk.code}/programme/preview",
                            data={"pack": (io.BytesIO(_zip(files)), "many.siq")},
                            content_type="multipart/form-data")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200, page[-2000:]
    warnings = re.search(r'<ul class="warnings">(.*?)</ul>', page, re.S).group(1)
    assert warnings.count("<li>") == MAX_LISTED + 1
    assert "more warnings" in warnings
    assert len(page) < 100_000
    from answerdesk.packs import parse_pack

    unused = [w for w in parse_pack(_zip(files), "many.siq").warnings
              if "no question uses" in w.template]
    assert len(unused) == 1 and unused[0].params["count"] == 5000
    assert len(unused[0].params["files"].split(", ")) == 20


def test_31_5_the_upload_store_is_bounded(app, desk, monkeypatch):
    from answerdesk.host import packs as pages

    monkeypatch.setattr(pages, "UPLOAD_STORE_BYTES", 3 * 1024 * 1024)
    login(desk.client, desk.code, desk.password)
    pack = ("answerdesk_pack: 1\ntitle: t\nrounds:\n- number: 2\n  questions:\n"
            "  - text: Q\n    key: A\n# " + "x" * (1024 * 1024) + "\n").encode()
    for _ in range(6):
        resp = desk.client.post(f"/host/{desk.code}/programme/preview",
                                data={"pack": (io.BytesIO(pack), "p.yaml")},
                                content_type="multipart/form-data")
        assert resp.status_code == 200
    store = Path(app.instance_path) / "uploads"
    kept = list(store.iterdir())
    assert 1 <= len(kept) <= 3 and sum(p.stat().st_size for p in kept) <= 3 * 1024 * 1024
    newest = re.search(r'name="upload" value="([0-9a-f]{32})"', resp.get_data(as_text=True))
    assert (store / newest.group(1)).exists()  # the preview just shown can be confirmed
    monkeypatch.setattr(pages, "UPLOAD_STORE_FILES", 2)
    desk.client.post(f"/host/{desk.code}/programme/preview",
                     data={"pack": (io.BytesIO(pack), "p.yaml")},
                     content_type="multipart/form-data")
    assert len(list(store.iterdir())) <= 2


V5_NS = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS")).split()[1])


def _workers(pid: int) -> list[int]:
    return [int(p) for t in os.listdir(f"/proc/{pid}/task")
            for p in open(f"/proc/{pid}/task/{t}/children").read().split()]


def _host_session(base: str, code: str, password: str) -> tuple[requests.Session, str]:
    """A host logged in at the login form as a browser is (CSRF token and cookie)."""
    session = requests.Session()
    session.headers["Accept-Language"] = "en"
    page = session.get(f"{base}/host/{code}/login", timeout=10).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    session.post(f"{base}/host/{code}/login", timeout=60,
                 data={"password": password, "csrf_token": token})
    page = session.get(f"{base}/host/{code}/programme", timeout=10).text
    return session, re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


@pytest.mark.slow
def test_31_4_a_bundle_bomb_does_not_grow_the_worker_under_gunicorn(serve, demo):
    code, password = demo
    server = serve(workers=1, threads=2)
    session, token = _host_session(server.url, code, password)
    worker = _workers(server.proc.pid)[0]
    before = _rss_kb(worker)
    bomb = _bundle(SPELLINGS, {"big.mp4": b"\x00" * (40 * 1024 * 1024)})
    assert len(bomb) < 100_000
    resp = session.post(f"{server.url}/host/{code}/programme/preview", timeout=60,
                        data={"csrf_token": token}, files={"pack": ("bomb.zip", bomb)})
    assert resp.status_code == 422 and "inflates" in resp.text
    assert _rss_kb(worker) - before < 32 * 1024


# 2. Wrong host passwords stall every answer save -----------------------------------------

def _host_routes(app) -> list[tuple[str, str]]:
    """(method, path) of every host API route, for the demo event's code."""
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/host/"):
            continue
        method = sorted(rule.methods - {"HEAD", "OPTIONS"})[0]
        path = re.sub(r"<int:\w+>", "1", rule.rule)
        path = re.sub(r"<(?:string:)?code>", "{code}", path)
        path = re.sub(r"<[^>]+>", "x", path)
        routes.append((method, path))
    return routes


@pytest.fixture
def scrypt_spy(app, monkeypatch):
    """Every password check, with whether the request held a transaction (on SQLite:
    the write lock) while it ran."""
    from answerdesk import access
    from answerdesk.extensions import db

    seen: list[bool] = []
    real = access.right_password

    def spy(stored: str, password: str) -> bool:
        seen.append(db.session().in_transaction())
        return real(stored, password)

    monkeypatch.setattr(access, "right_password", spy)
    return seen


def test_31_2_every_host_password_check_runs_outside_the_transaction(app, desk, scrypt_spy):
    routes = _host_routes(app)
    assert len(routes) >= 25
    wrong = {"Authorization": "Bearer not-the-password"}
    for method, path in routes:
        before = len(scrypt_spy)
        resp = desk.client.open(path.format(code=desk.code), method=method, json={},
                                headers=wrong)
        assert resp.status_code == 401, (method, path, resp.status_code)
        assert len(scrypt_spy) == before + 1, (method, path)
    assert scrypt_spy and not any(scrypt_spy)
    resp = desk.client.post(f"/api/host/events/{desk.code}/rounds/2/open",
                            headers={"Authorization": f"Bearer {desk.password}"})
    assert resp.status_code == 200 and not any(scrypt_spy)  # the right one too


def test_31_2_the_login_form_checks_outside_the_transaction(app, desk, scrypt_spy):
    for password in ("wrong", desk.password):
        desk.client.post(f"/host/{desk.code}/login", data={"password": password})
    assert len(scrypt_spy) >= 2 and not any(scrypt_spy)
    assert desk.client.get(f"/host/{desk.code}/").status_code == 200


def test_31_2_one_rule_counts_wrong_passwords_over_every_route(strict_app):
    from answerdesk.access import CREDENTIAL_LIMIT

    assert CREDENTIAL_LIMIT == "10 per minute"
    code, password = strict_app.config["DEMO"]
    client = strict_app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      client.get(f"/host/{code}/login").get_data(as_text=True)).group(1)
    wrong = {"Authorization": "Bearer nope"}
    tries = [
        lambda: client.post(f"/host/{code}/login", data={"password": "x", "csrf_token": token}),
        lambda: client.post(f"/api/host/events/{code}/rounds/2/open", headers=wrong),
        lambda: client.post(f"/api/host/events/{code}/rounds/1/questions/1/start",
                            headers=wrong),
        lambda: client.post("/login", data={"password": "x", "csrf_token": token}),
        lambda: client.post("/api/events", headers=wrong, json={}),
    ]
    statuses = [tries[i % len(tries)]().status_code for i in range(10)]
    assert 429 not in statuses and set(statuses) <= {200, 401}
    for attempt in tries:
        assert attempt().status_code == 429
    right = client.post(f"/api/host/events/{code}/rounds/2/open",
                        headers={"Authorization": f"Bearer {password}"})
    assert right.status_code == 429  # no guessing race: the right one waits too
    other = strict_app.test_client().post(
        f"/api/host/events/{code}/rounds/2/open", environ_base={"REMOTE_ADDR": "10.0.0.7"},
        headers={"Authorization": f"Bearer {password}"})
    assert other.status_code == 200  # per address


def test_31_2_an_address_over_the_limit_is_refused_before_any_database_work(strict_app):
    """Once an address is over the limit, its host API calls and login forms are 429s
    before the event is read: a flood of them begins no transaction (on SQLite the login
    form's read would take the writer queue's turn from the saves), and an event code
    that does not exist tells the address nothing either."""
    from sqlalchemy import event as sa_event

    from answerdesk.extensions import db

    code, _ = strict_app.config["DEMO"]
    client = strict_app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      client.get(f"/host/{code}/login").get_data(as_text=True)).group(1)
    wrong = {"Authorization": "Bearer nope"}
    for _ in range(10):
        assert client.post(f"/api/host/events/{code}/rounds/2/open",
                           headers=wrong).status_code == 401
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    with strict_app.app_context():
        engine = db.engine
    sa_event.listen(engine, "before_cursor_execute", seen)
    try:
        for path in (f"/api/host/events/{code}/rounds/2/open",
                     "/api/host/events/NOSUCH/rounds/2/open",
                     f"/api/host/events/{code}/rounds/1/questions/1/start"):
            assert client.post(path, headers=wrong).status_code == 429, path
        login = client.post(f"/host/{code}/login", data={"password": "x", "csrf_token": token})
        assert login.status_code == 429
    finally:
        sa_event.remove(engine, "before_cursor_execute", seen)
    assert statements == []


# 1. A cheating phone always wins the OpenQuiz buzzer (OQ-4) ---------------------------------

@pytest.fixture
def buzz_game(app, client, monkeypatch):
    from buzzgame import Phone, install_server_clock, make_event, oq_player
    from factories import Desk

    clock = install_server_clock(monkeypatch)
    code, password = make_event(app, "oq", {1: 5})
    desk = Desk(client, code, password)

    def phone(name: str, skew_ms: int, out_ms: int, back_ms: int) -> Phone:
        p = Phone(client, code, oq_player(client, code, name), clock, skew_ms, out_ms, back_ms)
        for i in range(6):
            p.sync(T0 - 30_000 + i * 2_000)
        return p

    return desk, phone, clock


T0 = 1_800_000_000_000


def _buzzer(desk) -> dict:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["buzzer"]


def _start(desk, clock) -> None:
    from buzzgame import start_question

    start_question(desk.client, desk.code, desk.password, 1, 1, clock=clock, at_ms=T0)


@pytest.mark.parametrize("honest_at", [590, 5_000])
def test_31_1_a_claim_earlier_than_the_network_allows_is_clamped_and_flagged(
        buzz_game, honest_at):
    """The issue's runs: an honest phone presses; the cheater presses later and claims
    it pressed when the question opened. It is placed no earlier than its arrival less
    its allowance (its own slowest trip + 50 ms), flagged for the host, and loses."""
    from answerdesk.formats.buzzer import timing

    desk, phone, clock = buzz_game
    honest = phone("Честни", skew_ms=-800, out_ms=30, back_ms=30)
    cheat = phone("Хитрец", skew_ms=0, out_ms=20, back_ms=20)
    _start(desk, clock)
    assert honest.press(T0 + honest_at).status_code == 202
    pressed = T0 + honest_at + 297  # the cheater's own press: 297 ms after the honest one
    assert cheat.press(pressed, claimed_ms=cheat.local(T0)).status_code == 202
    clock.ms = T0 + honest_at + 2_000
    order = _buzzer(desk)["order"]
    assert [o["team"] for o in order] == ["Честни", "Хитрец"]
    assert order[0]["flags"] == [] and order[1]["flags"] == ["early_claim"]
    allowance = 40 + timing.ALLOWANCE_MARGIN_MS  # its trips were 40 ms
    assert order[1]["at_ms"] == pressed + 20 - allowance  # arrival less the allowance


def test_31_1_a_faked_clock_during_sync_gains_at_most_the_bound(buzz_game):
    """A clock faked 1,500 ms ahead during the syncs, the true one at the press: the
    server's offset is then 1,500 ms off, and the claim reads 1,500 ms early; it still
    counts no earlier than its arrival less the phone's allowance, flagged."""
    from answerdesk.formats.buzzer import timing

    desk, phone, clock = buzz_game
    honest = phone("Честни", skew_ms=0, out_ms=30, back_ms=30)
    faker = phone("Фалшив", skew_ms=+1_500, out_ms=20, back_ms=20)
    faker.skew_ms = 0
    _start(desk, clock)
    assert honest.press(T0 + 3_000).status_code == 202
    assert faker.press(T0 + 3_200).status_code == 202  # 200 ms later, arrives T0+3220
    clock.ms = T0 + 3_030 + 1_100
    order = _buzzer(desk)["order"]
    assert [o["team"] for o in order] == ["Честни", "Фалшив"]
    assert order[1]["flags"] == ["early_claim"]
    assert order[1]["at_ms"] == T0 + 3_220 - (40 + timing.ALLOWANCE_MARGIN_MS)


def test_31_1_nobody_learns_of_a_press_before_the_window_closes(app, buzz_game):
    from answerdesk.formats.buzzer import stream
    from answerdesk.models import Event

    desk, phone, clock = buzz_game
    first = phone("Първи", skew_ms=0, out_ms=20, back_ms=20)
    watcher = phone("Втори", skew_ms=0, out_ms=20, back_ms=20)
    _start(desk, clock)
    with app.app_context():
        event_id = db_scalar(Event.id)
        before = stream._version(event_id)[0]
    quiet = _buzzer(desk)
    resp = first.press(T0 + 1_000)
    assert resp.status_code == 202 and "window_closes_ms" not in resp.get_json()
    clock.ms = T0 + 1_500
    seen = _buzzer(desk)
    assert seen == quiet  # what a phone or the projector sees: nothing moved
    state = desk.client.get(f"/api/events/{desk.code}/state").get_json()
    assert state["oq"]["clock"]["press"] is not None  # the press timer still runs there
    with app.app_context():
        assert stream._version(event_id)[0] == before  # no "look" pushed to phones
    reply = watcher.sync(T0 + 1_600)
    assert set(reply) == {"server_ms"}  # the sync tells no estimate either
    clock.ms = T0 + 1_020 + 1_001
    assert _buzzer(desk)["state"] == "closed"
    with app.app_context():
        assert stream._version(event_id)[0] != before


def db_scalar(column):
    from answerdesk.extensions import db

    return db.session.scalar(db.select(column))


# 7. One outsider fills an OpenQuiz room -----------------------------------------------------

def test_31_7_joins_of_every_format_share_the_join_limit(strict_app):
    from buzzgame import make_event

    code, _ = make_event(strict_app, "oq", {1: 3})
    bg_code, _ = strict_app.config["DEMO"]
    client = strict_app.test_client()
    statuses = []
    for i in range(31):
        if i % 2:
            resp = client.post(f"/api/events/{code}/oq/join",
                               json={"team": f"Отбор {i}", "player": f"Играч {i}"})
        else:
            resp = client.post(f"/api/events/{bg_code}/teams", json={"name": f"T{i}"})
        statuses.append(resp.status_code)
    assert 429 not in statuses[:30] and statuses[30] == 429
    late = client.post(f"/api/events/{code}/oq/join", json={"team": "Късни", "player": "Аз"})
    assert late.status_code == 429
    # the phone waits this long, then joins by itself (static/phone.js)
    assert 1 <= int(late.headers["Retry-After"]) <= 60
    other = strict_app.test_client().post(f"/api/events/{code}/oq/join",
                                          json={"team": "Други", "player": "Тя"},
                                          environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code in (201, 409)  # per address (409: the room of 12 is full)


def test_31_7_a_banned_address_stays_out_under_new_names(app, client, english):
    from buzzgame import make_event

    code, password = make_event(app, "oq", {1: 3})
    prankster = {"REMOTE_ADDR": "10.0.0.66"}

    def join(team: str, player: str, where: dict):
        return client.post(f"/api/events/{code}/oq/join", json={"team": team, "player": player},
                           environ_base=where)

    assert join("Шегаджии", "Пешо", prankster).status_code == 201
    assert join("Честни", "Ани", {"REMOTE_ADDR": "10.0.0.7"}).status_code == 201
    ban = client.post(f"/api/host/events/{code}/oq/remove",
                      json={"kind": "team", "team": "Шегаджии", "ban": True},
                      headers={"Authorization": f"Bearer {password}"})
    assert ban.status_code == 200
    again = join("Съвсем Нов Отбор", "Гошо", prankster)  # no token, a new name
    assert again.status_code == 403 and again.get_json()["error"] == "banned"
    assert join("Други", "Мими", {"REMOTE_ADDR": "10.0.0.8"}).status_code == 201
    # A kick is not a ban: a kicked player's address may come back.
    assert join("Трети", "Иво", {"REMOTE_ADDR": "10.0.0.9"}).status_code == 201
    kick = client.post(f"/api/host/events/{code}/oq/remove",
                       json={"kind": "team", "team": "Трети", "ban": False},
                       headers={"Authorization": f"Bearer {password}"})
    assert kick.status_code == 200
    assert join("Трети", "Иво", {"REMOTE_ADDR": "10.0.0.9"}).status_code == 201


def test_31_7_the_host_lists_the_teams_a_room_lets_in(app, client, english):
    from buzzgame import make_event

    code, password = make_event(app, "oq", {1: 3})
    login(client, code, password)
    page = client.get(f"/host/{code}/oq").get_data(as_text=True)
    assert "Only these teams may join" in page
    resp = client.post(f"/host/{code}/oq/reserve",
                       data={"teams": "Сови\n  Гарвани \n\nсови"})
    assert resp.status_code == 302
    assert ">Сови\nГарвани</textarea>" in client.get(f"/host/{code}/oq").get_data(as_text=True)

    def join(team: str, player: str, address: str):
        return client.post(f"/api/events/{code}/oq/join", json={"team": team, "player": player},
                           environ_base={"REMOTE_ADDR": address})

    stranger = join("Шегаджии", "Пешо", "10.0.0.66")
    assert stranger.status_code == 403 and stranger.get_json()["error"] == "not_reserved"
    assert "only the teams its host has listed" in stranger.get_json()["message"]
    assert join("  сови", "Ира", "10.0.0.7").status_code == 201  # as a team name is matched
    assert join("Гарвани", "Ани", "10.0.0.8").status_code == 201
    client.post(f"/host/{code}/oq/reserve", data={"teams": ""})  # empty: any team again
    assert join("Шегаджии", "Пешо", "10.0.0.66").status_code == 201
    too_many = client.post(f"/host/{code}/oq/reserve",
                           data={"teams": "\n".join(f"T{i}" for i in range(13))})
    assert too_many.status_code == 400
