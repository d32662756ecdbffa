"""Server time of the host's desk pages for 60 teams × 10 questions (issues 5, 19).

Target: the review queue and the all-answers view render in ≤ 100 ms each. The desk
for the night (issue 19), the paper screen of one team and what the desk's projector
preview asks for (the projector page once, then its version) are measured beside them.
Runs the app in-process (Flask test client: no network, so the time is the
server's), on a fresh SQLite file, or on DATABASE_URL when it is set (that
database's tables are dropped and rebuilt: give it a scratch database).
Baseline in the same run: the desk's /live JSON and the login page.

``--typed`` seeds the night bench/harness.py's load drives instead (issue 33): round 2
open with its four questions, every team's answers as its phones type them (slips of
the thumb, half-typed words), checked as the live checker would.

    .venv/bin/python bench/host_pages_bench.py [--teams 60] [--questions 10] [--runs 30]
    .venv/bin/python bench/host_pages_bench.py --typed --teams 300
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import TYPED, typed_answer  # noqa: E402

from answerdesk import create_app  # noqa: E402
from answerdesk.config import _normalise_database_url  # noqa: E402
from answerdesk.core import rounds  # noqa: E402
from answerdesk.extensions import db  # noqa: E402
from answerdesk.formats.bg.demo import create_demo_event  # noqa: E402
from answerdesk.models import Answer, Event, Question, Team, Verdict  # noqa: E402

# Spellings teams really send: variants cluster, the rest stay single items.
VARIANTS = ("Шекспир", "Шекспиър", "Шейкспир", "шекспир!", "Уилям Шекспир", "Марлоу",
            "Бен Джонсън", "Шекспир?", "Шексп", "Шилер", "Гьоте", "Данте")


def _team(event: Event, i: int) -> Team:
    """Team ``i`` of the bench, joined as a phone would (its token's hash stands in)."""
    team = Team(event_id=event.id, name=f"Отбор {i}", name_key=f"отбор {i}",
                token_hash=f"{event.code}{i:058d}")
    db.session.add(team)
    db.session.flush()
    return team


def seed(teams: int, questions: int) -> tuple[str, str]:
    """A locked round 2 with ``questions`` questions; every answer sent to review."""
    event, password = create_demo_event()
    rnd = event.round(2)
    for number in range(len(rnd.questions) + 1, questions + 1):
        db.session.add(Question(round=rnd, number=number, text=f"Въпрос {number}",
                                key=["Шекспир"]))
    rnd.state = "locked"
    db.session.flush()
    qs = db.session.scalars(db.select(Question).where(Question.round_id == rnd.id)).all()
    for i in range(teams):
        team = _team(event, i)
        for q in qs:
            answer = Answer(team_id=team.id, question_id=q.id,
                            text=f"{VARIANTS[(i * 7 + q.number) % len(VARIANTS)]} {q.number}")
            db.session.add(answer)
            db.session.flush()
            db.session.add(Verdict(answer_id=answer.id, outcome="review",
                                   reason="answer with extra words"))
    db.session.commit()
    return event.code, password


def seed_typed(teams: int) -> tuple[str, str]:
    """Round 2 open, each team's answer to its four questions as the harness types it."""
    event, password = create_demo_event()
    rounds.open_round(event, 2)
    questions = {q.number: q for q in event.round(2).questions}
    rng = random.Random(33)
    for i in range(teams):
        team = _team(event, i)
        for number in TYPED:
            db.session.add(Answer(team_id=team.id, question_id=questions[number].id,
                                  text=typed_answer(rng, number)))
    db.session.commit()
    rounds.check_arrived(event)
    db.session.commit()
    return event.code, password


def measure(client, url: str, runs: int) -> tuple[float, float]:
    for _ in range(3):
        assert client.get(url).status_code == 200, url
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        resp = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert resp.status_code == 200, url
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=60)
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--typed", action="store_true",
                        help="the harness's night: round 2 open, answers as phones type them")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="hostbench-")
    url = os.environ.get("DATABASE_URL")
    uri = _normalise_database_url(url) if url else f"sqlite:///{tmp}/bench.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "bench",
                      "WTF_CSRF_ENABLED": False, "INSTANCE_PATH": tmp, "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.drop_all()
        db.create_all()
        code, password = (seed_typed(args.teams) if args.typed
                          else seed(args.teams, args.questions))
        team = db.session.scalar(db.select(Team.id).order_by(Team.id).limit(1))
    client = app.test_client()
    client.post(f"/host/{code}/login", data={"password": password})
    pages = [
        ("baseline: /live (JSON)", f"/host/{code}/live"),
        ("baseline: login page", f"/host/{code}/login"),
        ("review queue page", f"/host/{code}/review"),
        ("review queue fragment", f"/host/{code}/review/items"),
        ("all answers, one question", f"/host/{code}/answers/2/4"),
        ("projector fragment", f"/e/{code}/screen/live"),
        ("desk for the night", f"/host/{code}/"),
        ("paper screen, one team", f"/host/{code}/paper?team={team}&round=2"),
        ("standings", f"/host/{code}/standings"),
        ("projector page (preview)", f"/e/{code}/screen?preview=1"),
        ("projector version (JSON)", f"/e/{code}/screen/version"),
    ]
    with app.app_context():
        db.engine.dispose()
    night = ("round 2 open, 4 questions answered as phones type them (--typed)" if args.typed
             else f"{args.questions} questions, every answer in review")
    print(f"{args.teams} teams, {night}; {args.runs} runs; database {uri.split(':', 1)[0]}")
    print(f"{'page':32} {'median ms':>10} {'p95 ms':>8}")
    for name, path in pages:
        median, p95 = measure(client, path, args.runs)
        print(f"{name:32} {median:10.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
