"""Issue 34: a real db.chgk.info pack (4-6 tours of 12-15 questions) makes the evening's
two games of 12 sectors (CHGK-1.6, 1.9) as the host chooses in the import preview."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from answerdesk.core.events import create_event, event_by_code
from answerdesk.extensions import db
from answerdesk.formats.chgk.pack import shape
from answerdesk.packs import parse_pack

PACKS = Path(__file__).parents[2] / "data" / "packs" / "chgk"


@pytest.mark.parametrize("name", sorted(p.name for p in PACKS.glob("*.txt")))
def test_chgk_1_6_every_real_pack_makes_two_games_of_12(name):
    pack = parse_pack((PACKS / name).read_bytes(), name)
    if pack.format != "chgk":
        pytest.skip("not a ЧГК pack")
    shaped, choice = shape(pack, {})
    assert [len(r.questions) for r in shaped.rounds] == [12, 12]
    assert [q.number for q in shaped.rounds[0].questions] == list(range(1, 13))
    # By default game 1 is tour 1 from its first question, game 2 tour 2 likewise.
    assert shaped.rounds[0].questions[0].text == pack.rounds[0].questions[0].text
    assert shaped.rounds[1].questions[0].text == pack.rounds[1].questions[0].text
    total = sum(len(r.questions) for r in pack.rounds)
    assert any("24" in str(w) and str(total) in str(w) for w in shaped.warnings)
    assert len(choice["tours"]) == len(pack.rounds)


def test_chgk_1_9_host_chooses_tours_and_first_questions_in_the_preview(app, client, english):
    with app.app_context():
        event, password = create_event("ЧГК, настоящий пакет", format="chgk")
        db.session.commit()
        code = event.code
    assert client.post(f"/host/{code}/login", data={"password": password}).status_code == 302
    data = (PACKS / "rusch16.txt").read_bytes()
    pack = parse_pack(data, "rusch16.txt")
    resp = client.post(f"/host/{code}/programme/preview",
                       data={"pack": (io.BytesIO(data), "rusch16.txt"), "mode": "replace"},
                       content_type="multipart/form-data")
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and 'id="chgk-pack-choice"' in page
    counts = re.findall(r'<td class="count">(\d+)</td>', page)
    assert counts == ["12", "12"]
    assert "The evening plays 24 of the pack" in page
    upload = re.search(r'name="upload" value="([0-9a-f]{32})"', page).group(1)
    # Game 1: tour 3 from question 4; game 2: tour 5 from question 1.
    choice = {"upload": upload, "filename": "rusch16.txt", "mode": "replace",
              "layout": ["3", "4", "5", "1"]}
    page = client.post(f"/host/{code}/programme/preview", data=choice).get_data(as_text=True)
    kept = re.findall(r'<input type="hidden" name="layout" value="(\d+)">', page)
    assert kept == ["3", "4", "5", "1"]
    # A choice the pack cannot give: said, translated, with the file kept.
    bad = client.post(f"/host/{code}/programme/preview",
                      data={**choice, "layout": ["3", "4", "5", "99"]},
                      headers={"Accept-Language": "ru"})
    assert bad.status_code == 400 and upload in bad.get_data(as_text=True)
    assert "Игра 2: первый вопрос — от 1 до 15." in bad.get_data(as_text=True)
    overlap = client.post(f"/host/{code}/programme/preview",
                          data={**choice, "layout": ["3", "4", "3", "6"]})
    assert overlap.status_code == 400 and "repeats questions of game 1" in overlap.get_data(
        as_text=True)
    resp = client.post(f"/host/{code}/programme/import", data=choice)
    assert resp.status_code == 302
    with app.app_context():
        event = event_by_code(code)
        assert [len(r.questions) for r in event.rounds] == [12, 12]
        first = event.round(1).questions[0]
        assert first.number == 1 and first.text == pack.rounds[2].questions[3].text
        assert event.round(2).questions[11].text == pack.rounds[4].questions[11].text


def test_chgk_1_9_organiser_creates_an_evening_from_a_real_pack(app, client, english):
    from tests.test_start import _log_in

    _log_in(app, client)
    data = (PACKS / "wc13.txt").read_bytes()
    resp = client.post("/events", data={
        "name": "ЧГК: чемпионат мира", "date": "2026-12-10", "format": "chgk",
        "screen_locale": "ru", "pack": (io.BytesIO(data), "wc13.txt")},
        content_type="multipart/form-data")
    assert resp.status_code == 303  # to the created event's page (issue 29)
    with app.app_context():
        from answerdesk.extensions import db
        from answerdesk.models import Event

        event = db.session.scalar(db.select(Event).where(Event.name == "ЧГК: чемпионат мира"))
        assert [(r.number, len(r.questions)) for r in event.rounds] == [(1, 12), (2, 12)]
