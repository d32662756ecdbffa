"""Background threads that yield the CPU to the web workers' request threads.

Linux keeps a nice value and a scheduling policy per thread: a thread that lowers its
own (on its native thread id) leaves the process's other threads at their priority.
The live checker's checking lane (livecheck.py) and the password-hashing threads
(access.py) run so; each starts its one thread with ``niced`` or ``idled`` as the
executor's initializer. A SCHED_IDLE thread runs only on CPU no other thread of its
scheduling group wants, and is preempted as soon as one does; an unprivileged thread
cannot leave that policy again, hence a thread of its own.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable


def lower_this_thread(nice: int, name: str | None = None) -> bool:
    """Set the calling thread's nice value to ``nice`` and, given a ``name``, its name
    as `top -H` and /proc show it (at most 15 characters). False when the system
    refused the priority (not Linux, or a limit): the thread then runs as before."""
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError:
        return False
    finally:
        if name is not None:
            _name_thread(tid, name)
    return True


def idle_this_thread(name: str | None = None) -> bool:
    """Put the calling thread under SCHED_IDLE and, given a ``name``, name it (as
    lower_this_thread). False when the system has no such policy or refused it."""
    tid = threading.get_native_id()
    try:
        os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        return False
    finally:
        if name is not None:
            _name_thread(tid, name)
    return True


def _name_thread(tid: int, name: str) -> None:
    try:
        with open(f"/proc/self/task/{tid}/comm", "w") as comm:
            comm.write(name[:15])
    except OSError:
        pass  # not Linux: only the name is lost


def niced(nice: int, name: str | None = None,
          refused: Callable[[], None] | None = None) -> Callable[[], None]:
    """An executor's initializer that lowers its thread to ``nice`` (lower_this_thread);
    ``refused`` is called when the system refuses the priority."""
    def initializer() -> None:
        if not lower_this_thread(nice, name) and refused is not None:
            refused()
    return initializer


def idled(name: str | None = None, fallback_nice: int = 19) -> Callable[[], None]:
    """An executor's initializer that puts its thread under SCHED_IDLE
    (idle_this_thread), or at ``fallback_nice`` where the system has no such policy."""
    def initializer() -> None:
        if not idle_this_thread(name):
            lower_this_thread(fallback_nice, name)
    return initializer
