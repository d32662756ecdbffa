"""Security of the desk: headers, CSRF, tokens, rate limits, input limits, receipts."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from factories import csrf_token

from answerdesk.core.teams import hash_token
from answerdesk.extensions import db
from answerdesk.models import Team

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def login(client, code: str, password: str):
    return client.post(f"/host/{code}/login", data={"password": password})


def pages(code: str) -> list[str]:
    return [f"/e/{code}", f"/e/{code}/sheet", f"/e/{code}/screen", f"/e/{code}/screen/live",
            f"/host/{code}/login", f"/host/{code}/", f"/host/{code}/review",
            f"/host/{code}/standings", f"/host/{code}/receipts", f"/api/events/{code}/state"]


def test_every_page_sends_csp_and_standard_headers(desk):
    login(desk.client, desk.code, desk.password)
    for url in pages(desk.code):
        resp = desk.client.get(url)
        assert resp.status_code == 200, url
        csp = resp.headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'", url
        # The projector's page is framed by the desk's preview (issue 19): our pages only.
        framed = url == f"/e/{desk.code}/screen"
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == ("'self'" if framed else "'none'"), url
        assert "unsafe" not in csp
        assert resp.headers["X-Frame-Options"] == ("SAMEORIGIN" if framed else "DENY")
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["Referrer-Policy"] == "same-origin"
    for url in (f"/api/events/{desk.code}/sheet", f"/host/{desk.code}/"):
        assert desk.client.get(url).headers["Cache-Control"] == "no-store"


def test_templates_have_no_inline_script_or_handler():
    """The CSP forbids inline script; keep every template free of it."""
    for path in TEMPLATES.rglob("*.html"):
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html, flags=re.I):
            assert "src=" in tag, f"inline <script> in {path}"
        assert not re.search(r"\son[a-z]+\s*=", html, flags=re.I), f"inline handler in {path}"
        assert "javascript:" not in html.lower(), path


def test_rendered_pages_have_no_inline_script(desk):
    login(desk.client, desk.code, desk.password)
    for url in pages(desk.code):
        html = desk.client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", html, flags=re.I), url
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html, flags=re.I), url


def test_forms_need_csrf_token(app, strict_app):
    code, password = strict_app.config["DEMO"]
    client = strict_app.test_client()
    assert login(client, code, password).status_code == 400  # no token
    token = csrf_token(client, f"/host/{code}/login")
    resp = client.post(f"/host/{code}/login", data={"password": password, "csrf_token": token})
    assert resp.status_code == 302
    assert client.post(f"/host/{code}/rounds/2/open").status_code == 400
    assert client.post(f"/host/{code}/review", data={"decision": "correct"}).status_code == 400
    assert client.post(f"/host/{code}/logout").status_code == 400
    token = csrf_token(client, f"/host/{code}/")
    assert client.post(f"/host/{code}/rounds/2/open",
                       data={"csrf_token": token}).status_code == 302


def test_host_api_with_login_cookie_needs_csrf_but_bearer_does_not(strict_app):
    """A page elsewhere must not be able to make the host's browser close a round."""
    code, password = strict_app.config["DEMO"]
    client = strict_app.test_client()
    token = csrf_token(client, f"/host/{code}/login")
    client.post(f"/host/{code}/login", data={"password": password, "csrf_token": token})
    assert client.post(f"/api/host/events/{code}/rounds/2/open").status_code == 400
    assert client.post(f"/api/host/events/{code}/rounds/2/open",
                       headers={"X-CSRFToken": token}).status_code == 200
    bearer = strict_app.test_client().post(f"/api/host/events/{code}/rounds/2/close",
                                           headers={"Authorization": f"Bearer {password}"})
    assert bearer.status_code == 200


def test_team_tokens_unguessable_hashed_and_event_scoped(desk, app):
    tokens = [desk.join(f"Отбор {i}") for i in range(40)]
    assert len(set(tokens)) == 40
    assert all(len(t) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens)
    with app.app_context():
        stored = set(db.session.scalars(db.select(Team.token_hash)))
        from answerdesk.formats.bg.demo import create_demo_event

        other, _ = create_demo_event()
        db.session.commit()
        other_code = other.code
    assert not stored & set(tokens)  # only hashes are kept
    assert {hash_token(t) for t in tokens} <= stored
    foreign = desk.client.get(f"/api/events/{other_code}/sheet",
                              headers={"Authorization": f"Bearer {tokens[0]}"})
    assert foreign.status_code == 401
    forged = tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B")
    assert desk.sheet(forged).status_code == 401


