"""The bare anchor on PostgreSQL: the least an answer save can cost on Flask + PostgreSQL.

bench/bare_anchor.py's work (issue 18: the team by its token, the round's state, an
upsert of the answer and an audit row, in one transaction) on PostgreSQL, done as
cheaply as PostgreSQL allows: ONE round trip, a call of a PL/pgSQL function in
autocommit, which finds the team, takes the round's lock shared (a host's close
would take it exclusively), reads the round's state after the lock, upserts and
audits, and commits. GET /state is one small SELECT. It answers what a database
server on the same machine costs by itself: answerdesk's save on PostgreSQL takes
2 round trips (core/answers.py), this one 1, and the SQLite anchor none.

Its tables live in a schema of their own, made by ``init`` (all of it or nothing) and
dropped by ``drop``:

    python bare_anchor_pg.py init URL SCHEMA TEAMS   schema, rounds (2 open), TEAMS teams;
                                                     prints "id token"
    BARE_DB=URL BARE_SCHEMA=SCHEMA gunicorn -k gthread -w 4 --threads 8 bare_anchor_pg:app
    python bare_anchor_pg.py drop URL SCHEMA
"""
import datetime as dt
import hashlib
import json
import os
import secrets
import sys
import threading

import psycopg
from flask import Flask, jsonify, request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bare_anchor  # noqa: E402

ROUND = bare_anchor.ROUND
# The SQLite anchor's tables, but for the audit row's id, which PostgreSQL numbers by SERIAL.
_SQLITE_AUDIT = "CREATE TABLE audit (id INTEGER PRIMARY KEY,"
assert _SQLITE_AUDIT in bare_anchor.SCHEMA
_AUDIT = "CREATE TABLE audit (id SERIAL PRIMARY KEY,"
SCHEMA = bare_anchor.SCHEMA.replace(_SQLITE_AUDIT, _AUDIT) + """
CREATE FUNCTION save(p_team integer, p_hash text, p_round integer, p_question integer,
                     p_text text, p_now text, p_after text) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_name text;
    v_version integer;
BEGIN
    SELECT name INTO v_name FROM team WHERE id = p_team AND token_hash = p_hash;
    IF NOT FOUND THEN
        RETURN -1;
    END IF;
    PERFORM pg_advisory_xact_lock_shared(p_round);
    IF NOT EXISTS (SELECT 1 FROM round WHERE number = p_round AND state = 'open') THEN
        RETURN 0;
    END IF;
    INSERT INTO answer VALUES (p_team, p_round, p_question, p_text, 1, p_now)
        ON CONFLICT (team_id, round, question) DO UPDATE
        SET text = excluded.text, version = answer.version + 1,
            updated_at = excluded.updated_at
        RETURNING version INTO v_version;
    INSERT INTO audit (at, actor, action, subject, after)
        VALUES (p_now, 'team:' || v_name, 'answer.save',
                'R' || p_round || 'Q' || p_question || ' ' || v_name, p_after);
    RETURN v_version;
END
$$;
"""
SAVE = "SELECT save(%s, %s, %s, %s, %s, %s, %s)"

app = Flask(__name__)
_local = threading.local()


def connect(url: str, schema: str) -> psycopg.Connection:
    """A connection in autocommit whose tables are the anchor's schema's."""
    return psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"),
                           autocommit=True, options=f"-c search_path={schema}")


def connection() -> psycopg.Connection:
    """One connection per thread (gthread's threads live as long as their worker)."""
    if not hasattr(_local, "conn"):
        _local.conn = connect(os.environ["BARE_DB"], os.environ["BARE_SCHEMA"])
    return _local.conn


@app.put("/save/<int:team>/<int:q>")
def save(team: int, q: int):
    token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    text = str((request.get_json(silent=True) or {}).get("text", ""))[:500]
    now = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
    after = json.dumps({"text": text, "saved_at": now}, ensure_ascii=False)
    [version] = connection().execute(
        SAVE, (team, hashlib.sha256(token.encode()).hexdigest(), ROUND, q, text, now, after)
    ).fetchone()
    if version < 0:
        return jsonify(error="unauthorized"), 401
    if version == 0:
        return jsonify(error="round_locked"), 409
    return jsonify(round=ROUND, question=q, text=text, version=version, saved_at=now)


@app.get("/state")
def state():
    rows = connection().execute("SELECT number, state FROM round ORDER BY number").fetchall()
    return jsonify(rounds=[{"number": number, "state": state} for number, state in rows])


if __name__ == "__main__" and sys.argv[1:2] == ["init"]:
    url, schema, teams = sys.argv[2], sys.argv[3], int(sys.argv[4])
    with connect(url, schema) as db, db.transaction():  # all of it, or nothing left behind
        db.execute(f'CREATE SCHEMA "{schema}"')
        db.execute(SCHEMA)
        with db.cursor() as cur:
            cur.executemany("INSERT INTO round VALUES (%s, %s)",
                            [(1, "locked"), (2, "open"), (3, "pending")])
        for i in range(1, teams + 1):
            token = secrets.token_urlsafe(24)
            db.execute("INSERT INTO team VALUES (%s, %s, %s)",
                       (i, f"Отбор {i}", hashlib.sha256(token.encode()).hexdigest()))
            print(i, token)
elif __name__ == "__main__" and sys.argv[1:2] == ["drop"]:
    with connect(sys.argv[2], sys.argv[3]) as db:
        db.execute(f'DROP SCHEMA IF EXISTS "{sys.argv[3]}" CASCADE')
