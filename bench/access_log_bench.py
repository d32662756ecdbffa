"""The cost of one access-log line: gunicorn's stock Logger.access against answerdesk's
AccessLogger (answerdesk/access_log.py), in the same run (issue 32).

Both write to a file in a temporary directory; the request is a phone's save as gunicorn
hands it over (its environ, 11 request headers, 5 response headers). gunicorn's Logger
formats the format the project used (`%(h)s "%(r)s" %(s)s %(b)s %(M)sms
[%({x-request-id}i)s]`) through the logging module and writes each line; AccessLogger
queues it, and its writing (flush) is counted in its time. Rounds alternate between the
two; the figure is each one's median CPU microseconds a call (the thread's CPU time, which
a busy machine disturbs less than the clock), and the ratio stock / ours.

    python bench/access_log_bench.py [--calls 20000] [--rounds 9]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from gunicorn import glogging
from gunicorn.config import Config

from answerdesk.access_log import AccessLogger

STOCK_FORMAT = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms [%({x-request-id}i)s]'
PATH = "/api/events/K7Q2/answers/3"
REQUEST_HEADERS = [
    ("HOST", "quiz.example"), ("USER-AGENT", "Mozilla/5.0 (Linux; Android 14) Chrome/131"),
    ("ACCEPT", "application/json"), ("ACCEPT-LANGUAGE", "bg,en;q=0.8"),
    ("ACCEPT-ENCODING", "gzip, deflate, br"), ("CONTENT-TYPE", "application/json"),
    ("CONTENT-LENGTH", "61"), ("AUTHORIZATION", "Bearer t0k3n-of-the-team-abcdef"),
    ("X-REQUEST-ID", "9c1e4f2a7b30"), ("X-FORWARDED-FOR", "10.0.0.7"), ("CONNECTION", "keep-alive"),
]


def request() -> tuple[SimpleNamespace, SimpleNamespace, dict, timedelta]:
    environ = {
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.multithread": True,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.input": None,
        "wsgi.errors": None, "wsgi.file_wrapper": None, "wsgi.input_terminated": True,
        "SERVER_SOFTWARE": "gunicorn/27", "REQUEST_METHOD": "PUT", "QUERY_STRING": "",
        "RAW_URI": PATH, "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.0.0.7",
        "REMOTE_PORT": "51234", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000",
        "PATH_INFO": PATH, "SCRIPT_NAME": "",
        **{"HTTP_" + name.replace("-", "_"): value for name, value in REQUEST_HEADERS},
    }
    req = SimpleNamespace(headers=REQUEST_HEADERS)
    resp = SimpleNamespace(status="200 OK", status_code=200, sent=98, headers=[
        ("Content-Type", "application/json"), ("Content-Length", "98"),
        ("Cache-Control", "no-store"), ("Vary", "Cookie"), ("Connection", "keep-alive")])
    return resp, req, environ, timedelta(microseconds=4100)


def make(cls: type[glogging.Logger], target: Path) -> glogging.Logger:
    cfg = Config()
    cfg.set("accesslog", str(target))
    cfg.set("access_log_format", STOCK_FORMAT)
    return cls(cfg)


def per_call_us(log: glogging.Logger, calls: int) -> float:
    resp, req, environ, took = request()
    access = log.access
    start = time.thread_time()
    for _ in range(calls):
        access(resp, req, environ, took)
    if isinstance(log, AccessLogger):
        log.flush()
    return (time.thread_time() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stock = make(glogging.Logger, Path(tmp) / "stock.log")
        stock_times, ours_times = [], []
        for _ in range(args.rounds):
            stock_times.append(per_call_us(stock, args.calls))
            # gunicorn's loggers are module-wide: each set-up takes the access log over.
            ours = make(AccessLogger, Path(tmp) / "ours.log")
            ours_times.append(per_call_us(ours, args.calls))
            stock = make(glogging.Logger, Path(tmp) / "stock.log")
        lines = sum(1 for _ in open(Path(tmp) / "ours.log"))
        stock_lines = sum(1 for _ in open(Path(tmp) / "stock.log"))
    s, o = statistics.median(stock_times), statistics.median(ours_times)
    print(f"{args.rounds} rounds x {args.calls} calls; lines written: stock {stock_lines}, "
          f"ours {lines}")
    print(f"gunicorn Logger.access: median {s:.2f} us/call "
          f"(rounds {', '.join(f'{t:.2f}' for t in stock_times)})")
    print(f"AccessLogger.access:    median {o:.2f} us/call "
          f"(rounds {', '.join(f'{t:.2f}' for t in ours_times)})")
    print(f"ratio stock / ours: {s / o:.1f}x")


if __name__ == "__main__":
    main()
