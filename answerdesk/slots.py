"""Request slots: at most REQUEST_SLOTS ordinary requests compute at once per process.

The buzzer games' live-push streams (docs/live-push.md) each hold a gunicorn thread
while they wait, so a process has more threads than it should run requests on
(gunicorn.conf.py). The extra threads are for the streams: an ordinary request
takes a slot before anything else runs and gives it back at its end, so requests
keep the concurrency gunicorn.conf.py was tuned for (a process's GIL, its database
connections) however many streams are open. A view marked ``long_lived`` takes no
slot while it waits, only for its own reads (``slot()``). Without REQUEST_SLOTS
(tests, flask run) nothing is limited.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from flask import Flask, current_app, g, request

View = TypeVar("View", bound=Callable[..., Any])


def long_lived(view: View) -> View:
    """Mark a view that waits for most of its life (an SSE stream): it takes no slot."""
    view.long_lived = True  # type: ignore[attr-defined]
    return view


def _slots() -> threading.Semaphore | None:
    count = current_app.config.get("REQUEST_SLOTS")
    if not count:
        return None
    return current_app.extensions.setdefault("request_slots", threading.Semaphore(count))


@contextmanager
def slot() -> Iterator[None]:
    """A long-lived view's own short work (its database reads), in a slot like any
    request, so streams that connect at once cannot take more connections either."""
    slots = _slots()
    if slots is None:
        yield
        return
    with slots:
        yield


def _take() -> None:
    view = current_app.view_functions.get(request.endpoint or "")
    slots = None if getattr(view, "long_lived", False) else _slots()
    if slots is not None:
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
