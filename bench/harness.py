"""Load and fault harness for answerdesk: load, lock race, crash (issue 6).

Each subcommand starts the real app under gunicorn's threaded workers on
127.0.0.1, on a fresh SQLite file or on the PostgreSQL database given with
--db, creates a new demo event in it (nothing is dropped or truncated but the
schema load's bare anchor on PostgreSQL made for itself), drives
it with an asyncio HTTP/1.1 client (keep-alive, one connection per phone) and
prints figures. Every run is bounded in time and in requests.

    python bench/harness.py load      [--db URL] [--seconds 20] [--teams 100] [--phones 3]
    python bench/harness.py lock-race [--db URL] [--teams 25] [--repeat 3]
    python bench/harness.py crash     [--db URL] [--writers 60] [--burst 2]

See bench/README.md for what each one measures.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import gc
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-secret"


# The server under test


def run_async(coro):
    """asyncio.run in a thread of its own: the caller may already run an event loop
    (pytest-playwright's sync API keeps one in the main thread). A daemon thread, so
    a SIGTERM's exit need not wait for the run to end."""
    done: concurrent.futures.Future = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(asyncio.run(coro))
        except BaseException as error:
            done.set_exception(error)

    threading.Thread(target=run, daemon=True).start()
    return done.result()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection in this client while it measures. A full collection of
    300 phones' asyncio objects paused it for 16-85 ms, and every request in flight
    then measured that pause as the server's latency (the phones of a real night
    are not one process). Reference counting still frees what a request leaves."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    """gunicorn in its own process group, so kill -9 reaches master and workers; the
    rest of its settings come from gunicorn.conf.py, as for `make run`."""

    db_url: str
    instance: str
    workers: int = 4
    threads: int = 8
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    env: dict = field(default_factory=dict)  # over the defaults below (rate limits off)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> Served:
        # The access log as shipped (on), to a file beside the database, as a venue keeps it.
        env = {**os.environ, "DATABASE_URL": self.db_url, "SECRET_KEY": SECRET,
               "INSTANCE_PATH": self.instance, "RATELIMIT_ENABLED": "0",
               "ACCESS_LOG": os.path.join(self.instance, "access.log"),
               "DATABASE_POOL_SIZE": str(self.threads), **self.env}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(self.workers),
             "--threads", str(self.threads), "--log-level", "warning",
             "-b", f"127.0.0.1:{self.port}", "wsgi:app"],
            cwd=ROOT, env=env, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("gunicorn exited at start")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"gunicorn did not start in {timeout} s")

    def kill(self) -> None:
        """kill -9 of the whole server: master and every worker, no clean-up."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def prepare_database(db_url: str | None, workdir: str) -> str:
    """The schema (from the models) in a fresh SQLite file, or in the given PostgreSQL."""
    from answerdesk import create_app
    from answerdesk.extensions import db

    url = db_url or f"sqlite:///{workdir}/bench.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET,
                      "INSTANCE_PATH": workdir})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    return url


def new_event(db_url: str, workdir: str) -> tuple[str, str]:
    """A new demo evening in the database: (code, host password)."""
    from answerdesk import create_app
    from answerdesk.extensions import db
    from answerdesk.formats.bg.demo import create_demo_event

    app = create_app({"SQLALCHEMY_DATABASE_URI": db_url, "SECRET_KEY": SECRET,
                      "INSTANCE_PATH": workdir})
    with app.app_context():
        event, password = create_demo_event()
        db.session.commit()
        code = event.code
        db.engine.dispose()
    return code, password


