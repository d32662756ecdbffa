"""Request slots: at most REQUEST_SLOTS ordinary requests compute at once per process.

The buzzer games' live-push streams (docs/live-push.md) each hold a gunicorn thread
while they wait, so a process has more threads than it should run requests on
(gunicorn.conf.py). The extra threads are for the streams: an ordinary request
takes a slot before anything else runs and gives it back at its end, so requests
keep the concurrency gunicorn.conf.py was tuned for (a process's GIL, its database
connections) however many streams are open. A view marked ``long_lived`` takes no
slot. Without REQUEST_SLOTS (tests, flask run) nothing is limited.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, g, request

View = TypeVar("View", bound=Callable[..., Any])


def long_lived(view: View) -> View:
    """Mark a view that waits for most of its life (an SSE stream): it takes no slot."""
    view.long_lived = True  # type: ignore[attr-defined]
    return view


def _take() -> None:
    app = current_app
    count = app.config.get("REQUEST_SLOTS")
    view = app.view_functions.get(request.endpoint or "")
    if not count or getattr(view, "long_lived", False):
        return
    slots = app.extensions.setdefault("request_slots", threading.Semaphore(count))
    slots.acquire()
    g.request_slot = slots


def _give(_error: BaseException | None = None) -> None:
    slots = g.pop("request_slot", None)
    if slots is not None:
        slots.release()


def init_slots(app: Flask) -> None:
    """Take a slot before every other hook of the request, give it back at teardown."""
    app.before_request_funcs.setdefault(None, []).insert(0, _take)
    app.teardown_request(_give)
