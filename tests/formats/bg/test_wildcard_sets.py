"""BG-R5 scenario sets are the event's own (issue 14 §5): from its pack's `wildcard`
field or typed by the host; choosing a scenario never fills round 5 from elsewhere."""

from __future__ import annotations

import io

import pytest

from answerdesk.core.events import create_event, event_by_code
from answerdesk.errors import Conflict
from answerdesk.extensions import db
from answerdesk.formats.bg import wildcard
from answerdesk.formats.bg.demo import demo_pack
from answerdesk.formats.bg.models import Wildcard
from answerdesk.models import Event
from answerdesk.packs import dump_native, load_native, parse_pack
from answerdesk.packs.importer import export_pack, import_pack

OWN_PACK = """answerdesk_pack: 1
title: "Own night"
rounds:
  - number: 2
    questions:
      - {text: "Own R2", key: ["две"]}
  - number: 5
    name: "От 1 до 10"
    kind: number
    check_mode: number
    points: 1
    questions:
      - {text: "Own R5 question", key: [7]}
"""

WITH_SETS = OWN_PACK + """wildcard:
  "5.1":
    - text: "Own 5.1 question"
      key: ["Юпитер"]
  5.5:
    - text: "Own pairs"
      key: {"1": "А", "2": "Б"}
"""


def _new_event(app, pack_text: str | None = None) -> str:
    with app.app_context():
        event, _ = create_event("Own night")
        if pack_text:
            import_pack(event, load_native(pack_text, "own.yaml"), actor="test")
            db.session.commit()
        return event.code


def _round5(app, code: str) -> list[tuple[str, object]]:
    with app.app_context():
        rnd = event_by_code(code).round(5)
        return [(q.text, q.key) for q in rnd.questions]


def test_bg_r5_demo_pack_carries_every_scenario_set():
    pack = demo_pack()
    assert sorted(pack.scenarios) == ["5.1", "5.2", "5.3", "5.4", "5.5"]
    assert [q.key for q in pack.scenarios["5.4"]] == [[n] for n in range(1, 11)]
    assert pack.scenarios["5.3"][0].check_mode == "song"


def test_bg_r5_pack_sets_round_trip_through_export(app):
    code = _new_event(app, WITH_SETS)
    with app.app_context():
        pack = export_pack(event_by_code(code))
        again = load_native(dump_native(pack), "again.yaml")
    assert sorted(again.scenarios) == ["5.1", "5.5"]
    assert again.scenarios["5.5"][0].key == {"1": "А", "2": "Б"}


def test_bg_r5_scenario_takes_the_events_own_set(app):
    code = _new_event(app, WITH_SETS)
    with app.app_context():
        wildcard.choose_scenario(event_by_code(code), "5.5")
    assert _round5(app, code) == [("Own pairs", {"1": "А", "2": "Б"})]


def test_bg_r5_own_round5_questions_are_never_silently_replaced(app):
    """The pack's own round 5 (From 1 to 10) and no sets: 5.4 keeps its questions; a
    scenario it has no questions for is refused and changes nothing."""
    code = _new_event(app, OWN_PACK)
    with app.app_context(), pytest.raises(Conflict, match="no questions for scenario 5.5"):
        wildcard.choose_scenario(event_by_code(code), "5.5")
    assert _round5(app, code) == [("Own R5 question", [7])]
    with app.app_context():
        assert event_by_code(code).round(5).check_mode == "number"
        wildcard.choose_scenario(event_by_code(code), "5.4")
    assert _round5(app, code) == [("Own R5 question", [7])]


def test_bg_r5_importing_into_the_demo_drops_the_demo_sets(app, demo):
    """The bug of issue 14: a host's pack imported into the demo got the demo's R5."""
    code, _ = demo
    with app.app_context():
        import_pack(event_by_code(code), load_native(OWN_PACK, "own.yaml"), actor="host")
        db.session.commit()
        row = db.session.scalar(db.select(Wildcard))
        assert row.bank is None
        with pytest.raises(Conflict):
            wildcard.choose_scenario(event_by_code(code), "5.3")
        wildcard.choose_scenario(event_by_code(code), "5.4")
    assert _round5(app, code) == [("Own R5 question", [7])]


def test_bg_r5_an_empty_event_refuses_every_scenario(app):
    code = _new_event(app)
    with app.app_context():
        for scenario in ("5.1", "5.4"):
            with pytest.raises(Conflict):
                wildcard.choose_scenario(event_by_code(code), scenario)
        assert event_by_code(code).round(5).questions == []


def test_bg_r5_native_pack_wildcard_errors_name_the_line():
    bad_mode = WITH_SETS.replace('key: {"1": "А", "2": "Б"}', 'key: ["А"]')
    with pytest.raises(Exception, match=r"line 20 \(wildcard\.5\.5\[0\]\.key\)"):
        load_native(bad_mode, "p.yaml")
    unknown = OWN_PACK + 'wildcard:\n  "5.9":\n    - {text: x, key: [a]}\n'
    with pytest.raises(Exception, match=r"line 16 .*unknown field '5.9'"):
        load_native(unknown, "p.yaml")
    empty = OWN_PACK + 'wildcard:\n  "5.2": []\n'
    with pytest.raises(Exception, match=r"line 15 .*scenario 5.2 needs a list of questions"):
        load_native(empty, "p.yaml")
    assert parse_pack(WITH_SETS.encode(), "p.yaml").scenarios["5.1"][0].text == (
        "Own 5.1 question")