# Where the CPU goes: the harness shares the machine with the server it measures.

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> list[tuple[int, int, str, float]]:
    """(pid, parent pid, command, CPU seconds) of every process (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        command = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        found.append((int(entry.name), int(fields[1]), command,
                      (int(fields[11]) + int(fields[12])) / TICK))
    return found


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICK, sum(values) / TICK


def _disk_flushes() -> tuple[int, int]:
    """(flush requests completed, ms spent on them) of the machine's disks since boot
    (Linux /proc/diskstats; zeros where the kernel does not count flushes). Each
    commit waits for one (PostgreSQL's WAL, SQLite's WAL at a checkpoint)."""
    disks = {p.name for p in Path("/sys/block").iterdir()
             if not p.name.startswith(("loop", "ram"))} if Path("/sys/block").exists() else set()
    flushes = spent = 0
    for row in Path("/proc/diskstats").read_text().splitlines():
        fields = row.split()
        if len(fields) >= 20 and fields[2] in disks:
            flushes += int(fields[18])
            spent += int(fields[19])
    return flushes, spent


@dataclass
class CpuMeter:
    """CPU seconds spent by the server (gunicorn master and workers), PostgreSQL's
    processes, this harness, and the whole machine, between start() and a report."""

    server_pid: int
    postgres: bool = False
    marks: tuple = ()

    def _now(self) -> tuple[float, ...]:
        procs = _processes()
        server = sum(cpu for pid, ppid, _, cpu in procs if self.server_pid in (pid, ppid))
        postgres = sum(cpu for _, _, command, cpu in procs if command.startswith("postgres"))
        busy, total = _machine_busy()
        return time.process_time(), server, postgres, busy, total, *_disk_flushes()

    def start(self) -> CpuMeter:
        self.marks = self._now()
        return self

    def line(self, requests: int) -> str:
        spent = (b - a for a, b in zip(self.marks, self._now(), strict=True))
        client, server, postgres, busy, total, flushes, flushing = spent
        n = max(requests, 1)
        text = (f"CPU per request: server {server / n * 1000:.2f} ms, harness client "
                f"{client / n * 1000:.2f} ms")
        if self.postgres:
            text += f", PostgreSQL {postgres / n * 1000:.2f} ms"
        else:
            postgres = 0.0
        other = max(0.0, busy - server - client - postgres)
        total = max(total, 1e-9)
        text += (f"; machine {busy / total:.0%} busy, of which other processes "
                 f"{other / total:.0%} (a busy machine makes every figure worse)")
        if flushes:
            text += (f"; disk flushes {flushes:.0f}, {flushing / flushes:.2f} ms each (every "
                     "commit waits for one: a slow disk delays every save)")
        return text


# A small HTTP/1.1 client: the load generator must cost far less CPU than the server.


class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie = ""
        self.headers: dict[str, str] = {}

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def request(self, method: str, path: str, body: object = None,
                      headers: dict[str, str] | None = None,
                      form: dict[str, str] | None = None) -> tuple[int, bytes]:
        """(status, body); a keep-alive connection the server closed is reopened once."""
        payload = b""
        head = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if body is not None:
            payload = json.dumps(body).encode()
            head["Content-Type"] = "application/json"
        elif form is not None:
            payload = "&".join(f"{k}={quote(v)}" for k, v in form.items()).encode()
            head["Content-Type"] = "application/x-www-form-urlencoded"
        if payload or method in ("POST", "PUT"):
            head["Content-Length"] = str(len(payload))
        if self.cookie:
            head["Cookie"] = self.cookie
        raw = (f"{method} {path} HTTP/1.1\r\n"
               + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n").encode() + payload
        for attempt in (0, 1):
            reused = self.writer is not None
            if not reused:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                self.writer.write(raw)
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError) as error:
                await self.close()
                if not (reused and attempt == 0 and getattr(error, "partial", b"") == b""):
                    raise
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, bytes]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                key = k.strip().lower()
                if key == "set-cookie":
                    self.cookie = v.strip().split(";", 1)[0]
                headers[key] = v.strip()
        self.headers = headers
        if status in (204, 304) or 100 <= status < 200:
            body = b""
        elif "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding") == "chunked":
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                body += await self.reader.readexactly(size + 2)
                if size == 0:
                    break
        else:
            body = await self.reader.read()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, body


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    started: list[float] = field(default_factory=list)  # perf_counter, beside latencies
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    cpu: str = ""

    def add(self, started: float, status: int | None) -> None:
        if status is None or status >= 400:
            self.errors += 1
        else:
            self.latencies.append(time.perf_counter() - started)
            self.started.append(started)
        if status is not None:
            self.statuses[status] += 1

    def line(self, name: str, seconds: float) -> str:
        ok = sorted(self.latencies)
        if not ok:
            return f"{name:<22} no successful request, errors {self.errors}"
        p50 = ok[len(ok) // 2] * 1000
        p99 = ok[min(len(ok) - 1, int(len(ok) * 0.99))] * 1000
        return (f"{name:<22} {len(ok) / seconds:8.1f} req/s   p50 {p50:6.1f} ms   "
                f"p99 {p99:6.1f} ms   errors {self.errors}   n {len(ok)}"
                + (f" ({self.statuses[304]} of them 304)" if self.statuses.get(304) else ""))

    def bursts(self, slow: float, t0: float, gap: float = 0.25) -> str:
        """Where the requests slower than ``slow`` seconds were: many begun together
        are the whole desk waiting for one thing (a disk's flush, a lock, a full
        machine); scattered ones, a busy worker. The three largest bursts."""
        times = sorted((begun, lat) for begun, lat
                       in zip(self.started, self.latencies, strict=True) if lat > slow)
        if not times:
            return f"none over {slow * 1000:.0f} ms"
        groups: list[list[tuple[float, float]]] = [[times[0]]]
        for item in times[1:]:
            if item[0] - groups[-1][-1][0] > gap:
                groups.append([])
            groups[-1].append(item)
        largest = sorted(groups, key=len, reverse=True)[:3]
        shown = "; ".join(
            f"{len(g)} begun within {(g[-1][0] - g[0][0]) * 1000:.0f} ms from "
            f"t+{g[0][0] - t0:.2f} s (slowest {max(lat for _, lat in g) * 1000:.0f} ms)"
            for g in largest)
        return (f"{len(times)} over {slow * 1000:.0f} ms "
                f"({100 * len(times) / len(self.latencies):.1f}%) in {len(groups)} "
                f"burst(s); largest: {shown}")

    def rate(self, seconds: float) -> float:
        return len(self.latencies) / seconds

    def p99(self) -> float:
        ok = sorted(self.latencies)
        return ok[min(len(ok) - 1, int(len(ok) * 0.99))] * 1000 if ok else float("inf")


async def timed(stats: Stats, conn: Connection, *args, **kwargs) -> tuple[int, bytes] | None:
    started = time.perf_counter()
    try:
        status, body = await conn.request(*args, **kwargs)
    except (OSError, asyncio.IncompleteReadError):
        stats.add(started, None)
        await conn.close()
        return None
    stats.add(started, status)
    return status, body


async def join_teams(port: int, code: str, count: int, prefix: str) -> list[str]:
    conn = Connection(port)
    tokens = []
    for i in range(count):
        status, body = await conn.request("POST", f"/api/events/{code}/teams",
                                          {"name": f"{prefix} {i}", "players": 3})
        assert status == 201, body
        tokens.append(json.loads(body)["token"])
    await conn.close()
    return tokens


async def host_call(port: int, code: str, password: str, rnd: int, action: str,
                    tries: int = 20) -> int:
    """The host's round action; sent again after its Retry-After while the server
    answers busy (a 503, errors.Busy), as the desk does, ``tries`` times at most."""
    conn = Connection(port)
    for _ in range(tries):
        status, _ = await conn.request("POST", f"/api/host/events/{code}/rounds/{rnd}/{action}",
                                       headers={"Authorization": f"Bearer {password}"})
        if status != 503:
            break
        await asyncio.sleep(float(conn.headers.get("retry-after", "1")))
    await conn.close()
    return status


async def host_login(port: int, code: str, password: str) -> Connection:
    """A host browser: session cookie and CSRF token, as the login form gives them."""
    conn = Connection(port)
    _, page = await conn.request("GET", f"/host/{code}/login")
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    status, _ = await conn.request("POST", f"/host/{code}/login",
                                   form={"password": password, "csrf_token": token})
    assert status == 302, status
    return conn


async def sheets(port: int, code: str, tokens: list[str]) -> dict[str, dict]:
    conn = Connection(port)
    result = {}
    for token in tokens:
        status, body = await conn.request("GET", f"/api/events/{code}/sheet",
                                          headers={"Authorization": f"Bearer {token}"})
        assert status == 200, body
        result[token] = json.loads(body)
    await conn.close()
    return result


def stored_text(sheet: dict, rnd: int, question: int) -> str | None:
    for r in sheet["rounds"]:
        if r["number"] == rnd:
            for q in r["questions"]:
                if q["number"] == question:
                    return (q["answer"] or {}).get("text")
    return None


# load

# What teams type for the demo's round 2 (Левски, Марица, Австрия, "Война и мир"):
# right answers, near misses, wrong ones and hedges.
TYPED = {
    1: ["Левски", "Васил Левски", "Левски Васил", "Дякона", "Ботев", "Христо Ботев",
        "Раковски", "Левски или Ботев"],
    2: ["Марица", "река Марица", "Марица?", "Тунджа", "Искър", "Хеброс"],
    3: ["Австрия", "Австралия", "Германия", "Швейцария", "Австро-Унгария"],
    4: ["Война и мир", "Война и мирът", "Анна Каренина", "Възкресение", "война мир"],
}


# Capacity connections are renewed every RECONNECT requests, as phones' come and go.
# Kept for a whole phase, 16 connections were sometimes all accepted by 1 or 2 of
# the 4 workers (each held to one core by its GIL): the ratio of the two phases then
# measured that luck (46% to 170% in one series), not the app.
RECONNECT = 50
# static/screen.js: the projector asks for its version every 1.5 s.
SCREEN_POLL = 1.5
# The phone page (bench/phone_requests.py measured it in Chromium, bench/README.md):
# static/sheet.js saves with ?with=state and polls the state 3 s after the last state
# it got (a save's answer or a poll); after each state it reads the whole sheet again
# when 10 s passed since the last read and no edit waits to be sent (the queue holds
# an edit for the 0.4 s debounce and until the save's answer); static/widgets.js
# fetches /play when the state's version moved. ``--phone-model polls9`` is the page
# before (no state in the save's answer, /play every 9 s).
STATE_POLL = 3.0
SHEET_EVERY = 10.0
SAVE_DEBOUNCE = 0.4
PLAY_POLL = 9.0
CARRIED = True  # the save asks for the state (?with=state); /play when its version moved
# A typing phone saved 14 times a minute in Chromium (one save per pause of the thumb
# of 0.4 s or more): --rate's default, rounded up; every phone of the team types.
PHONE_SAVE_RATE = 0.25


def typed_answer(rng: random.Random, question: int) -> str:
    """An answer as a phone saves it: sometimes with a slip of the thumb, sometimes
    half typed (the sheet saves while the team types)."""
    text = rng.choice(TYPED[question])
    roll = rng.random()
    if roll < 0.3 and len(text) > 3:
        at = rng.randrange(1, len(text) - 1)
        text = text[:at] + text[at + 1] + text[at] + text[at + 2:]
    elif roll < 0.5:
        text = text[:rng.randint(2, len(text))]
    return text


async def load(port: int, code: str, password: str, seconds: float, teams: int, phones: int,
               rate: float, capacity_seconds: float, concurrency: int,
               server_pid: int = 0, host_period: float = 2, postgres: bool = False,
               warmup: float = 6, numbered: bool = False) -> dict:
    """A realistic night, then the same app's capacity for saves and for a trivial GET."""

    def answer(rng: random.Random, question: int, n: int, seq: int) -> str:
        """--numbered: Latin letters and digits against Cyrillic keys, the checker's
        slowest path (transliteration and transcription tried, ~10x a typed answer)."""
        return f"phone {n} edit {seq}" if numbered else typed_answer(rng, question)

    tokens = await join_teams(port, code, teams, "Bench")
    assert await host_call(port, code, password, 2, "open") == 200
    questions = 4
    saves, polls, dashboards, sheet_reads, plays = Stats(), Stats(), Stats(), Stats(), Stats()
    desk_polls, queue_items, screen_polls, pictures = Stats(), Stats(), Stats(), Stats()
    arrivals, ramp_saves, ramp_polls = Stats(), Stats(), Stats()
    lag: list[float] = []
    # Host logins hash the password (hundreds of ms): done before the clock starts,
    # or the phones due meanwhile would all arrive at once.
    host, desk = await host_login(port, code, password), await host_login(port, code, password)
    began = time.perf_counter()
    t0 = began + warmup
    end = t0 + seconds

    async def phone(token: str, n: int) -> None:
        """Arrives in the first half of the ramp-up (opens the sheet page: a new
        connection and a sheet read), then sends what the sheet page's scripts send
        (bench/phone_requests.py measured them in Chromium): a save when the typing
        thumb pauses (``rate``, Poisson), the state poll every 3 s (static/sheet.js),
        after a poll the whole sheet again when 10 s have passed since the last read
        and no edit waits to be sent, and the rules' small poll (/play) every 9 s
        while an ordinary round is open (static/widgets.js). Only what it sends after
        the ramp-up is measured. Real phones join over minutes: 300 new connections
        and cold server pools in one instant would measure the harness's own start,
        not a round in progress."""
        conn = Connection(port)
        auth = {"Authorization": f"Bearer {token}"}
        rng, typing = random.Random(n), random.Random(-1 - n)
        arrival = began + rng.random() * warmup / 2
        await asyncio.sleep(max(0.0, arrival - time.perf_counter()))
        first = await timed(arrivals, conn, "GET", f"/api/events/{code}/sheet", headers=auth)
        sheet_read = last_save = time.perf_counter()
        held = None  # the now and version of the sheet the page holds
        if first and first[0] == 200:
            read = json.loads(first[1])
            held = (read["now"], read["version"])
        next_save = arrival + rng.expovariate(rate) if rate else end
        next_poll = arrival + STATE_POLL
        next_play = arrival + PLAY_POLL if PLAY_POLL and not CARRIED else end
        play_tag = None
        seq = 0
        version = None

        async def after_state(answer_: tuple[int, bytes] | None, measured: bool,
                              saved: bool) -> None:
            """What the page does with a state, from a poll or a save's answer: the
            sheet when 10 s passed and no edit waits (a save's answer empties the
            queue), /play when the version moved (widgets.js)."""
            nonlocal sheet_read, version, play_tag, held
            now = time.perf_counter()
            if (SHEET_EVERY and now - sheet_read > SHEET_EVERY
                    and (saved or now - last_save > SAVE_DEBOUNCE)):
                # sheet.js: what changed since the sheet it holds (the whole sheet when
                # anything else may have changed).
                since = (f"?since={urllib.parse.quote(held[0])}"
                         f"&version={urllib.parse.quote(held[1])}") if CARRIED and held else ""
                got = await timed(sheet_reads if measured else Stats(), conn, "GET",
                                  f"/api/events/{code}/sheet{since}", headers=auth)
                sheet_read = time.perf_counter()
                if CARRIED and got and got[0] == 200:
                    read = json.loads(got[1])
                    held = (read["now"], read.get("version") or (held or ("", ""))[1])
            if not CARRIED or not answer_ or answer_[0] != 200:
                return
            body = json.loads(answer_[1])
            seen = (body.get("state") or {}).get("version") if saved else body.get("version")
            if seen is None or seen == version:
                return
            known, version = version, seen
            if known is None:
                return  # the first state: the sheet read on arrival holds this part
            revalidate = {"If-None-Match": play_tag} if play_tag else {}
            got = await timed(plays if measured else Stats(), conn, "GET",
                              f"/api/events/{code}/play", headers={**auth, **revalidate})
            if got and got[0] == 200:
                play_tag = conn.headers.get("etag")

        while True:
            due = min(next_save, next_poll, next_play)
            if due >= end:
                break
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            measured = due >= t0
            if measured:
                lag.append(time.perf_counter() - due)
            if due == next_save:
                seq += 1
                q = rng.randint(1, questions)
                carried = "?with=state" if CARRIED else ""
                answer_ = await timed(saves if measured else ramp_saves, conn, "PUT",
                                      f"/api/events/{code}/answers/2/{q}{carried}",
                                      {"text": answer(typing, q, n, seq),
                                       "seq": int(time.time() * 1000)},
                                      headers=auth)
                last_save = time.perf_counter()
                next_save += rng.expovariate(rate)
                if CARRIED and answer_ and answer_[0] == 200:
                    next_poll = last_save + STATE_POLL  # sheet.js: 3 s after the last state
                    await after_state(answer_, measured, saved=True)
            elif due == next_poll:
                answer_ = await timed(polls if measured else ramp_polls, conn, "GET",
                                      f"/api/events/{code}/state")
                next_poll += STATE_POLL
                if CARRIED:
                    next_poll = max(next_poll, time.perf_counter() + STATE_POLL - 0.05)
                # sheet.js: "never over an answer being typed" (its queue is not empty
                # from the first key until the save's answer: the debounce and the save).
                await after_state(answer_, measured, saved=False)
            else:
                # The browser's fetch revalidates what it keeps: If-None-Match.
                revalidate = {"If-None-Match": play_tag} if play_tag else {}
                answer_ = await timed(plays if measured else Stats(), conn, "GET",
                                      f"/api/events/{code}/play", headers={**auth, **revalidate})
                if answer_ and answer_[0] == 200:
                    play_tag = conn.headers.get("etag")
                next_play += PLAY_POLL
        await conn.close()

    async def every(period: float, stats: Stats, conn: Connection, path: str,
                    first: float) -> None:
        """A page reloaded by hand every ``period`` seconds (the dashboard has no script)."""
        nxt = first
        while nxt < end:
            await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
            await timed(stats if nxt >= t0 else Stats(), conn, "GET", path)
            nxt += period
        await conn.close()

    async def follow(period: float, polls: Stats, fetches: Stats, conn: Connection,
                     version_path: str, fragment_path: str) -> None:
        """What review.js and screen.js do: poll a version; when it moved, fetch the
        fragment; wait ``period`` after the answer, then poll again."""
        seen = None
        nxt = began + warmup / 2
        while nxt < end:
            await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
            measured = nxt >= t0
            answer = await timed(polls if measured else Stats(), conn, "GET", version_path)
            version = json.loads(answer[1])["version"] if answer and answer[0] == 200 else seen
            if version != seen:
                seen = version
                await timed(fetches if measured else Stats(), conn, "GET", fragment_path)
            nxt = time.perf_counter() + period
        await conn.close()

    jobs = [phone(token, i * phones + p) for i, token in enumerate(tokens) for p in range(phones)]
    if host_period:
        jobs.append(follow(host_period, desk_polls, queue_items, host, f"/host/{code}/live",
                           f"/host/{code}/review/items"))
        # A second tab, opened at another moment than the review page.
        jobs.append(every(host_period, dashboards, desk, f"/host/{code}/",
                          began + warmup / 2 + host_period / 2))
    jobs.append(follow(SCREEN_POLL, screen_polls, pictures, Connection(port),
                       f"/e/{code}/screen/version", f"/e/{code}/screen/live"))

    async def metered() -> CpuMeter:
        await asyncio.sleep(max(0.0, t0 - time.perf_counter()))
        return CpuMeter(server_pid, postgres).start()

    meter, *_ = await asyncio.gather(metered(), *jobs)
    elapsed = time.perf_counter() - t0
    lag.sort()
    print(f"ramp-up, not counted below: {warmup:g} s; phones arrive in its first half, "
          "each reads its sheet, then saves and polls")
    print("  " + arrivals.line("sheet loads", warmup))
    print("  " + ramp_saves.line("answer saves", warmup))
    print("  " + ramp_polls.line("phone state polls", warmup))
    pages = (saves, polls, sheet_reads, plays, desk_polls, queue_items, dashboards,
             screen_polls, pictures)
    print(f"realistic night: {teams} teams x {phones} phones, {rate:g} save/s per phone, "
          f"state poll every {STATE_POLL:g} s"
          + ((" 3 s after the last state, a save's answer carrying one (the sheet after "
              f"a state when {SHEET_EVERY:g} s passed and no edit waits), /play when the "
              "state's version moved" if CARRIED else
              f" (the sheet after one when {SHEET_EVERY:g} s passed and no edit waits), "
              f"/play every {PLAY_POLL:g} s") if SHEET_EVERY else " (--phone-model polls)")
          + "; host review page "
          f"polling its version every "
          f"{host_period:g} s (the queue when it moved), dashboard reloaded every "
          f"{host_period:g} s; projector polling every {SCREEN_POLL:g} s (the picture when "
          f"it moved); {elapsed:.1f} s")
    print("  " + saves.line("answer saves", elapsed))
    print("  " + polls.line("phone state polls", elapsed))
    print("  " + sheet_reads.line("phone sheet reads", elapsed))
    print("  " + plays.line("phone /play polls", elapsed))
    print("  " + desk_polls.line("review version polls", elapsed))
    print("  " + queue_items.line("review queue items", elapsed))
    print("  " + dashboards.line("host dashboard", elapsed))
    print("  " + screen_polls.line("projector polls", elapsed))
    print("  " + pictures.line("projector picture", elapsed))
    print("  " + meter.line(sum(len(x.latencies) + x.errors for x in pages)))
    print("  slow saves: " + saves.bursts(0.05, t0))
    if lag:
        print(f"  client lag behind schedule: p50 {lag[len(lag) // 2] * 1000:.1f} ms, "
              f"p99 {lag[int(len(lag) * 0.99)] * 1000:.1f} ms (a phone waits for its last "
              f"answer before its next request: large = the server fell behind)")

    async def closed_loop(make) -> tuple[Stats, float]:
        return await capacity(port, make, capacity_seconds, concurrency,
                              CpuMeter(server_pid, postgres))

    typing = random.Random(0)

    def save(i: int, n: int):
        token = tokens[i % len(tokens)]
        q = n % questions + 1
        return ("PUT", f"/api/events/{code}/answers/2/{q}",
                {"text": answer(typing, q, i, n), "seq": int(time.time() * 1000) + n},
                {"Authorization": f"Bearer {token}"})

    def trivial(i: int, n: int):
        return ("GET", f"/api/events/{code}/state")

    save_cap, save_s = await closed_loop(save)
    triv_cap, triv_s = await closed_loop(trivial)
    print(f"capacity, closed loop, {concurrency} connections, {capacity_seconds:g} s each:")
    print("  " + save_cap.line("answer saves (PUT)", save_s))
    print("    " + save_cap.cpu)
    print("  " + triv_cap.line("trivial GET /state", triv_s))
    print("    " + triv_cap.cpu)
    ratio = save_cap.rate(save_s) / max(triv_cap.rate(triv_s), 1e-9)
    print(f"  saves / trivial throughput: {ratio:.0%}")
    # The night ends: an open round would be looked at by every later run's live checker.
    assert await host_call(port, code, password, 2, "close") == 200
    return {"save_rate": saves.rate(elapsed), "save_p99": saves.p99(),
            "errors": sum(x.errors for x in pages),
            "save_capacity": save_cap.rate(save_s), "trivial_capacity": triv_cap.rate(triv_s),
            "ratio": ratio}


