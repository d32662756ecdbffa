"""The bare anchor: the least an answer save can cost on Flask + SQLite (WAL), issue 18.

Copied unchanged but for this paragraph from the shared bare-anchor comparison
(`../shared/tools/bare-anchor/app.py`, beside its compare.sh), so that
`bench/harness.py load` can print the anchor's capacity beside answerdesk's
without the repository reading anything outside itself.

The logical work of answerdesk's save and nothing more, in one BEGIN IMMEDIATE
transaction: the team by its token (stored as SHA-256), the round's state, an
upsert of the answer and an audit row. GET /state is one small SELECT.

    python bare_anchor.py init DB TEAMS    schema, rounds (2 open), TEAMS teams; prints "id token"
    BARE_DB=DB gunicorn -k gthread -w 4 --threads 8 bare_anchor:app
"""
import datetime as dt
import hashlib
import json
import os
import secrets
import sqlite3
import sys
import threading

from flask import Flask, jsonify, request

DB, ROUND = os.environ.get("BARE_DB", "bare.sqlite"), 2
SCHEMA = """
CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE);
CREATE TABLE round (number INTEGER PRIMARY KEY, state TEXT NOT NULL);
CREATE TABLE answer (team_id INTEGER NOT NULL REFERENCES team, round INTEGER NOT NULL,
  question INTEGER NOT NULL, text TEXT NOT NULL, version INTEGER NOT NULL,
  updated_at TEXT NOT NULL, PRIMARY KEY (team_id, round, question));
CREATE TABLE audit (id INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL,
  action TEXT NOT NULL, subject TEXT NOT NULL, after TEXT);
"""
UPSERT = """INSERT INTO answer VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT DO UPDATE
  SET text = excluded.text, version = version + 1, updated_at = excluded.updated_at
  RETURNING version"""
AUDIT = "INSERT INTO audit (at, actor, action, subject, after) VALUES (?, ?, 'answer.save', ?, ?)"

app = Flask(__name__)
_local = threading.local()


def connection() -> sqlite3.Connection:
    """One connection per thread (gthread's threads live as long as their worker)."""
    if not hasattr(_local, "conn"):
        _local.conn = sqlite3.connect(DB, isolation_level=None)
        _local.conn.executescript("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                                  "PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON;")
    return _local.conn


@app.put("/save/<int:team>/<int:q>")
def save(team: int, q: int):
    token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    text = str((request.get_json(silent=True) or {}).get("text", ""))[:500]
    now = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
    c = connection()
    c.execute("BEGIN IMMEDIATE")
    try:
        found = c.execute("SELECT name FROM team WHERE id = ? AND token_hash = ?",
                          (team, hashlib.sha256(token.encode()).hexdigest())).fetchone()
        if found is None:
            return jsonify(error="unauthorized"), 401
        if c.execute("SELECT state FROM round WHERE number = ?", (ROUND,)).fetchone() != ("open",):
            return jsonify(error="round_locked"), 409
        [(version,)] = c.execute(UPSERT, (team, ROUND, q, text, now)).fetchall()
        c.execute(AUDIT, (now, f"team:{found[0]}", f"R{ROUND}Q{q} {found[0]}",
                          json.dumps({"text": text, "saved_at": now}, ensure_ascii=False)))
        c.execute("COMMIT")
        return jsonify(round=ROUND, question=q, text=text, version=version, saved_at=now)
    finally:
        if c.in_transaction:
            c.execute("ROLLBACK")


@app.get("/state")
def state():
    rows = connection().execute("SELECT number, state FROM round ORDER BY number").fetchall()
    return jsonify(rounds=[{"number": number, "state": state} for number, state in rows])


if __name__ == "__main__" and sys.argv[1:2] == ["init"]:
    db = sqlite3.connect(sys.argv[2], isolation_level=None)
    db.executescript("PRAGMA journal_mode=WAL;" + SCHEMA)
    db.executemany("INSERT INTO round VALUES (?, ?)", [(1, "locked"), (2, "open"), (3, "pending")])
    for i in range(1, int(sys.argv[3]) + 1):
        token = secrets.token_urlsafe(24)
        db.execute("INSERT INTO team VALUES (?, ?, ?)",
                   (i, f"Отбор {i}", hashlib.sha256(token.encode()).hexdigest()))
        print(i, token)
