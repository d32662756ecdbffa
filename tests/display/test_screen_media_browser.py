"""Media on the projector (issue 19, BG-R3/BG-R4): a picture question fills the screen
with its number, an audio question plays, pauses and replays from the desk, and the
files come from the app (a zip bundle imported), never from the internet."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.packs import parse_pack
from answerdesk.packs.importer import import_pack

pytestmark = pytest.mark.slow


def _until(page: Page, script: str, timeout: float = 10.0) -> None:
    """Poll a page expression from here: wait_for_function evaluates strings, which the
    projector's Content-Security-Policy (script-src 'self') forbids."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"never true: {script}"
        page.wait_for_timeout(100)


def _current_time(projector: Page) -> float:
    return projector.evaluate("document.querySelector('#screen-question audio').currentTime")


def test_pictures_and_sound_on_the_projector_from_the_desk(page: Page, app, live_demo,
                                                           log_in_host, media_files):
    base, code, password = live_demo
    with app.app_context():
        import_pack(event_by_code(code), parse_pack(media_files.bundle(), "evening.zip"),
                    actor="host")
        db.session.commit()
    outside: list[str] = []
    projector = page.context.new_page()
    projector.on("request", lambda r: outside.append(r.url)
                 if not r.url.startswith(base) else None)
    projector.goto(f"{base}/e/{code}/screen")
    log_in_host(page, base, code, password)
    page.goto(f"{base}/host/{code}/projector")

    page.locator("tr", has_text="R3").get_by_role("button", name="Questions one by one").click()
    picture = projector.locator("#screen-question img")
    expect(picture).to_be_visible(timeout=10_000)
    expect(projector.locator("#screen-question .qnum")).to_have_text("3.1")
    _until(projector, "document.querySelector('#screen-question img').naturalWidth > 0")
    assert projector.evaluate("document.querySelector('#screen-question img').naturalWidth") == 64
    box = picture.bounding_box()
    assert box and box["height"] > 300  # full-screen, not a thumbnail
    expect(page.locator("#screen-question-control img.preview")).to_be_visible()

    page.locator("tr", has_text="R4").get_by_role("button", name="Questions one by one").click()
    expect(projector.locator("#screen-question .qnum")).to_have_text("4.1")
    assert _current_time(projector) == 0
    page.locator("[data-media-command=play]").click()
    _until(projector, "document.querySelector('#screen-question audio').currentTime > 0.4")
    page.locator("[data-media-command=pause]").click()
    _until(projector, "document.querySelector('#screen-question audio').paused")
    paused_at = _current_time(projector)
    projector.wait_for_timeout(600)
    assert _current_time(projector) == paused_at
    page.locator("[data-media-command=replay]").click()
    _until(projector, f"(a => !a.paused && a.currentTime < {paused_at})"
                      "(document.querySelector('#screen-question audio'))")
    _until(projector, "document.querySelector('#screen-question audio').currentTime > 0.3")

    # The next question only links its file: nothing is fetched, the host is told.
    page.get_by_role("button", name="Next question").click()
    expect(projector.locator("#screen-question .qnum")).to_have_text("4.2")
    expect(projector.locator("#screen-question audio")).to_have_count(0)
    expect(page.locator("#screen-question-control")).to_contain_text("not stored")
    assert outside == []

    phone = page.context.new_page()
    phone.goto(f"{base}/e/{code}/sheet")
    expect(phone.locator("audio, video")).to_have_count(0)  # phones never play
