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
