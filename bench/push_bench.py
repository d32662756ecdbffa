"""Push latency of the buzzer games (issue 15): from a host action to every phone.

Starts the app under gunicorn as `make run` does (gunicorn.conf.py: 4 threaded
workers of 48 threads) on 127.0.0.1, on a fresh SQLite file or in the PostgreSQL
database given with --db (a new event; nothing is dropped), optionally as several
app servers on the same database (--servers). Creates an OpenQuiz game with one
team per phone, opens one SSE stream per phone (GET /api/events/<code>/stream,
spread over the servers) and lets the host add a point to a team ``--actions``
times, about ``--gap`` seconds apart (jittered, so the actions do not keep step
with any poll). The host is a logged-in desk (session cookie and CSRF token, as
the desk's pages post); --bearer sends the event password instead, whose hash
check then sits inside every figure. --fetch makes each phone ignore the pushed
state and GET /state on every ``look`` instead (how the stream was used before).

A phone's latency is from the moment the host's request was sent to the moment
that phone held a state with the new score: the ``look`` message carries the
state, as buzzer.js renders it. At the same moment as each action the client
also sends a trivial GET (a static file) and a GET /state to the host's server:
their round trips, measured in the same run, are the anchor against which a
busy machine's figure can be judged. All clients are one asyncio loop in this
process (the machine's load is printed with the figures).

    python bench/push_bench.py [--db URL] [--phones 36] [--actions 40] [--gap 0.4]
                               [--games 1] [--workers 4] [--threads 48] [--servers 1]
                               [--bearer]
                               [--fetch] [--warmup 1]

The first ``--warmup`` actions are timed and printed apart, not counted: a freshly
started server's first action (its connections' first statements, its code's first
run) took 89-319 ms on PostgreSQL against 15-37 ms for the next, and one action of
40 is 2.5% of the phones' receipts: it alone set the p99 (bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # noqa: E402
    SECRET,
    Connection,
    Served,
    collector_paused,
    host_login,
    prepare_database,
    run_async,
)


def new_game(db_url: str, workdir: str, phones: int) -> tuple[str, str, list[str]]:
    """An OpenQuiz game with a team for every three phones (OQ-1: at most 12 teams of
    3, so 36 phones are a full game): (code, host password, team names)."""
    from answerdesk import create_app
    from answerdesk.core.events import create_event
    from answerdesk.core.teams import register_team
    from answerdesk.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": db_url, "SECRET_KEY": SECRET,
                      "INSTANCE_PATH": workdir})
    with app.app_context():
        event, password = create_event("push bench", format="oq")
        names = [f"Team {i:02d}" for i in range(-(-phones // 3))]
        for name in names:
            register_team(event, name, 3)
        db.session.commit()
        code = event.code
        db.engine.dispose()
    return code, password, names


class Phone:
    """One phone: an SSE stream, read as it arrives; each ``look`` carries the state."""

    def __init__(self, port: int, code: str, watch: str, fetch: bool) -> None:
        self.port, self.code, self.watch, self.fetch = port, code, watch, fetch
        self.conn = Connection(port)  # --fetch: GET /state on every look
        self.seen: dict[int, float] = {}  # score of the watched team -> when first held
        self.looks = 0
        self.refused = 0  # streams the server had no thread for (it said: come back later)
        self.ready = asyncio.Event()
        self.last_id = ""

    async def run(self) -> None:
        while True:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
            writer.write(f"GET /api/events/{self.code}/stream HTTP/1.1\r\n"
                         f"Host: 127.0.0.1\r\n{resume}\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            if b"chunked" in head.lower():
                await self._read(reader)
            else:  # a whole body at once: no thread to spare, come back later
                self.refused += 1
                await asyncio.sleep(1)
            writer.close()

    async def _read(self, reader: asyncio.StreamReader) -> None:
        """Read one stream to its end (chunked), message by message as they arrive."""
        buffer = b""
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                return
            buffer += chunk[:-2]
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                await self._message(message)

    async def _message(self, message: bytes) -> None:
        data = next((line[6:] for line in message.split(b"\n") if line.startswith(b"data: ")),
                    None)
        if data is None:
            return
        self.looks += 1
        self.last_id = next(line[4:].decode() for line in message.split(b"\n")
                            if line.startswith(b"id: "))
        if self.fetch:
            _, body = await self.conn.request("GET", f"/api/events/{self.code}/state")
            state = json.loads(body)
        else:
            state = json.loads(data)["state"]
        now = time.perf_counter()
        points = next(s["points"] for s in state["oq"]["scores"] if s["team"] == self.watch)
        self.seen.setdefault(points, now)
        self.ready.set()


def connections_per_worker(master: int, port: int) -> list[int]:
    """Established connections to ``port`` held by each worker of the gunicorn ``master``
    (Linux /proc): how the phones' streams spread over the processes."""
    established = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                established.add(fields[9])
    counts = []
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) != master:
                continue
            inodes = {os.readlink(fd)[8:-1] for fd in (entry / "fd").iterdir()
                      if os.readlink(fd).startswith("socket:")}
        except OSError:
            continue
        counts.append(len(inodes & established))
    return sorted(counts, reverse=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<44} none"
    return (f"{name:<44} p50 {statistics.median(values):6.1f}  p95 {percentile(values, .95):6.1f}"
            f"  p99 {percentile(values, .99):6.1f}  max {max(values):6.1f} ms  n {len(values)}")


