"""The desk for the night keeps BG's standings chart per screen version (issue 33):
a phone's save does not build it again, an audited change does (BG-S1)."""

from __future__ import annotations

import json
import re

import pytest

from answerdesk.core import charts


@pytest.fixture
def built(monkeypatch) -> list[int]:
    """How many times the standings chart was built."""
    calls: list[int] = []
    build = charts.event_standings_chart

    def counted(event):
        calls.append(event.id)
        return build(event)

    monkeypatch.setattr(charts, "event_standings_chart", counted)
    return calls


def chart(page: str) -> dict:
    found = re.search(r'data-chart="([^"]*)"', page)
    assert found, "no standings chart on the desk"
    return json.loads(found.group(1).replace("&#34;", '"').replace("&quot;", '"'))


def test_a_save_keeps_the_chart_and_an_audited_change_builds_it(desk, built):
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    url = f"/host/{desk.code}/"
    desk.client.get(url)
    desk.host(2, "open")
    desk.client.get(url)
    assert len(built) == 2
    token = desk.join("Сови")
    desk.client.get(url)
    assert len(built) == 3  # a team joined: an audited change
    assert desk.save(token, 2, 1, "Левски").status_code == 200
    page = desk.client.get(url).get_data(as_text=True)
    assert len(built) == 3  # the save is not in the standings (BG-S1: locked rounds)
    assert "Сови" in page and "1/4" in page  # while the grid beside it is fresh
    desk.host(2, "close")
    page = desk.client.get(url).get_data(as_text=True)
    assert len(built) == 4
    series = {line["name"]: line["points"] for line in chart(page)["series"]}
    assert series["Сови"][-1] == next(r["points"] for r in desk.standings()
                                      if r["team"] == "Сови") > 0


def test_the_kept_chart_is_per_language(desk, built):
    desk.client.post(f"/host/{desk.code}/login", data={"password": desk.password})
    desk.host(2, "open")
    desk.save(desk.join("Сови"), 2, 1, "Левски")
    desk.host(2, "close")
    url = f"/host/{desk.code}/"
    labels = {}
    for lang in ("bg", "en", "bg"):
        page = desk.client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
        labels[lang] = chart(page)["labels"]
    assert len(built) == 2
    assert labels["bg"] != labels["en"]
