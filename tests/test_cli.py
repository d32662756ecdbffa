"""`flask --app answerdesk demo` and the migrations (foundation)."""

from __future__ import annotations

import json

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from answerdesk.extensions import db
from answerdesk.models import Event, Question


def test_demo_prints_links_and_password(app):
    result = app.test_cli_runner().invoke(args=["demo", "--base-url", "http://venue:5000"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) >= {"code", "host_password", "team_url", "host_url", "screen_url"}
    assert data["team_url"] == f"http://venue:5000/e/{data['code']}"
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == data["code"]))
        assert [r.number for r in event.rounds] == [1, 2, 3, 4, 5, 6]
        assert db.session.scalar(db.select(db.func.count(Question.id))) >= 12


def test_demo_once_reuses_the_first_event(app):
    runner = app.test_cli_runner()
    first = json.loads(runner.invoke(args=["demo", "--once"]).output)
    again = json.loads(runner.invoke(args=["demo", "--once"]).output)
    assert first == again
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Event.id))) == 1


def test_bg_programme_rounds(app, demo):
    with app.app_context():
        event = db.session.scalar(db.select(Event))
        rounds = {r.number: (r.kind, r.points, r.check_mode, r.partial_points)
                  for r in event.rounds}
    assert rounds[1] == ("choice", 1, "choice", None)      # BG-R1
    assert rounds[2] == ("open", 2, "typo3", None)          # BG-R2
    assert rounds[3] == ("picture", 2, "typo3", None)       # BG-R3
    assert rounds[4] == ("media", 3, "typo5", 1)            # BG-R4, BG-R4.1
    assert rounds[6][1] == 5                                # BG-R6


def test_migrations_match_models(app):
    with app.app_context(), db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == []
