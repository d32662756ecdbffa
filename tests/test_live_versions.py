"""A polled page fetches its picture again only when its version moves (live.py), so the
version a picture carries must never be newer than the picture. On PostgreSQL every
statement of a polled page reads what is committed by then (database.readonly.read_only): a
change landing while the picture renders was hidden for good when the version was
read last. This was the projector tab of tests/test_now_desk_browser.py that stayed
on the locked round under load (issue 19). Here the change lands at that moment on
purpose, on either database, with no timing."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import pytest
from factories import ON_POSTGRES
from sqlalchemy import insert

from answerdesk import display, live
from answerdesk.core import review, rounds
from answerdesk.core.events import event_by_code
from answerdesk.extensions import db
from answerdesk.models import AuditEntry


def _meanwhile(app, monkeypatch, module, name: str, change: Callable[[], None]) -> None:
    """Make ``module.name`` commit ``change`` from another connection (its own thread
    and app context) the first time the page calls it, then do its own work."""
    real = getattr(module, name)

    def patched(*args, **kwargs):
        monkeypatch.setattr(module, name, real)

        def run() -> None:
            with app.app_context():
                change()

        worker = threading.Thread(target=run)
        worker.start()
        worker.join()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, patched)


def _version(html: str, element: str) -> str:
    return re.search(rf'<{element}[^>]*data-version="([^"]+)"', html).group(1)


@pytest.mark.parametrize("phase", ("open", "reveal"))
def test_projector_picture_never_carries_a_version_newer_than_itself(app, client, demo,
                                                                     monkeypatch, phase):
    code, _ = demo
    with app.app_context():
        if phase == "reveal":
            rounds.open_round(event_by_code(code), 1)
            db.session.commit()
            rounds.close_round(event_by_code(code), 1)
            db.session.commit()
    action = rounds.open_round if phase == "open" else rounds.reveal_round
    shows = "now open" if phase == "open" else "now revealed"
    # formats.of(event).standings runs after the rounds the picture shows were read
    _meanwhile(app, monkeypatch, display, "of", lambda: action(event_by_code(code), 1))

    picture = client.get(f"/e/{code}/screen/live").get_data(as_text=True)
    version = client.get(f"/e/{code}/screen/version").get_json()["version"]
    assert shows in picture or _version(picture, "div") != version  # the next poll redraws
    again = client.get(f"/e/{code}/screen/live").get_data(as_text=True)
    assert shows in again and _version(again, "div") == version


def test_desk_never_carries_a_version_newer_than_its_picture(app, client, desk, monkeypatch):
    token = desk.join("Сови")
    desk.host(1, "open")
    client.post(f"/host/{desk.code}/login", data={"password": desk.password})

    def save() -> None:
        assert app.test_client().put(
            f"/api/events/{desk.code}/answers/1/1", json={"text": "вярно"},
            headers={"Authorization": f"Bearer {token}"}).status_code == 200

    # the review queue is read after the "who has answered" grid
    _meanwhile(app, monkeypatch, review, "queue_head", save)
    page = client.get(f"/host/{desk.code}/").get_data(as_text=True)
    version = client.get(f"/host/{desk.code}/live").get_json()["version"]
    grid = re.search(r'<table class="grid" id="answered">.*?</table>', page, re.S).group(0)
    owls = re.search(r"<td>Сови</td><td>4</td><td>(\d+)/", grid).group(1)
    assert owls == "1" or _version(page, "section") != version  # the next poll redraws
    again = client.get(f"/host/{desk.code}/").get_data(as_text=True)
    assert re.search(r"<td>Сови</td><td>4</td><td>1/", again)
    assert _version(again, "section") == version


@pytest.mark.skipif(not ON_POSTGRES, reason="SQLite hands out ids under its one write lock")
def test_a_late_commit_of_an_earlier_id_moves_the_version(app, demo):
    """PostgreSQL numbers an insert at once and makes it visible at commit: an entry
    whose transaction commits after a newer one's leaves the newest id as it was, and
    the version must move all the same (live._version)."""
    code, _ = demo
    with app.app_context():
        event_id = event_by_code(code).id
        entry = {"event_id": event_id, "actor": "host", "action": "test.late", "subject": ""}
        with db.engine.connect() as slow, db.engine.connect() as quick:
            slow.execute(insert(AuditEntry).values(**entry))
            quick.execute(insert(AuditEntry).values(**entry))
            quick.commit()
            before = live.version(event_id), live.screen_version(event_id)
            db.session.rollback()
            slow.commit()
        after = live.version(event_id), live.screen_version(event_id)
        assert before[0] != after[0] and before[1] != after[1]
        newest = db.session.scalar(db.select(db.func.max(AuditEntry.id)))
        assert before[0].split(".")[0] == after[0].split(".")[0] == str(newest)
