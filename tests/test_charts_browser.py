"""Charts (issue 19): the standings over the rounds as a line chart on the host's desk
and the projector, and how the room answered a question on the review page, drawn by
the vendored Chart.js with the right number of points and bars."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

from answerdesk.extensions import db
from answerdesk.models import Answer, Verdict

pytestmark = pytest.mark.slow

TEAMS = {"Сови": ("вярно", "Левски"), "Бухали": ("невярно", "Левски"),
         "Лисици": ("вярно", "Ботев"), "Язовци": ("вярно", "Левсκи")}


def _chart(page: Page, selector: str) -> dict:
    page.locator(selector).wait_for()
    return page.evaluate(f"""(() => {{
        const c = document.querySelector({selector!r});
        return c.chart ? {{lines: c.chart.data.datasets.length,
                           points: c.chart.data.datasets.map(d => d.data.length),
                           values: c.chart.data.datasets.map(d => d.data),
                           labels: c.chart.data.labels,
                           colours: c.chart.data.datasets[0].backgroundColor}} : null;
    }})()""")


def test_standings_and_answer_charts(page: Page, app, live_demo, log_in_host):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    tokens = {name: requests.post(f"{base}/api/events/{code}/teams", json={"name": name})
              .json()["token"] for name in TEAMS}
    for number in (1, 2):
        requests.post(f"{base}/api/host/events/{code}/rounds/{number}/open", headers=host)
        for name, answers in TEAMS.items():
            requests.put(f"{base}/api/events/{code}/answers/{number}/1",
                         json={"text": answers[number - 1]},
                         headers={"Authorization": f"Bearer {tokens[name]}"})
        requests.post(f"{base}/api/host/events/{code}/rounds/{number}/close", headers=host)
    with app.app_context():  # the checker left one R2 answer to the host
        verdict = db.session.scalar(db.select(Verdict).join(Answer)
                                    .where(Answer.text == "Ботев"))
        verdict.outcome = "review"
        db.session.commit()

    log_in_host(page, base, code, password)
    page.goto(f"{base}/lang/bg?next=/host/{code}/")
    desk = _chart(page, ".standings-chart canvas")
    assert desk["lines"] == 4 and desk["points"] == [2, 2, 2, 2]
    assert desk["labels"] == ["Кръг 1", "Кръг 2"]
    assert sorted(v[-1] for v in desk["values"]) == [1, 2, 3, 3]  # running totals
    assert sorted(v[0] for v in desk["values"]) == [0, 1, 1, 1]  # after round 1

    page.goto(f"{base}/host/{code}/review")
    bars = _chart(page, ".answer-chart canvas")
    # Левски twice and its look-alike (correct), Ботев (to review): each team once.
    assert sum(bars["values"][0]) == 4
    assert bars["points"][0] == len(bars["labels"])
    assert "#0969da" in bars["colours"] and "#1a7f37" in bars["colours"]

    for number in (1, 2):  # BG-E3: the screen counts a round once it is revealed
        requests.post(f"{base}/api/host/events/{code}/rounds/{number}/reveal", headers=host)
    page.goto(f"{base}/host/{code}/projector")
    page.get_by_role("button", name="Класиране").click()
    projector = page.context.new_page()
    projector.goto(f"{base}/e/{code}/screen")
    screen = _chart(projector, ".standings-chart canvas")
    assert screen["lines"] == 4 and screen["points"] == [2, 2, 2, 2]
    expect(projector.locator(".standings-chart figcaption")).to_have_text("Точки след всеки кръг")
