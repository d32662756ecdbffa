"""Slow connections against the venue set-up (issue 31, finding 3).

Starts the app as `make run` serves it (gunicorn.conf.py: 4 workers of 48 threads
behind the buffering front of answerdesk/serving.py), lets a phone save an answer
every 100 ms, then opens SLOW connections from another address (127.0.0.2) that send
a request header one byte every 2 s (slowloris, --mode header) or a save's complete
header and then its body one byte every 2 s (--mode body), and measures the saves
while they hang on, and after they are closed. --worker gthread: gunicorn's own
threaded worker, as before the front.

    python bench/slowloris_bench.py [--slow 200] [--mode header|body] [--seconds 10]
                                    [--threads 48] [--worker gthread]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Served, new_event, prepare_database  # noqa: E402


def _saves(url: str, code: str, token: str, seconds: float) -> list[float]:
    times: list[float] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        started = time.perf_counter()
        try:
            ok = requests.put(f"{url}/api/events/{code}/answers/2/1", json={"text": "Канбера"},
                              headers={"Authorization": f"Bearer {token}"},
                              timeout=5).status_code == 200
        except requests.RequestException:
            ok = False
        times.append((time.perf_counter() - started) * 1000 if ok else float("inf"))
        time.sleep(0.1)
    return times


ATTACKER = "127.0.0.2"  # another address than the phone's (the whole 127/8 is loopback)


def _opening(mode: str, code: str, token: str) -> bytes:
    """What a slow connection sends at once: part of a header, or a save's whole
    header announcing a body that then comes a byte at a time."""
    if mode == "header":
        return b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n"
    return (f"PUT /api/events/{code}/answers/2/1 HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 4096\r\n\r\n").encode()


def _line(name: str, times: list[float]) -> str:
    ok = sorted(t for t in times if t != float("inf"))
    p50 = statistics.median(ok) if ok else float("nan")
    failed = len(times) - len(ok)
    return f"{name:<34} saves {len(times):>4}  failed/timed out {failed:>4}  p50 {p50:8.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--threads", type=int, default=48)
    parser.add_argument("--mode", choices=("header", "body"), default="header")
    parser.add_argument("--worker", default=None, help="gunicorn worker class (WORKER_CLASS)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        db_url = prepare_database(None, workdir)
        code, password = new_event(db_url, workdir)
        env = {"WORKER_CLASS": args.worker} if args.worker else {}
        server = Served(db_url, workdir, workers=4, threads=args.threads, env=env).start()
        socks: list[socket.socket] = []
        stop = threading.Event()
        try:
            url = server.url
            token = requests.post(f"{url}/api/events/{code}/teams", json={"name": "Phone"},
                                  timeout=10).json()["token"]
            requests.post(f"{url}/api/host/events/{code}/rounds/2/open", timeout=10,
                          headers={"Authorization": f"Bearer {password}"})
            alone = _saves(url, code, token, args.seconds)
            opened = refused = 0
            for _ in range(args.slow):
                try:
                    s = socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                                 source_address=(ATTACKER, 0))
                    s.sendall(_opening(args.mode, code, token))
                    opened += 1
                    socks.append(s)
                except OSError:
                    refused += 1

            dropped: set[socket.socket] = set()

            def trickle() -> None:
                while not stop.wait(2):
                    for s in socks:
                        try:
                            s.sendall(b"X")
                        except OSError:
                            dropped.add(s)

            threading.Thread(target=trickle, daemon=True).start()
            time.sleep(1)
            attacked = _saves(url, code, token, args.seconds)
            stop.set()
            for s in socks:
                s.close()
            after = _saves(url, code, token, 3)
        finally:
            stop.set()
            server.stop()
    print(_line("saves alone", alone))
    print(f"{args.slow} slow connections ({args.mode}) from {ATTACKER}: {opened} opened, "
          f"{refused} refused at once, {len(dropped)} closed by the server while trickling")
    print(_line(f"with {args.slow} slow connections", attacked))
    print(_line("after they closed", after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