async def capacity(port: int, make, seconds: float, concurrency: int,
                   meter: CpuMeter) -> tuple[Stats, float]:
    """A closed loop of ``concurrency`` connections sending ``make(i, n)`` for ``seconds``."""
    stats = Stats()
    stop = time.perf_counter() + seconds

    async def worker(i: int) -> None:
        conn = Connection(port)
        n = 0
        while time.perf_counter() < stop:
            n += 1
            await timed(stats, conn, *make(i, n))
            if n % RECONNECT == 0:
                await conn.close()
        await conn.close()

    began = time.perf_counter()
    meter.start()
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    stats.cpu = meter.line(len(stats.latencies) + stats.errors)
    return stats, time.perf_counter() - began


# The bare anchor (bench/bare_anchor.py): the yardstick of issue 18


def anchor_capacity(workdir: str, workers: int, threads: int, seconds: float,
                    concurrency: int, teams: int = 24, questions: int = 4,
                    postgres_url: str | None = None) -> dict:
    """The bare anchor's capacity for saves and for its trivial GET, measured as
    answerdesk's: the same server settings (gthread, keep-alive 10 s), connections,
    renewals and Cyrillic texts, right after answerdesk's own capacity phases.
    ``postgres_url``: the anchor on PostgreSQL instead (bench/bare_anchor_pg.py), in a
    schema of its own in that database, dropped afterwards."""
    here = Path(__file__).resolve().parent
    if postgres_url is None:
        module, database = "bare_anchor", os.path.join(workdir, "bare.sqlite")
        init, drop, env = [database], None, {"BARE_DB": database}
        title = "bare anchor (bench/bare_anchor.py: Flask + SQLite WAL, the least a save can do)"
    else:
        module, schema = "bare_anchor_pg", f"bare_anchor_{os.getpid()}"
        init = drop = [postgres_url, schema]
        env = {"BARE_DB": postgres_url, "BARE_SCHEMA": schema}
        title = ("bare anchor on PostgreSQL (bench/bare_anchor_pg.py: Flask + PostgreSQL, "
                 "the same work in one round trip)")
    anchor = here / f"{module}.py"
    made = subprocess.run([sys.executable, str(anchor), "init", *init, str(teams)],
                          capture_output=True, text=True, check=True)
    tokens = [line.split() for line in made.stdout.splitlines()]
    try:
        return _anchor_served(here, module, env, title, tokens, workers, threads, seconds,
                              concurrency, questions, postgres_url is not None)
    finally:
        if drop and subprocess.run([sys.executable, str(anchor), "drop", *drop],
                                   capture_output=True).returncode:
            print(f"the bare anchor's schema {drop[-1]} could not be dropped: drop it by hand")


