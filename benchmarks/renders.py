"""A tap's renders alone: what a live table renders of each new revision.

In this process (the embedded settings on a fresh SQLite file, ``DJANGO_DEBUG=0``,
as ``profile_action.py``): a 5-player Adrenaline table takes ``--warmup`` taps, then
``--revisions`` more (a few hits, then cube adjustments, as ``latency.py`` sends),
each revision read back as the table's snapshot would hold it (the session, its
seats, and the log's tail extended by the revision's row, as a live table extends
it). Then, timed, the first ``--renders`` of those revisions are
rendered in turn with one table's stores of pieces and cuts, as a live table
renders a revision for five seated phones: the shared part once, each phone's
personal part, each cut in fragments. No sockets, no database in the timed part.

It prints wall and CPU milliseconds per revision. On this shared machine those move
by a quarter from run to run; to compare two trees, count instructions instead
(the same figure whatever the load): run it under callgrind with two values of
``--renders`` and divide the difference, e.g.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/r10 \\
        .venv/bin/python benchmarks/renders.py --renders 10
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/r50 \\
        .venv/bin/python benchmarks/renders.py --renders 50
    # (totals of /tmp/r50 - totals of /tmp/r10) / 40 = instructions a revision

(both runs make the same ``--revisions``, so everything but the 40 renders cancels).
``--profile`` prints the cProfile table of the timed renders; ``--parts`` times, on
the last revision with its pieces kept, what its renders are made of (the shared
part's values, the shared part with every piece found kept, its cut, a personal
part, and the shared part with nothing kept).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import seated_table, setup_django_in_process
from profile_action import CHARACTERS, action_fields, phone_client

SHOTS = 8 * (len(CHARACTERS) - 1)  # action_fields' shots: eight a target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=50, help="revisions rendered (timed)")
    parser.add_argument(
        "--revisions", type=int, default=60, help="revisions made first (≥ --renders)"
    )
    parser.add_argument("--warmup", type=int, default=20, help="taps before those")
    parser.add_argument(
        "--taps",
        choices=["cubes", "shots"],
        default="cubes",
        help="what the timed revisions are: cube adjustments (a few hits first, in the "
        "warm-up) or shots, a damage each (the table's first 32 taps; then at most "
        "--warmup + --revisions = 32)",
    )
    parser.add_argument(
        "--parts",
        action="store_true",
        help="also time, on the last revision with everything it uses kept, what a "
        "revision's renders are made of: the shared part's values, the shared part with "
        "every piece found kept, its cut, one phone's personal part, and the shared part "
        "with nothing kept (medians of 300 runs, CPU µs)",
    )
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="tottime")
    args = parser.parse_args(argv)
    if args.renders > args.revisions:
        parser.error("--renders may not exceed --revisions")
    if args.taps == "shots" and args.warmup + args.revisions > SHOTS:
        parser.error(f"--taps shots: at most {SHOTS} taps (--warmup + --revisions)")

    setup_django_in_process(tempfile.mkdtemp(prefix="segnalino-renders-"), catalogs=True)
    from django.utils import translation

    from companion import fragments, rendering
    from companion.models import Action, GameSession
    from companion.selectors import log_tail, viewer_for

    tokens = [f"phone-{i}" for i in range(len(CHARACTERS))]
    session = seated_table(tokens, edit_policy="table")
    client = phone_client(tokens[0])
    url, headers = f"/s/{session.code}/act", {"HX-Request": "true"}
    snapshots = []
    tail = None
    for n in range(args.warmup + args.revisions):
        # Shots: action_fields' first 32. Cubes: a few hits, then cube pairs.
        fields = action_fields(n if args.taps == "shots" or n < 16 else 100 + n)
        answer = client.post(url, {**fields, "key": f"k-{n}"}, headers=headers)
        assert answer.status_code == 200, answer.content[:300]
        if n >= args.warmup:
            stored = GameSession.objects.get(pk=session.pk)
            # The log's tail as a live table holds it: read once, then extended by
            # each new row (Table.after), so the rows it keeps are the same objects.
            row = Action.objects.get(session=stored, version=stored.version)
            tail = (tail.extended(row) if tail is not None else None) or log_tail(stored)
            snapshots.append((stored, list(stored.seats.all()), tail))

    pieces, cuts = fragments.Store(), rendering.Cuts()

    def render(stored: GameSession, seats: list, tail: object) -> None:
        pieces.advance()
        cuts.advance()
        for index, token in enumerate(tokens):
            viewer = viewer_for(stored, seats, token)
            # Five seated phones share one shared part (the session edits as a table).
            parts = (rendering.PERSONAL, rendering.SHARED) if index == 0 else (rendering.PERSONAL,)
            for part in parts:
                cuts.chunks(rendering.render_part(part, stored, seats, viewer, "en", tail, pieces))

    profiler = cProfile.Profile() if args.profile else None
    wall, cpu = [], []
    # One language, the table's store in use throughout (as ``live._in_turn`` does).
    with translation.override("en"), fragments.using(pieces, "en"):
        if profiler:
            profiler.enable()
        for stored, seats, tail in snapshots[: args.renders]:
            started, cpu_started = time.perf_counter(), time.process_time()
            render(stored, seats, tail)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
        if profiler:
            profiler.disable()
    if wall:
        print(
            f"{len(wall)} revisions rendered: ms each (median / mean) "
            f"wall {statistics.median(wall):.2f} / {statistics.mean(wall):.2f}, "
            f"CPU {statistics.median(cpu):.2f} / {statistics.mean(cpu):.2f}"
        )
    if profiler:
        pstats.Stats(profiler).strip_dirs().sort_stats(args.sort).print_stats(40)
    if args.parts:
        parts(snapshots[args.renders - 1], tokens, pieces, cuts)
    return 0


def parts(snapshot: tuple, tokens: list[str], pieces: Any, cuts: Any) -> None:
    """:func:`main`'s ``--parts``: the pieces of one revision's renders, timed apart."""
    from django.utils import translation

    from companion import fragments, rendering
    from companion.selectors import table_context, viewer_for

    stored, seats, tail = snapshot
    host, other = (viewer_for(stored, seats, token) for token in tokens[:2])

    def part(which: str, viewer: Any, store: Any) -> Callable[[], object]:
        return lambda: rendering.render_part(which, stored, seats, viewer, "en", tail, store)

    written = part(rendering.SHARED, host, pieces)
    timed: list[tuple[str, Callable[[], object], int]] = [
        ("the shared part's values (table_context)", lambda: table_context(
            stored, host, seats=list(seats), tail=tail), 300),
        ("the shared part, every piece kept", written, 300),
        ("its cut (Cuts.chunks)", lambda: cuts.chunks(chunks), 300),
        ("one phone's personal part, kept", part(rendering.PERSONAL, other, pieces), 300),
        ("the shared part, nothing kept", lambda: part(
            rendering.SHARED, host, fragments.Store())(), 100),
    ]  # fmt: skip
    with translation.override("en"), fragments.using(pieces, "en"):
        chunks = written()
        for label, call, runs in timed:
            times = []
            for _ in range(runs):
                started = time.process_time_ns()
                call()
                times.append(time.process_time_ns() - started)
            print(f"  {label + ':':<42} {statistics.median(times) / 1000:7.1f} µs CPU (median)")


if __name__ == "__main__":
    sys.exit(main())
