"""The lean routes' saving, in one process (issue 33): CPU per request of the phone's
save (with the state it carries), state poll and reread of its team's changes, each
served by its lean route (answerdesk/lean_routes.py) and by Flask's own wsgi_app
(the reference it stands in for), and the bare anchor's save (bench/bare_anchor.py:
Flask + SQLite doing a save's least work) beside them. Blocks of each alternate, so
the machine's noise falls on all; the figures are the medians of the blocks.

No server: each request is one WSGI call with the environ gunicorn would give, so
what is measured is the app's CPU alone (compare.sh measures them served).

    .venv/bin/python bench/lean_routes_bench.py [--teams 24] [--n 500] [--rounds 5]
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ["Васил Левски", "Левски", "Апостола", "Марица", "марица", "Австрия", "Австралия"]


def environ(method: str, path: str, query: str = "", body: object = None,
            token: str | None = None) -> dict[str, object]:
    data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
    env: dict[str, object] = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000", "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "wsgi.version": (1, 0), "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:5000",
        "CONTENT_LENGTH": str(len(data)),
    }
    if body is not None:
        env["CONTENT_TYPE"] = "application/json"
    if token:
        env["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return env


def call(app: Callable, env: dict[str, object]) -> tuple[str, bytes]:
    status: list[str] = []
    body = b"".join(app(env, lambda s, _h, _e=None: status.append(s)))
    return status[0], body


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teams", type=int, default=24)
    parser.add_argument("--n", type=int, default=500, help="requests per block")
    parser.add_argument("--rounds", type=int, default=5, help="blocks of each")
    args = parser.parse_args(argv)

    from answerdesk import create_app
    from answerdesk.extensions import db
    from answerdesk.formats.bg.demo import create_demo_event

    workdir = tempfile.mkdtemp(prefix="lean-bench.")
    os.environ["BARE_DB"] = f"{workdir}/bare.sqlite"
    made = subprocess.run([sys.executable, str(ROOT / "bench/bare_anchor.py"), "init",
                           os.environ["BARE_DB"], str(args.teams)],
                          capture_output=True, text=True, check=True).stdout
    bare_teams = [line.split() for line in made.splitlines()]
    spec = importlib.util.spec_from_file_location("bare_anchor", ROOT / "bench/bare_anchor.py")
    assert spec is not None and spec.loader is not None
    bare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bare)

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir}/a.sqlite",
                      "SECRET_KEY": "bench", "INSTANCE_PATH": workdir,
                      "RATELIMIT_ENABLED": True})
    with app.app_context():
        db.create_all()
        event, password = create_demo_event()
        code = event.code
        db.session.commit()
    lean, flask = app.wsgi_app, app.wsgi_app.inner  # type: ignore[attr-defined]
    status, _ = call(lean, environ("POST", f"/api/host/events/{code}/rounds/2/open",
                                   token=password))
    assert status.startswith("200"), status
    tokens = []
    for i in range(args.teams):
        status, body = call(lean, environ("POST", f"/api/events/{code}/teams",
                                          body={"name": f"Отбор {i}", "players": 3}))
        tokens.append(json.loads(body)["token"])
    held = {}
    for token in tokens:
        held[token] = json.loads(call(lean, environ("GET", f"/api/events/{code}/sheet",
                                                    token=token))[1])
    since = (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)).strftime(
        "%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    counter = [0]

    def text() -> str:
        counter[0] += 1
        return f"{TEXTS[counter[0] % len(TEXTS)]} {counter[0]}"

    def save(wsgi: Callable) -> Callable[[int], tuple[str, bytes]]:
        return lambda i: call(wsgi, environ(
            "PUT", f"/api/events/{code}/answers/2/{i // args.teams % 4 + 1}", "with=state",
            {"text": text()}, tokens[i % args.teams]))

    def state(wsgi: Callable) -> Callable[[int], tuple[str, bytes]]:
        return lambda i: call(wsgi, environ("GET", f"/api/events/{code}/state"))

    def reread(wsgi: Callable) -> Callable[[int], tuple[str, bytes]]:
        def one(i: int) -> tuple[str, bytes]:
            token = tokens[i % args.teams]
            query = f"since={since}&version={held[token]['version']}"
            return call(wsgi, environ("GET", f"/api/events/{code}/sheet", query, token=token))
        return one

    def bare_save(i: int) -> tuple[str, bytes]:
        team, token = bare_teams[i % args.teams]
        return call(bare.app, environ("PUT", f"/save/{team}/{i // args.teams % 4 + 1}",
                                      body={"text": text()}, token=token))

    kinds = {
        "save (?with=state)": {"lean": save(lean), "flask": save(flask)},
        "state poll": {"lean": state(lean), "flask": state(flask)},
        "reread of the team's changes": {"lean": reread(lean), "flask": reread(flask)},
    }
    served = lean.served
    for routes in kinds.values():
        for serve in routes.values():
            for i in range(50):
                status, body = serve(i)
                assert status.startswith("200"), (status, body[:200])
    assert b'"delta":true' in reread(lean)(0)[1]
    assert lean.served > served
    for i in range(50):
        assert bare_save(i)[0].startswith("200")

    def block(serve: Callable[[int], object]) -> float:
        start = time.process_time()
        for i in range(args.n):
            serve(i)
        return (time.process_time() - start) / args.n * 1e6

    print(f"lean routes against Flask's wsgi_app, one process, CPU µs a request; "
          f"{args.teams} teams, {args.rounds} blocks of {args.n} each, alternating")
    bare_times: list[float] = []
    for name, routes in kinds.items():
        times: dict[str, list[float]] = {"lean": [], "flask": []}
        for _ in range(args.rounds):
            for way, serve in routes.items():
                times[way].append(block(serve))
            if name.startswith("save"):
                bare_times.append(block(bare_save))
        lean_us, flask_us = (statistics.median(times[w]) for w in ("lean", "flask"))
        print(f"  {name:30} lean {lean_us:6.0f}   flask {flask_us:6.0f}   "
              f"lean/flask {lean_us / flask_us:5.1%}   "
              f"(blocks lean {[round(t) for t in times['lean']]}, "
              f"flask {[round(t) for t in times['flask']]})")
    bare_us = statistics.median(bare_times)
    print(f"  bare anchor's save             {bare_us:6.0f}   "
          f"(blocks {[round(t) for t in bare_times]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