async def timed(conn: Connection, *args, **kwargs) -> tuple[float, int]:
    started = time.perf_counter()
    status, _ = await conn.request(*args, **kwargs)
    return (time.perf_counter() - started) * 1000, status


async def host_connection(port: int, code: str, password: str,
                          bearer: bool) -> tuple[Connection, dict[str, str]]:
    """The host's keep-alive connection and the headers its actions carry."""
    if bearer:
        return Connection(port), {"Authorization": f"Bearer {password}"}
    conn = await host_login(port, code, password)
    _, page = await conn.request("GET", f"/host/{code}/")
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    return conn, {"X-CSRFToken": token}


async def measure(masters: list[tuple[int, int]], games: list[tuple[str, str, list[str]]],
                  args: argparse.Namespace) -> dict[str, Any]:
    """Every game's host acts at once, ``--actions`` times; each game's phones watch
    its first team (``--games``: several OpenQuiz games on one server)."""
    ports = [port for _, port in masters]
    phones = {code: [Phone(ports[i % len(ports)], code, names[0], args.fetch)
                     for i in range(args.phones)] for code, _, names in games}
    everyone = [p for group in phones.values() for p in group]
    tasks = [asyncio.create_task(p.run()) for p in everyone]
    hosts = [await host_connection(ports[0], code, password, args.bearer)
             for code, password, _ in games]
    code = games[0][0]
    anchor, poll = Connection(ports[0]), Connection(ports[0])
    await anchor.request("GET", "/static/buzzer.js")
    await poll.request("GET", f"/api/events/{code}/state")
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in everyone)), 60)
    spread = [connections_per_worker(master, port) for master, port in masters]
    rng = random.Random(15)
    got: dict[str, Any] = {"push": [], "slowest": [], "committed": [], "host": [],
                           "anchor": [], "state": [], "missed": 0, "spread": spread,
                           "warmup": []}
    with collector_paused():
        for action in range(1, args.warmup + args.actions + 1):
            sent = time.perf_counter()
            answers = await asyncio.gather(
                timed(anchor, "GET", "/static/buzzer.js"),
                timed(poll, "GET", f"/api/events/{code}/state"),
                *(timed(host, "POST", f"/api/host/events/{game}/oq/scores",
                        {"team": names[0], "points": 1}, headers=headers)
                  for (host, headers), (game, _, names) in zip(hosts, games, strict=True)))
            (anchor_ms, _), (state_ms, _), *acted = answers
            assert all(status == 200 for _, status in acted), acted
            done = sent + max(ms for ms, _ in acted) / 1000
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline and not all(action in p.seen for p in everyone):
                await asyncio.sleep(0.002)
            late = [(p.seen[action] - sent) * 1000 for p in everyone if action in p.seen]
            if action <= args.warmup:
                got["warmup"].append((acted[0][0], max(late, default=5000.0)))
                got["missed"] += len(everyone) - len(late)
                await asyncio.sleep(rng.uniform(args.gap / 2, args.gap * 1.5))
                continue
            got["push"] += late
            got["committed"] += [(p.seen[action] - done) * 1000 for p in everyone
                                 if action in p.seen]
            got["slowest"].append(max(late) if len(late) == len(everyone) else 5000.0)
            got["missed"] += len(everyone) - len(late)
            got["host"] += [ms for ms, _ in acted]
            got["anchor"].append(anchor_ms)
            got["state"].append(state_ms)
            await asyncio.sleep(rng.uniform(args.gap / 2, args.gap * 1.5))
    got["refused"] = sum(p.refused for p in everyone)
    got["looks"] = sum(p.looks for p in everyone)
    for task in tasks:
        task.cancel()
    for phone in everyone:
        await phone.conn.close()
    for conn in [host for host, _ in hosts] + [anchor, poll]:
        await conn.close()
    return got


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--phones", type=int, default=36, help="phones per game")
    parser.add_argument("--games", type=int, default=1,
                        help="OpenQuiz games on the server, each with its phones and host")
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--gap", type=float, default=0.4)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=48)
    parser.add_argument("--servers", type=int, default=1, help="app servers on one database")
    parser.add_argument("--warmup", type=int, default=1,
                        help="actions first, timed apart: a fresh server's first action")
    parser.add_argument("--bearer", action="store_true",
                        help="the host sends the event password, not a session")
    parser.add_argument("--fetch", action="store_true",
                        help="phones ignore the pushed state and GET /state on each look "
                             "(the design before: a look, then one request per phone)")
    args = parser.parse_args(argv)
    before = os.getloadavg()
    with tempfile.TemporaryDirectory() as workdir:
        db_url = prepare_database(args.db, workdir)
        games = [new_game(db_url, workdir, args.phones) for _ in range(args.games)]
        servers = [Served(db_url, workdir, args.workers, args.threads)
                   for _ in range(args.servers)]
        try:
            for server in servers:
                server.start()
            got = run_async(measure([(s.proc.pid, s.port) for s in servers], games, args))
        finally:
            for server in servers:
                server.stop()
    after = os.getloadavg()
    database = "PostgreSQL" if args.db else "SQLite"
    print(f"{args.games} game(s) of {args.phones} phones, {args.actions} actions each, "
          f"{args.servers} app server(s) of "
          f"{args.workers} workers x {args.threads} threads, {database}, host "
          f"{'Bearer password' if args.bearer else 'session'}, phones "
          f"{'GET /state on each look' if args.fetch else 'render the pushed state'}; load average "
          f"{before[0]:.1f} -> {after[0]:.1f} on {os.cpu_count()} CPUs")
    for host_ms, slowest in got["warmup"]:
        print(f"start-up, not counted below: an action, host request {host_ms:.1f} ms, "
              f"sent -> the slowest phone {slowest:.1f} ms")
    print(line("host request sent -> each phone holds it", got["push"]))
    print(line("host request sent -> the slowest phone", got["slowest"]))
    print(line("host response -> each phone holds it", got["committed"]))
    print(line("host request (round trip)", got["host"]))
    print(line("anchor: GET static file (same moment)", got["anchor"]))
    print(line("anchor: GET /state (same moment)", got["state"]))
    print(f"connections per worker once the streams were open (each server): {got['spread']}")
    push = percentile(got["push"], .99)
    print(f"missed {got['missed']}, streams refused {got['refused']}, looks {got['looks']}; "
          f"push p99 / anchor p99: static GET {push / percentile(got['anchor'], .99):.1f}, "
          f"GET /state {push / percentile(got['state'], .99):.1f}")
    return 1 if got["missed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
