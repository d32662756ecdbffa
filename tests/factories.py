"""Builders the tests share: events, teams, rounds and answers of any format (and a
neutral format, ``PlainQuiz``, for core's tests), and the JSON API as a phone or the
host calls it (``Desk``).

The builders call core's services, so they run inside an app context and commit as
the services do; the format is any registered one (``plain`` registers PlainQuiz for
a test and takes it out again).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from answerdesk.core import answers, corrections, formats, limits, rounds, teams
from answerdesk.core.events import create_event
from answerdesk.core.formats import Format, RoundTemplate, Standing
from answerdesk.core.states import Outcome
from answerdesk.extensions import db
from answerdesk.models import Answer, Event, Question, Round, Team, Verdict

#: The database the suite runs on (conftest.py builds it); tests import these from
#: here, since a bare `from conftest import` may find tests/packs/conftest.py first.
PG_URL = os.environ.get("DATABASE_URL", "")
#: The repository's root (where wsgi.py and gunicorn.conf.py are).
ROOT = Path(__file__).resolve().parent.parent
ON_POSTGRES = PG_URL.startswith(("postgres://", "postgresql"))


#: The neutral format's name: a game core's tests play, with no rules of its own.
PLAIN = "plain"
#: Its kind of round whose questions open one at a time (Format.one_at_a_time).
GATED = "gated"
PLAIN_PROGRAMME = (
    RoundTemplate(1, "Written", "written", 1, "typo3"),
    RoundTemplate(2, "More written", "written", 2, "typo3", partial_points=1),
    RoundTemplate(3, "Numbers", "written", 1, "number"),
    RoundTemplate(4, "One by one", GATED, 1, "typo3"),
)


class PlainQuiz(Format):
    """A game that adds nothing to core: four rounds of written answers (the second
    with partial points, the third checked as numbers, the fourth opened question by
    question), every hook at its default but ``one_at_a_time`` and ``standings``."""

    name = PLAIN
    label = "Plain quiz"

    def programme(self) -> tuple[RoundTemplate, ...]:
        return PLAIN_PROGRAMME

    def one_at_a_time(self, rnd: Any) -> bool:
        return rnd.kind == GATED

    def standings(self, event: Any) -> list[Standing]:
        """The plainest scoring over what core keeps: a correct answer the question's (or
        its round's) points, a partial one the round's partial points, then core's score
        corrections and the event's handicaps; equal points share a place."""
        teams = db.session.execute(db.select(Team.id, Team.name).where(
            Team.event_id == event.id)).all()
        by_round: dict[int, dict[int, float]] = {team_id: {} for team_id, _ in teams}
        rows = db.session.execute(
            db.select(Answer.team_id, Round.number, Round.points, Round.partial_points,
                      Question.points, Verdict.outcome, Verdict.decision)
            .join(Question, Answer.question_id == Question.id)
            .join(Round, Question.round_id == Round.id)
            .join(Verdict, Verdict.answer_id == Answer.id)
            .where(Round.event_id == event.id))
        for team_id, number, points, partial, own, outcome, decision in rows:
            final = decision or outcome
            gained = (own or points if final == Outcome.CORRECT
                      else partial or 0 if final == Outcome.PARTIAL else 0)
            by_round[team_id][number] = by_round[team_id].get(number, 0) + gained
        notes: dict[int, list[str]] = {team_id: [] for team_id, _ in teams}
        extra = dict(limits.team_handicaps(event))
        for correction in corrections.event_corrections(event):
            extra[correction.team_id] = extra.get(correction.team_id, 0) + correction.points
            notes[correction.team_id].append(f"{correction.points:+d} {correction.reason}")
        totals = {team_id: sum(by_round[team_id].values()) + extra.get(team_id, 0)
                  for team_id, _ in teams}
        ordered = sorted(teams, key=lambda t: (-totals[t[0]], t[1]))
        return [Standing(team_id=team_id, name=name, points=totals[team_id],
                         place=1 + sum(1 for other in totals.values()
                                       if other > totals[team_id]),
                         shared=list(totals.values()).count(totals[team_id]) > 1,
                         by_round=by_round[team_id], correction_notes=tuple(notes[team_id]))
                for team_id, name in ordered]


@contextmanager
def registered(fmt: Format) -> Iterator[Format]:
    """``fmt`` in core's registry for the block, then out again (another test's list
    of formats stays the bundled four)."""
    formats.register(fmt)
    try:
        yield fmt
    finally:
        formats.unregister(fmt.name)


def key_of(rnd: Round, number: int) -> Any:
    """The key make_event gives question ``number`` of ``rnd``: the number itself in a
    round checked as numbers, else "Answer <round>.<question>"."""
    if rnd.check_mode == "number":
        return number
    return {"accept": [f"Answer {rnd.number}.{number}"]}


def make_event(format: str = PLAIN, *, name: str = "Test night", questions: int = 3,
               code: str | None = None) -> tuple[Event, str]:
    """An event of ``format`` with its programme's rounds, each with ``questions``
    questions (``key_of``): (event, host password)."""
    event, password = create_event(name, format=format, code=code)
    for rnd in event.rounds:
        for number in range(1, questions + 1):
            rnd.questions.append(Question(number=number, text=f"Question {number}",
                                          key=key_of(rnd, number)))
    db.session.commit()
    return event, password


