"""The lean path: Core statements run on a raw DBAPI connection (issue 18).

A phone saves every second and polls the round states every 3 s. Through the
Session and Core's execution machinery the save's statements cost more CPU than
SQLite took to run them (issue 18: the team lookup 64 µs through Core, 6 µs
raw; opening and committing a Session 155-192 µs, raw 9 µs). So the
phone's save and state poll run the same Core statements (defined once, in
answers.py, teams.py, sheets.py), compiled once per dialect by SQLAlchemy's own
compiler with its own type processors, on a connection taken from the engine's
pool; the transaction begins as the engine's own do (database.sqlite.begin_raw: BEGIN
IMMEDIATE behind the writer queue on SQLite; PostgreSQL's advisory queue lock
is taken by the statements themselves). Host pages and services keep the ORM.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from operator import itemgetter
from typing import Any

from sqlalchemy.engine import Dialect, Engine

from .database.sqlite import begin_raw


class Prepared:
    """One Core statement compiled for one dialect: SQL text, the order of its
    parameters with their bind processors, and its result columns' processors.
    Statements whose SQL depends on the values (``in_`` lists) are not for here."""

    def __init__(self, statement: Any, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        if any(bind.expanding for bind in compiled.binds.values()):
            raise ValueError("a statement with expanding parameters has no one SQL text")
        self.sql = compiled.string
        processors = compiled._bind_processors
        keys, fixed = {}, {}
        for bind, name in compiled.bind_names.items():
            keys[name] = bind.key
            if not bind.required:  # a literal of the statement (e.g. joker.kind = 'copy')
                fixed[bind.key] = bind.effective_value
        names = list(compiled.positiontup) if dialect.positional else list(keys)
        self.names = names
        self.fixed = fixed
        self.get = itemgetter(*[keys[name] for name in names]) if names else None
        self.single = len(names) == 1
        self.processors = [(i, processors[name]) for i, name in enumerate(names)
                           if name in processors]
        self.positional = dialect.positional
        columns = compiled._result_columns
        self.row = namedtuple("Row", [c[0] for c in columns]) if columns else None
        self.results = [
            (i, p) for i, c in enumerate(columns)
            if (p := c[3]._cached_result_processor(dialect, None)) is not None
        ]

    def parameters(self, params: dict[str, Any]) -> Any:
        """The DBAPI's parameters: the statement's literals, then ``params`` (a missing
        one is a KeyError), through SQLAlchemy's bind processors of their types."""
        if self.get is None:
            return ()
        got = self.get({**self.fixed, **params} if self.fixed else params)
        values = [got] if self.single else list(got)
        for i, process in self.processors:
            values[i] = process(values[i])
        return values if self.positional else dict(zip(self.names, values, strict=True))

    def make_row(self, raw: Any) -> Any:
        if self.results:
            raw = list(raw)
            for i, process in self.results:
                raw[i] = process(raw[i])
        return self.row._make(raw)  # type: ignore[union-attr]


class RawExecutor:
    """Runs Core statements on one DBAPI connection, in its transaction."""

    def __init__(self, dbapi_conn: Any, dialect: Dialect,
                 session: Any = None, begin: Callable[[], None] | None = None) -> None:
        self.dbapi_conn = dbapi_conn
        self.dialect = dialect
        self.session = session  # the Session whose transaction this is, if any
        self.cursor = dbapi_conn.cursor()
        self.committed = False
        self._begin = begin

    def begin(self) -> None:
        """Begin the write transaction that raw_transaction(deferred=True) left to the
        caller; in any other transaction this does nothing."""
        begin, self._begin = self._begin, None
        if begin is not None:
            begin()

    def _run(self, statement: Any, params: dict[str, Any]) -> Prepared:
        prepared = _prepared(statement, self.dialect)
        self.cursor.execute(prepared.sql, prepared.parameters(params))
        return prepared

    def first(self, statement: Any, params: dict[str, Any]) -> Any:
        prepared = self._run(statement, params)
        raw = self.cursor.fetchone()
        return None if raw is None else prepared.make_row(raw)

    def all(self, statement: Any, params: dict[str, Any]) -> list[Any]:
        prepared = self._run(statement, params)
        return [prepared.make_row(raw) for raw in self.cursor.fetchall()]

    def rowcount(self, statement: Any, params: dict[str, Any]) -> int:
        self._run(statement, params)
        return self.cursor.rowcount

    def commit(self) -> None:
        """End the transaction, keeping its work; the executor is done with."""
        self.cursor.close()
        if self.session is not None:
            self.session.commit()
        else:
            self.dialect.do_commit(self.dbapi_conn)  # releases SQLite's writer queue
        self.committed = True

    def rollback(self) -> None:
        """End the transaction, dropping its work; the executor is done with."""
        self.cursor.close()
        if self.session is not None:
            self.session.rollback()
        else:
            self.dialect.do_rollback(self.dbapi_conn)


