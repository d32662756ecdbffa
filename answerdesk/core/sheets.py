"""What a team's phone sees: its own answers, and the key only after reveal (BG-G3)."""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from flask import current_app
from sqlalchemy.orm.attributes import set_committed_value

from .. import live
from ..database.readonly import read_only
from ..extensions import db
from ..lean import read_statements, session_busy
from ..models import Answer, Event, Question, QuestionGate, Round, Team, Verdict, utcnow
from . import clock, formats, teams
from .answer_write import receipted, saved
from .events import event_by_code
from .recent import recent_states
from .sheet_parts import (
    BuiltSheet,
    EventQuestion,
    EventRound,
    EventSheet,
    Sheet,
    SheetQuestion,
    SheetRound,
)
from .states import RoundState

VISIBLE_STATES = ("open", "locked", "revealed")


def round_states(event: Event) -> list[dict[str, Any]]:
    """The tiny payload phones poll to notice an opened or locked round."""
    rows = db.session.execute(
        db.select(Round.number, Round.state)
        .where(Round.event_id == event.id)
        .order_by(Round.number)
    )
    return [{"number": n, "state": s} for n, s in rows]


def public_state(event: Event, now: dt.datetime | None = None) -> dict[str, Any]:
    """GET /api/events/<code>/state through the ORM: the round states, the question
    clock's marker, the screen version (read first: a phone fetches what it labels,
    static/widgets.js) and the format's own public state. What state_by_code serves
    must be exactly this (tests/test_lean.py)."""
    version = live.screen_version(event.id)
    return {"rounds": round_states(event), "question": clock.marker(event, now),
            "version": version, **formats.of(event).public_state(event)}


_event, _round, _question, _gate = (Event.__table__, Round.__table__, Question.__table__,
                                    QuestionGate.__table__)
_marker_round = _round.alias("marker_round")
# clock.marker's gate: the event's latest started on the clock (the highest id, as
# clock._latest orders them). Not correlated: SQLite runs it once, not once per round.
_gates, _gates_question, _gates_round = (_gate.alias("gates"), _question.alias("gates_question"),
                                         _round.alias("gates_round"))
_LATEST_GATE = (
    db.select(db.func.max(_gates.c.id))
    .join_from(_gates, _gates_question, _gates_question.c.id == _gates.c.question_id)
    .join(_gates_round, _gates_round.c.id == _gates_question.c.round_id)
    .where(_gates_round.c.event_id == db.select(_event.c.id).where(
        _event.c.code == db.bindparam("code")).correlate(None).scalar_subquery(),
        _gates.c.locks_at.is_not(None))
    .correlate(None)
    .scalar_subquery()
)
# The event's screen version (live.screen_version), not correlated: read once.
_VERSION = live.screen_version_columns(
    db.select(_event.c.id).where(_event.c.code == db.bindparam("code"))
    .correlate(None).scalar_subquery())
# The whole state poll of a format without a public state in ONE read: the event, its
# rounds' states (one row each; one row of NULLs without rounds) and, on every row,
# the marker's gate and the screen version. Its gate columns are called ``state`` and
# ``locks_at`` as the gate's own, so that clock.is_running reads a row as it reads a
# QuestionGate.
_STATE = (
    db.select(_event.c.id.label("event_id"), _event.c.format, _round.c.number,
              _round.c.state.label("round_state"), _marker_round.c.number.label("marker_round"),
              _question.c.number.label("marker_question"), _gate.c.state, _gate.c.locks_at,
              _VERSION[0].label("v_audit"), _VERSION[1].label("v_recent"),
              _VERSION[2].label("v_screen"))
    .select_from(
        _event.outerjoin(_round, _round.c.event_id == _event.c.id)
        .outerjoin(_gate, _gate.c.id == _LATEST_GATE)
        .outerjoin(_question, _question.c.id == _gate.c.question_id)
        .outerjoin(_marker_round, _marker_round.c.id == _question.c.round_id)
    )
    .where(_event.c.code == db.bindparam("code"))
    .order_by(_round.c.number)
)


def _read_state(code: str) -> list[Any]:
    with read_statements(db.session, db.engine) as ex:
        return ex.all(_STATE, {"code": code})


