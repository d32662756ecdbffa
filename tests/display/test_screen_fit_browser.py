"""Every projector view fits the screen (issue 34): at 1920x1080 and at 1280x720 nothing
of the picture lies below or beside the viewport, whatever the view holds (a reveal of
ten long answers, thirty teams with their chart, a choice question with its options, a
picture, the final's question, the shoot-out). Screenshots: /tmp/shots-<branch>/."""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.formats.bg import shootout
from answerdesk.formats.bg.models import Shootout
from answerdesk.packs import parse_pack
from answerdesk.packs.importer import import_pack

pytestmark = pytest.mark.slow

SIZES = ((1920, 1080), (1280, 720))
SHOTS = Path(os.environ.get("SHOTS", "/tmp/shots-bg34"))
LONG = ("Кой български писател, роден в Сопот през 1850 година, е автор на романа, "
        "разказът за Априлското въстание в който се учи във всяко училище?")


def pack_text() -> str:
    r1 = "\n".join(
        f"      - text: \"{n}. {LONG}\"\n"
        f"        options: {{А: \"Алеко Константинов\", Б: \"Христо Ботев\", "
        f"В: \"Иван Вазов\", Г: \"Елин Пелин\"}}\n        key: [\"В\"]" for n in range(1, 11))
    r2 = "\n".join(
        f"      - text: \"{n}. {LONG}\"\n"
        f"        key: [\"Иван Минчов Вазов, патриархът на българската литература {n}\"]"
        for n in range(1, 11))
    return f"""answerdesk_pack: 1
title: "Вечер с дълги въпроси и много отбори на голям екран"
rounds:
  - number: 1
    questions:
{r1}
  - number: 2
    questions:
{r2}
  - number: 3
    questions:
      - text: "{LONG}"
        media: stills/picture.png
        key: ["Вазов"]
  - number: 6
    kind: final
    questions:
      - text: "{LONG}"
        key: ["Вазов"]
"""


def bundle(media_files) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("pack.yaml", pack_text().encode())
        zf.writestr("stills/picture.png", media_files.png(400, 300))
    return buf.getvalue()


OUTSIDE = """() => {
  const W = window.innerWidth, H = window.innerHeight, bad = [];
  for (const el of document.querySelectorAll('#screen *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1)
      bad.push(`${el.tagName}.${el.className} ${Math.round(r.right)}x${Math.round(r.bottom)}`);
  }
  const doc = document.documentElement;
  if (doc.scrollHeight > H + 1 || doc.scrollWidth > W + 1)
    bad.push(`page ${doc.scrollWidth}x${doc.scrollHeight}`);
  return bad;
}"""


def test_every_projector_view_fits_1080p_and_720p(page: Page, app, live_demo, media_files):
    base, code, password = live_demo
    with app.app_context():
        import_pack(event_by_code(code), parse_pack(bundle(media_files), "long.zip"),
                    actor="host")
    session = requests.Session()
    login = session.get(f"{base}/host/{code}/login").text
    session.post(f"{base}/host/{code}/login", data={
        "password": password,
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', login).group(1)})

    class Host:
        """The host's form posts, each with the page's CSRF token."""

        @staticmethod
        def post(url: str, data: dict | None = None) -> None:
            page_html = session.get(f"{base}/host/{code}/projector").text
            token = re.search(r'name="csrf_token" value="([^"]+)"', page_html).group(1)
            resp = session.post(url, data={**(data or {}), "csrf_token": token},
                                allow_redirects=False)
            assert resp.status_code == 302 and "/login" not in resp.headers["Location"], url

    host = Host()
    api = {"Authorization": f"Bearer {password}"}
    names = [f"Отбор с дълго име номер {n} от Пловдив" for n in range(1, 31)]
    tokens = [requests.post(f"{base}/api/events/{code}/teams", json={"name": name}).json()["token"]
              for name in names]
    SHOTS.mkdir(parents=True, exist_ok=True)
    projector = page

    def look(name: str, view: str | None = None, rnd: int | None = None) -> None:
        if view is not None:
            host.post(f"{base}/host/{code}/projector",
                      data={"view": view, "round": "" if rnd is None else rnd})
        for width, height in SIZES:
            projector.set_viewport_size({"width": width, "height": height})
            projector.goto(f"{base}/e/{code}/screen")
            projector.wait_for_selector("#screen[data-fitted]")
            projector.wait_for_timeout(300)  # the chart draws
            projector.screenshot(path=str(SHOTS / f"projector-{name}-{width}x{height}.png"))
            outside = projector.evaluate(OUTSIDE)
            assert not outside, f"{name} at {width}x{height}: {outside[:5]}"

    host.post(f"{base}/host/{code}/rounds/1/open")
    look("open")
    look("question-options", "question", 1)
    look("intro", "intro", 2)
    for n, token in enumerate(tokens):
        requests.put(f"{base}/api/events/{code}/answers/1/{1 + n % 10}",
                     json={"text": "В"}, headers={"Authorization": f"Bearer {token}"})
    host.post(f"{base}/host/{code}/rounds/1/close")
    look("locked", "locked", 1)
    host.post(f"{base}/host/{code}/rounds/1/reveal")
    look("reveal-first")
    for _ in range(9):
        host.post(f"{base}/host/{code}/projector", {"view": "reveal", "round": 1, "step": 1})
    look("reveal-last")
    host.post(f"{base}/host/{code}/rounds/2/open")
    for n, token in enumerate(tokens[:12]):
        requests.put(f"{base}/api/events/{code}/answers/2/{1 + n % 10}",
                     json={"text": f"Иван Минчов Вазов, патриархът на българската литература "
                                   f"{1 + n % 10}"},
                     headers={"Authorization": f"Bearer {token}"})
    host.post(f"{base}/host/{code}/rounds/2/close")
    host.post(f"{base}/host/{code}/rounds/2/reveal")
    look("reveal-long")
    look("auto-revealed", "auto")
    look("standings", "standings")
    host.post(f"{base}/host/{code}/projector", data={"view": "question", "round": 3})
    look("picture")
    host.post(f"{base}/host/{code}/rules/final/1/open")
    look("final")
    host.post(f"{base}/host/{code}/rules/final/1/lock")
    host.post(f"{base}/host/{code}/rules/final/1/reveal")
    look("final-answer")
    requests.post(f"{base}/api/host/events/{code}/rounds/3/open", headers=api)
    requests.post(f"{base}/api/host/events/{code}/rounds/3/close", headers=api)
    with app.app_context():
        started = shootout.start_shootout(event_by_code(code), [
            (LONG, "1878"), (LONG, "2925"), (LONG, "471")]).id
        row = db.session.get(Shootout, started)
        row.started_at -= dt.timedelta(seconds=61)
        db.session.commit()
    host.post(f"{base}/host/{code}/rules/shootout/{started}/lock")
    look("shootout")
