"""OpenQuiz with a real .siq pack made on the organiser's form (issue 29, OQ-1, OQ-2):
every link a team is given opens the buzzer phone, and no page or state a player can
reach shows a question's text before the host has started it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from answerdesk.extensions import db
from answerdesk.models import Event

PACK = Path(__file__).resolve().parents[2] / "data" / "packs" / "sigame" / \
    "si-gametest-v4-media.siq"


def create_oq_event(app, client) -> str:
    """The organiser makes an OpenQuiz event with the .siq on the start page."""
    assert client.post("/login", data={"password": app.config["ORGANISER_PASSWORD"]}) \
        .status_code == 302
    resp = client.post("/events", data={
        "name": "OpenQuiz night", "format": "oq",
        "pack": (io.BytesIO(PACK.read_bytes()), PACK.name)}, content_type="multipart/form-data",
        follow_redirects=True)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.name == "OpenQuiz night")).one()
        return event.code


def question_texts(app, code: str) -> list[str]:
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.code == code)).one()
        return [line for r in event.rounds for q in r.questions
                for line in q.text.splitlines() if len(line) > 12]


@pytest.fixture
def oq_night(app):
    client = app.test_client()
    code = create_oq_event(app, client)
    return code, question_texts(app, code)


def join(client, code: str, team: str, player: str, **extra) -> str:
    resp = client.post(f"/api/events/{code}/oq/join", json={"team": team, "player": player,
                                                             **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["token"]


def test_oq1_every_team_link_opens_the_buzzer_phone(app, client, oq_night):
    code, _ = oq_night
    for path in (f"/e/{code}", f"/e/{code}/sheet"):
        resp = client.get(path)
        assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/e/{code}/buzzer")
    screen = client.get(f"/e/{code}/screen").get_data(as_text=True)
    assert f"/e/{code}" in screen  # the QR code's link, which redirects to the phone
    phone = client.get(f"/e/{code}/buzzer", follow_redirects=True).get_data(as_text=True)
    assert 'id="oq-join"' in phone and 'id="press"' in phone


def test_oq_no_page_a_player_reaches_shows_a_question_before_it_is_played(app, oq_night):
    code, texts = oq_night
    assert len(texts) >= 15 and any("Вопрос финала" in t for t in texts)
    client = app.test_client()
    captain = join(client, code, "Сови", "Ира")
    other = join(client, code, "Лисици", "Вася")
    team_token = client.post(f"/api/events/{code}/teams", json={"name": "Мечки"}).get_json()
    host = app.test_client()
    password = None
    with app.app_context():
        from answerdesk.core.organiser import reset_host_password
        event = db.session.scalars(db.select(Event).where(Event.code == code)).one()
        password = reset_host_password(event)
        db.session.commit()
    assert host.post(f"/host/{code}/login", data={"password": password}).status_code == 302

    def everything() -> str:
        seen = []
        for path in (f"/e/{code}", f"/e/{code}/sheet", f"/e/{code}/buzzer",
                     f"/e/{code}/buzzer/screen", f"/e/{code}/screen",
                     f"/e/{code}/screen/live", "/", f"/api/events/{code}/state",
                     f"/api/events/{code}/play", f"/api/events/{code}/clock",
                     f"/api/events/{code}/standings"):
            resp = client.get(path, follow_redirects=True)
            assert resp.status_code in (200, 401, 404), path
            seen.append(resp.get_data(as_text=True))
        for token in (captain, other, (team_token or {}).get("token")):
            if not token:
                continue
            auth = {"Authorization": f"Bearer {token}"}
            for path in ("sheet", "state", "oq/me", "play"):
                seen.append(client.get(f"/api/events/{code}/{path}", headers=auth)
                            .get_data(as_text=True))
        return "\n".join(seen)

    def leaked(shown: str, allowed: tuple[str, ...] = ()) -> list[str]:
        import json
        shown = shown + json.dumps(shown)  # \u-escaped as JSON carries it
        return [t for t in texts if t not in allowed and (t in shown or json.dumps(t)[1:-1]
                                                         in shown)]

    assert leaked(everything()) == []
    # the host opens round 1 on the desk: still nothing
    assert host.post(f"/host/{code}/rounds/1/open").status_code == 302
    assert leaked(everything()) == []
    # the captain picks a question: the pick is shown, not its text
    auth = {"Authorization": f"Bearer {captain}"}
    assert client.post(f"/api/events/{code}/oq/pick", json={"round": 1, "question": 1},
                       headers=auth).status_code == 200
    assert leaked(everything()) == []
    # once the host starts it, its own text (only) reaches the phones
    page = host.get(f"/host/{code}/oq/play").get_data(as_text=True)
    assert "Это текст вопроса" in page
    assert host.post(f"/host/{code}/oq/play/start").status_code == 302
    shown = everything()
    assert "Это текст вопроса" in shown
    assert leaked(shown, ("Это текст вопроса",)) == []


def test_the_live_push_carries_a_started_questions_media(app, oq_night):
    """The push stream's thread renders the state outside any request: a started question
    with a picture or clip from the pack still reaches the phones and the projector by
    push, its media named by their paths (OQ-2; the stream fell back to polling)."""
    from answerdesk.core.organiser import reset_host_password
    from answerdesk.formats.buzzer.stream import _rendered
    from answerdesk.formats.oq.typeplay import question_media

    code, _ = oq_night
    client, host = app.test_client(), app.test_client()
    captain = join(client, code, "Сови", "Ира")
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.code == code)).one()
        password = reset_host_password(event)
        db.session.commit()
        with_media = [q.number for q in event.round(1).questions
                      if question_media(q, "question")]
    assert with_media, "the pack has a question with media in round 1"
    assert host.post(f"/host/{code}/login", data={"password": password}).status_code == 302
    assert host.post(f"/host/{code}/rounds/1/open").status_code == 302
    assert client.post(f"/api/events/{code}/oq/pick", json={"round": 1, "question": with_media[0]},
                       headers={"Authorization": f"Bearer {captain}"}).status_code == 200
    assert host.post(f"/host/{code}/oq/play/start").status_code == 302
    app.config["SERVER_NAME"] = None  # as served by gunicorn: url_for needs a request
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.code == code)).one()
        message, _ = _rendered(event, "v1")
    assert f"/e/{code}/media/" in message
