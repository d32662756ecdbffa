"""`flask --app answerdesk demo` and the migrations (foundation)."""

from __future__ import annotations

import json
import os

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from answerdesk.config import _normalise_database_url
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
        # the demo evening and the three played editions of its month (BG-M), once
        assert db.session.scalar(db.select(db.func.count(Event.id))) == 4


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


def test_migrations_build_the_models_schema(tmp_path):
    """`flask db upgrade` on an empty database gives exactly the tables of models.py."""
    from flask_migrate import upgrade

    from answerdesk import create_app

    pg_url = os.environ.get("DATABASE_URL", "")
    on_postgres = pg_url.startswith("postgres")
    uri = _normalise_database_url(pg_url) if on_postgres else f"sqlite:///{tmp_path / 'm.sqlite'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "t",
                      "INSTANCE_PATH": str(tmp_path)})
    with app.app_context():
        if on_postgres:
            with db.engine.begin() as conn:
                conn.exec_driver_sql("DROP SCHEMA public CASCADE")
                conn.exec_driver_sql("CREATE SCHEMA public")
        upgrade()
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        if on_postgres:  # leave the shared database as the other tests expect it
            with db.engine.begin() as conn:
                conn.exec_driver_sql("DROP SCHEMA public CASCADE")
                conn.exec_driver_sql("CREATE SCHEMA public")
            db.create_all()
        db.engine.dispose()
    assert diff == []
