"""Regenerate the screenshots in docs/screenshots/ (issue 19): the phone sheet, the
host's desk and the projector at their usual sizes, from a demo evening in play.

    .venv/bin/python docs/screenshots.py          # needs /usr/bin/chromium (or $CHROMIUM)

The app runs in a temporary instance under gunicorn, as `make run` serves it; nothing
of the real instance is touched and nothing is fetched from the internet.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
TEAMS = {"Сови": ("вярно", "Васил Левски"), "Бухали": ("невярно", "Левски"),
         "Лисици": ("вярно", "Ботев"), "Язовци": ("вярно", "Левксии")}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _demo(instance: Path, env: dict) -> tuple[str, str]:
    """A demo evening in the temporary database: (code, host password)."""
    sys.path.insert(0, str(ROOT))
    from answerdesk import create_app
    from answerdesk.extensions import db
    from answerdesk.formats.bg.demo import create_demo_event

    app = create_app({"SQLALCHEMY_DATABASE_URI": env["DATABASE_URL"],
                      "SECRET_KEY": env["SECRET_KEY"], "INSTANCE_PATH": str(instance)})
    with app.app_context():
        db.create_all()
        event, password = create_demo_event()
        return event.code, password


def _play(base: str, code: str, password: str) -> dict[str, str]:
    """Two rounds played, the second one still open: the night in full swing."""
    host = {"Authorization": f"Bearer {password}"}
    tokens = {name: requests.post(f"{base}/api/events/{code}/teams", json={"name": name},
                                  timeout=10).json()["token"] for name in TEAMS}
    for number in (1, 2):
        requests.post(f"{base}/api/host/events/{code}/rounds/{number}/open", headers=host,
                      timeout=10)
        for name, answers in TEAMS.items():
            requests.put(f"{base}/api/events/{code}/answers/{number}/1",
                         json={"text": answers[number - 1]},
                         headers={"Authorization": f"Bearer {tokens[name]}"}, timeout=10)
    requests.post(f"{base}/api/host/events/{code}/rounds/1/close", headers=host, timeout=10)
    requests.post(f"{base}/api/host/events/{code}/rounds/1/reveal", headers=host, timeout=10)
    requests.post(f"{base}/api/host/events/{code}/rounds/2/close", headers=host, timeout=10)
    requests.post(f"{base}/api/host/events/{code}/rounds/3/open", headers=host, timeout=10)
    return tokens


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp)
        port = _free_port()
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{instance / 'shots.sqlite'}",
               "SECRET_KEY": "screenshots", "INSTANCE_PATH": str(instance),
               "CHECKER_PRELOAD": "0"}
        code, password = _demo(instance, env)
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", "1", "--threads", "4",
             "-b", f"127.0.0.1:{port}", "--log-level", "warning", "wsgi:app"],
            cwd=ROOT, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(150):
                try:
                    requests.get(base + "/api/openapi.json", timeout=1)
                    break
                except requests.ConnectionError:
                    time.sleep(0.2)
            _play(base, code, password)
            _shoot(base, code, password)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _shoot(base: str, code: str, password: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        phone = browser.new_context(viewport={"width": 390, "height": 844},
                                    device_scale_factor=2, is_mobile=True, has_touch=True,
                                    locale="bg-BG")
        page = phone.new_page()
        page.goto(f"{base}/e/{code}")
        page.fill("#team-name", "Патици")
        page.fill("#players", "4")
        page.click("button[type=submit]")
        page.locator("input[data-key='3/1']").wait_for()
        page.locator("input[data-key='3/1']").fill("Колизеум")
        page.wait_for_timeout(1500)
        page.screenshot(path=str(OUT / "phone-sheet.png"))

        laptop = browser.new_context(viewport={"width": 1366, "height": 768}, locale="bg-BG")
        desk = laptop.new_page()
        desk.goto(f"{base}/host/{code}/login")
        desk.fill("input[name=password]", password)
        desk.press("input[name=password]", "Enter")
        desk.locator("#next-action").wait_for()
        desk.frame_locator("#screen-preview-frame").locator(".screen-frame").wait_for()
        desk.wait_for_timeout(800)
        desk.screenshot(path=str(OUT / "desk.png"))
        desk.goto(f"{base}/host/{code}/review")
        desk.wait_for_timeout(800)
        desk.screenshot(path=str(OUT / "review.png"))

        desk.goto(f"{base}/host/{code}/projector")
        desk.locator("form", has=desk.locator("input[value=standings]")).first \
            .locator("button").click()
        screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        screen.goto(f"{base}/e/{code}/screen")
        screen.locator(".standings-chart canvas").wait_for()
        screen.wait_for_timeout(800)
        screen.screenshot(path=str(OUT / "projector.png"))
        browser.close()
    for name in ("phone-sheet", "desk", "review", "projector"):
        print(OUT / f"{name}.png")


if __name__ == "__main__":
    main()
