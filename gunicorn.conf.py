"""gunicorn's settings for answerdesk; gunicorn reads this file from the working
directory, so `make run`, the tests and bench/harness.py serve the app alike.

Threaded workers behind a buffering front (answerdesk/serving.py, issue 31): a
request takes a thread only once it has fully arrived. Phones keep their connection
open between polls (every 3 s, so keep-alive 10 s). Four processes, not 2: a host
page that computes for 30 ms holds its process's GIL, and only the saves of that
process wait for it (bench/harness.py load: a save's p99 on PostgreSQL 33-120 ms
with 2 x 16, 21-50 ms with 4 x 8). Each process has 48 threads, of which 8 run
requests: the buzzer games' live-push streams (docs/live-push.md) hold a thread each
while they wait, and new connections go to whichever process accepts first, which on
a busy machine is mostly the same one (bench/push_bench.py saw 10 of 11 on one
process). So a process holds up to THREADS - 8 streams (LIVE_STREAM_LIMIT: 40, a
whole buzzer game with its projector), while ordinary requests keep 8 slots
(REQUEST_SLOTS, answerdesk/slots.py): the concurrency, GIL and database connections
per process that the figures above were taken with. With THREADS 8 or fewer there
are no slots and streams may take half the threads.

The app loads once in the master and the workers fork from it, sharing the
checker's word lists (4 workers: 330 MB instead of 1.2 GB).

The live checker (answerdesk/livecheck.py) forks from the master too, once the
workers run: it checks the answers of open rounds as they arrive, in a process of
its own, so no web worker computes for the review queue. The workers then leave
to it what arrived in the last LIVE_CHECK_WAIT seconds. LIVE_CHECKER=0: no such
process; the review page checks everything itself.
"""

import os
import signal

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '5000')}"
# gthread with a buffering front (answerdesk/serving.py): a request takes a thread
# only once it has fully arrived; WORKER_CLASS=gthread: gunicorn's own, which reads
# a request in its thread (slow connections then hold threads: docs/security.md).
worker_class = os.environ.get("WORKER_CLASS", "answerdesk.serving.BufferingWorker")
workers = int(os.environ.get("WORKERS", "4"))
threads = int(os.environ.get("THREADS", "48"))
REQUEST_THREADS = 8
keepalive = 10
# The access log, one line a request with its status, duration and request id:
# ACCESS_LOG=- (standard output, the default), a file, or off. answerdesk/access_log.py
# writes it, not gunicorn's own Logger.access, which cost the trivial GET a fifth of
# the server's rate (bench/README.md); gunicorn's error log is unchanged.
logger_class = "answerdesk.access_log.AccessLogger"
_access = os.environ.get("ACCESS_LOG", "-")
accesslog = None if _access == "off" else _access
preload_app = True

live_checker = os.environ.get("LIVE_CHECKER", "1") != "0"
if live_checker:
    os.environ.setdefault("LIVE_CHECK_WAIT", "5")


def when_ready(server):
    from answerdesk import serving

    serving.share_address_counts(server)  # before the first worker forks
    if live_checker:
        from answerdesk import livecheck

        server.live_checker = livecheck.fork(server.app.wsgi(), server.LISTENERS)
        server.log.info("live checker started (pid %s)", server.live_checker)


def pre_fork(server, worker):
    """Each worker counts its connections per address in its own row of the server's
    shared counts (answerdesk/serving.py): the per-address cap holds for the server."""
    from answerdesk import serving

    serving.assign_address_row(server, worker)


def child_exit(server, worker):
    from answerdesk import serving

    serving.release_address_row(server, worker)


def post_fork(server, worker):
    config = server.app.wsgi().config
    if worker.cfg.threads > REQUEST_THREADS:
        config["REQUEST_SLOTS"] = REQUEST_THREADS
        config["LIVE_STREAM_LIMIT"] = worker.cfg.threads - REQUEST_THREADS
    else:
        config["LIVE_STREAM_LIMIT"] = worker.cfg.threads // 2


def post_worker_init(worker):
    """PostgreSQL: open the process's request connections before it takes a request.
    A new backend costs its fork, the password exchange and cold caches (7 ms and
    more); opened on demand, 4 x 8 of them landed on the first second of a night's
    traffic, when 300 phones load their sheets at once (bench/README.md)."""
    app = worker.wsgi
    with app.app_context():
        from answerdesk.extensions import db

        if db.engine.dialect.name != "postgresql":
            return
        opened = [db.engine.connect()
                  for _ in range(min(worker.cfg.threads, REQUEST_THREADS))]
        for connection in opened:
            connection.exec_driver_sql("SELECT 1")
            connection.close()


def on_exit(server):
    pid = getattr(server, "live_checker", None)
    if pid:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