def _anchor_served(here: Path, module: str, env: dict, title: str, tokens: list, workers: int,
                   threads: int, seconds: float, concurrency: int, questions: int,
                   postgres: bool) -> dict:
    """anchor_capacity's measurement, the anchor's database made."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-k", "gthread", "-w", str(workers), "--threads",
         str(threads), "--keep-alive", "10", "--log-level", "warning",
         "-b", f"127.0.0.1:{port}", f"{module}:app"],
        cwd=here, env={**os.environ, **env}, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the bare anchor did not start") from None
                time.sleep(0.1)
        typing = random.Random(0)

        def save(i: int, n: int):
            team, token = tokens[(i + n) % len(tokens)]
            q = n % questions + 1
            return ("PUT", f"/save/{team}/{q}", {"text": typed_answer(typing, q) + f" {i}.{n}"},
                    {"Authorization": f"Bearer {token}"})

        def trivial(i: int, n: int):
            return ("GET", "/state")

        def meter() -> CpuMeter:
            return CpuMeter(proc.pid, postgres)

        async def both():
            saves = await capacity(port, save, seconds, concurrency, meter())
            gets = await capacity(port, trivial, seconds, concurrency, meter())
            return saves, gets

        (saves, save_s), (gets, get_s) = run_async(both())
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
    print(f"{title}, the same closed loop right after, {concurrency} connections, "
          f"{seconds:g} s each:")
    print("  " + saves.line("answer saves (PUT)", save_s))
    print("    " + saves.cpu)
    print("  " + gets.line("trivial GET /state", get_s))
    print("    " + gets.cpu)
    return {"save_capacity": saves.rate(save_s), "trivial_capacity": gets.rate(get_s)}


def pg_anchor_capacity(workdir: str, args: argparse.Namespace, db_url: str) -> dict | None:
    """The anchor on PostgreSQL, or None with why when it cannot be set up there (a role
    that may not create a schema): answerdesk's own figures are printed already."""
    try:
        return anchor_capacity(workdir, args.workers, args.threads, args.capacity_seconds,
                               args.concurrency, postgres_url=db_url)
    except subprocess.CalledProcessError as failed:
        lines = (failed.stderr or "").strip().splitlines() or ["no message"]
        errors = [line for line in lines if re.match(r"[\w.]+(Error|Exception)\b", line)]
        print(f"bare anchor on PostgreSQL: not measured, its set-up failed: "
              f"{(errors or lines)[-1]}")
        return None