def test_join_rate_limited_with_clear_message(strict_app):
    code, _ = strict_app.config["DEMO"]
    client = strict_app.test_client()
    statuses = [client.post(f"/api/events/{code}/teams", json={"name": f"T{i}"}).status_code
                for i in range(31)]
    assert statuses[:30] == [201] * 30
    assert statuses[30] == 429
    resp = client.post(f"/api/events/{code}/teams", json={"name": "late"})
    assert resp.status_code == 429 and resp.get_json()["error"] == "rate_limited"
    assert "Retry-After" in resp.headers
    other = strict_app.test_client().post(f"/api/events/{code}/teams", json={"name": "other"},
                                          environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201  # the limit is per address


def test_host_login_rate_limited(strict_app):
    code, password = strict_app.config["DEMO"]
    client = strict_app.test_client()
    token = csrf_token(client, f"/host/{code}/login")
    statuses = [client.post(f"/host/{code}/login",
                            data={"password": f"guess{i}", "csrf_token": token}).status_code
                for i in range(11)]
    assert statuses[:10] == [200] * 10 and statuses[10] == 429
    right = client.post(f"/host/{code}/login", data={"password": password, "csrf_token": token})
    assert right.status_code == 429  # even the right one waits: no guessing race


def test_host_api_counts_only_wrong_passwords(strict_app):
    code, password = strict_app.config["DEMO"]
    client = strict_app.test_client()
    host = {"Authorization": f"Bearer {password}"}
    url = f"/api/host/events/{code}/rounds/2"
    for _ in range(25):
        assert client.post(f"{url}/open", headers=host).status_code == 200
    wrong = [client.post(f"/api/host/events/{code}/rounds/2/close",
                         headers={"Authorization": "Bearer nope"}).status_code for _ in range(11)]
    assert wrong[:10] == [401] * 10 and wrong[10] == 429  # access.CREDENTIAL_LIMIT


@pytest.mark.parametrize(
    ("body", "message"),
    [({"text": "x" * 501}, "text is too long: at most 500 characters"),
     ({"text": 42}, "text must be text"),
     ({"text": ["a"]}, "text must be text"),
     ({"text": "a", "seq": -1}, "seq must be a non-negative whole number"),
     ({"text": "a", "seq": "7"}, "seq must be a non-negative whole number"),
     ({"text": "a", "fields": "x"}, "fields must be an object")],
)
def test_answer_input_limits_clear_400(desk, english, body, message):
    token = desk.join("Сови")
    desk.host(2, "open")
    resp = desk.client.put(f"/api/events/{desk.code}/answers/2/1", json=body,
                           headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 400
    assert resp.get_json()["message"] == message


def test_answer_normalised_and_control_characters_stripped(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    decomposed = unicodedata.normalize("NFD", "Йордан")
    resp = desk.save(token, 2, 1, f"\u202e{decomposed}\x00\x07  Йовков\u200b")
    assert resp.status_code == 200
    assert resp.get_json()["text"] == "Йордан Йовков"
    assert resp.get_json()["text"] == unicodedata.normalize("NFC", resp.get_json()["text"])


@pytest.mark.parametrize(
    ("body", "message"),
    [({"name": "x" * 61}, "name is too long: at most 60 characters"),
     ({"name": "\x00\u200b "}, "Team name is empty"),
     ({"name": "A", "players": 0}, "players must be between 1 and 100"),
     ({"name": "A", "players": "many"}, "players must be a whole number")],
)
def test_join_input_limits_clear_400(desk, english, body, message):
    resp = desk.client.post(f"/api/events/{desk.code}/teams", json=body)
    assert resp.status_code == 400 and resp.get_json()["message"] == message


def test_oversized_body_refused(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    resp = desk.client.put(f"/api/events/{desk.code}/answers/2/1",
                           data=b'{"text": "' + b"a" * 2_000_000 + b'"}',
                           headers={"Authorization": f"Bearer {token}",
                                    "Content-Type": "application/json"})
    assert resp.status_code == 413 and resp.get_json()["error"] == "too_large"


# Receipts (BG-E2 disputes)

def verify(desk, rnd: int, q: int, team: str, code: str, password: str | None = None):
    return desk.client.get(
        f"/api/host/events/{desk.code}/receipts/{rnd}/{q}", query_string={"team": team,
                                                                         "code": code},
        headers={"Authorization": f"Bearer {password or desk.password}"})


def test_bg_e2_receipt_verifies_current_and_earlier_saves(desk):
    token = desk.join("Сови")
    other = desk.join("Бухали")
    desk.host(2, "open")
    first = desk.save(token, 2, 2, "Марица").get_json()
    second = desk.save(token, 2, 2, "Тунджа").get_json()
    theirs = desk.save(other, 2, 2, "Марица").get_json()
    now = verify(desk, 2, 2, "сови", second["receipt"].lower()).get_json()
    assert now["valid"] and now["current"] and now["text"] == "Тунджа"
    assert now["saved_at"] == second["saved_at"]
    before = verify(desk, 2, 2, "Сови", first["receipt"]).get_json()
    assert before["valid"] and not before["current"] and before["text"] == "Марица"
    assert before["saved_at"] == first["saved_at"]
    assert not verify(desk, 2, 2, "Сови", theirs["receipt"]).get_json()["valid"]
    assert not verify(desk, 2, 1, "Сови", second["receipt"]).get_json()["valid"]
    forged = ("0" if second["receipt"][0] != "0" else "1") + second["receipt"][1:]
    assert not verify(desk, 2, 2, "Сови", forged).get_json()["valid"]
    assert verify(desk, 2, 2, "Сови", second["receipt"], password="nope").status_code == 401
    assert verify(desk, 2, 2, "Никой", second["receipt"]).status_code == 404


def test_bg_e2_receipt_page_for_the_host(desk):
    token = desk.join("Сови")
    desk.host(2, "open")
    saved = desk.save(token, 2, 2, "Марица").get_json()
    url = f"/host/{desk.code}/receipts"
    assert desk.client.get(url).status_code == 302  # host login first
    login(desk.client, desk.code, desk.password)
    page = desk.client.get(url, query_string={"team": "Сови", "round": 2, "question": 2,
                                              "code": saved["receipt"]}).get_data(as_text=True)
    assert 'id="receipt-result" class="valid"' in page and "Марица" in page
    assert saved["saved_at"][:19] in page
    page = desk.client.get(url, query_string={"team": "Сови", "round": 2, "question": 2,
                                              "code": "ABCD1234"}).get_data(as_text=True)
    assert 'class="invalid"' in page
    page = desk.client.get(url, query_string={"team": "Сови", "round": "x", "question": 2,
                                              "code": "ABCD1234"}).get_data(as_text=True)
    assert 'id="receipt-error"' in page


def test_numbers_beyond_the_database_are_404_not_500(desk):
    """Found by schemathesis on PostgreSQL: round 2**31 overflowed the INTEGER column."""
    token = desk.join("Сови")
    resp = desk.save(token, 2**31, 1, "x")
    assert resp.status_code == 404 and resp.get_json()["error"] == "not_found"
    assert desk.host(2**40, "open").status_code == 404


@pytest.mark.parametrize("path", ("/api/events/{code}%00/state", "/e/{code}%00",
                                  "/api/events/%00/clock"))
def test_an_event_code_with_a_nul_byte_is_404_not_500(desk, path):
    """PostgreSQL text cannot hold NUL: psycopg failed on such a code with a 500."""
    resp = desk.client.get(path.format(code=desk.code))
    assert resp.status_code == 404


def test_only_limited_endpoints_meet_the_rate_limiter(strict_app):
    """Flask-Limiter's hooks run where a limit is set (join), not on a phone's poll."""
    code, _ = strict_app.config["DEMO"]
    client = strict_app.test_client()
    joined = client.post(f"/api/events/{code}/teams", json={"name": "Сови"})
    assert "X-RateLimit-Limit" in joined.headers
    polled = client.get(f"/api/events/{code}/state")
    assert polled.status_code == 200 and "X-RateLimit-Limit" not in polled.headers


def test_no_view_needs_the_talisman_hooks_left_out(app):
    """security._Talisman drops Flask-Talisman's before-request hooks: no view may ask
    for what only those hooks do (force HTTPS, a nonce); its own headers it gets."""
    options = {name: view.talisman_view_options for name, view in app.view_functions.items()
               if hasattr(view, "talisman_view_options")}
    assert not [name for name, o in options.items()
                if o.get("force_https") or o.get("content_security_policy_nonce_in")]
    media = [name for name in options if name == "media.serve"]
    assert media  # the one view with a policy of its own keeps it (test_media_*)
