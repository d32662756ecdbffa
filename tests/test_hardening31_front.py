"""Issue 31, finding 2: an address over the credential limit costs (almost) nothing.

Its further requests that check a password are refused by the server's front
(answerdesk/serving.py, security.early_refusal) without the app, and their 429 is held in
the event loop (the tarpit), holding no thread; phones at the same address (a venue's
NAT) and at others save as before. The served test runs gunicorn as `make run` does,
on SQLite or on PostgreSQL (DATABASE_URL); the attacker is 127.0.0.2, a phone behind
the same NAT 127.0.0.2 too, a phone elsewhere 127.0.0.3 (the whole 127/8 is loopback).
"""

from __future__ import annotations

import http.client
import json
import re
import threading
import time

import pytest

from answerdesk.access import checks_credential
from answerdesk.security import early_refusal

ATTACKER, ELSEWHERE = "127.0.0.2", "127.0.0.3"
TARPIT = 3.0
WRONG = {"Authorization": "Bearer wrong-password"}
TOO_MANY = {"ru": "Слишком много попыток", "en": "Too many attempts"}


def _request(server, source: str, method: str, path: str, headers: dict | None = None,
             body: dict | None = None) -> tuple[int, dict[str, str], str, float]:
    """One request on a new connection from ``source``: status, headers, body, seconds."""
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    started = time.monotonic()
    try:
        data = json.dumps(body).encode() if body is not None else None
        sent = {**(headers or {}), **({"Content-Type": "application/json"} if data else {})}
        conn.request(method, path, body=data, headers=sent)
        resp = conn.getresponse()
        text = resp.read().decode()
        return resp.status, dict(resp.getheaders()), text, time.monotonic() - started
    finally:
        conn.close()


def _access_lines(log) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


