"""The desk shows what the projector shows now (issue 19): a scaled frame of the projector
page that follows the projector's own version (live.screen_version), so it changes when the
picture changes and never fetches the picture again because a phone saved an answer."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow


def test_the_desk_previews_the_projector_without_refetching_on_phone_saves(
        page: Page, live_demo, log_in_host):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    page.set_viewport_size({"width": 1366, "height": 768})
    tokens = [requests.post(f"{base}/api/events/{code}/teams", json={"name": name})
              .json()["token"] for name in ("Сови", "Бухали", "Лисици")]
    log_in_host(page, base, code, password)
    pictures: list[str] = []
    page.on("request", lambda r: pictures.append(r.url)
            if f"/e/{code}/screen" in r.url and "/version" not in r.url else None)
    page.goto(f"{base}/lang/en?next=/host/{code}/")

    preview = page.frame_locator("#screen-preview-frame")
    expect(preview.locator("#screen-standings")).to_be_visible()
    box = page.locator("#screen-preview .preview-box").bounding_box()
    assert box and box["y"] + box["height"] <= 768  # beside the desk on a 1366×768 laptop
    frame = page.locator("#screen-preview-frame").bounding_box()
    assert frame and abs(frame["width"] - box["width"]) <= 6  # scaled to its box

    # The round opens from outside the page: the preview follows the projector.
    assert requests.post(f"{base}/api/host/events/{code}/rounds/1/open",
                         headers=host).status_code == 200
    expect(preview.locator(".now.open")).to_be_visible(timeout=10_000)
    fetched = len(pictures)

    # Teams type: the desk redraws itself (who has answered), the preview keeps its frame.
    for step, token in enumerate(tokens * 2):
        resp = requests.put(f"{base}/api/events/{code}/answers/1/1",
                            json={"text": ["вярно", "невярно"][step % 2]},
                            headers={"Authorization": f"Bearer {token}"})
        assert resp.status_code == 200
    expect(page.locator("#answered-now strong")).to_have_text("3", timeout=10_000)
    page.wait_for_timeout(3_500)  # two more polls of the desk and of the preview
    assert len(pictures) == fetched, pictures
    expect(preview.locator(".now.open")).to_be_visible()

    # The host puts the standings up from the screen control in another tab: the desk's
    # preview shows them by itself.
    control = page.context.new_page()
    control.goto(f"{base}/host/{code}/projector")
    control.get_by_role("button", name="Standings", exact=True).first.click()
    expect(preview.locator(".view-standings")).to_be_visible(timeout=10_000)
    # The preview never plays the projector's sound.
    assert preview.locator("#screen").get_attribute("data-preview") == "1"
