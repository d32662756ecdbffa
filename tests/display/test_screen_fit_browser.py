"""Every projector view fits the screen (issue 34): at 1920x1080 and at 1280x720 nothing
of the picture lies below or beside the viewport, whatever the view holds (a reveal of
ten long answers, thirty teams with their chart, a choice question with its options, a
picture, the final's question, the shoot-out; ЧГК's question on the clock, time's up, the
answer shown, the Central Table, the Decisive Round, the standings with their chart and
the evening's winners per league). Screenshots: /tmp/shots-<branch>/."""

from __future__ import annotations

import datetime as dt
import os
import re
import time
from pathlib import Path

import pytest
import requests
from factories import OUTSIDE_VIEWPORT
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


class Host:
    """The host's form posts (as the desk's buttons send them), each with a CSRF token."""

    def __init__(self, base: str, code: str, password: str) -> None:
        self.base, self.code, self.session = base, code, requests.Session()
        login = self.session.get(f"{base}/host/{code}/login").text
        self.session.post(f"{base}/host/{code}/login", data={
            "password": password,
            "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', login).group(1)})

    def post(self, url: str, data: dict | None = None) -> None:
        page_html = self.session.get(f"{self.base}/host/{self.code}/projector").text
        token = re.search(r'name="csrf_token" value="([^"]+)"', page_html).group(1)
        resp = self.session.post(url, data={**(data or {}), "csrf_token": token},
                                 allow_redirects=False)
        assert resp.status_code == 302 and "/login" not in resp.headers["Location"], url


def looker(projector: Page, host: Host, base: str, code: str):
    """look(name, view=None, round=None): (set the projector's view, then) render the
    screen at both sizes, save both pictures and fail on anything outside the viewport."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Projectors left on all evening, one per size: each picture reaches them by the
    # live redraw (screen.js), not a fresh page load, and must fit as well.
    live = {}
    for width, height in SIZES:
        live[width, height] = projector.context.new_page()
        live[width, height].set_viewport_size({"width": width, "height": height})
        live[width, height].goto(f"{base}/e/{code}/screen")

    def fitted_to_now(on: Page) -> None:
        """Wait until the live page has fitted the picture of the screen's version now
        (a clock that runs out records itself, so the version may move once more)."""
        deadline = time.monotonic() + 15
        while True:
            version = requests.get(f"{base}/e/{code}/screen/version").json()["version"]
            if on.get_attribute("#screen", "data-fitted") == version:
                return
            assert time.monotonic() < deadline, f"the live projector never fitted {version}"
            on.wait_for_timeout(200)

    def look(name: str, view: str | None = None, rnd: int | None = None,
             wait: str | None = None) -> None:
        if view is not None:
            host.post(f"{base}/host/{code}/projector",
                      data={"view": view, "round": "" if rnd is None else rnd})
        for (width, height), on in live.items():
            fitted_to_now(on)
            if wait:
                on.wait_for_selector(wait)
            on.wait_for_timeout(300)  # the chart draws
            on.screenshot(path=str(SHOTS / f"projector-{name}-{width}x{height}-live.png"))
            outside = on.evaluate(OUTSIDE_VIEWPORT, "#screen")
            assert not outside, f"{name} at {width}x{height}, redrawn live: {outside[:5]}"
        for width, height in SIZES:
            projector.set_viewport_size({"width": width, "height": height})
            projector.goto(f"{base}/e/{code}/screen")
            projector.wait_for_selector("#screen[data-fitted]")
            if wait:
                projector.wait_for_selector(wait)
            projector.wait_for_timeout(300)  # the chart draws
            projector.screenshot(path=str(SHOTS / f"projector-{name}-{width}x{height}.png"))
            outside = projector.evaluate(OUTSIDE_VIEWPORT, "#screen")
            assert not outside, f"{name} at {width}x{height}: {outside[:5]}"

    return look


def test_every_projector_view_fits_1080p_and_720p(page: Page, app, live_demo, media_files):
    base, code, password = live_demo
    with app.app_context():
        import_pack(event_by_code(code), parse_pack(bundle(media_files), "long.zip"),
                    actor="host")
        db.session.commit()
    host = Host(base, code, password)
    api = {"Authorization": f"Bearer {password}"}
    names = [f"Отбор с дълго име номер {n} от Пловдив" for n in range(1, 31)]
    tokens = [requests.post(f"{base}/api/events/{code}/teams", json={"name": name}).json()["token"]
              for name in names]
    look = looker(page, host, base, code)

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


def clock_at(app, opened: int, locks: int) -> None:
    """Move the running question's clock: opened and locking ``opened``/``locks`` seconds
    from now (the fit test has no minute to wait)."""
    from answerdesk.models import Question, QuestionGate, Round, ScreenState

    with app.app_context():
        gate = db.session.scalars(db.select(QuestionGate).order_by(QuestionGate.id.desc())).first()
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        gate.opened_at = now + dt.timedelta(seconds=opened)
        gate.locks_at = now + dt.timedelta(seconds=locks)
        event_id = db.session.scalar(db.select(Round.event_id).join(Question).where(
            Question.id == gate.question_id))
        screen = db.session.scalar(db.select(ScreenState).where(
            ScreenState.event_id == event_id)) or ScreenState(event_id=event_id)
        screen.version = (screen.version or 0) + 1  # the projectors redraw the clock
        db.session.add(screen)
        db.session.commit()


CHGK_PACK = Path(__file__).parents[1] / "data" / "packs" / "chgk" / "wc13.txt"


def test_every_chgk_projector_view_fits_1080p_and_720p(page: Page, app, live_server):
    """ЧГК (issue 34): thirty teams with long names in both leagues, through a game on the
    clock (discussion, hand-in, time's up), the answer shown, the Central Table and its
    Decisive Round (CHGK-3, 4), the standings with the chart, then both games ended and
    the evening's winners per league (CHGK-2.6/2.7)."""
    from answerdesk.core.events import create_event
    from answerdesk.formats.chgk import game

    base = live_server.url
    with app.app_context():
        event, password = create_event("Вечер ЧГК с очень длинным названием сезона", format="chgk")
        event.screen_locale = "ru"
        db.session.commit()
        import_pack(event, parse_pack(CHGK_PACK.read_bytes(), "wc13.txt"), actor="host")
        code = event.code
    names = [f"Команда с длинным названием номер {n} из Твери" for n in range(1, 31)]
    tokens = [requests.post(f"{base}/api/events/{code}/teams",
                            json={"name": name, "players": 4}).json()["token"]
              for name in names]
    host = Host(base, code, password)
    with app.app_context():
        teams = {t.name: t.id for t in event_by_code(code).teams}
    host.post(f"{base}/host/{code}/chgk/leagues",
              data={f"league-{teams[n]}": "favourites" for n in names[:12]})
    look = looker(page, host, base, code)
    look("chgk-before")

    def sector(number: int) -> int:
        host.post(f"{base}/host/{code}/chgk/{number}/draw")
        with app.app_context():
            return game.draws(event_by_code(code), number)[-1].payload["sector"]

    def answer_all(number: int, q: int, text: str) -> None:
        for token in tokens:
            requests.put(f"{base}/api/events/{code}/answers/{number}/{q}", json={"text": text},
                         headers={"Authorization": f"Bearer {token}"})

    # CHGK-4: the auction seats a team at the Central Table.
    host.post(f"{base}/host/{code}/chgk/1/auction", data={f"bid-{teams[names[0]]}": "30",
                                                          f"bid-{teams[names[1]]}": "20"})
    q = sector(1)
    host.post(f"{base}/host/{code}/chgk/1/start", data={"sector": q, "seconds": 60, "grace": 10})
    look("chgk-discussion", wait=".clock.discuss")
    answer_all(1, q, "Ответ команды, длинный и подробный")
    host.post(f"{base}/host/{code}/chgk/1/table",
              data={"team": names[0], "question": q, "verdict": "answer-yes"})
    clock_at(app, -61, 60)  # the minute is over: hand in now (CHGK-1.1)
    look("chgk-hand-in", wait=".clock.hand-in")
    clock_at(app, -71, -1)
    look("chgk-time-up", wait=".clock.locked")
    host.post(f"{base}/host/{code}/chgk/1/reveal", data={"question": q})
    look("chgk-answer", wait="#screen-answer")
    # CHGK-3: the Decisive Round, answered right at the table, which is then free again.
    q = sector(1)
    host.post(f"{base}/host/{code}/chgk/1/start", data={"sector": q})
    host.post(f"{base}/host/{code}/chgk/1/table",
              data={"team": names[0], "question": q, "verdict": "decisive-yes"})
    clock_at(app, -71, -1)
    host.post(f"{base}/host/{code}/chgk/1/reveal", data={"question": q})
    look("chgk-decisive", wait="#screen-answer")
    look("chgk-standings", "standings")
    look("chgk-auto", "auto")
    host.post(f"{base}/host/{code}/chgk/1/end")
    q = sector(2)
    host.post(f"{base}/host/{code}/chgk/2/start", data={"sector": q})
    clock_at(app, -71, -1)
    host.post(f"{base}/host/{code}/chgk/2/reveal", data={"question": q})
    host.post(f"{base}/host/{code}/chgk/2/end")
    look("chgk-winners", wait="#screen-winners")
