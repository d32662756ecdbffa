"""The phone's sheet load in a bounded number of statements (issue 18): 300 phones
reload it when a round opens or locks, and each statement is a round trip on
PostgreSQL. A lazy load per round or question would make the count grow with the
evening, and fail here."""

from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy import event as sa_event

from answerdesk.extensions import db

# The BG sheet: the event and team by token, the rounds with their questions, the
# team's answers, the clock's marker, the final's gates, shoot-out, jokers,
# wildcard, the other teams.
MAX_STATEMENTS = 9


@contextmanager
def counted(app):
    """The SQL statements the database is sent inside the block."""
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa_event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        sa_event.remove(engine, "before_cursor_execute", count)


def test_sheet_load_issues_a_bounded_number_of_statements(app, desk) -> None:
    token = desk.join("Counted")
    desk.join("Others")
    assert desk.host(1, "open").status_code == 200
    with counted(app) as one_round:
        assert desk.sheet(token).status_code == 200
    assert len(one_round) <= MAX_STATEMENTS, one_round

    assert desk.save(token, 1, 1, "Париж").status_code == 200
    assert desk.save(token, 1, 2, "Вашингтон").status_code == 200
    for action in ("close", "reveal"):
        assert desk.host(1, action).status_code == 200
    assert desk.host(2, "open").status_code == 200
    with counted(app) as two_rounds:
        sheet = desk.sheet(token)
    assert sheet.status_code == 200
    body = sheet.get_json()
    assert [r["number"] for r in body["rounds"]] == [1, 2]
    assert body["rounds"][0]["questions"][0]["answer"]["text"] == "Париж"
    assert body["play"]["teams"] == ["Others"]
    # More visible rounds, answers and verdicts: not one statement more.
    assert len(two_rounds) == len(one_round), two_rounds
