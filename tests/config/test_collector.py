"""A server process's garbage collector: short young collections, none of CPython's
full ones (half a second each, every few seconds at a table's pace), and a full
collection on a clock that still frees what died in a cycle after growing old,
and only on that clock."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from config import collector
from tests.support.servers import REPO


def test_the_young_thresholds_are_cpythons_and_the_old_generation_waits_for_the_clock():
    assert collector.thresholds(None) == (700, 10, collector.NEVER)
    assert collector.thresholds("2000,5") == (2000, 5, collector.NEVER)
    assert collector.thresholds("700,10,10") == (700, 10, 10)  # CPython's own, all of it


@pytest.mark.parametrize("setting", ["700", "1,2,3,4", "0,10", "700,-1", "seven,10"])
def test_a_threshold_setting_that_means_nothing_is_refused_by_name(setting):
    with pytest.raises(ValueError, match="SEGNALINO_GC_THRESHOLDS"):
        collector.thresholds(setting)


@pytest.mark.parametrize("young", [(700,), (0, 10), (700, 10, 10, 10)])
def test_thresholds_given_in_code_are_checked_as_the_settings_are(young):
    with pytest.raises(ValueError, match="SEGNALINO_GC_THRESHOLDS"):
        collector.install(young=young, full_seconds=0)


def test_a_clock_setting_that_means_nothing_is_refused_by_name(monkeypatch):
    monkeypatch.setenv("SEGNALINO_GC_FULL_SECONDS", "ten minutes")
    with pytest.raises(ValueError, match="SEGNALINO_GC_FULL_SECONDS"):
        collector.install(young=(700, 10))


def _passes_alone(script: str) -> None:
    """Run ``script`` in an interpreter of its own (freezing and thresholds are the
    interpreter's); it prints "ok" when every assertion held."""
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_garbage_that_grew_old_is_freed_by_the_clock_and_not_before():
    script = textwrap.dedent(
        """
        import gc, time, weakref
        from config import collector

        class Node:
            pass

        full = collector.install(full_seconds=1.0)
        assert gc.get_threshold() == (700, 10, collector.NEVER), gc.get_threshold()
        assert gc.get_freeze_count() > 0  # what was alive at start-up is never walked

        node = Node()
        node.me = node  # a cycle: only the collector can free it
        gc.collect(1)
        gc.collect(1)  # now in the oldest generation
        gone = weakref.ref(node)
        del node
        for _ in range(50):  # many young collections: none walks the oldest
            [[] for _ in range(1000)]
            gc.collect(1)
        assert gone() is not None, "a young collection freed an old cycle"
        assert full.done == 0

        deadline = time.monotonic() + 5
        while gone() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gone() is None, "the full collection on the clock did not come"
        assert full.done >= 1
        full.stop()
        print("ok")
        """
    )
    _passes_alone(script)


def test_memory_outside_pythons_objects_brings_no_full_collection():
    # 2,000 sockets' compression buffers are most of a busy process's memory; no
    # collection frees them, so none comes for them (it paused every phone for half
    # a second, just after they joined): garbage that grew old waits for the clock.
    script = textwrap.dedent(
        """
        import gc, time, weakref
        from config import collector

        class Node:
            pass

        full = collector.install(full_seconds=600)
        node = Node()
        node.me = node
        gc.collect(1)
        gc.collect(1)
        gone = weakref.ref(node)
        del node
        held = b"x" * (4 * (collector.resident_bytes() or 0) + 64 * 2**20)
        time.sleep(6)  # longer than the old growth check's 5 s
        assert gone() is not None and full.done == 0, "a full collection for memory it cannot free"
        full.stop()
        print("ok")
        """
    )
    _passes_alone(script)
