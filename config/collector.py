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
rare once a process serves its tables: a tap leaves none (``rows``,
``tests/companion/test_rows.py``), nor does an HTTP request or a page
(``config/handler.py``, ``config/template_backend.py``,
``tests/companion/test_views.py``); a socket leaves a few dozen objects of its
server's when it opens. Nothing else needs the full pass. So this module turns
CPython's own full collections off and makes one on a clock instead, from a thread
of its own: a pause as long as before, every few minutes rather than every few
seconds. What is alive after start-up (Django, the templates, the catalogs) is
frozen first: never walked again.

There is no collection on growth. One used to come when the process's resident
memory had doubled since the last: at 2,000 sockets that was the sockets'
compression buffers (some 300 KB each, outside Python's objects), which no
collection frees, and each such collection paused every phone for half a second
just after they had joined (benchmarks/README.md, "Eleventh pass").

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
    """The thread that makes a full collection every ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.done = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="full-collections", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            started = time.perf_counter()
            found = gc.collect()
            self.done += 1
            logger.debug(
                "full collection: %d unreachable, %.0f ms, resident %s bytes",
                found,
                (time.perf_counter() - started) * 1000,
                resident_bytes(),
            )

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
    young: Sequence[int] | None = None, full_seconds: float | None = None
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
    return FullCollections(full_seconds) if full_seconds > 0 else None
