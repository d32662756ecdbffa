"""Slow connections against the venue set-up (issue 31, finding 3): what they do today.

Starts the app as `make run` serves it (gunicorn.conf.py: 4 gthread workers of 48
threads), lets a phone save an answer every 100 ms, then opens SLOW connections that
send a request header one byte every 2 s (slowloris) and measures the saves while they
hang on, and after they are closed.

    python bench/slowloris_bench.py [--slow 200] [--seconds 10] [--threads 48]
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
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        db_url = prepare_database(None, workdir)
        code, password = new_event(db_url, workdir)
        server = Served(db_url, workdir, workers=4, threads=args.threads).start()
        socks: list[socket.socket] = []
        stop = threading.Event()
        try:
            url = server.url
            token = requests.post(f"{url}/api/events/{code}/teams", json={"name": "Phone"},
                                  timeout=10).json()["token"]
            requests.post(f"{url}/api/host/events/{code}/rounds/2/open", timeout=10,
                          headers={"Authorization": f"Bearer {password}"})
            alone = _saves(url, code, token, args.seconds)
            for _ in range(args.slow):
                s = socket.create_connection(("127.0.0.1", server.port))
                s.sendall(b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n")
                socks.append(s)

            def trickle() -> None:
                while not stop.wait(2):
                    for s in socks:
                        try:
                            s.sendall(b"X")
                        except OSError:
                            pass

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
    print(_line(f"with {args.slow} slowloris connections", attacked))
    print(_line("after they closed", after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