def _host(app, client, code: str) -> None:
    from werkzeug.security import generate_password_hash

    with app.app_context():
        event_by_code(code).host_password_hash = generate_password_hash("pw")
        db.session.commit()
    assert client.post(f"/host/{code}/login", data={"password": "pw"}).status_code == 302


def test_bg_r5_host_types_a_scenario_set_on_the_rules_page(app, client, english):
    code = _new_event(app, OWN_PACK)
    _host(app, client, code)
    page = client.get(f"/host/{code}/rules/wildcard/sets").get_data(as_text=True)
    assert "5.5 All-in" in page and 'name="csrf_token"' in page
    bad = client.post(f"/host/{code}/rules/wildcard/sets/5.5", data={
        "questions": '- text: "Свържете"\n  key: {"1": "В", "x": "А"}\n'})
    assert bad.status_code == 422
    assert "line 2" in bad.get_data(as_text=True) and "must be a number" in bad.get_data(
        as_text=True)
    with app.app_context():
        assert wildcard.scenario_sets(event_by_code(code)) == {}
    ok = client.post(f"/host/{code}/rules/wildcard/sets/5.5", data={
        "questions": '- text: "Свържете"\n  key: {"1": "В", "2": "А"}\n'})
    assert ok.status_code == 302
    page = client.get(f"/host/{code}/rules/wildcard/sets").get_data(as_text=True)
    assert "Свържете" in page
    client.post(f"/host/{code}/rules/wildcard/choose", data={"scenario": "5.5"})
    assert _round5(app, code) == [("Свържете", {"1": "В", "2": "А"})]
    # an empty set removes it
    client.post(f"/host/{code}/rules/wildcard/sets/5.5", data={"questions": " "})
    with app.app_context():
        assert "5.5" not in wildcard.scenario_sets(event_by_code(code))


def test_bg_r5_choosing_without_a_set_is_a_translated_refusal(app, client):
    code = _new_event(app, OWN_PACK)
    _host(app, client, code)
    resp = client.post(f"/host/{code}/rules/wildcard/choose", data={"scenario": "5.2"},
                       headers={"Accept-Language": "ru"})
    assert resp.status_code == 409
    assert "5.2" in resp.get_data(as_text=True)
    assert "no questions" not in resp.get_data(as_text=True)


def test_bg_r5_start_page_pack_brings_its_sets(app, client):
    client.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]})
    resp = client.post("/events", data={"name": "Own", "format": "bg",
                                        "pack": (io.BytesIO(WITH_SETS.encode()), "own.yaml")},
                       content_type="multipart/form-data")
    assert resp.status_code == 303
    with app.app_context():
        row = db.session.scalar(db.select(Wildcard))
        assert sorted(row.bank) == ["5.1", "5.5"]


SCENARIO_BUNDLE = """answerdesk_pack: 1
title: "Снимки и за жокера"
rounds:
  - number: 3
    questions:
      - text: "Сградата"
        media: stills/r3.png
        key: ["Колизеум"]
  - number: 5
    questions:
      - {text: "Планетата", key: ["Юпитер"]}
wildcard:
  "5.2":
    - text: "Градът"
      media: sets/paris.png
      key: ["Париж"]
    - text: "Мостът"
      media: sets/bridge.png
      key: ["Голдън Гейт"]
  "5.3":
    - text: "Песента"
      media: {kind: audio, ref: sets/song.wav}
      key: ["Ла"]
"""


def test_bg_r5_scenario_media_of_a_bundle_are_stored_and_served(app, client, media_files):
    """Every file a pack names is kept, the scenario sets' too (issue 34): the import
    no longer deletes them as unused, and scenario 5.2's pictures are served."""
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("pack.yaml", SCENARIO_BUNDLE.encode())
        zf.writestr("stills/r3.png", media_files.png(10, 10))
        zf.writestr("sets/paris.png", media_files.png(20, 10))
        zf.writestr("sets/bridge.png", media_files.png(30, 10))
        zf.writestr("sets/song.wav", media_files.wav(0.5))
    client.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]})
    resp = client.post("/events", data={"name": "Снимки", "format": "bg",
                                        "pack": (io.BytesIO(buf.getvalue()), "night.zip")},
                       content_type="multipart/form-data")
    assert resp.status_code == 303  # to the created event's page (issue 29: no second event)
    with app.app_context():
        row = db.session.scalar(db.select(Wildcard))
        code = db.session.get(Event, row.event_id).code
        files = [m["file"] for items in row.bank.values() for item in items
                 for m in item["media"]]
        assert len(files) == 3
        wildcard.choose_scenario(event_by_code(code), "5.2")
        r5 = [m.get("file") for q in event_by_code(code).round(5).questions for m in q.media]
    assert len(r5) == 2 and all(r5)
    for name in files:
        served = client.get(f"/e/{code}/media/{name}")
        assert served.status_code == 200, name
