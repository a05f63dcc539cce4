"""The server's event-loop lag, for benchmarks only: ``config.asgi`` wrapped.

``latency.py --server-probe`` serves ``probe:application`` instead of
``config.asgi:application``: the same application, plus a task on the server's
event loop that sleeps 5 ms again and again and notes how late it wakes (the time
every other ready callback waited: renders, pongs, the GIL held by a tap thread),
a thread that does the same with ``time.sleep`` (it wakes late by as long as it
waits for the GIL, as a tap thread does after each database round trip), the
garbage collector's collections (how many, how long, per generation), and one
path, ``GET /__probe__``, that answers what was noted since the last such request
(lateness p50/p95/p99/max in ms and how many wake-ups; collections) and starts
again.

It also notes the event loop's stalls over 50 ms (when, how long) and the CPU time
of each collection. With ``SEGNALINO_PROBE_GARBAGE=run`` (``latency.py
--server-garbage run``) the collector keeps what it finds unreachable from the first
``/__probe__`` on (``gc.DEBUG_SAVEALL``), and the next one answers what that was:
the reference cycles the server made meanwhile, by type and by function (``connect``
instead of ``run``: from start-up, the sockets' connections included).

``SEGNALINO_SWITCH_INTERVAL`` (seconds) sets ``sys.setswitchinterval`` in the
server process: how long a thread holding the GIL keeps it while another waits
(CPython's default 0.005).

With ``SEGNALINO_PROBE_TRACE=1`` (``latency.py --server-trace``) it also notes the
moment a tap passes each step of its way through the server (:data:`STEPS`: the
socket's message, the tap thread, the lock, the write, the render ahead, the commit,
the event loop's turn, the frames) by wrapping those functions, and answers, per
step, how long after the tap's message it came (p50, p95, p99 over the taps,
one in flight at a time): where a tap's milliseconds go, as a CPU profile cannot
say (it counts no waiting). Nothing of the application changes.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import importlib
import json
import os
import statistics
import sys
import threading
import time
from collections import Counter
from typing import Any

from config.asgi import application as served

if os.environ.get("SEGNALINO_SWITCH_INTERVAL"):
    sys.setswitchinterval(float(os.environ["SEGNALINO_SWITCH_INTERVAL"]))

TICK = 0.005
_late: list[float] = []
_thread_late: list[float] = []
_task: asyncio.Future | None = None
#: (generation, seconds, CPU seconds of the collecting thread) of each collection
_collections: list[tuple[int, float, float]] = []
_collecting_since = (0.0, 0.0)
#: The event loop's stalls over 50 ms: (seconds since the last summary, ms late)
_stalls: list[tuple[float, float]] = []
_since = time.perf_counter()


def _on_collection(phase: str, info: dict[str, int]) -> None:
    global _collecting_since
    if phase == "start":
        _collecting_since = (time.perf_counter(), time.thread_time())
    else:
        wall, cpu = _collecting_since
        _collections.append(
            (info["generation"], time.perf_counter() - wall, time.thread_time() - cpu)
        )


gc.callbacks.append(_on_collection)
_GARBAGE = os.environ.get("SEGNALINO_PROBE_GARBAGE", "")
if _GARBAGE == "connect":
    gc.set_debug(gc.DEBUG_SAVEALL)


async def _probe() -> None:
    while True:
        start = time.perf_counter()
        await asyncio.sleep(TICK)
        late = time.perf_counter() - start - TICK
        _late.append(late)
        if late > 0.05:
            _stalls.append((round(start - _since, 2), round(late * 1000, 1)))


def _thread_probe() -> None:
    while True:
        start = time.perf_counter()
        time.sleep(TICK)
        _thread_late.append(time.perf_counter() - start - TICK)


def _summary() -> dict[str, Any]:
    found = {**_quantiles(_late), "switch_interval_s": sys.getswitchinterval()}
    found["thread"] = _quantiles(_thread_late)
    found["gc"] = {
        str(generation): {
            "n": len(took),
            "ms": round(sum(t for t, _ in took) * 1000, 1),
            "max_ms": round(max(t for t, _ in took) * 1000, 1),
            "cpu_ms": round(sum(c for _, c in took) * 1000, 1),
        }
        for generation in (0, 1, 2)
        if (took := [(t, c) for g, t, c in _collections if g == generation])
    }
    # What the next collections walk: each generation's size and commonest types.
    found["generations"] = {}
    for generation in (0, 1, 2):
        objects = gc.get_objects(generation)
        common = Counter(type(o).__name__ for o in objects).most_common(8)
        found["generations"][str(generation)] = {"n": len(objects), "types": common}
        del objects
    found["stalls"] = _stalls[:20]
    resident = _resident()
    found["resident_mb"] = round(resident / 2**20) if resident else None
    if _GARBAGE:
        found["garbage"] = _garbage()
    if os.environ.get("SEGNALINO_PROBE_TRACE"):
        found["path"] = _path()
    _late.clear()
    _thread_late.clear()
    _stalls.clear()
    global _since
    _since = time.perf_counter()
    _collections.clear()
    return found


# ---------------------------------------------------------------- a tap's way

#: (module, owner in it or "", function, its step when called, when it returns;
#: "" for none). A socket's ``refresh`` returns once its frame is sent.
STEPS = (
    ("companion.consumers", "SessionConsumer", "_tap", "the socket's message", "answered"),
    (
        "companion.consumers",
        "SessionConsumer",
        "_apply_tap",
        "the tap thread runs",
        "its work done",
    ),
    ("companion.consumers", "", "close_old_connections", "", "its connection back in the pool"),
    ("companion.rows", "", "lock_with_seats", "lock sent", "locked, seats read"),
    ("companion.rows", "", "write_action", "write ready", "write and COMMIT answered"),
    ("companion.live", "", "render_ahead", "render ahead starts", "rendered ahead"),
    ("companion.live", "", "offer", "committed: offered", ""),
    ("companion.live", "Table", "offer", "the loop has the revision", ""),
    ("companion.live", "Table", "_deliver", "its sockets are told", ""),
    ("companion.live", "Relay", "_send", "the publish to Redis starts", "published"),
    ("companion.consumers", "SessionConsumer", "refresh", "", "a frame sent"),
)
_marks: list[tuple[int, str]] = []  # (perf_counter_ns, step), from any thread


def _mark(step: str) -> None:
    _marks.append((time.perf_counter_ns(), step))  # one append: safe across threads


def _wrapped(function: Any, before: str, after: str) -> Any:
    if asyncio.iscoroutinefunction(function):

        async def stepping(*args: Any, **kwargs: Any) -> Any:
            if before:
                _mark(before)
            try:
                return await function(*args, **kwargs)
            finally:
                if after:
                    _mark(after)

    else:

        def stepping(*args: Any, **kwargs: Any) -> Any:
            if before:
                _mark(before)
            try:
                return function(*args, **kwargs)
            finally:
                if after:
                    _mark(after)

    return functools.wraps(function)(stepping)


def _trace() -> None:
    """Wrap each step's function where its callers look it up (a module's or a
    class's attribute)."""
    for module, owner, name, before, after in STEPS:
        holder = importlib.import_module(module)
        holder = getattr(holder, owner) if owner else holder
        setattr(holder, name, _wrapped(getattr(holder, name), before, after))


