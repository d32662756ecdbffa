"""Transactions: read-only blocks never hold the writer and never lose pending work."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError

from answerdesk.database import read_only
from answerdesk.extensions import db
from answerdesk.models import Event


def test_read_only_block_reads(app, demo):
    with app.app_context():
        with read_only():
            assert db.session.scalar(db.select(db.func.count(Event.id))) == 1
        assert not db.session().in_transaction()  # ended on the way out


def test_write_inside_read_only_block_fails_loudly_on_sqlite(app, demo):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("PRAGMA query_only is SQLite's")
        with pytest.raises(OperationalError, match="readonly"), read_only():
            db.session.scalar(db.select(Event).limit(1)).name = "x"
            db.session.flush()
        db.session.rollback()
        assert db.session.scalar(db.select(Event.name).limit(1)) != "x"


def test_read_only_inside_a_transaction_keeps_its_pending_work(app, demo):
    with app.app_context():
        event = db.session.scalar(db.select(Event).limit(1))
        event.name = "Renamed"
        with read_only():
            assert db.session.scalar(db.select(Event.name).limit(1)) == "Renamed"
        db.session.commit()
        assert db.session.scalar(db.select(Event.name).limit(1)) == "Renamed"


def test_read_write_inside_a_read_only_block_writes(app, demo):
    """Issue 6: the review queue's live check writes verdicts from a read-only view."""
    from answerdesk.database import read_write

    with app.app_context():
        with read_only():
            event = db.session.scalar(db.select(Event).limit(1))
            with read_write():
                event.name = "Written"
                db.session.commit()
            assert db.session.scalar(db.select(Event.name).limit(1)) == "Written"
        assert not db.session().in_transaction()


def test_one_pooled_connection_per_server_thread(monkeypatch, tmp_path):
    """Issue 6: SQLAlchemy's default pool of 5 made 11 of gunicorn's 16 threads open
    and close a connection on every request."""
    from answerdesk.config import load_config

    monkeypatch.setenv("DATABASE_POOL_SIZE", "24")
    options = load_config(str(tmp_path), {"SQLALCHEMY_DATABASE_URI": "postgresql://x@h/db",
                                          "SECRET_KEY": "k"})["SQLALCHEMY_ENGINE_OPTIONS"]
    assert options["pool_size"] == 24 and options["max_overflow"] >= 8
    memory = load_config(str(tmp_path), {"SQLALCHEMY_DATABASE_URI": "sqlite://",
                                         "SECRET_KEY": "k"})["SQLALCHEMY_ENGINE_OPTIONS"]
    assert "pool_size" not in memory  # SQLite in memory has a single-connection pool
