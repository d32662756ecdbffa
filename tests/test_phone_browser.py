"""A newcomer joins on a phone-sized browser, answers, and sees the round lock."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 780}


def test_phone_joins_answers_and_sees_lock(page: Page, live_demo):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Сови")
    page.fill("#players", "3")
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{base}/e/{code}/sheet")
    expect(page.locator("#team-name")).to_have_text("Сови")

    requests.post(f"{base}/api/host/events/{code}/rounds/2/open", headers=host)
    answer = page.locator("input[data-key='2/2']")
    expect(answer).to_be_visible(timeout=10_000)
    answer.fill("Марица")
    status = page.locator(".question", has=answer).locator(".status")
    expect(status).to_have_class("status saved", timeout=10_000)

    requests.post(f"{base}/api/host/events/{code}/rounds/2/close", headers=host)
    expect(page.locator("input[data-key='2/2']")).to_have_attribute("readonly", "", timeout=10_000)
    expect(page.locator("input[data-key='2/2']")).to_have_value("Марица")

    team_sheet = page.evaluate(
        "code => fetch('/api/events/' + code + '/sheet', {headers: {Authorization: "
        "'Bearer ' + localStorage.getItem('answerdesk:token:' + code)}}).then(r => r.json())",
        code,
    )
    assert team_sheet["rounds"][0]["questions"][1]["answer"]["text"] == "Марица"


def test_second_team_with_lookalike_name_told_to_pick_another(page: Page, live_demo):
    base, code, _ = live_demo
    requests.post(f"{base}/api/events/{code}/teams", json={"name": "Авто"})
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/e/{code}")
    page.fill("#team-name", "Aвтo")  # Latin A and o
    page.click("button[type=submit]")
    expect(page.locator("#join-error")).to_be_visible()
    expect(page.locator("#join-error")).to_contain_text("another")