def set_keys(event: Event, keys: dict[tuple[int, int], Any],
             modes: dict[tuple[int, int], str] | None = None) -> None:
    """Give questions (by round and number) the keys a test answers to, and a question
    its own check mode (a song), committed."""
    for (round_number, number), key in keys.items():
        rnd = event.round(round_number)
        assert rnd is not None, round_number
        question = next(q for q in rnd.questions if q.number == number)
        question.key = key
        question.check_mode = (modes or {}).get((round_number, number), question.check_mode)
    db.session.commit()


def make_team(event: Event, name: str, players: int = 3) -> tuple[Team, str]:
    """A team joined to ``event``: (team, its phone's token), committed as its request
    would (the save's lean path reads on a connection of its own)."""
    team, token = teams.register_team(event, name, players)
    db.session.commit()
    return team, token


def open_round(event: Event, number: int) -> Round:
    """Open round ``number`` for answers, as the host does (committed, as the request)."""
    rnd = rounds.open_round(event, number)
    db.session.commit()
    return rnd


def close_round(event: Event, number: int) -> Round:
    """Close round ``number``, as the host does (committed, as the request)."""
    rnd = rounds.close_round(event, number)
    db.session.commit()
    return rnd


def make_answers(team: Team, round_number: int, texts: Sequence[str],
                 source: str = "phone") -> list[answers.SavedAnswer]:
    """The team's answers to questions 1, 2, … of an open round, by the save service."""
    return [answers.save_answer(team, round_number, number, text, source=source)
            for number, text in enumerate(texts, start=1)]


def row_counts(app: Any) -> dict[str, int]:
    """Every table's number of rows: a refused request must leave them all as they were."""
    with app.app_context():
        return {table.name: db.session.scalar(db.select(db.func.count()).select_from(table))
                for table in db.metadata.sorted_tables}


def refuses_missing_question(call: Any, round_number: int) -> None:
    """``call(round_number, 99)`` (inside an app context) refuses question 99 with core's
    translated 404 and leaves the audit log and the question gates as they were."""
    from answerdesk.errors import NotFound
    from answerdesk.models import AuditEntry, QuestionGate

    def counts() -> tuple[int | None, int | None]:
        return (db.session.scalar(db.select(db.func.count(AuditEntry.id))),
                db.session.scalar(db.select(db.func.count(QuestionGate.id))))

    before = counts()
    try:
        call(round_number, 99)
    except NotFound as refused:
        assert str(refused) == f"Round {round_number} has no question 99"
        assert refused.details == {"round": round_number, "question": 99}
    else:
        raise AssertionError("question 99 was not refused")
    db.session.rollback()
    assert counts() == before


class Desk:
    """Shortcuts over the JSON API, as a phone or the host would call it."""

    def __init__(self, client, code: str, password: str) -> None:
        self.client = client
        self.code = code
        self.password = password

    def join(self, name: str, players: int = 4) -> str:
        resp = self.client.post(f"/api/events/{self.code}/teams",
                                json={"name": name, "players": players})
        assert resp.status_code == 201, resp.get_json()
        return resp.get_json()["token"]

    def save(self, token: str, rnd: int, q: int, text: str, **extra):
        return self.client.put(f"/api/events/{self.code}/answers/{rnd}/{q}",
                               json={"text": text, **extra},
                               headers={"Authorization": f"Bearer {token}"})

    def sheet(self, token: str):
        return self.client.get(f"/api/events/{self.code}/sheet",
                               headers={"Authorization": f"Bearer {token}"})

    def host(self, rnd: int, action: str, password: str | None = None):
        return self.client.post(
            f"/api/host/events/{self.code}/rounds/{rnd}/{action}",
            headers={"Authorization": f"Bearer {password or self.password}"},
        )

    def standings(self) -> list[dict]:
        return self.client.get(f"/api/events/{self.code}/standings").get_json()["standings"]


def csrf_token(client, url: str) -> str:
    html = client.get(url).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A gunicorn the tests started: its address, process and environment."""

    def __init__(self, url: str, proc: subprocess.Popen, env: dict) -> None:
        self.url = url
        self.proc = proc
        self.env = env


def stop_gunicorn(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()


#: Everything on the page that lies outside the viewport, and a page that scrolls.
OUTSIDE_VIEWPORT = """(root) => {
  const W = window.innerWidth, H = window.innerHeight, bad = [];
  for (const el of document.querySelectorAll(root + ' *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1)
      bad.push(`${el.tagName}.${el.className} ${Math.round(r.right)}x${Math.round(r.bottom)}`);
  }
  const doc = document.documentElement;
  if (doc.scrollHeight > H + 1 || doc.scrollWidth > W + 1)
    bad.push(`page ${doc.scrollWidth}x${doc.scrollHeight}`);
  return bad;
}"""

PROJECTOR_SIZES = ((1920, 1080), (1280, 720))


def assert_projector_fits(page: Any, name: str, root: str = "body") -> None:
    """The projector page shows everything without scrolling at 1920x1080 and 1280x720
    (issue 34); the page is left at its first size."""
    size = page.viewport_size
    for width, height in PROJECTOR_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)  # the page refits on resize
        outside = page.evaluate(OUTSIDE_VIEWPORT, root)
        assert not outside, f"{name} at {width}x{height}: {outside[:5]}"
    if size:
        page.set_viewport_size(size)
