"""niceness.py: the helpers that lower a background thread's priority (the live
checker's checking lane, the password-hashing threads)."""

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


def own_policy() -> int:
    return os.sched_getscheduler(threading.get_native_id())


def test_an_idled_thread_runs_under_sched_idle_and_the_others_do_not():
    before = own_policy()
    with ThreadPoolExecutor(1, initializer=niceness.idled("idle-test")) as lane:
        policy, tid = lane.submit(lambda: (own_policy(), threading.get_native_id())).result()
        name = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
    assert policy == os.SCHED_IDLE
    assert name == "idle-test"
    assert own_policy() == before != os.SCHED_IDLE  # the calling thread keeps its policy


def test_where_sched_idle_is_refused_the_thread_runs_at_the_fallback_nice(monkeypatch):
    def refuse(*args):
        raise PermissionError("not allowed")

    if own_nice() > 15:
        pytest.skip("the tests already run at a lower priority than the fallback's")
    monkeypatch.setattr(niceness.os, "sched_setscheduler", refuse)
    with ThreadPoolExecutor(1, initializer=niceness.idled(fallback_nice=15)) as lane:
        policy, nice = lane.submit(lambda: (own_policy(), own_nice())).result()
    assert policy != os.SCHED_IDLE and nice == 15
    assert niceness.idle_this_thread() is False


@pytest.fixture
def fresh_hashers():
    """This process's hashing threads made anew for the test, and shut down after it."""
    kept = dict(access._HASHERS)
    access._HASHERS.clear()
    yield
    for hasher in access._HASHERS.values():
        hasher.shutdown()
    access._HASHERS.clear()
    access._HASHERS.update(kept)


def test_the_first_lanes_thread_runs_niced(fresh_hashers):
    """A host's login hashes at nice 10: a share of the CPU however busy the saves."""
    if own_nice() > access.HASHING_NICE:
        pytest.skip("the tests already run at a lower priority than the hashing thread's")
    nice, policy = access._hasher(access.FIRST_LANE).submit(
        lambda: (own_nice(), own_policy())).result()
    assert nice == access.HASHING_NICE and policy != os.SCHED_IDLE


def test_the_idle_lanes_thread_runs_under_sched_idle(fresh_hashers):
    """A guesser's further checks hash only on CPU the saves leave idle (issue 31,
    finding 2)."""
    policy = access._hasher(access.IDLE_LANE).submit(own_policy).result()
    assert policy == os.SCHED_IDLE
    assert own_policy() != os.SCHED_IDLE
