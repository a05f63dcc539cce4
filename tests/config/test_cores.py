"""A server process on one core of its own (config/cores.py): who asks for it, and
that the process then runs there, threads and all."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from config import cores
from tests.support.servers import REPO

several_cores = pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs Linux and at least two cores this process may run on",
)


def test_whoever_starts_a_server_process_names_its_core_unless_the_deployer_says_no():
    environ: dict[str, str] = {}
    cores.assign(environ, 3)
    assert environ[cores.CORE] == "3"
    environ = {cores.SWITCH: "0", cores.CORE: "1"}
    cores.assign(environ, 2)
    assert cores.CORE not in environ  # off: nothing named, and nothing left from before


def test_a_mistyped_switch_or_core_is_refused_with_what_to_write():
    with pytest.raises(ValueError, match=r"SEGNALINO_PIN_CORES='yes': 1 .* or 0"):
        cores.wanted({cores.SWITCH: "yes"})
    with pytest.raises(ValueError, match="SEGNALINO_CORE='first': the index of a core"):
        cores.pin_from_environment({cores.CORE: "first"})


def test_a_switch_set_but_empty_is_the_default_and_a_core_must_be_plain_digits():
    assert cores.wanted({cores.SWITCH: ""}) is True
    with pytest.raises(ValueError, match="the index of a core"):
        cores.pin_from_environment({cores.CORE: "²"})


def test_make_run_refuses_a_mistyped_switch_in_a_line_and_starts_nothing():
    env = {**os.environ, "PYTHONPATH": str(REPO), cores.SWITCH: "yes"}
    done = subprocess.run(
        [sys.executable, "-m", "config.serve", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert done.returncode == 1
    assert (
        done.stderr.strip() == "SEGNALINO_PIN_CORES='yes': 1 (each server process on a core) or 0"
    )


def test_nothing_is_pinned_unless_a_core_is_named_or_when_turned_off():
    assert cores.pin_from_environment({}) is None
    assert cores.pin_from_environment({cores.CORE: "0", cores.SWITCH: "0"}) is None


def _pinned_in_a_process(environ: dict[str, str]) -> dict[str, list[int]]:
    """What a fresh process that pins itself then runs on: itself, a thread it had
    already started, and one it starts after."""
    program = """
import json, os, threading
started = threading.Event(); stop = threading.Event()
def before():
    started.set(); stop.wait()
early = threading.Thread(target=before); early.start(); started.wait()
from config import cores
cores.pin_from_environment()
seen = {}
def after():
    seen["after"] = sorted(os.sched_getaffinity(0))
late = threading.Thread(target=after); late.start(); late.join()
seen["main"] = sorted(os.sched_getaffinity(0))
seen["before"] = sorted(os.sched_getaffinity(early.native_id))
stop.set(); early.join()
print(json.dumps(seen))
"""
    env = {**os.environ, "PYTHONPATH": str(REPO), **environ}
    done = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


@several_cores
def test_a_server_process_runs_on_the_core_it_was_given_with_all_its_threads():
    allowed = sorted(os.sched_getaffinity(0))
    seen = _pinned_in_a_process({cores.CORE: "1"})
    assert seen == {"main": [allowed[1]], "before": [allowed[1]], "after": [allowed[1]]}
    # The door's fifth worker on a machine of fewer cores: round them.
    seen = _pinned_in_a_process({cores.CORE: str(len(allowed) + 1)})
    assert seen["main"] == [allowed[1]]


@several_cores
def test_a_process_told_not_to_pin_keeps_every_core():
    allowed = sorted(os.sched_getaffinity(0))
    seen = _pinned_in_a_process({cores.CORE: "0", cores.SWITCH: "0"})
    assert seen == {"main": allowed, "before": allowed, "after": allowed}
