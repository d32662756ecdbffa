"""XSS: hostile team names and answers are shown as text on every page (autoescaping)."""

from __future__ import annotations

import pytest
from markupsafe import escape

from answerdesk.extensions import db
from answerdesk.models import Verdict

PAYLOADS = [
    '<script>window.pwned=1</script>',
    '"><img src=x onerror="window.pwned=1">',
    "'><svg onload=alert(1)>",
    "{{ 7*191 }}</td></tr><iframe src=javascript:alert(1)>",
]


def _assert_inert(page: str, payload: str, where: str) -> None:
    assert payload not in page, f"raw payload on {where}"
    assert "<script>window.pwned" not in page and "onerror=" not in page.replace(
        "onerror=&#34;", ""
    ).replace("onerror=&quot;", ""), where
    assert "1337" not in page, f"template injection on {where}"  # 7*191


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_name_and_answer_inert_on_every_page(app, desk, payload):
    name = payload[:60]
    token = desk.join(name)
    desk.host(2, "open")
    assert desk.save(token, 2, 1, payload).status_code == 200
    desk.host(2, "close")
    with app.app_context():
        for verdict in db.session.scalars(db.select(Verdict)):
            verdict.outcome = "review"
        db.session.commit()
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    receipt = desk.sheet(token).get_json()["rounds"][0]["questions"][0]["answer"]["receipt"]
    urls = [
        f"/host/{desk.code}/", f"/host/{desk.code}/review", f"/host/{desk.code}/standings",
        f"/host/{desk.code}/receipts?team={name}&round=2&question=1&code={receipt}",
        f"/e/{desk.code}/screen", f"/e/{desk.code}/screen/live",
    ]
    shown = 0
    for url in urls:
        resp = desk.client.get(url)
        assert resp.status_code == 200, url
        page = resp.get_data(as_text=True)
        _assert_inert(page, payload, url)
        shown += str(escape(name)) in page
    assert shown >= 4, "the name should be on the host pages and the projector, escaped"
    review = desk.client.get(f"/host/{desk.code}/review").get_data(as_text=True)
    assert str(escape(payload)) in review
    desk.host(2, "reveal")
    for url in (f"/e/{desk.code}/screen", f"/e/{desk.code}/screen/live"):
        _assert_inert(desk.client.get(url).get_data(as_text=True), payload, url)
    # JSON carries the text as data; the phone page puts it in with textContent.
    sheet = desk.sheet(token).get_json()
    assert sheet["team"]["name"] == name
    round2 = next(r for r in sheet["rounds"] if r["number"] == 2)
    assert round2["questions"][0]["answer"]["text"] == payload


def test_hostile_event_code_in_url_is_escaped_on_error_page(client):
    resp = client.get("/e/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert resp.status_code == 404
    page = resp.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