@pytest.mark.slow
def test_31_2_over_the_limit_the_front_refuses_without_the_app_or_a_thread(
        serve, demo, tmp_path):
    code, password = demo
    log = tmp_path / "access.log"
    # one worker of 2 threads: a refusal that held a thread for the tarpit's time would
    # hold half of them, and six would queue behind each other
    server = serve(workers=1, threads=2,
                   environ={"TARPIT_SECONDS": str(TARPIT), "ACCESS_LOG": str(log)})
    status, _, text, _ = _request(server, "127.0.0.1", "POST",
                                  f"/api/host/events/{code}/rounds/2/open",
                                  {"Authorization": f"Bearer {password}"})
    assert status == 200, text
    tokens = {}
    for source in (ATTACKER, ELSEWHERE):
        status, _, text, _ = _request(server, source, "POST", f"/api/events/{code}/teams",
                                      body={"name": f"Phone {source}"})
        assert status == 201, text
        tokens[source] = json.loads(text)["token"]
    open_path = f"/api/host/events/{code}/rounds/2/open"
    for _ in range(10):  # the limit: these reach the app, which hashes and refuses them
        assert _request(server, ATTACKER, "POST", open_path, WRONG)[0] == 401

    held: list[tuple[int, dict[str, str], str, float]] = []

    def attack(language: str) -> None:
        held.append(_request(server, ATTACKER, "POST", open_path,
                             {**WRONG, "Accept-Language": language}))

    attackers = [threading.Thread(target=attack, args=("ru" if n % 2 else "en",))
                 for n in range(6)]
    started = time.monotonic()
    for thread in attackers:
        thread.start()
    time.sleep(0.5)
    # while six refusals wait in the tarpit: phones save, from the attacker's own address
    # (a venue's NAT) and from another; the attacker's address still gets its pages
    for source in (ATTACKER, ELSEWHERE):
        status, _, text, _ = _request(server, source, "PUT", f"/api/events/{code}/answers/2/1",
                                      {"Authorization": f"Bearer {tokens[source]}"},
                                      {"text": "Канбера"})
        assert status == 200, text
    assert _request(server, ATTACKER, "GET", f"/host/{code}/login")[0] == 200
    saved_by = time.monotonic() - started
    for thread in attackers:
        thread.join()
    assert saved_by < TARPIT and len(held) == 6  # the saves did not wait for the tarpit
    for status, headers, text, seconds in held:
        assert status == 429, text
        assert TARPIT - 0.1 <= seconds < 2 * TARPIT + 1.5  # held, all six together
        assert 1 <= int(headers["Retry-After"]) <= 60
        body = json.loads(text)
        assert body["error"] == "rate_limited"
        assert any(words in body["message"] for words in TOO_MANY.values())
        assert headers["Connection"] == "close"
    messages = {json.loads(text)["message"] for _, _, text, _ in held}
    assert len(messages) == 2 and all(any(w in m for m in messages) for w in TOO_MANY.values())
    # the login form from that address: refused in the page's words, in its language
    status, headers, text, seconds = _request(
        server, ATTACKER, "POST", f"/host/{code}/login?lang=en",
        {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 429 and "Too many attempts" in text and "<html" in text
    assert headers["Content-Type"].startswith("text/html") and seconds >= TARPIT - 0.1
    # the app saw the ten wrong passwords and none of the refusals (gunicorn's access
    # log lists every request the app served)
    lines = _access_lines(log)
    # access_log.py's line: date, time, address, method, path, status, size, time, id
    served = [line.split()[4:6] for line in lines]
    assert sum(path.endswith("/rounds/2/open") and status == "401"
               for path, status in served) == 10, lines
    assert "429" not in [status for _, status in served], lines
    # another address: the right password still opens the round
    status, _, text, _ = _request(server, ELSEWHERE, "POST", open_path,
                                  {"Authorization": f"Bearer {password}"})
    assert status in (200, 409), text


def _rules(app) -> list[tuple[str, str]]:
    """(method, path) of every route, with sample values for its arguments."""
    routes = []
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<int:\w+>", "1", rule.rule)
        path = re.sub(r"<(?:string:)?code>", "{code}", path)
        path = re.sub(r"<[^>]+>", "x", path)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            routes.append((method, path))
    return routes


def test_31_2_the_front_refuses_only_what_the_app_refuses(strict_app):
    """Every route the front would refuse for an address over the limit, the app refuses
    too (a 429); the phones' routes are never among them."""
    code, _ = strict_app.config["DEMO"]
    client = strict_app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      client.get(f"/host/{code}/login").get_data(as_text=True)).group(1)
    address = {"REMOTE_ADDR": "10.0.0.7"}
    for _ in range(10):
        assert client.post(f"/api/host/events/{code}/rounds/2/open", headers=WRONG,
                           environ_base=address).status_code == 401
    credential = []
    for method, path in _rules(strict_app):
        if not checks_credential(method, path, WRONG["Authorization"]):
            assert not path.startswith("/api/host/"), path  # all of them, with a Bearer
            continue
        credential.append(path)
        form = {"data": {"password": "x", "csrf_token": token}} if path.endswith("/login") \
            else {"json": {}}
        resp = client.open(path.format(code=code), method=method, headers=WRONG,
                           environ_base=address, **form)
        assert resp.status_code == 429, (method, path, resp.status_code)
        assert 1 <= int(resp.headers["Retry-After"]) <= 60  # the app's 429 says it too
        head = f"{method} {path.format(code=code)} HTTP/1.1\r\nAuthorization: Bearer x\r\n\r\n"
        assert early_refusal(strict_app, 0, head.encode(), "10.0.0.7") is not None, path
        assert early_refusal(strict_app, 0, head.encode(), "10.0.0.8") is None, path
    assert {"/login", "/host/{code}/login", "/api/events"} <= set(credential)
    assert len(credential) >= 28
    for method, path in (("PUT", f"/api/events/{code}/answers/2/1"),
                         ("GET", f"/api/events/{code}/sheet"), ("GET", f"/host/{code}/login"),
                         ("POST", f"/api/events/{code}/teams"),
                         ("OPTIONS", f"/api/host/events/{code}/rounds/2/open")):
        head = f"{method} {path} HTTP/1.1\r\nAuthorization: Bearer x\r\n\r\n".encode()
        assert early_refusal(strict_app, 0, head, "10.0.0.7") is None, path
    # a percent-encoded path is the same path (gunicorn decodes it for the app)
    encoded = f"POST /api/%68ost/events/{code}/rounds/2/open HTTP/1.1\r\nAuthorization: " \
              "Bearer x\r\n\r\n"
    assert early_refusal(strict_app, 0, encoded.encode(), "10.0.0.7") is not None
    absolute = f"POST http://quiz.test/api/host/events/{code}/rounds/2/open?lang=en " \
               "HTTP/1.1\r\nAuthorization: Bearer x\r\n\r\n"
    refusal = early_refusal(strict_app, 0, absolute.encode(), "10.0.0.7")
    assert refusal is not None and "Too many attempts" in refusal.body.decode()
    assert early_refusal(strict_app, 0, b"POST http://[::1/x HTTP/1.1\r\n\r\n",
                         "10.0.0.7") is None


def test_31_2_behind_a_proxy_the_front_counts_the_forwarded_address(strict_app):
    """With PROXY_COUNT the limits count X-Forwarded-For's client (ProxyFix), and so does
    the front: the proxy's own address is never refused for a client's guesses."""
    code, _ = strict_app.config["DEMO"]
    client = strict_app.test_client()
    for _ in range(10):
        client.post(f"/api/host/events/{code}/rounds/2/open", headers=WRONG,
                    environ_base={"REMOTE_ADDR": "10.0.0.7"})

    def head(forwarded: str) -> bytes:
        return (f"POST /api/host/events/{code}/rounds/2/open HTTP/1.1\r\n"
                f"Authorization: Bearer x\r\nX-Forwarded-For: {forwarded}\r\n"
                "Accept-Language: ru\r\n\r\n").encode()

    refusal = early_refusal(strict_app, 1, head("1.2.3.4, 10.0.0.7"), "127.0.0.1")
    assert refusal is not None and "Слишком много попыток" in json.loads(refusal.body)["message"]
    assert dict(refusal.headers)["Cache-Control"] == "no-store"
    assert refusal.ends_at > time.time()
    assert early_refusal(strict_app, 1, head("10.0.0.7, 10.0.0.8"), "127.0.0.1") is None
    # the language the phone chose (kept in its session) wins over its browser's
    chooser = strict_app.test_client()
    chooser.get("/lang/en")
    cookie = chooser.get_cookie("session", domain="quiz.test")
    with_cookie = head("10.0.0.7").replace(b"\r\n\r\n",
                                            f"\r\nCookie: session={cookie.value}\r\n\r\n".encode())
    refusal = early_refusal(strict_app, 1, with_cookie, "127.0.0.1")
    assert refusal is not None and "Too many attempts" in json.loads(refusal.body)["message"]
    assert early_refusal(strict_app, 0, head("10.0.0.7"), "127.0.0.1") is None