def shares(ours: dict, anchor: dict) -> tuple[float, float]:
    """Saves and trivial GETs a second of ``ours`` as shares of ``anchor``'s."""
    saves, gets = (ours[k] / max(anchor[k], 1e-9) for k in ("save_capacity", "trivial_capacity"))
    return saves, gets


# lock race


async def lock_race(port: int, code: str, password: str, teams: int, close_after: float,
                    rnd: int = 2) -> dict:
    """One writer per (team, question) saves as fast as it can while the host closes
    the round; every writer keeps going until it is refused."""
    tokens = await join_teams(port, code, teams, f"Race R{rnd}")
    assert await host_call(port, code, password, rnd, "open") == 200
    questions = 4 if rnd == 2 else 2
    acked: dict[tuple[str, int], int] = {}
    late = errors = refused = busy = 0
    closed_at: list[float] = []

    async def writer(token: str, q: int) -> None:
        nonlocal late, errors, refused, busy
        conn = Connection(port)
        auth = {"Authorization": f"Bearer {token}"}
        n = 0
        while n < 2000:
            n += 1
            sent = time.perf_counter()
            try:
                status, _ = await conn.request("PUT", f"/api/events/{code}/answers/{rnd}/{q}",
                                               {"text": f"edit {n}", "seq": n}, headers=auth)
            except (OSError, asyncio.IncompleteReadError):
                errors += 1
                break
            if status == 200:
                acked[(token, q)] = n
                if closed_at and sent > closed_at[0]:
                    late += 1  # sent after the close was acknowledged, yet accepted
            elif status == 409:
                refused += 1
                break
            elif status == 503:
                busy += 1  # the database could not take it in time: the phone sends again
            else:
                errors += 1
                break
        await conn.close()

    async def host() -> None:
        await asyncio.sleep(close_after)
        status = await host_call(port, code, password, rnd, "close")
        closed_at.append(time.perf_counter())
        assert status == 200, status

    await asyncio.gather(host(), *(writer(t, q) for t in tokens for q in range(1, questions + 1)))
    stored = await sheets(port, code, tokens)
    missing = sum(
        1 for (token, q), n in acked.items() if stored_text(stored[token], rnd, q) != f"edit {n}"
    )
    return {"writers": teams * questions, "acknowledged": sum(acked.values()),
            "refused": refused, "missing": missing, "late": late, "errors": errors,
            "busy": busy}