def _keepable(rows: list[Any]) -> bool:
    """Rows worth keeping for the next polls (recent.py): an event's, read from the
    database as committed (not inside a Session's transaction, which may yet roll
    back), of a format whose whole public state they are (Своя игра and OpenQuiz
    read theirs on every poll, and their rounds must agree with it)."""
    return (bool(rows) and not session_busy(db.session)
            and type(formats.get(rows[0].format)).public_state is formats.Format.public_state)


def state_by_code(code: str, now: dt.datetime | None = None) -> dict[str, Any]:
    """public_state of the event ``code`` (NotFound if none), as phones poll it."""
    state = _state_by_code(code, now, plain_only=False)
    assert state is not None  # only plain_only answers None
    return state


def plain_state_by_code(code: str) -> dict[str, Any] | None:
    """state_by_code, or None for a format with a public state of its own (Своя игра,
    OpenQuiz: their state reads the Event, and may settle a timer): lean_routes.py
    hands those to Flask's view."""
    return _state_by_code(code, None, plain_only=True)


def _state_by_code(code: str, now: dt.datetime | None, *,
                   plain_only: bool) -> dict[str, Any] | None:
    """public_state of the event ``code`` (NotFound if none), read as phones poll it
    every 3 s: one prebuilt statement on a raw connection in autocommit (lean.py), no
    Event object, its rows kept a moment for the next polls (recent.py). Only a format
    with a public state of its own (Своя игра, OpenQuiz) loads the Event for it, in a
    read-only transaction (``plain_only``: None instead, the lean route hands it over)."""
    code = code.strip().upper()
    kept = recent_states(current_app)
    if plain_only and kept.has_own_state(code):
        return None
    rows = kept.rows(code, partial(_read_state, code), _keepable)
    if not rows:  # no such event: the ORM path's refusal
        with read_only():
            return public_state(event_by_code(code), now)
    first = rows[0]
    marker = None
    if first.marker_round is not None:
        running = clock.is_running(first, now or utcnow())
        marker = {"round": first.marker_round, "question": first.marker_question,
                  "state": "open" if running else "locked"}
    state = {"rounds": [{"number": r.number, "state": r.round_state}
                        for r in rows if r.number is not None],
             "question": marker,
             "version": live.token(first.v_audit, first.v_recent, first.v_screen)}
    fmt = formats.get(first.format)
    if type(fmt).public_state is not formats.Format.public_state:
        if plain_only:
            kept.note_own_state(code)
            return None
        with read_only():
            state.update(fmt.public_state(db.session.get_one(Event, first.event_id)))
    return state


# Prebuilt (bound per call): building an ORM select costs more than running it here.
_ROUNDS_WITH_QUESTIONS = (
    db.select(Round, Question)
    .outerjoin(Question, Question.round_id == Round.id)
    .where(Round.event_id == db.bindparam("event_id"))
    .order_by(Round.number, Question.number)
)
_TEAM_ANSWERS = (
    db.select(Answer, Verdict, Round.number, Question.number)
    .join(Question, Answer.question_id == Question.id)
    .join(Round, Question.round_id == Round.id)
    .outerjoin(Verdict, Verdict.answer_id == Answer.id)
    .where(Answer.team_id == db.bindparam("team_id"))
)


def _load_rounds(event: Event) -> None:
    """Fill ``event.rounds`` and each round's ``questions`` (in their relationships'
    order) from one joined SELECT: a selectinload took three statements (the event
    again, its rounds, their questions) and most of the sheet's ORM time."""
    by_round: dict[int, tuple[Round, list[Question]]] = {}
    for rnd, question in db.session.execute(_ROUNDS_WITH_QUESTIONS, {"event_id": event.id}):
        questions = by_round.setdefault(rnd.id, (rnd, []))[1]
        if question is not None:
            questions.append(question)
            set_committed_value(question, "round", rnd)
    for rnd, questions in by_round.values():
        set_committed_value(rnd, "questions", questions)
    set_committed_value(event, "rounds", [rnd for rnd, _ in by_round.values()])


