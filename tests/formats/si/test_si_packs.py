"""Своя игра with the packs hosts have (issue 29): any .siq (v3-v5) or db.chgk.info «Своя
игра» .txt imported into an ``si`` event becomes three boards played question by question
(SI-1.1), with the pack's theme names, SI-1.1 values whatever the pack's prices, the host's
choice of themes per round on the preview, and a SIGame final that is said not to play."""

from __future__ import annotations

import io
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from answerdesk.extensions import db
from answerdesk.formats.si import layout, rules
from answerdesk.models import Event
from answerdesk.packs import PackError, parse_pack

PACKS = Path(__file__).resolve().parents[2] / "data" / "packs"
ALL = sorted(PACKS.glob("sigame/*.siq")) + sorted(PACKS.glob("svoyak/*.txt"))


FORM_LIMIT = 1024 * 1024  # the start page's form (a bigger pack: the Programme page)


def _create(app, client, pack: Path) -> tuple[str, str]:
    """The organiser creates an ``si`` event with the pack on the start page; a pack
    above the form's limit is imported on the host's Programme page, as previewed."""
    assert client.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]}
                       ).status_code == 302
    small = pack.stat().st_size < FORM_LIMIT
    form = {"name": f"СИ {pack.stem}", "date": "2026-12-06", "format": "si",
            "screen_locale": "ru"}
    if small:
        form["pack"] = (io.BytesIO(pack.read_bytes()), pack.name)
    resp = client.post("/events", data=form, content_type="multipart/form-data")
    # The created event's page, its host password in the address's fragment (issue 29).
    assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
    password = unquote(re.search(r"#password=([^&]+)", resp.headers["Location"]).group(1))
    with app.app_context():
        code = db.session.scalar(db.select(Event.code).where(Event.name == f"СИ {pack.stem}"))
    if not small:
        host = app.test_client()
        host.post(f"/host/{code}/login", data={"password": password})
        shown = host.post(f"/host/{code}/programme/preview", data={
            "pack": (io.BytesIO(pack.read_bytes()), pack.name), "mode": "replace"},
            content_type="multipart/form-data").get_data(as_text=True)
        upload = re.search(r'name="upload" value="(\w+)"', shown).group(1)
        assert host.post(f"/host/{code}/programme/import", data={
            "upload": upload, "filename": pack.name, "mode": "replace"}).status_code == 302
    return code, password


@pytest.mark.parametrize("pack", ALL, ids=lambda p: p.name)
def test_every_pack_plays_question_by_question_with_its_theme_names(app, client, pack):
    code, password = _create(app, client, pack)
    host = app.test_client()
    assert host.post(f"/host/{code}/login", data={"password": password}).status_code == 302
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        assert 1 <= len(event.rounds) <= rules.ROUNDS
        for rnd in event.rounds:
            assert rnd.kind == "sequential"
            assert 1 <= len(rnd.themes) <= rules.THEMES
            assert not any(re.fullmatch(r"Тема \d+", name) for name in rnd.themes)
            for q in rnd.questions:  # SI-1.1: r × (1..5) by the place in the theme
                assert q.points == rules.value(rnd.number, q.number)
        first = event.rounds[0]
        theme = first.themes[0]
    # the host presses the board's first value: it opens (no "not played one by one")
    resp = host.post(f"/host/{code}/si/open", data={"round": "1", "question": "1"})
    assert resp.status_code == 302, resp.get_data(as_text=True)[:500]
    state = client.get(f"/api/events/{code}/state").get_json()["si"]["current"]
    assert (state["round"], state["question"], state["value"]) == (1, 1, 1)
    assert state["theme_name"] == theme
    desk = host.get(f"/host/{code}/si").get_data(as_text=True)
    assert theme in desk and "Тема 1" not in desk


def test_a_long_pack_is_laid_out_by_the_host_on_the_preview(app, client):
    """enot03sv.txt has 24 themes: the host puts chosen ones in rounds 1-3 (not 5 rounds)."""
    code, password = _create(app, client, PACKS / "svoyak" / "leti05sv.txt")
    host = app.test_client()
    host.post(f"/host/{code}/login", data={"password": password})
    host.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    data = (PACKS / "svoyak" / "enot03sv.txt").read_bytes()
    page = host.post(f"/host/{code}/programme/preview", data={
        "pack": (io.BytesIO(data), "enot03sv.txt"), "mode": "replace"},
        content_type="multipart/form-data").get_data(as_text=True)
    assert page.count('name="layout"') == 24
    upload = re.search(r'name="upload" value="(\w+)"', page).group(1)
    themes, _ = layout.pool(parse_pack(data, "enot03sv.txt"))
    # six themes in round 1: refused, the preview comes back with the host's choice
    chosen = [1] * 6 + [0] * 18
    refused = host.post(f"/host/{code}/programme/import", data={
        "upload": upload, "filename": "enot03sv.txt", "mode": "replace",
        "layout": [str(r) for r in chosen]})
    assert refused.status_code == 422
    assert "round 1 would have 6 themes" in refused.get_data(as_text=True)
    chosen = [0] * 9 + [3, 3, 2, 2, 1, 1, 1] + [0] * 8
    done = host.post(f"/host/{code}/programme/import", data={
        "upload": upload, "filename": "enot03sv.txt", "mode": "replace",
        "layout": [str(r) for r in chosen]})
    assert done.status_code == 302
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        assert [(r.number, r.themes) for r in event.rounds] == [
            (1, [t.name for t in themes[13:16]]), (2, [t.name for t in themes[11:13]]),
            (3, [t.name for t in themes[9:11]])]
        assert [q.points for q in event.rounds[2].questions] == [3, 6, 9, 12, 15] * 2


def test_a_siq_final_is_not_a_fourth_round_and_the_preview_says_so(app, client):
    code, password = _create(app, client, PACKS / "sigame" / "si-2010-12-v5.siq")
    host = app.test_client()
    host.post(f"/host/{code}/login", data={"password": password})
    host.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        assert [r.number for r in event.rounds] == [1, 2, 3]
        assert all(r.kind == "sequential" and r.points for r in event.rounds)
    data = (PACKS / "sigame" / "si-2010-12-v5.siq").read_bytes()
    page = host.post(f"/host/{code}/programme/preview", data={
        "pack": (io.BytesIO(data), "si-2010-12-v5.siq"), "mode": "replace"},
        content_type="multipart/form-data").get_data(as_text=True)
    assert "final round «ФИНАЛ» (7 themes) is not played" in page
    assert "every final question is kept" not in page  # the generic warning is not said
    assert page.count('name="layout"') == 18  # 3 rounds × 6 themes: 15 played, 3 not


def test_long_themes_are_cut_into_themes_of_five():
    pack = parse_pack((PACKS / "sigame" / "si-gametest-v4-media.siq").read_bytes(),
                      "si-gametest-v4-media.siq")
    themes, finals = layout.pool(pack)
    assert [(t.name, len(t.questions)) for t in themes] == [
        ("Вопросы разных типов", 5), ("Вопросы разных типов · 2", 3),
        ("Контент вопросов", 5), ("Контент вопросов · 2", 5), ("Контент вопросов · 3", 2)]
    assert finals == [("Финал", 3)]
    shaped = layout.shape(pack, [1, 1, 2, 2, 3])
    assert [(r.number, len(r.questions)) for r in shaped.rounds] == [(1, 8), (2, 10), (3, 2)]
    assert [q.number for q in shaped.rounds[0].questions] == [1, 2, 3, 4, 5, 6, 7, 8]
    with pytest.raises(PackError):
        layout.shape(pack, [0, 0, 0, 0, 0])
