"""Push latency of the buzzer games (issue 15): from a host action to every phone.

Starts the app under gunicorn's threaded workers on 127.0.0.1 (a fresh SQLite
file), creates an OpenQuiz game with the phones' teams, opens one SSE stream per
phone (GET /api/events/<code>/stream) and lets the host edit a score by hand
``--actions`` times. Each phone, on ``look``, fetches GET /state as the page does;
the latency of one action for one phone is from the moment the host sent the
action (and, apart, from its committed response) to the moment that phone holds a
state with the new score. The host authenticates with the event's password on
every API call (a hash check that dominates on a busy machine); the desk's
pages use a session instead. Bounded: the
actions, spaced ``--gap`` seconds, and a timeout per action.

    python bench/push_bench.py [--phones 36] [--actions 30] [--gap 0.5]
                               [--workers 4] [--threads 24]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import SECRET, Served, prepare_database  # noqa: E402


def new_game(db_url: str, workdir: str, phones: int) -> tuple[str, str, list[str]]:
    """An OpenQuiz game with one team per phone: (code, host password, team names)."""
    from answerdesk import create_app
    from answerdesk.core.events import create_event
    from answerdesk.core.teams import register_team
    from answerdesk.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": db_url, "SECRET_KEY": SECRET,
                      "INSTANCE_PATH": workdir})
    with app.app_context():
        event, password = create_event("push bench", format="oq")
        names = [f"Team {i:02d}" for i in range(phones)]
        for name in names:
            register_team(event, name, 3)
        db.session.commit()
        code = event.code
        db.engine.dispose()
    return code, password, names


class Phone(threading.Thread):
    """One phone: an SSE stream, and a GET /state on every ``look``."""

    def __init__(self, port: int, code: str, watch: str) -> None:
        super().__init__(daemon=True)
        self.port, self.code, self.watch = port, code, watch
        self.seen: dict[int, float] = {}  # score of the watched team -> when first seen
        self.looks = 0
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        stream.request("GET", f"/api/events/{self.code}/stream")
        resp = stream.getresponse()
        state = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        while not self.stop:
            line = resp.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                self.looks += 1
                state.request("GET", f"/api/events/{self.code}/state")
                body = json.loads(state.getresponse().read())
                now = time.monotonic()
                points = next(s["points"] for s in body["oq"]["scores"]
                              if s["team"] == self.watch)
                self.seen.setdefault(points, now)
                self.ready.set()


def host_edit(port: int, code: str, password: str, team: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", f"/api/host/events/{code}/oq/scores",
                 body=json.dumps({"team": team, "points": 1}),
                 headers={"Content-Type": "application/json",
                          "Authorization": f"Bearer {password}"})
    assert conn.getresponse().status == 200


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=36)
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--gap", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=24)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        db_url = prepare_database(None, workdir)
        code, password, names = new_game(db_url, workdir, args.phones)
        server = Served(db_url, workdir, args.workers, args.threads).start()
        try:
            phones = [Phone(server.port, code, names[0]) for _ in range(args.phones)]
            for phone in phones:
                phone.start()
            for phone in phones:
                if not phone.ready.wait(30):
                    raise RuntimeError("a phone's stream did not start")
            latencies: list[float] = []
            host_ms: list[float] = []
            pushed: list[float] = []
            missed = 0
            for action in range(1, args.actions + 1):
                sent = time.monotonic()
                host_edit(server.port, code, password, names[0])
                done = time.monotonic()
                host_ms.append((done - sent) * 1000)
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline and not all(
                        action in p.seen for p in phones):
                    time.sleep(0.005)
                for phone in phones:
                    if action in phone.seen:
                        latencies.append((phone.seen[action] - sent) * 1000)
                        pushed.append((phone.seen[action] - done) * 1000)
                    else:
                        missed += 1
                time.sleep(args.gap)
            for phone in phones:
                phone.stop = True
        finally:
            server.stop()
    print(f"phones {args.phones}, actions {args.actions}, workers {args.workers} x "
          f"threads {args.threads}, SQLite")
    print(f"host action -> state on every phone: n={len(latencies)} missed={missed} "
          f"p50={statistics.median(latencies):.0f} ms p95={percentile(latencies, 0.95):.0f} ms "
          f"p99={percentile(latencies, 0.99):.0f} ms max={max(latencies):.0f} ms")
    print(f"from the host's response (committed) -> state on every phone: "
          f"p50={statistics.median(pushed):.0f} ms p95={percentile(pushed, 0.95):.0f} ms "
          f"p99={percentile(pushed, 0.99):.0f} ms max={max(pushed):.0f} ms")
    print(f"the host's own request (password check, write, commit): "
          f"p50={statistics.median(host_ms):.0f} ms max={max(host_ms):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
