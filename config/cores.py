"""A server process on one core of its own.

A server process runs Python on one thread at a time (the GIL) but has several:
the event loop and the tap threads (``companion.consumers.tap_thread``). Left to
the kernel, they run on whichever cores are free, and the interpreter passes from
one to another many times a tap (about 28 times at one table: each frame's
compression releases it twice, each read of PostgreSQL once…). Across cores each
pass is a wake-up of another core and the tables' objects carried from one core's
caches to the other's. On one core the threads take turns where they are.

Measured on two cores (benchmarks/README.md, issue 15, twenty-second pass): one
process pinned to one core carried 16–30 % more actions a second at 100 tables
(463–524 against 391–420) for 1.9–2.1 ms of CPU an action against 2.2–2.4, and a
tap reached the other phones sooner at one table (p50 1.9–2.0 ms against
2.1–2.2). PostgreSQL, Redis and anything else keep the other cores.

Who pins: ``make run`` (``config.serve``) its one process to the first core it
may use; the door (``config.door``) its worker *n* to the *n*-th, round the cores.
They say which in ``SEGNALINO_CORE`` (an index into the cores the process may run
on), and the process pins itself as its ASGI application loads
(:func:`pin_from_environment`, from ``config/asgi.py``), before its threads
start. ``SEGNALINO_PIN_CORES=0`` turns it off: for a machine shared with other busy
services, and where several servers run on one machine, in containers that see all
its cores too (each would take the same first cores). A "core" is a CPU as the
system lists them: with hyperthreads, two of them may share one physical core.
Nothing is pinned on a single core, where the process may run, or where the
system cannot pin (not Linux).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping

#: The deployer's switch: ``1`` (the default) or ``0``.
SWITCH = "SEGNALINO_PIN_CORES"
#: Set by whoever starts a server process: which of its cores it takes.
CORE = "SEGNALINO_CORE"


def wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Does the deployer let server processes pin themselves (``SEGNALINO_PIN_CORES``)?"""
    environ = os.environ if environ is None else environ
    setting = environ.get(SWITCH, "").strip() or "1"  # (set but empty: the default)
    if setting not in {"0", "1"}:
        raise ValueError(f"{SWITCH}={setting!r}: 1 (each server process on a core) or 0")
    return setting == "1"


def assign(environ: MutableMapping[str, str], index: int) -> None:
    """Tell a server process about to start (its ``environ``) to take its ``index``-th
    core, unless the deployer turned pinning off."""
    if wanted(environ):
        environ[CORE] = str(index)
    else:
        environ.pop(CORE, None)


def pin_from_environment(environ: Mapping[str, str] | None = None) -> int | None:
    """Pin this process to the core ``SEGNALINO_CORE`` names, if it names one; the
    core, or None where nothing was pinned."""
    environ = os.environ if environ is None else environ
    said = environ.get(CORE, "").strip()
    if not said or not wanted(environ):
        return None
    if not (said.isascii() and said.isdigit()):
        raise ValueError(f"{CORE}={said!r}: the index of a core (0, 1, …)")
    return pin(int(said))


def pin(index: int) -> int | None:
    """Run every thread of this process (and the threads it starts later) on one core:
    the ``index``-th of those it may run on, round their number. None where there
    is one only or the system cannot pin."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        return None
    core = allowed[index % len(allowed)]
    for thread in _threads():
        try:
            os.sched_setaffinity(thread, {core})
        except ProcessLookupError:  # a thread that ended meanwhile
            pass
    return core


def _threads() -> list[int]:
    """This process's threads (their ids), or just this one where they cannot be listed."""
    try:
        return [int(name) for name in os.listdir("/proc/self/task")]
    except OSError:
        return [0]
