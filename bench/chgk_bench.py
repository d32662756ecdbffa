"""Server time of a ЧГК evening's hot paths (issue 14 §3), in-process on SQLite.

- an answer save on a question running on the clock (CHGK-1.1: the save reads the
  question's deadline in its one query) beside a save in a BG open round;
- the phones' poll `/api/events/<code>/state`, which now carries the clocked
  question, for the ЧГК event and for a BG event;
- `/api/events/<code>/chgk/standings` after a played game of ``--teams`` teams
  (11 questions, Central Table records, auctions: every read replays them).

    .venv/bin/python bench/chgk_bench.py [--teams 100] [--runs 300]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from answerdesk import create_app  # noqa: E402
from answerdesk.core import clock, rounds  # noqa: E402
from answerdesk.core.events import create_event  # noqa: E402
from answerdesk.core.teams import register_team  # noqa: E402
from answerdesk.extensions import db  # noqa: E402
from answerdesk.formats.bg.demo import create_demo_event  # noqa: E402
from answerdesk.formats.chgk import game  # noqa: E402
from answerdesk.models import Answer, Question, Round, utcnow  # noqa: E402


def _chgk_event(teams: int) -> tuple[str, str, list[str]]:
    event, password = create_event("ЧГК bench", format="chgk")
    for number in (1, 2):
        rnd = event.round(number)
        rnd.questions = [Question(number=n, text=f"Q{n}", key={"accept": [f"ответ{n}"]})
                         for n in range(1, 13)]
    db.session.commit()
    tokens = [register_team(event, f"Команда {i}", 4)[1] for i in range(teams)]
    db.session.commit()
    team_ids = [t.id for t in event.teams]
    base = utcnow() - dt.timedelta(hours=2)
    game.run_auction(event, 1, {event.teams[0].name: 30})
    for i in range(11):
        sector = game.draw_sector(event, 1).sector
        clock.start_question(event, 1, sector, now=base + dt.timedelta(minutes=2 * i))
        question = db.session.scalar(db.select(Question).join(Round).where(
            Round.event_id == event.id, Round.number == 1, Question.number == sector))
        for k, team_id in enumerate(team_ids):
            text = f"ответ{sector}" if (k + i) % 3 else "не знаем"
            db.session.add(Answer(team_id=team_id, question_id=question.id, text=text))
        db.session.commit()
        rounds.check_question(question)
        db.session.commit()
        if i < 3:
            game.table_action(event, 1, event.teams[0].name, "answer", sector, True)
    clock.settle(event)
    db.session.commit()
    return event.code, password, tokens


def _time(client, method: str, url: str, runs: int, **kwargs) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        resp = client.open(url, method=method, **kwargs)
        out.append((time.perf_counter() - start) * 1000)
        assert resp.status_code == 200, (url, resp.status_code, resp.get_data(as_text=True))
    return out


def _report(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{name:48s} p50 {statistics.median(samples):6.2f} ms   p99 {p99:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
                      "SECRET_KEY": "bench", "INSTANCE_PATH": folder,
                      "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.create_all()
        code, password, tokens = _chgk_event(args.teams)
        bg, bg_password = create_demo_event()
        bg_code = bg.code
        bg_token = register_team(bg, "Отбор", 4)[1]
        db.session.commit()
        rounds.open_round(bg, 2)
    client = app.test_client()
    host = {"Authorization": f"Bearer {password}"}
    client.post(f"/api/host/events/{code}/rounds/2/questions/5/start",
                json={"seconds": 3600, "grace": 10}, headers=host)
    team = {"Authorization": f"Bearer {tokens[1]}"}
    bg_saves = []
    for i in range(args.runs):
        bg_saves += _time(client, "PUT", f"/api/events/{bg_code}/answers/2/1", 1,
                          headers={"Authorization": f"Bearer {bg_token}"},
                          json={"text": f"Марица {i % 2}"})
    saves = []
    for i in range(args.runs):
        saves += _time(client, "PUT", f"/api/events/{code}/answers/2/5", 1, headers=team,
                       json={"text": f"ответ {i % 2}"})
    _report("save, ЧГК question on the clock (changed)", saves)
    _report("save, BG open round (changed)", bg_saves)
    _report("GET /state, ЧГК event", _time(client, "GET", f"/api/events/{code}/state",
                                           args.runs))
    _report("GET /state, BG event", _time(client, "GET", f"/api/events/{bg_code}/state",
                                          args.runs))
    _report(f"GET /chgk/standings, {args.teams} teams, a played game",
            _time(client, "GET", f"/api/events/{code}/chgk/standings", max(10, args.runs // 10)))


if __name__ == "__main__":
    main()
