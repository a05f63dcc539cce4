"""A phone opening its table: the server's CPU for the page, and the garbage it leaves.

In this process (the embedded settings on a fresh SQLite file, ``DJANGO_DEBUG=0``,
as ``renders.py``), a 5-player Adrenaline table; its page is asked for through the
server's own ASGI application (``config.asgi``: the middleware, the view, the
templates), ``--loads`` times, as a phone's browser asks for it when it opens the
table or comes back to it. Printed: CPU milliseconds a page (median and mean), and
the objects each page load leaves in reference cycles, which only a full collection
of the garbage collector frees (``config/collector.py``: such a collection pauses
every phone of the process), by type.

    .venv/bin/python benchmarks/page_load.py [--loads 300]

Run it from two trees to compare them (the figures move by a tenth from run to run
on this shared machine; the garbage does not move).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import seated_table, setup_django_in_process
from profile_action import CHARACTERS

from tests.support.asgi import get

HOST = "127.0.0.1"  # one the production-like settings allow


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=300, help="page loads measured")
    args = parser.parse_args(argv)

    setup_django_in_process(tempfile.mkdtemp(prefix="segnalino-page-"), catalogs=True)
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark")
    os.environ["SEGNALINO_GC_FULL_SECONDS"] = "0"  # no collection of its own meanwhile
    from django.conf import settings

    from config.asgi import application

    tokens = [f"phone-{i}" for i in range(len(CHARACTERS))]
    session = seated_table(tokens, edit_policy="table")
    cookie = f"{settings.SESSION_COOKIE_NAME}=none".encode()
    path = f"/s/{session.code}/"

    async def run() -> None:
        for _ in range(20):  # warm: templates compiled, catalogs read
            assert (await get(application, path, cookie, HOST))[0] == 200
        gc.collect()
        cpu = []
        for _ in range(args.loads):
            started = time.process_time()
            await get(application, path, cookie, HOST)
            cpu.append((time.process_time() - started) * 1000)
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        loads = 50
        for _ in range(loads):
            await get(application, path, cookie, HOST)
        gc.collect()
        garbage = collections.Counter(type(o).__qualname__ for o in gc.garbage)
        gc.set_debug(0)
        gc.garbage.clear()
        print(
            f"{args.loads} page loads: CPU ms each (median / mean) "
            f"{statistics.median(cpu):.2f} / {statistics.mean(cpu):.2f}"
        )
        print(
            f"objects left in reference cycles, a page load: {sum(garbage.values()) / loads:.0f}"
            + "".join(f"; {name} {n / loads:g}" for name, n in garbage.most_common(8))
        )

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
