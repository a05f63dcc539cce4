"""The garbage collector of a server process: short pauses, and a full pass on a clock.

CPython's collector stops every thread while it walks a generation, so each
collection is a pause for every phone of the process. Its young generations are
cheap to walk (about a microsecond an object): collected often, with CPython's own
thresholds, each pause is a few milliseconds. The oldest generation is the whole
process (a table's caches and each socket's state: about half a million objects at
2,000 sockets), and CPython walks it whenever a quarter as many objects again have
reached it, which at a table's pace is every few seconds and half a second each
(measured: benchmarks/README.md, "Seventh pass").

Objects that reach the oldest generation and then die in a reference cycle are
rare once a process serves its tables (a socket that closes, an HTTP request that
was in flight across two young collections): nothing else needs the full pass.
So this module turns CPython's own full collections off and makes one on a clock
instead, from a thread of its own (a pause as long as before, every few minutes
rather than every few seconds), and sooner when the process has doubled
since the last one (2,000 phones connecting at once leave as much garbage again
as what they hold, which would otherwise wait for the clock). What is alive after
start-up (Django, the templates, the catalogs) is frozen first: never walked again.

``SEGNALINO_GC_THRESHOLDS``: the young thresholds (default ``700,10``, CPython's);
a third number gives CPython back its own full collections at that threshold.
``SEGNALINO_GC_FULL_SECONDS``: between two full collections (default 600; 0: none
on a clock).
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections.abc import Sequence

logger = logging.getLogger(__name__)

YOUNG = (700, 10)
FULL_SECONDS = 600.0
#: How often the thread looks at the process's size, and the growth since the last
#: full collection that brings the next one forward.
CHECK_SECONDS = 5.0
GROWTH = 2.0
#: A threshold for the oldest generation that is never reached: a count of
#: collections of the middle one (two a second at a table's pace).
NEVER = 1_000_000_000


def resident_bytes() -> int | None:
    """The process's resident memory (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class FullCollections:
    """The thread that makes a full collection every ``seconds``, or as soon as
    the process has grown by :data:`GROWTH` since the last one."""

    def __init__(self, seconds: float, check_seconds: float = CHECK_SECONDS) -> None:
        self.seconds = seconds
        self.check_seconds = min(check_seconds, seconds)
        self.done = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="full-collections", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        size = resident_bytes()
        due = time.monotonic() + self.seconds
        while not self._stop.wait(self.check_seconds):
            now_size = resident_bytes()
            grown = size is not None and now_size is not None and now_size > size * GROWTH
            if time.monotonic() < due and not grown:
                continue
            started = time.perf_counter()
            found = gc.collect()
            self.done += 1
            logger.debug(
                "full collection (%s): %d unreachable, %.0f ms",
                "grown" if grown else "clock",
                found,
                (time.perf_counter() - started) * 1000,
            )
            size = resident_bytes()
            due = time.monotonic() + self.seconds

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def thresholds(setting: str | None) -> tuple[int, ...]:
    """The collector's thresholds from ``SEGNALINO_GC_THRESHOLDS``: the young ones,
    and the oldest's (:data:`NEVER` unless given)."""
    try:
        numbers = tuple(int(n) for n in setting.split(",")) if setting else YOUNG
    except ValueError:
        numbers = ()
    return _checked(numbers, setting)


def _checked(numbers: tuple[int, ...], said: object) -> tuple[int, ...]:
    """Two positive young thresholds, or three (the oldest's too); the oldest's is
    :data:`NEVER` unless given. ``said``: what the deployer wrote, for the refusal."""
    if not 2 <= len(numbers) <= 3 or min(numbers) < 1:
        raise ValueError(
            f"SEGNALINO_GC_THRESHOLDS={said!r}: two positive numbers (the young "
            "generations' thresholds), or three (the oldest's too)"
        )
    return numbers if len(numbers) == 3 else (*numbers, NEVER)


def install(
    young: Sequence[int] | None = None,
    full_seconds: float | None = None,
    check_seconds: float = CHECK_SECONDS,
) -> FullCollections | None:
    """Freeze what is alive, set the thresholds and start the full collections
    (from the environment unless given)."""
    if young is None:
        limits = thresholds(os.environ.get("SEGNALINO_GC_THRESHOLDS"))
    else:
        limits = _checked(tuple(young), young)
    if full_seconds is None:
        setting = os.environ.get("SEGNALINO_GC_FULL_SECONDS", str(FULL_SECONDS))
        try:
            full_seconds = float(setting)
        except ValueError:
            raise ValueError(
                f"SEGNALINO_GC_FULL_SECONDS={setting!r}: seconds between two full "
                "collections (0: none on a clock)"
            ) from None
    gc.collect()
    gc.freeze()
    gc.set_threshold(*limits)
    return FullCollections(full_seconds, check_seconds) if full_seconds > 0 else None
