"""gunicorn's access log, one short line a request, at almost no cost to the request.

gunicorn's own ``Logger.access`` builds a dict of every header and environ entry for
each request and formats it through the logging module: on, it cost the trivial GET
about a fifth of the server's rate (bench/README.md). This logger formats one line
with an f-string and queues it; a thread of each worker writes the queue out every
second, and the worker writes what is left when it exits, so a line is at most about
a second late and a clean stop loses none. gunicorn's error log is left as it is.

A line: the time it finished, the client, method, request target as sent, status,
bytes sent, duration and the request id, which is the id the app's own log used for
the request (answerdesk/logs.py) when it logged one, else the ``X-Request-Id`` a
proxy set, else ``-``::

    2026-12-07 21:04:13 10.0.0.7 PUT /api/events/ABCD/answers/3 409 112 4.1ms [7f3a9c]

``accesslog`` (gunicorn.conf.py's ACCESS_LOG): ``-`` is standard output (as gunicorn
has it), anything else a file appended to and reopened on USR1 (log rotation).
"""

from __future__ import annotations

import atexit
import collections
import os
import sys
import threading
import time
from datetime import timedelta
from typing import Any

from gunicorn import glogging

from answerdesk.logs import REQUEST_ID_KEY

#: How long a line may wait in the queue before a worker's writer thread writes it.
FLUSH_SECONDS = 1.0
#: A queue this long is written at once by the request that fills it.
_MOST_QUEUED = 4096
_SPACE = {ord(" "): "\\x20"}


def clean(text: str) -> str:
    """A request target or header as one space-free, printable field.

    gunicorn decodes the request line as Latin-1; the bytes sent are read back as
    UTF-8 (a raw Cyrillic path shows as Cyrillic), and whatever is neither printable
    nor UTF-8 is written as a backslash escape, so a client cannot forge a line.
    """
    if text.isascii() and text.isprintable() and " " not in text and "\\" not in text:
        return text
    raw = text.encode("latin-1", "backslashreplace").replace(b"\\", b"\\\\")
    decoded = raw.decode("utf-8", "backslashreplace").translate(_SPACE)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in decoded)


def line(stamp: str, resp: Any, environ: dict[str, Any], request_time: timedelta) -> str:
    """One request's line, without its newline."""
    rid = environ.get(REQUEST_ID_KEY) or environ.get("HTTP_X_REQUEST_ID") or "-"
    target = environ.get("RAW_URI") or environ.get("PATH_INFO") or "-"
    sent = resp.sent
    status = getattr(resp, "status_code", None)  # set only once the app started a response
    return (f"{stamp} {environ.get('REMOTE_ADDR') or '-'} "
            f"{clean(environ.get('REQUEST_METHOD') or '-')} {clean(target)} "
            f"{status or '-'} {'-' if sent is None else sent} "
            f"{request_time.total_seconds() * 1000:.1f}ms [{clean(rid)}]")


class AccessLogger(glogging.Logger):
    """gunicorn's Logger with its own ``access``: gunicorn.conf.py's ``logger_class``."""

    _target: str | None = None
    _fd: int | None = None

    def setup(self, cfg: Any) -> None:
        old = self._fd
        if old is None:
            atexit.register(self.flush)
        else:  # a reload (HUP) sets up again
            self.flush()
            if self._target != "-":
                os.close(old)
        super().setup(cfg)
        # gunicorn's handler for the access log is replaced by the queue below.
        for handler in list(self.access_log.handlers):
            if getattr(handler, "_gunicorn", False):
                self.access_log.removeHandler(handler)
                handler.close()
        self._target = cfg.accesslog
        self._fd = None
        if self._target == "-":
            self._fd = sys.stdout.fileno()
        elif self._target:
            self._fd = self._open(self._target)
        self._queue: collections.deque[str] = collections.deque()
        self._write_lock = threading.Lock()
        self._stamp = (0, "")
        self._writer_pid = 0

    @staticmethod
    def _open(path: str) -> int:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)

    def access(self, resp: Any, req: Any, environ: dict[str, Any],
               request_time: timedelta) -> None:
        if self._fd is None:
            return
        now = int(time.time())
        second, stamp = self._stamp
        if now != second:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now))
            self._stamp = (now, stamp)
        try:
            self._queue.append(line(stamp, resp, environ, request_time))
        except Exception:
            self.exception("access log line for %r", environ.get("RAW_URI"))
        if self._writer_pid != os.getpid():
            self._start_writer()
        if len(self._queue) > _MOST_QUEUED:
            self.flush()

    def _start_writer(self) -> None:
        """The worker's writer thread; threads do not survive the fork from the master."""
        with self._write_lock:
            if self._writer_pid == os.getpid():
                return
            self._writer_pid = os.getpid()
            threading.Thread(target=self._write_every_second, name="access-log",
                             daemon=True).start()

    def _write_every_second(self) -> None:
        while True:
            time.sleep(FLUSH_SECONDS)
            self.flush()

    def flush(self) -> None:
        """Write out every queued line (the writer thread, a full queue and exit)."""
        if self._fd is None or not self._queue:
            return
        with self._write_lock:
            lines = []
            queue = self._queue
            while queue:
                lines.append(queue.popleft())
            if not lines:
                return
            data = ("\n".join(lines) + "\n").encode("utf-8", "backslashreplace")
            try:
                while data:
                    data = data[os.write(self._fd, data):]
            except OSError:
                self.exception("the access log could not be written")

    def reopen_files(self) -> None:
        """USR1 (log rotation): the lines so far go to the old file, the rest to a new one."""
        super().reopen_files()
        if self._fd is None or self._target in (None, "-"):
            return
        self.flush()
        with self._write_lock:
            fresh = self._open(self._target)
            # Onto the same descriptor: no writer ever holds a closed one.
            os.dup2(fresh, self._fd, inheritable=False)
            os.close(fresh)