# (id of statement, id of dialect) -> (statement, dialect, Prepared): holding both keeps
# their ids from being reused while the entry lives. Statements are module constants;
# a dialect is one per engine.
_PREPARED: dict[tuple[int, int], tuple[Any, Dialect, Prepared]] = {}


def _prepared(statement: Any, dialect: Dialect) -> Prepared:
    found = _PREPARED.get((id(statement), id(dialect)))
    if found is None:
        found = _PREPARED[id(statement), id(dialect)] = (
            statement, dialect, Prepared(statement, dialect))
    return found[2]


def session_executor(session: Any) -> RawExecutor:
    """The same statements inside the Session's transaction (services, host pages):
    they run on its connection, and commit and roll back through it."""
    conn = session.connection()
    return RawExecutor(conn.connection.dbapi_connection, conn.dialect, session)


def session_busy(session: Any) -> bool:
    """The thread's Session has a transaction under way (not created just to ask): a
    raw connection of the same thread would not see its work, and on SQLite would
    wait for its write lock."""
    return session.registry.has() and session().in_transaction()


@contextmanager
def write_transaction(session: Any, engine: Engine, *,
                      deferred: bool = False) -> Iterator[RawExecutor]:
    """raw_transaction, unless this thread's Session already has a transaction under
    way (a caller that keeps an app context open around requests: a test, a script):
    then that one, as a service would. A second connection of the same thread would
    wait for the first one's write lock on SQLite."""
    if not session_busy(session):
        with raw_transaction(engine, deferred=deferred) as executor:
            yield executor
        return
    executor = session_executor(session)
    try:
        yield executor
    finally:
        if not executor.committed:
            executor.rollback()


@contextmanager
def raw_transaction(engine: Engine, *, deferred: bool = False) -> Iterator[RawExecutor]:
    """A write transaction on a pooled raw connection; what is not committed by the
    end of the block is rolled back, and the connection goes back to the pool.

    ``deferred``: the caller begins it (``executor.begin()``) once it has read what
    needs no lock. On SQLite those reads run on their own, before BEGIN IMMEDIATE
    takes the one writer: the time each save holds the writer bounds the saves per
    second of the whole desk (issue 18). On PostgreSQL the driver begins the
    transaction with the first statement anyway."""
    fairy = engine.raw_connection()
    try:
        executor = RawExecutor(fairy.dbapi_connection, engine.dialect,
                               begin=partial(begin_raw, engine, fairy.dbapi_connection,
                                             fairy.info))
        if not deferred:
            executor.begin()
        try:
            yield executor
        finally:
            if not executor.committed:
                executor.rollback()
    finally:
        fairy.close()


@contextmanager
def read_statements(session: Any, engine: Engine) -> Iterator[RawExecutor]:
    """raw_reads, unless this thread's Session has a transaction under way (see
    write_transaction): then its connection, which sees what it has not committed."""
    if not session_busy(session):
        with raw_reads(engine) as executor:
            yield executor
        return
    executor = session_executor(session)
    try:
        yield executor
    finally:
        executor.cursor.close()


@contextmanager
def raw_reads(engine: Engine) -> Iterator[RawExecutor]:
    """Statements each on its own (autocommit), on a pooled raw connection: no BEGIN,
    no ROLLBACK round trips for a polled read (phones poll the state every 3 s), nor
    for the optimistic save's read and its one-statement write (core/answer_optimistic.py). On
    SQLite the connection begins only when told to."""
    fairy = engine.raw_connection()
    dbapi_conn: Any = fairy.dbapi_connection  # the driver's own (psycopg's autocommit)
    autocommit = engine.dialect.name == "postgresql"
    try:
        if autocommit:
            dbapi_conn.autocommit = True
        executor = RawExecutor(dbapi_conn, engine.dialect)
        try:
            yield executor
        finally:
            executor.cursor.close()
    finally:
        if autocommit:
            dbapi_conn.autocommit = False
        fairy.close()
