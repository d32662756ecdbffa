"""Server time of the standings with every BG rule in play (issue 4).

A played evening of ``--teams`` teams over the whole programme, with jokers,
disputes, a winning-streak handicap (the event is the 4th edition of a month)
and a finished shoot-out; the projector and the API compute these standings
on every change. Runs in-process on a fresh SQLite file, or on DATABASE_URL
when it is set (that database's tables are dropped and rebuilt: give it a
scratch database). Baseline in the same run: the bare query of every verdict
of the event (what a rule-free sum would need) and the trivial /state endpoint.

    .venv/bin/python bench/standings_bench.py [--teams 60] [--runs 30]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from answerdesk import create_app
from answerdesk.config import _normalise_database_url  # noqa: E402
from answerdesk.core import disputes
from answerdesk.core.events import create_event  # noqa: E402
from answerdesk.extensions import db  # noqa: E402
from answerdesk.formats.bg import league, shootout  # noqa: E402
from answerdesk.formats.bg.demo import add_sample_questions, create_demo_event, play_sample  # noqa: E402
from answerdesk.formats.bg.models import Joker  # noqa: E402
from answerdesk.formats.bg.standings import event_standings  # noqa: E402
from answerdesk.models import Answer, Question, Round, Team, Verdict  # noqa: E402


def seed(teams: int) -> str:
    """Three played editions won by the same team, then the measured 4th edition."""
    today = dt.date(2025, 3, 24)
    names = [f"Отбор {i}" for i in range(teams)]
    for week in (3, 2, 1):
        past, _ = create_event("Минала вечер", date=today - dt.timedelta(days=7 * week))
        add_sample_questions(past)
        play_sample(past, {name: 1 - i / (teams + 1) for i, name in enumerate(names)})
        league.add_to_month(past, "2025-03")
    event, _ = create_demo_event()
    event.date = today
    play_sample(event, {name: 1 - (i // 2) / (teams + 1) for i, name in enumerate(names)})
    league.add_to_month(event, "2025-03")
    team_ids = [t.id for t in event.teams]
    questions = {(q.round.number, q.number): q for r in event.rounds for q in r.questions}
    for i, team_id in enumerate(team_ids[2:40]):
        db.session.add(Joker(team_id=team_id, kind="copy", question_id=questions[(2, 1)].id,
                             target_team_id=team_ids[(i + 5) % len(team_ids)]))
        db.session.add(Joker(team_id=team_id, kind="double", question_id=questions[(3, 1)].id,
                             second_outcome="correct"))
    db.session.commit()
    disputes.annul(event, 2, 2, "bench")
    disputes.uphold(event, 2, 3, db.session.get(Team, team_ids[3]), "bench")
    run = shootout.start_shootout(event, [("a", 1), ("b", 2), ("c", 3)])
    shootout.lock_shootout(event, run.id)
    return event.code


def median_ms(call, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=60)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp()
    uri = os.environ.get("DATABASE_URL") or f"sqlite:///{scratch}/bench.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": _normalise_database_url(uri),
                      "SECRET_KEY": "bench", "INSTANCE_PATH": scratch})
    with app.app_context():
        db.drop_all()
        db.create_all()
        code = seed(args.teams)
        from answerdesk.core.events import event_by_code

        event = event_by_code(code)
        answers = db.session.scalar(
            db.select(db.func.count(Answer.id)).join(Question).join(Round)
            .where(Round.event_id == event.id))

        def bare_query():
            db.session.execute(
                db.select(Verdict.outcome, Answer.team_id, Round.points)
                .join(Answer, Verdict.answer_id == Answer.id).join(Question).join(Round)
                .where(Round.event_id == event.id)).all()

        rows = event_standings(event)
        print(f"{args.teams} teams, {answers} answers, handicap {rows[0].handicap}/"
              f"{min(r.handicap for r in rows)}, shoot-out applied, "
              f"top: {[(r.name, r.place, r.points) for r in rows[:3]]}")
        figures = {
            "baseline: bare verdict query": median_ms(bare_query, args.runs),
            "event_standings (all BG rules)": median_ms(lambda: event_standings(event),
                                                        args.runs),
        }
        db.session.remove()
    client = app.test_client()
    figures["baseline: GET /api/events/<code>/state"] = median_ms(
        lambda: client.get(f"/api/events/{code}/state"), args.runs)
    figures["GET /api/events/<code>/standings"] = median_ms(
        lambda: client.get(f"/api/events/{code}/standings"), args.runs)
    token = "bench-token"
    with app.app_context():
        from answerdesk.core.teams import hash_token

        db.session.scalars(db.select(Team).where(Team.name == "Отбор 5")).all()[-1] \
            .token_hash = hash_token(token)
        db.session.commit()
    auth = {"Authorization": f"Bearer {token}"}
    figures["GET /api/events/<code>/play (phone poll)"] = median_ms(
        lambda: client.get(f"/api/events/{code}/play", headers=auth), args.runs)
    figures["GET /api/events/<code>/sheet"] = median_ms(
        lambda: client.get(f"/api/events/{code}/sheet", headers=auth), args.runs)
    figures["GET /e/<code>/screen/live (projector)"] = median_ms(
        lambda: client.get(f"/e/{code}/screen/live"), args.runs)
    for name, (median, worst) in figures.items():
        print(f"{name:45s} median {median:7.1f} ms   max {worst:7.1f} ms")


if __name__ == "__main__":
    main()
