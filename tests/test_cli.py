"""`flask --app answerdesk demo` and the migrations (foundation)."""

from __future__ import annotations

import datetime as dt
import json
import os

import sqlalchemy as sa
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


def test_demo_module_makes_the_demo_with_or_without_its_month(app):
    """answerdesk.demo is what tools outside the package call (the bare-anchor profile
    of issue 18 imports create_demo_event and passes month=True)."""
    from answerdesk.demo import create_demo_event

    with app.app_context():
        event, password = create_demo_event(month=False)
        db.session.commit()
        assert event.format == "bg" and password
        assert db.session.scalar(db.select(db.func.count(Event.id))) == 1
        create_demo_event(month=True)
        db.session.commit()
        assert db.session.scalar(db.select(db.func.count(Event.id))) == 5


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


def _empty_database_app(tmp_path):
    """An app on an empty database: a new SQLite file, or the test's PostgreSQL
    database emptied (``_restore`` gives the other tests their schema back)."""
    from answerdesk import create_app

    pg_url = os.environ.get("DATABASE_URL", "")
    on_postgres = pg_url.startswith("postgres")
    uri = _normalise_database_url(pg_url) if on_postgres else f"sqlite:///{tmp_path / 'm.sqlite'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "t",
                      "INSTANCE_PATH": str(tmp_path)})
    app.config["ON_POSTGRES"] = on_postgres
    with app.app_context():
        if on_postgres:
            _empty_schema()
    return app


def _empty_schema() -> None:
    with db.engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")


def _restore(app) -> None:
    """Leave the shared PostgreSQL database as the other tests expect it."""
    db.session.remove()
    if app.config["ON_POSTGRES"]:
        _empty_schema()
        db.create_all()
    db.engine.dispose()


def test_migrations_build_the_models_schema(tmp_path):
    """`flask db upgrade` on an empty database gives exactly the tables of models.py."""
    from flask_migrate import upgrade

    app = _empty_database_app(tmp_path)
    with app.app_context():
        upgrade()
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        _restore(app)
    assert diff == []


def test_the_clock_per_phone_migration_keeps_a_team_tokens_samples(tmp_path, monkeypatch):
    """Issue 15, OQ-4: upgrading to samples per phone keeps a team token's exchanges
    under its phone (``team:<id>``) and drops OpenQuiz teams' blends of several
    players' phones, which no phone's estimate may use."""
    from flask_migrate import upgrade

    from answerdesk.core.events import create_event
    from answerdesk.core.formats import get as get_format
    from answerdesk.core.teams import register_team

    app = _empty_database_app(tmp_path)
    # The OpenQuiz join rules read the game's newer columns; the old schema has none.
    monkeypatch.setattr(type(get_format("oq")), "before_join", lambda *args: None)
    with app.app_context():
        upgrade(revision="b5c2d8e7f1a4")
        teams = {fmt: register_team(create_event(f"{fmt} night", format=fmt)[0], "A")[0].id
                 for fmt in ("bg", "oq")}
        db.session.commit()
        for team_id in teams.values():
            db.session.execute(db.text(
                "INSERT INTO buzz_sample (team_id, client_send_ms, server_ms, "
                "client_receive_ms, created_at) VALUES (:t, 1, 2, 3, :at)"),
                {"t": team_id, "at": dt.datetime(2026, 12, 1)})
        db.session.commit()
        db.session.remove()
        upgrade()
        kept = db.session.execute(db.text("SELECT team_id, phone FROM buzz_sample")).all()
        _restore(app)
    assert [tuple(row) for row in kept] == [(teams["bg"], f"team:{teams['bg']}")]


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(db.engine).get_columns(table)}


