"""niceness.py: the one helper that lowers a background thread's priority (the live
checker's checking lane, the password-hashing thread)."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from answerdesk import access, livecheck, niceness


def own_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_a_niced_thread_runs_lower_and_the_others_do_not():
    before = own_nice()
    with ThreadPoolExecutor(1, initializer=niceness.niced(before + 3, "nice-test")) as lane:
        nice, tid = lane.submit(lambda: (own_nice(), threading.get_native_id())).result()
        name = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
    assert nice == before + 3
    assert name == "nice-test"
    assert own_nice() == before  # the calling thread keeps its priority


def test_a_refused_priority_is_reported_and_the_thread_still_runs(monkeypatch):
    def refuse(*args):
        raise PermissionError("not allowed")

    monkeypatch.setattr(niceness.os, "setpriority", refuse)
    refused: list[bool] = []
    with ThreadPoolExecutor(1, initializer=niceness.niced(5, refused=lambda: refused.append(True))
                            ) as lane:
        assert lane.submit(lambda: 42).result() == 42
    assert refused == [True]
    assert niceness.lower_this_thread(5) is False


@pytest.mark.parametrize("module, nice", [(livecheck, livecheck.NICENESS),
                                          (access, access.HASHING_NICE)])
def test_both_background_threads_use_the_one_helper(module, nice):
    """No copy of the helper is left: the live checker and access import it."""
    assert module.niced is niceness.niced
    assert not hasattr(module, "_lower_priority")
    assert nice > 0


def test_the_hashing_thread_runs_niced():
    if own_nice() > access.HASHING_NICE:
        pytest.skip("the tests already run at a lower priority than the hashing thread's")
    access._HASHERS.pop(os.getpid(), None)
    try:
        nice = access._hasher().submit(own_nice).result()
    finally:
        access._HASHERS.pop(os.getpid()).shutdown()
    assert nice == access.HASHING_NICE