def _path() -> list[dict[str, Any]]:
    """Per step, ms after the tap's message (``_quantiles``' figures over the taps): each tap
    is what happened from its message to the next tap's. Frames: the first and the
    last sent after the loop had the revision."""
    marks = sorted(_marks)
    _marks.clear()
    first = "the socket's message"
    starts = [i for i, (_, step) in enumerate(marks) if step == first]
    after: dict[str, list[float]] = {}
    ends = [*starts[1:], len(marks)] if starts else []
    for begin, end in zip(starts, ends, strict=True):
        t0 = marks[begin][0]
        seen: dict[str, float] = {}
        frames: list[float] = []
        for at, step in marks[begin + 1 : end]:
            ms = (at - t0) / 1e6
            if step == "a frame sent":
                if "the loop has the revision" in seen and "answered" not in seen:
                    frames.append(ms)
            else:
                seen.setdefault(step, ms)
        if frames:
            seen["first frame sent"], seen["last frame sent"] = frames[0], frames[-1]
        for step, ms in seen.items():
            after.setdefault(step, []).append(ms)
    order = sorted(after, key=lambda step: statistics.median(after[step]))
    return [{"step": step, **_quantiles([ms / 1000 for ms in after[step]])} for step in order]


if os.environ.get("SEGNALINO_PROBE_TRACE"):
    _trace()


def _resident() -> int | None:
    """As ``config.collector.resident_bytes``, which an older tree served with
    ``--repo`` does not have."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _garbage() -> dict[str, Any]:
    """The reference cycles found unreachable since the last call, and keep the
    next ones."""
    gc.collect()
    found = gc.garbage[:]
    gc.garbage.clear()
    gc.set_debug(gc.DEBUG_SAVEALL)
    functions = Counter(
        getattr(o, "__qualname__", "?")
        for o in found
        if type(o).__name__ in ("function", "coroutine", "method")
    )
    return {
        "n": len(found),
        "types": Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in found).most_common(
            15
        ),
        "functions": functions.most_common(8),
    }


def _quantiles(samples: list[float]) -> dict[str, Any]:
    late = sorted(samples)
    if not late:
        return {"n": 0}

    def q(p: float) -> float:
        return round(late[min(len(late) - 1, int(p * len(late)))] * 1000, 2)

    return {
        "n": len(late),
        "p50": q(0.50),
        "p95": q(0.95),
        "p99": q(0.99),
        "max": round(late[-1] * 1000, 2),
    }


async def application(scope: dict, receive: Any, send: Any) -> None:
    global _task
    if _task is None:
        _task = asyncio.ensure_future(_probe())
        threading.Thread(target=_thread_probe, name="probe", daemon=True).start()
    if scope["type"] == "http" and scope["path"] == "/__probe__":
        body = json.dumps(_summary()).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})
        return
    await served(scope, receive, send)