def test_the_clock_per_phone_and_who_pressed_migrations_go_down_and_up(tmp_path):
    """Issue 15, OQ-4: 4e7b9c1d2a35 (who pressed) and f2a6c8d1e3b5 (samples per phone)
    go down to b5c2d8e7f1a4 keeping the rows in the old shape (a press without its
    phone, samples per team under the old index), and up again to the models' schema,
    a team token's samples under its phone again."""
    from flask_migrate import downgrade, upgrade

    from answerdesk.core.events import create_event
    from answerdesk.core.teams import register_team

    app = _empty_database_app(tmp_path)
    with app.app_context():
        try:
            upgrade()
            event = create_event("bg night", format="bg")[0]
            team_id = register_team(event, "A")[0].id
            question = Question(number=1, text="q", key={"accept": ["a"]})
            event.rounds[0].questions.append(question)
            db.session.commit()
            at = dt.datetime(2026, 12, 1)
            db.session.execute(db.text(
                "INSERT INTO buzz_sample (team_id, phone, client_send_ms, server_ms, "
                "client_receive_ms, created_at) VALUES (:t, :p, 1, 2, 3, :at)"),
                {"t": team_id, "p": f"team:{team_id}", "at": at})
            db.session.execute(db.text(
                "INSERT INTO buzz_press (question_id, attempt, team_id, phone, player, claimed_ms,"
                " received_ms, samples, created_at) VALUES (:q, 1, :t, :p, 'Вася', 5, 6, 0, :at)"),
                {"q": question.id, "t": team_id, "p": f"team:{team_id}", "at": at})
            db.session.commit()
            db.session.remove()

            downgrade(revision="f2a6c8d1e3b5")
            assert {"phone", "player"}.isdisjoint(_columns("buzz_press"))
            kept = db.session.execute(db.text(
                "SELECT team_id, claimed_ms, received_ms FROM buzz_press")).all()
            assert [tuple(r) for r in kept] == [(team_id, 5, 6)]
            db.session.remove()
            downgrade(revision="b5c2d8e7f1a4")
            assert "phone" not in _columns("buzz_sample")
            indexes = {i["name"]: i["column_names"]
                       for i in sa.inspect(db.engine).get_indexes("buzz_sample")}
            assert indexes.get("ix_buzz_sample_team_id_id") == ["team_id", "id"]
            assert "ix_buzz_sample_phone_id" not in indexes
            kept = db.session.execute(db.text(
                "SELECT team_id, client_send_ms, server_ms, client_receive_ms FROM buzz_sample")
            ).all()
            assert [tuple(r) for r in kept] == [(team_id, 1, 2, 3)]
            db.session.remove()

            upgrade()
            samples = db.session.execute(db.text("SELECT team_id, phone FROM buzz_sample")).all()
            pressed = db.session.execute(db.text("SELECT phone, player FROM buzz_press")).all()
            db.session.remove()
            with db.engine.connect() as conn:
                diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        finally:
            _restore(app)
    assert [tuple(r) for r in samples] == [(team_id, f"team:{team_id}")]
    assert [tuple(r) for r in pressed] == [(None, None)]  # who pressed was not kept down
    assert diff == []


def test_demo_line_carries_the_generated_organiser_password(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["demo", "--once"])
    data = json.loads(result.output)
    saved = (tmp_path / "organiser_password").read_text().strip()
    assert data["organiser_password"] == saved == app.config["ORGANISER_PASSWORD"]
    assert "organiser_password" not in json.loads((tmp_path / "demo.json").read_text())


def test_organiser_password_from_the_environment_is_not_echoed(db_uri, tmp_path, monkeypatch):
    from answerdesk import create_app

    monkeypatch.setenv("ORGANISER_PASSWORD", "from-env-123")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": db_uri,
                      "SECRET_KEY": "t", "INSTANCE_PATH": str(tmp_path)})
    assert app.config["ORGANISER_PASSWORD"] == "from-env-123"
    assert not (tmp_path / "organiser_password").exists()
    data = json.loads(app.test_cli_runner().invoke(args=["demo"]).output)
    assert "organiser_password" not in data


def test_new_event_prints_the_demo_line(app):
    result = app.test_cli_runner().invoke(args=[
        "new-event", "--name", "Пъб куиз 12 март", "--format", "bg", "--date", "2026-03-12",
        "--base-url", "http://venue:5000"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"code", "host_password", "team_url", "host_url", "screen_url"}
    assert data["host_url"] == f"http://venue:5000/host/{data['code']}/"
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == data["code"]))
        assert (event.name, event.date.isoformat(), event.format) == (
            "Пъб куиз 12 март", "2026-03-12", "bg")
        assert [r.number for r in event.rounds] == [1, 2, 3, 4, 5, 6]
    login = app.test_client().post(f"/host/{data['code']}/login",
                                   data={"password": data["host_password"]})
    assert login.status_code == 302


def test_new_event_imports_its_pack(app, tmp_path):
    pack = tmp_path / "night.yaml"
    pack.write_text('answerdesk_pack: 1\ntitle: "Night"\nrounds:\n  - number: 2\n'
                    '    questions:\n      - text: "Столицата на Австралия?"\n'
                    '        key: ["Канбера"]\n', encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["new-event", "--name", "Night", "--format",
                                                "bg", "--pack", str(pack)])
    assert result.exit_code == 0, result.output
    code = json.loads(result.output)["code"]
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.code == code))
        assert [(r.number, [q.key for q in r.questions]) for r in event.rounds] == [
            (2, [["Канбера"]])]


def test_new_event_refuses_bad_input_and_writes_nothing(app, tmp_path):
    bad_pack = tmp_path / "bad.yaml"
    bad_pack.write_text("answerdesk_pack: 1\ntitle: x\nrounds:\n  - number: 2\n"
                        "    questions:\n      - text: q\n        key: [a]\n"
                        "        colour: red\n", encoding="utf-8")
    runner = app.test_cli_runner()
    cases = [
        (["--name", " ", "--format", "bg"], "The event needs a name"),
        (["--name", "N", "--format", "whist"], "Unknown format 'whist'"),
        (["--name", "N", "--format", "bg", "--date", "12.03.2026"], "2026-03-14"),
        (["--name", "N", "--format", "bg", "--pack", str(bad_pack)], "line 8"),
    ]
    for args, words in cases:
        result = runner.invoke(args=["new-event", *args])
        assert result.exit_code != 0, args
        assert words in result.output, (args, result.output)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Event.id))) == 0
