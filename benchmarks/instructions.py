"""Instructions a tap or a revision, counted by callgrind: the figure a loaded
machine does not move.

Two runs that differ only in how many taps (or renders) they make; everything
else (start-up, connecting the phones, the set-up taps) cancels in their
difference, which is divided by the difference in taps:

* ``server``: ``latency.py --backend pg --sessions 0 --single-actions N
  --server-callgrind DIR`` for N = ``--taps`` (default 40 and 240): the one server
  process's instructions a tap at one table (five phones), deflate, Redis and
  PostgreSQL's client included, the kernel not. Needs PostgreSQL and Redis, as
  ``latency.py --backend pg`` does.
* ``renders``: ``renders.py --renders N`` under callgrind (default 10 and 50): a
  revision's renders in this process, as a live table renders them for five
  phones (no sockets, no database).
* ``bare`` and ``floor``: as ``server``, for the bare server (``bare.py``: no
  framework) or the floor (``floor.py``: Django + Channels doing almost nothing)
  served alone under callgrind and tapped at one table by ``latency.py``'s
  phones, this tree's code: what the same taps cost with no framework, and with
  the framework and no work.

With ``--repo`` the server serves (or ``renders.py`` runs from) that tree, so two
trees are compared by two commands. A tree's server figure still moves by a few
percent from run to run (the heartbeats and reads that fall within a tap depend on
timing); the renders figure moves by a fraction of a percent. Needs valgrind;
prints the reason and exits 2 without it.

    .venv/bin/python benchmarks/instructions.py server --repo /tmp/before
    .venv/bin/python benchmarks/instructions.py renders
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOTALS = re.compile(rb"^(?:totals|summary):\s+(\d+)", re.MULTILINE)


def total(path: Path) -> int:
    """The instructions a callgrind output file counts in all."""
    found = TOTALS.search(path.read_bytes())
    if found is None:
        raise RuntimeError(f"{path}: no totals line (did the run finish?)")
    return int(found.group(1))


def server_run(repo: Path, taps: int, out: Path) -> int:
    """One ``latency.py`` run of ``taps`` at one table, its server under callgrind."""
    command = [
        sys.executable,
        str(HERE / "latency.py"),
        "--backend",
        "pg",
        "--sessions",
        "0",
        "--single-actions",
        str(taps),
        "--server-callgrind",
        str(out),
        "--repo",
        str(repo),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    files = sorted(out.glob("callgrind.*"))
    if done.returncode != 0 or len(files) != 1:
        tail = (done.stdout + done.stderr)[-2000:]
        raise RuntimeError(f"latency.py with {taps} taps did not finish cleanly:\n{tail}")
    return total(files[0])


def app_run(app: str, taps: int, out: Path) -> int:
    """``taps`` at one table on ``app`` (``bare`` or ``floor``), served by uvicorn
    from this tree under callgrind, as ``latency.py --bare``/``--floor`` serve it."""
    import asyncio

    import latency
    from _common import REDIS_URL_BENCH, REPO, serve, server_env_at, temp_dir

    with temp_dir() as directory:
        env = server_env_at(REPO, "pg", directory, REDIS_URL_BENCH, log_level="ERROR")
        log = out / "server.log"
        with serve(
            REPO,
            env,
            log,
            app=f"{app}:application",
            server="uvicorn",
            extra_path=str(HERE),
            callgrind=out,
        ) as base:
            latency.FLOOR_BASES.add(base)
            done = asyncio.run(
                latency.scenario(base, sessions=1, actions=taps, concurrency=1, budget=3600)
            )
    files = sorted(out.glob("callgrind.*"))
    if done["actions"] != taps or done["errors"] or len(files) != 1:
        raise RuntimeError(f"{app} with {taps} taps did not finish cleanly: {done}")
    return total(files[0])


def renders_run(repo: Path, renders: int, out: Path) -> int:
    """One ``renders.py`` run of ``renders`` revisions under callgrind."""
    target = out / "callgrind.out"
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={target}",
        sys.executable,
        str(repo / "benchmarks" / "renders.py"),
        "--renders",
        str(renders),
    ]
    # The same hash seed in both runs: string hashing decides dict layouts.
    env = {**os.environ, "PYTHONHASHSEED": "0", "DJANGO_DEBUG": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False, cwd=repo)
    if done.returncode != 0:
        raise RuntimeError(f"renders.py --renders {renders} failed:\n{done.stderr[-2000:]}")
    return total(target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["server", "renders", "bare", "floor"])
    parser.add_argument("--repo", type=Path, default=HERE.parent, help="the tree to count")
    parser.add_argument(
        "--taps",
        type=int,
        nargs=2,
        metavar=("FEWER", "MORE"),
        help="taps (server) or renders of the two runs (default 40 240, or 10 50)",
    )
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("skipped: valgrind is not installed (apt-get install -y valgrind)")
        return 2
    fewer, more = args.taps or ((10, 50) if args.what == "renders" else (40, 240))
    if not 0 < fewer < more:
        parser.error("--taps: two counts, the first smaller")
    if args.what in {"bare", "floor"}:
        if args.repo.resolve() != HERE.parent:
            parser.error(f"{args.what}: this tree's only (no --repo)")
        app = args.what

        def run(_repo: Path, taps: int, out: Path) -> int:
            return app_run(app, taps, out)

    else:
        run = server_run if args.what == "server" else renders_run
    with tempfile.TemporaryDirectory(prefix="segnalino-instructions-") as scratch:
        outs = [Path(scratch) / str(taps) for taps in (fewer, more)]
        for out in outs:
            out.mkdir()
        # The renders' two runs side by side (a process each, nothing shared); the
        # server's one after the other (they share the benchmark database).
        workers = 2 if args.what == "renders" else 1
        with ThreadPoolExecutor(max_workers=workers) as pool:
            repo = args.repo.resolve()
            counts = list(pool.map(run, [repo, repo], [fewer, more], outs))
    each = (counts[1] - counts[0]) / (more - fewer)
    unit = {
        "server": "tap on the server",
        "renders": "revision's renders",
        "bare": "tap on the bare server",
        "floor": "tap on the floor",
    }[args.what]
    print(f"{args.repo.resolve()}: {counts[0]:,} and {counts[1]:,} instructions in all")
    print(f"{each:,.0f} instructions a {unit} (({counts[1]:,} - {counts[0]:,}) / {more - fewer})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