def team_sheet(event: Event, team: Team) -> Sheet:
    """Every visible round with its questions and this team's saved answers.

    Every phone reads it again every 10 s while a round is open (static/sheet.js), at
    a 300-team night 75 times a second at 8-9 ms of CPU each, more than all the saves
    (bench/README.md): a format whose sheet allows it (Format.keeps_sheet) serves the
    one it built while the event's screen version (every audited change but a phone
    save) and the team's own answers and verdicts stand; ``now`` and the clock's
    ``question`` are filled in fresh every time. Both are read before the sheet is
    built, so a kept sheet is never older than what it is kept under.
    """
    now = utcnow()
    fmt = formats.of(event)
    version = live.screen_version(event.id)  # what the sheet shows is at least this new
    keeps = type(fmt).keeps_sheet is not formats.Format.keeps_sheet
    kept, key, under = None, (event.id, team.id), None
    if keeps:
        under = (version,
                 tuple(db.session.execute(_TEAM_SIGNATURE, {"team_id": team.id}).one()))
        kept = _kept_sheets(current_app)
        hit = kept.get(key)
        if hit is not None and hit[0] == under:
            return {**hit[1], "now": clock.stamp(now), "question": clock.marker(event, now),
                    "version": version}
    sheet = _built_sheet(event, team, version, keeps)
    if kept is not None and fmt.keeps_sheet(sheet):
        if len(kept) >= KEPT_LIMIT:
            kept.clear()
        kept[key] = (under, sheet)
    return {**sheet, "now": clock.stamp(now), "question": clock.marker(event, now),
            "version": version}


#: Teams' sheets a process keeps at most (two full events of MAX_TEAMS_PER_EVENT, 300:
#: each sheet lists the other teams); past it all are dropped.
KEPT_LIMIT = 600

# What moves when the team's answers or their verdicts do: a saved change raises the
# answer's version (answers.py's guard), a check or a decision stamps the verdict.
_TEAM_SIGNATURE = (
    db.select(db.func.count(Answer.id), db.func.sum(Answer.version),
              db.func.max(Answer.updated_at), db.func.count(Verdict.id),
              db.func.max(Verdict.checked_at), db.func.max(Verdict.decided_at),
              db.func.count(Verdict.decision))
    .select_from(Answer).outerjoin(Verdict, Verdict.answer_id == Answer.id)
    .where(Answer.team_id == db.bindparam("team_id"))
)


#: How far before the phone's last read a delta reaches back: a save stamped before
#: that read may commit after it (a save holds its transaction for milliseconds; a
#: loaded server for a second or two). Answers sent twice change nothing on a phone.
DELTA_OVERLAP = dt.timedelta(seconds=10)

# The team's answers changed since a moment, with their question and round; and, in
# a round that is not open, answers whose verdict moved since (a phone shows verdicts
# there only). Plain columns, read on a lean executor (lean.py).
_CHANGED = (
    db.select(Answer.question_id, Answer.text, Answer.fields, Answer.source, Answer.version,
              Answer.updated_at, Question.number.label("question"),
              Round.number.label("round"), Round.state, Round.kind, Round.check_mode)
    .join(Question, Answer.question_id == Question.id)
    .join(Round, Question.round_id == Round.id)
    .outerjoin(Verdict, Verdict.answer_id == Answer.id)
    .where(Answer.team_id == db.bindparam("team_id"),
           db.or_(Answer.updated_at > db.bindparam("since"),
                  db.and_(Round.state != RoundState.OPEN,
                          db.or_(Verdict.checked_at > db.bindparam("since"),
                                 Verdict.decided_at > db.bindparam("since")))))
)


def changes_by_token(code: str, token: str | None, since: str | None,
                     version: str | None) -> dict[str, Any] | None:
    """What a phone that holds the team's sheet reads every 10 s while a round is open
    (static/sheet.js): the answers the team's phones changed since ``since`` (the
    ``now`` of the phone's last read), when the sheet it holds was read under the
    event's current screen version ``version`` and the format builds each changed
    answer's round from the event alone (Format.sheet_delta, given the row's round
    columns). None: the whole sheet is due (team_sheet; a wrong token is refused
    there). Three statements on a lean executor, no ORM: at a 300-team night with
    every phone typing, most whole sheets read were out of date and built again, 5 KB
    and 4-5 ms of CPU each (bench/README.md)."""
    start = _moment(since)
    if start is None or not version or not token:
        return None
    now = utcnow()
    with read_statements(db.session, db.engine) as ex:
        team = teams.team_ref(ex, code, teams.hash_token(token))
        if team is None:
            return None
        fmt = formats.get(team.format)
        if type(fmt).sheet_delta is formats.Format.sheet_delta:
            return None
        if live.screen_version_on(ex, team.event_id) != version:
            return None
        rows = ex.all(_CHANGED, {"team_id": team.id, "since": start - DELTA_OVERLAP})
    if any(row.state != RoundState.OPEN or not fmt.sheet_delta(row) for row in rows):
        return None
    return {"delta": True, "version": version, "now": clock.stamp(now),
            "answers": [receipted(team.id, row.question_id, row.round, row.question,
                                  row.text, row.fields, row.source, row.version,
                                  row.updated_at).to_json() for row in rows]}


