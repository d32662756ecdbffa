"""The host's OpenQuiz play page with a real .siq (issue 29, OQ-2, OQ-3, OQ-5): the start
button refuses with nothing picked and before an auction is settled; a score changed by
hand needs its reason, which the audit log keeps; a choice question the pack gave no
options takes the host's, typed on the page, and the phones get them once it starts."""

from __future__ import annotations

from test_oq_no_leak import create_oq_event, join

from answerdesk.core.organiser import reset_host_password
from answerdesk.extensions import db
from answerdesk.models import AuditEntry, Event


def host_of(app, code: str):
    host = app.test_client()
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.code == code)).one()
        password = reset_host_password(event)
        db.session.commit()
    assert host.post(f"/host/{code}/login", data={"password": password}).status_code == 302
    return host


def test_oq_desk_start_score_by_hand_and_typed_options(app):
    client = app.test_client()
    code = create_oq_event(app, client)
    host = host_of(app, code)
    en = {"Accept-Language": "en"}
    captain = join(client, code, "Сови", "Ира")
    join(client, code, "Лисици", "Вася")

    refused = host.post(f"/host/{code}/oq/play/start", headers=en)
    assert refused.status_code == 409
    assert "No question is picked" in refused.get_data(as_text=True)

    # OQ-5: the reason is asked for and kept
    refused = host.post(f"/host/{code}/oq/play/score", headers=en,
                        data={"team": "Лисици", "points": "500", "reason": " "})
    assert refused.status_code in (400, 409) and "Say why" in refused.get_data(as_text=True)
    assert host.post(f"/host/{code}/oq/play/score", data={
        "team": "Лисици", "points": "500", "reason": "late arrival bonus"}).status_code == 302
    with app.app_context():
        entry = db.session.scalars(db.select(AuditEntry).where(
            AuditEntry.action == "oq.edit")).one()
        assert entry.after == {"points": 500, "reason": "late arrival bonus"}
    page = host.get(f"/host/{code}/oq/play").get_data(as_text=True)
    assert 'data-team="Лисици"><td>Лисици</td><td class="points">500</td>' in page

    # OQ-3: the host types the options of a choice question the pack has none for
    refused = host.post(f"/host/{code}/oq/play/type", headers=en, data={
        "round": 1, "question": 9, "type": "choices", "options": "Paris; Rome"})
    assert refused.status_code == 409 and "Mark the right option" in refused.get_data(
        as_text=True)
    assert host.post(f"/host/{code}/oq/play/type", data={
        "round": 1, "question": 9, "type": "choices",
        "options": "*А это обычный ответ; Другое; Третье"}).status_code == 302
    auth = {"Authorization": f"Bearer {captain}"}
    assert client.post(f"/api/events/{code}/oq/pick", json={"round": 1, "question": 9},
                       headers=auth).status_code == 200
    assert client.get(f"/api/events/{code}/state").get_json()["oq"]["play"]["options"] is None
    assert host.post(f"/host/{code}/oq/play/start").status_code == 302
    play = client.get(f"/api/events/{code}/state").get_json()["oq"]["play"]
    assert play["options"] == {"A": "А это обычный ответ", "B": "Другое", "C": "Третье"}
    assert play["text"] == "Это обычный текст" and play["theme"] == "Контент вопросов"


def test_oq_start_waits_for_the_auction_and_the_projector_speaks_its_language(app):
    client = app.test_client()
    code = create_oq_event(app, client)
    host = host_of(app, code)
    captain = join(client, code, "Сови", "Ира")
    auth = {"Authorization": f"Bearer {captain}"}
    assert client.post(f"/api/events/{code}/oq/pick", json={"round": 1, "question": 2},
                       headers=auth).status_code == 200  # the pack's stake question
    refused = host.post(f"/host/{code}/oq/play/start", headers={"Accept-Language": "en"})
    assert refused.status_code == 409 and "Settle the auction" in refused.get_data(
        as_text=True)
    with app.app_context():
        event = db.session.scalars(db.select(Event).where(Event.code == code)).one()
        event.screen_locale = "ru"
        db.session.commit()
    screen = client.get(f"/e/{code}/buzzer/screen", headers={"Accept-Language": "en"})
    assert "Ждём следующий вопрос" in screen.get_data(as_text=True)  # the event's, not en


def test_oq_standings_exports_and_unban_from_the_pages(app):
    """OQ-5: standings, the projector's table and the files show the real points and
    places (headers in the reader's language); OQ-8: the room page lifts a ban."""
    client = app.test_client()
    code = create_oq_event(app, client)
    host = host_of(app, code)
    for team, player in (("Сови", "Ира"), ("Лисици", "Вася"), ("Мечки", "Петя")):
        join(client, code, team, player)
    for team, points in (("Лисици", 300), ("Мечки", 300), ("Сови", -100)):
        assert host.post(f"/host/{code}/oq/play/score", data={
            "team": team, "points": str(points), "reason": "test"}).status_code == 302
    rows = client.get(f"/api/events/{code}/standings").get_json()["standings"]
    assert [(r["team"], r["points"], r["place"], r["shared"]) for r in rows] == [
        ("Лисици", 300, 1, True), ("Мечки", 300, 1, True), ("Сови", -100, 3, False)]
    page = host.get(f"/host/{code}/standings").get_data(as_text=True)
    assert "Лисици" in page and "300" in page
    csv = host.get(f"/host/{code}/oq/results.csv", headers={"Accept-Language": "ru"})
    text = csv.get_data().decode("utf-8-sig")
    assert text.splitlines()[0].startswith("Место,Команда,Очки")
    assert "1=,Лисици,300" in text and "3,Сови,-100" in text
    xlsx = host.get(f"/host/{code}/oq/results.xlsx")
    assert xlsx.status_code == 200 and xlsx.data[:2] == b"PK"

    assert host.post(f"/host/{code}/oq/remove", data={
        "kind": "team", "team": "Мечки", "ban": "1"}).status_code == 302
    refused = client.post(f"/api/events/{code}/oq/join", json={"team": "Мечки",
                                                               "player": "Петя"})
    assert refused.status_code == 403
    room = host.get(f"/host/{code}/oq", headers={"Accept-Language": "en"}).get_data(
        as_text=True)
    assert 'data-banned="мечки"' in room and "Unban" in room
    assert host.post(f"/host/{code}/oq/unban", data={"index": "0"}).status_code == 302
    assert "Nobody is banned." in host.get(f"/host/{code}/oq", headers={
        "Accept-Language": "en"}).get_data(as_text=True)
    join(client, code, "Мечки", "Петя")
