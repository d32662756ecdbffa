"""Where a phone request's CPU goes, by module (issue 33).

In one process, with Flask's test client on a fresh SQLite file: the BG demo
evening, ``--teams`` teams, round 2 open. Each of the phone page's requests (the
save, the state poll, the sheet read, the /play poll) is timed alone (CPU ms per
request, median of ``--n``), then profiled with cProfile and its own time summed
per module (answerdesk's modules by name, libraries by package), so a lever can
be chosen by measurement (bench/README.md, "Where a phone request's CPU goes").

    .venv/bin/python bench/profile_save.py [--teams 300] [--n 400] [--top 14]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_of(filename: str) -> str:
    """answerdesk/core/sheets.py -> answerdesk.core.sheets; site-packages/x/... -> x."""
    if filename.startswith("~") or filename.startswith("<"):
        return "builtins (C)"
    path = Path(filename)
    parts = path.parts
    if "answerdesk" in parts and "site-packages" not in parts:
        i = len(parts) - 1 - parts[::-1].index("answerdesk")
        return ".".join(parts[i:]).removesuffix(".py")
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1]
    return f"stdlib {path.stem}"


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from answerdesk import create_app
    from answerdesk.extensions import db
    from answerdesk.formats.bg.demo import create_demo_event

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teams", type=int, default=300)
    parser.add_argument("--n", type=int, default=400, help="requests of each kind")
    parser.add_argument("--top", type=int, default=14, help="modules shown per request")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as workdir:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir}/p.sqlite",
                          "SECRET_KEY": "profile", "INSTANCE_PATH": workdir,
                          "RATELIMIT_ENABLED": False})
        with app.app_context():
            db.create_all()
            event, password = create_demo_event()
            code = event.code
            db.session.commit()  # services flush; the boundary (here the script) commits
        client = app.test_client()
        tokens = []
        for i in range(args.teams):
            r = client.post(f"/api/events/{code}/teams", json={"name": f"Team {i}", "players": 3})
            tokens.append(r.get_json()["token"])
        r = client.post(f"/api/host/events/{code}/rounds/2/open",
                        headers={"Authorization": f"Bearer {password}"})
        assert r.status_code == 200, r.data
        seq = [int(time.time() * 1000)]

        def save(i: int):
            seq[0] += 1
            return client.put(f"/api/events/{code}/answers/2/{i % 4 + 1}",
                              json={"text": f"Левски {i % 7}", "seq": seq[0]},
                              headers={"Authorization": f"Bearer {tokens[i % len(tokens)]}"})

        kinds = {
            "save (PUT answers)": save,
            "state poll": lambda i: client.get(f"/api/events/{code}/state"),
            "sheet read": lambda i: client.get(
                f"/api/events/{code}/sheet",
                headers={"Authorization": f"Bearer {tokens[i % len(tokens)]}"}),
            "/play poll": lambda i: client.get(
                f"/api/events/{code}/play",
                headers={"Authorization": f"Bearer {tokens[i % len(tokens)]}"}),
        }
        tags: dict[int, str] = {}

        def revalidated(i: int):
            """/play as a browser sends it once it holds the part: If-None-Match."""
            token = tokens[i % len(tokens)]
            headers = {"Authorization": f"Bearer {token}"}
            if i % len(tokens) in tags:
                headers["If-None-Match"] = tags[i % len(tokens)]
            resp = client.get(f"/api/events/{code}/play", headers=headers)
            if resp.headers.get("ETag"):
                tags[i % len(tokens)] = resp.headers["ETag"]
            return resp

        kinds["/play poll, revalidated"] = revalidated

        def reread(i: int):
            """The sheet of a team that saved since its last read: the kept one is out
            of date (what a typing team's phones read every 10 s)."""
            save(i)
            return kinds["sheet read"](i)

        kinds["save, then the team's sheet (out of date)"] = reread

        def cold(i: int):
            """The sheet a phone reads on arrival: neither its sheet nor its play part
            kept in this process (the ramp-up of bench/harness.py load)."""
            for name in ("answerdesk.kept_sheets", "answerdesk.bg_play"):
                app.extensions.get(name, {}).clear()
            return kinds["sheet read"](i)

        kinds["sheet read, cold (the team's first in this process)"] = cold
        figures = {}
        for name, call in kinds.items():
            for i in range(max(20, len(tokens))):  # each team once: kept reads warm
                assert call(i).status_code in (200, 304)
            times = []
            sizes = []
            for i in range(args.n):
                t = time.process_time()
                resp = call(i)
                times.append((time.process_time() - t) * 1000)
                sizes.append(len(resp.data))
            prof = cProfile.Profile()
            prof.enable()
            for i in range(args.n):
                call(i)
            prof.disable()
            stats = pstats.Stats(prof)
            by_module: dict[str, float] = defaultdict(float)
            total = 0.0
            for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():
                by_module[module_of(filename)] += tottime
                total += tottime
            median = statistics.median(times)
            print(f"{name}: {median:.2f} ms CPU each (median of {args.n}), "
                  f"response {statistics.median(sizes):.0f} B; own time by module "
                  "(under cProfile):")
            top = sorted(by_module.items(), key=lambda kv: -kv[1])[:args.top]
            for module, seconds in top:
                print(f"  {module:40} {seconds / total:6.1%}")
            figures[name] = {"cpu_ms": round(median, 3),
                             "modules": {m: round(s / total, 3) for m, s in top}}
        with app.app_context():
            db.engine.dispose()
    if "--json" in sys.argv:
        print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