def _moment(stamp: str | None) -> dt.datetime | None:
    """A ``now`` as clock.stamp wrote it, or None (a phone without one reads whole)."""
    if not stamp or not stamp.endswith("Z"):
        return None
    try:
        return dt.datetime.fromisoformat(stamp[:-1])
    except ValueError:
        return None


def _kept_sheets(app: Any) -> dict[tuple[int, int], tuple[Any, BuiltSheet]]:
    """The app's kept sheets (one dict per app: tests run many apps, whose ids repeat)."""
    return app.extensions.setdefault("answerdesk.kept_sheets", {})


def _built_sheet(event: Event, team: Team, version: str, keeps: bool) -> BuiltSheet:
    """The sheet without ``now`` and ``question`` (team_sheet adds them): the event's
    part (event_sheet) with this team's answers, and their verdicts in a revealed
    round, then what the format adds for the team (Format.decorate_sheet). ``version``,
    read before it, is in it for the format's part (BG's play part is kept under it).
    """
    answers = {(rnd, number): (answer, verdict) for answer, verdict, rnd, number
               in db.session.execute(_TEAM_ANSWERS, {"team_id": team.id})}
    shared = event_sheet(event, version, keeps)
    rounds: list[SheetRound] = []
    for item in shared["rounds"]:
        revealed = item["state"] == RoundState.REVEALED
        questions: list[SheetQuestion] = []
        for q in item["questions"]:
            answer, verdict = answers.get((item["number"], q["number"]), (None, None))
            mine: SheetQuestion = {**q, "answer": saved(answer, item["number"], q["number"])
                                   .to_json() if answer else None}
            if revealed:
                mine["verdict"] = verdict.final if verdict else None
            questions.append(mine)
        rounds.append({**item, "questions": questions})
    return formats.of(event).decorate_sheet({
        **shared, "team": {"name": team.name, "players": team.players},
        "version": version, "rounds": rounds,
    }, event, team)


def event_sheet(event: Event, version: str, keeps: bool) -> EventSheet:
    """What every team's sheet shows of the event alone: the visible rounds with their
    questions (and answers once revealed), with the format's event part
    (Format.decorate_event_sheet). A format that keeps sheets (``keeps``) keeps this
    one per event and screen version in the process too: 900 phones arriving at a
    300-team night each built it again, a third of a cold sheet's CPU (bench/README.md,
    "Fewer and lighter phone requests"). Never changed by its readers.

    The event's rounds and their questions load once, in one statement
    (_load_rounds): every phone reloads its sheet when a round opens or locks, so
    each statement more costs 300 phones a round trip each (bench/harness.py load,
    ramp-up; tests/formats/bg/test_bg_sheet_statements.py counts them).
    """
    kept = current_app.extensions.setdefault("answerdesk.event_sheets", {})
    hit = kept.get(event.id) if keeps else None
    if hit is not None and hit[0] == version:
        shared: EventSheet = hit[1]
        return shared
    _load_rounds(event)
    rounds = [r for r in event.rounds if r.state in VISIBLE_STATES]
    sheet = formats.of(event).decorate_event_sheet({
        "event": {"code": event.code, "name": event.name},
        "states": [{"number": r.number, "state": r.state} for r in event.rounds],
        "rounds": [_round_json(r, r.questions) for r in rounds],
    }, event)
    if keeps:
        if len(kept) >= KEPT_LIMIT:
            kept.clear()
        kept[event.id] = (version, sheet)
    return sheet


def _round_json(rnd: Round, questions: list[Question]) -> EventRound:
    revealed = rnd.state == RoundState.REVEALED
    items: list[EventQuestion] = []
    for q in questions:
        item: EventQuestion = {"number": q.number, "text": q.text}
        if revealed:
            item["correct_answer"] = q.shown_answer
        items.append(item)
    return {
        "number": rnd.number,
        "name": rnd.name,
        "kind": rnd.kind,
        "points": rnd.points,
        "state": rnd.state,
        "questions": items,
    }
