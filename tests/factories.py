"""Builders the tests share: the JSON API as a phone or the host calls it."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

#: The database the suite runs on (conftest.py builds it); tests import these from
#: here, since a bare `from conftest import` may find tests/packs/conftest.py first.
PG_URL = os.environ.get("DATABASE_URL", "")
#: The repository's root (where wsgi.py and gunicorn.conf.py are).
ROOT = Path(__file__).resolve().parent.parent
ON_POSTGRES = PG_URL.startswith(("postgres://", "postgresql"))


class Desk:
    """Shortcuts over the JSON API, as a phone or the host would call it."""

    def __init__(self, client, code: str, password: str) -> None:
        self.client = client
        self.code = code
        self.password = password

    def join(self, name: str, players: int = 4) -> str:
        resp = self.client.post(f"/api/events/{self.code}/teams",
                                json={"name": name, "players": players})
        assert resp.status_code == 201, resp.get_json()
        return resp.get_json()["token"]

    def save(self, token: str, rnd: int, q: int, text: str, **extra):
        return self.client.put(f"/api/events/{self.code}/answers/{rnd}/{q}",
                               json={"text": text, **extra},
                               headers={"Authorization": f"Bearer {token}"})

    def sheet(self, token: str):
        return self.client.get(f"/api/events/{self.code}/sheet",
                               headers={"Authorization": f"Bearer {token}"})

    def host(self, rnd: int, action: str, password: str | None = None):
        return self.client.post(
            f"/api/host/events/{self.code}/rounds/{rnd}/{action}",
            headers={"Authorization": f"Bearer {password or self.password}"},
        )

    def standings(self) -> list[dict]:
        return self.client.get(f"/api/events/{self.code}/standings").get_json()["standings"]


def csrf_token(client, url: str) -> str:
    html = client.get(url).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A gunicorn the tests started: its address, process and environment."""

    def __init__(self, url: str, proc: subprocess.Popen, env: dict) -> None:
        self.url = url
        self.proc = proc
        self.env = env


def stop_gunicorn(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()
