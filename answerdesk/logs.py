"""The app's own log: every line names the request and the event it concerns.

A refusal (a ``DeskError``: a locked round, a wrong password) is logged at INFO
with its code and status, an error (a 500) at ERROR with its traceback, both with
the request id and the event's code, so a host's "my phone said X at 21:04" can
be found in the log. The id is the ``X-Request-Id`` a reverse proxy set, else one
made up for the first line a request logs; the access log (answerdesk/access_log.py)
prints the same id on the request's line. Nothing is computed for a request that
logs nothing: the phone's save stays as cheap as it was.
"""

from __future__ import annotations

import logging
import os
import re
import secrets

from flask import Flask, g, has_request_context, request

FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] event=%(event)s %(name)s: %(message)s"
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
#: Where the WSGI environ keeps the id the app's log used, for the access log's line.
REQUEST_ID_KEY = "answerdesk.request_id"


def request_id() -> str:
    """The request's id: the proxy's ``X-Request-Id`` when it is a sane token."""
    if "request_id" not in g:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if _SAFE_ID.match(given) else secrets.token_hex(6)
        request.environ[REQUEST_ID_KEY] = g.request_id
    return str(g.request_id)


class RequestContext(logging.Filter):
    """Adds ``request_id`` and ``event`` (the URL's event code) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if has_request_context():
            record.request_id = request_id()
            record.event = (request.view_args or {}).get("code", "-")
        else:
            record.request_id, record.event = "-", "-"
        return True


def init_logging(app: Flask) -> None:
    """The app's logger writes to stderr (gunicorn's error log) at LOG_LEVEL (INFO)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT))
    # On the handler: a logger's own filters skip what its children hand up
    # (answerdesk.livecheck's records, outside any request, then lacked request_id).
    handler.addFilter(RequestContext())
    app.logger.handlers[:] = [handler]
    app.logger.filters[:] = [RequestContext()]
    app.logger.setLevel(os.environ.get("LOG_LEVEL", "INFO").upper())
    app.logger.propagate = False