# crash


async def crash_burst(server: Served, code: str, password: str, writers: int,
                      burst: float, least: int = 0, within: float = 120) -> dict:
    """Writers save as fast as they can; kill -9 the server ``burst`` seconds after the
    first acknowledged save, once ``least`` saves are acknowledged: on a busy machine
    the workers may take long to start serving, and a fixed sleep then killed a server
    that had hardly saved. ``within`` seconds from the start bound the wait."""
    teams = max(1, writers // 4)
    tokens = await join_teams(server.port, code, teams, "Crash")
    assert await host_call(server.port, code, password, 2, "open") == 200
    acked: dict[tuple[str, int], int] = {}
    saves = 0  # acknowledged (200) replies
    first: list[float] = []  # when the first was acknowledged
    killed = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def writer(token: str, q: int) -> None:
        nonlocal saves
        conn = Connection(server.port)
        auth = {"Authorization": f"Bearer {token}"}
        n = 0
        while not killed.is_set() and n < 100_000:
            n += 1
            try:
                status, _ = await conn.request("PUT", f"/api/events/{code}/answers/2/{q}",
                                               {"text": f"edit {n}", "seq": n}, headers=auth)
            except (OSError, asyncio.IncompleteReadError):
                break
            if status == 200:
                acked[(token, q)] = n
                saves += 1
                if not first:
                    first.append(loop.time())
        await conn.close()

    async def killer() -> None:
        deadline = loop.time() + within
        while loop.time() < deadline and not (
                first and saves >= least and loop.time() - first[0] >= burst):
            await asyncio.sleep(0.05)
        server.kill()
        killed.set()

    pairs = [(t, q) for t in tokens for q in range(1, 5)][:writers]
    await asyncio.gather(killer(), *(writer(t, q) for t, q in pairs))
    return {"tokens": tokens, "acked": acked, "saves": saves}


async def crash_check(port: int, code: str, tokens: list[str],
                      acked: dict[tuple[str, int], int], saves: int) -> dict:
    stored = await sheets(port, code, tokens)
    missing = 0
    for (token, q), n in acked.items():
        text = stored_text(stored[token], 2, q) or "edit 0"
        if int(text.split()[-1]) < n:
            missing += 1
    return {"acknowledged": saves, "answers": len(acked), "missing": missing}


# command line


def run_crash(db_url: str, workdir: str, writers: int, burst: float, workers: int,
              threads: int, least: int = 0, within: float = 120) -> dict:
    """kill -9 of master and workers amid a burst of saves (crash_burst), a restart, and
    the acknowledged answers read back; each phase bounded by ``within`` seconds."""
    code, password = new_event(db_url, workdir)
    server = Served(db_url, workdir, workers, threads).start(within)
    try:
        burst_result = run_async(asyncio.wait_for(
            crash_burst(server, code, password, writers, burst, least, within), 2 * within))
    finally:
        server.kill()
    restarted = Served(db_url, workdir, workers, threads).start(within)
    try:
        return run_async(asyncio.wait_for(
            crash_check(restarted.port, code, burst_result["tokens"], burst_result["acked"],
                        burst_result["saves"]), within))
    finally:
        restarted.stop()


def run_lock_race(db_url: str, workdir: str, teams: int, close_after: float, workers: int,
                  threads: int, repeat: int) -> list[dict]:
    server = Served(db_url, workdir, workers, threads).start()
    results = []
    try:
        for i in range(repeat):
            code, password = new_event(db_url, workdir)
            results.append(run_async(lock_race(server.port, code, password, teams,
                                                 close_after * (1 + i % 3) / 2)))
    finally:
        server.stop()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("load", "lock-race", "crash"))
    parser.add_argument("--db", help="postgresql://... (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20, help="load: realistic phase")
    parser.add_argument("--capacity-seconds", type=float, default=8,
                        help="load: each capacity phase")
    parser.add_argument("--concurrency", type=int, default=16, help="load: capacity connections")
    parser.add_argument("--teams", type=int, default=None)
    parser.add_argument("--phones", type=int, default=3)
    parser.add_argument("--rate", type=float, default=None,
                        help=f"load: saves per second per phone (default {PHONE_SAVE_RATE:g}, "
                             "as the phone page measured; 1 with --phone-model polls)")
    parser.add_argument("--phone-model", choices=("page", "page9", "polls"), default="page",
                        help="load: page = what the phone page sends (bench/phone_requests.py); "
                             "page9 = the page before the save carried the state (a state "
                             "poll every 3 s, /play every 9 s); polls = the model before "
                             "issue 33 (saves and state polls only)")
    parser.add_argument("--warmup", type=float, default=6.0,
                        help="load: ramp-up seconds (phones arrive, traffic not counted)")
    parser.add_argument("--host-period", type=float, default=2.0,
                        help="load: seconds between host page reloads (0: no host pages)")
    parser.add_argument("--numbered", action="store_true",
                        help="load: save 'phone N edit K' instead of typed Bulgarian answers "
                             "(the checker's slowest path)")
    parser.add_argument("--no-anchor", dest="anchor", action="store_false",
                        help="load: skip the bare anchor's capacity (bench/bare_anchor.py)")
    parser.add_argument("--repeat", type=int, default=3, help="lock-race: rounds raced")
    parser.add_argument("--writers", type=int, default=60, help="crash: concurrent writers")
    parser.add_argument("--burst", type=float, default=2.0, help="crash: seconds before kill -9")
    args = parser.parse_args(argv)
    global SHEET_EVERY, PLAY_POLL, CARRIED
    if args.phone_model == "polls":
        SHEET_EVERY = PLAY_POLL = 0.0
    CARRIED = args.phone_model == "page"
    if args.rate is None:
        args.rate = PHONE_SAVE_RATE if args.phone_model != "polls" else 1.0
    if args.seconds > 120 or args.capacity_seconds > 60:
        parser.error("keep runs bounded: --seconds <= 120, --capacity-seconds <= 60")
    # Stopped by `timeout` or kill: run the finally clauses, which stop the server
    # (in its own session, it would otherwise serve on, and load the next run).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))

    with tempfile.TemporaryDirectory(prefix="answerdesk-bench-") as workdir:
        db_url = prepare_database(args.db, workdir)
        kind = "PostgreSQL" if db_url.startswith("postgres") else "SQLite"
        print(f"answerdesk {args.command} on {kind}, gunicorn gthread {args.workers} workers x "
              f"{args.threads} threads, {os.cpu_count()} CPUs")
        if args.command == "load":
            code, password = new_event(db_url, workdir)
            server = Served(db_url, workdir, args.workers, args.threads).start()
            try:
                with collector_paused():
                    ours = run_async(load(server.port, code, password, args.seconds,
                                          args.teams or 100, args.phones, args.rate,
                                          args.capacity_seconds, args.concurrency,
                                          server.proc.pid, args.host_period,
                                          kind == "PostgreSQL", args.warmup, args.numbered))
            finally:
                server.stop()
            if args.anchor:
                with collector_paused():
                    bare = anchor_capacity(workdir, args.workers, args.threads,
                                           args.capacity_seconds, args.concurrency)
                    bare_pg = pg_anchor_capacity(workdir, args, db_url) if kind == "PostgreSQL" \
                        else None
                saves, gets = shares(ours, bare)
                print(f"answerdesk / bare anchor, same run: saves {saves:.0%}, trivial GET "
                      f"{gets:.0%} (issue 18: at least 60%; answerdesk's rate limits off, as in "
                      "all of load)")
                if bare_pg:
                    saves, gets = shares(ours, bare_pg)
                    print(f"answerdesk / bare anchor on PostgreSQL, same run: saves {saves:.0%}, "
                          f"trivial GET {gets:.0%}")
                    saves, gets = shares(bare_pg, bare)
                    print(f"bare anchor on PostgreSQL / bare anchor on SQLite, same run: saves "
                          f"{saves:.0%}, trivial GET {gets:.0%} (what a database server beside "
                          "the app costs by itself on this machine)")
            return 0
        if args.command == "lock-race":
            results = run_lock_race(db_url, workdir, args.teams or 25, 1.0, args.workers,
                                    args.threads, args.repeat)
            for i, r in enumerate(results, 1):
                print(f"race {i}: {r['writers']} writers, {r['acknowledged']} saves acknowledged,"
                      f" {r['refused']} refused after the lock, errors {r['errors']}")
            lost = sum(r["missing"] for r in results)
            late = sum(r["late"] for r in results)
            print(f"acknowledged-but-missing: {lost}")
            print(f"accepted-after-lock: {late}")
            return 1 if lost or late or any(r["errors"] for r in results) else 0
        result = run_crash(db_url, workdir, args.writers, args.burst, args.workers, args.threads)
        print(f"{result['acknowledged']} saves acknowledged on {result['answers']} answers "
              f"before kill -9; restarted")
        print(f"acknowledged answers missing after restart: {result['missing']}")
        return 1 if result["missing"] else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
