"""The write path alone: CPU per game action through ``services.submit_action_at``.

In this process, on PostgreSQL (``DATABASE_URL``, default the local
``segnalino_bench`` database) or, with ``--sqlite``, a fresh SQLite file: a
5-player Adrenaline table, then ``--actions`` cube adjustments (lock the session,
read its seats, apply, write the state, append the action, commit), ``--runs``
times; no sockets are listening. Prints CPU and wall milliseconds per action for
each run: the ORM's share of a tap, without a server or the live path.

With ``--table``, the session has a live table in this process, with the five
phones' sockets (stand-ins that send nothing), as in the server: each commit
renders the new revision for them in the committing thread, so the wall time per
action is the write and the renders, as a tap thread spends them before the other
phones are sent anything (on PostgreSQL the renders run while the write travels).

With ``--round-trips`` (PostgreSQL), one more run is traced by libpq and the script
prints how many times per action the client sent messages and then waited for the
server (round trips), and how many queries it sent (a query: one statement, or a
string of them sent as one message; BEGIN and COMMIT included).

    .venv/bin/python benchmarks/submit.py [--actions 200] [--runs 5] [--sqlite] [--round-trips]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import FIVE, seated_table, setup_django_in_process

CHARACTERS = FIVE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--round-trips", action="store_true")
    parser.add_argument("--table", action="store_true", help="a live table renders each commit")
    args = parser.parse_args(argv)
    if not args.sqlite:
        os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/segnalino_bench")
        os.environ["DB_CONN_MAX_AGE"] = "600"
    vendor = setup_django_in_process(
        tempfile.mkdtemp(prefix="segnalino-submit-"), keep_database=not args.sqlite
    )

    from companion import services

    tokens = [f"phone-{i}" for i in range(len(CHARACTERS))]

    def run(trace: Any = None) -> tuple[float, float]:
        session = seated_table(tokens)
        settle = _live_table(session.pk, tokens) if args.table else (lambda: None)
        if trace is not None:
            trace.start()
        cpu, wall = time.process_time(), time.perf_counter()
        for n in range(args.actions):
            services.submit_action_at(
                session.code,
                {
                    "type": "adjust",
                    "player": CHARACTERS[0],
                    "field": "red",
                    "delta": 1 if n % 2 else -1,
                },
                token=tokens[0],
                key=f"k{n}",
                seen=n,
            )
            settle()
        if trace is not None:
            trace.stop()
        return (
            (time.process_time() - cpu) * 1000 / args.actions,
            (time.perf_counter() - wall) * 1000 / args.actions,
        )

    run()  # warm-up
    figures = [run() for _ in range(args.runs)]
    print(f"{vendor}, {args.actions} actions x {args.runs} runs, load {os.getloadavg()[0]:.1f}")
    print("CPU ms per action: " + ", ".join(f"{c:.2f}" for c, _w in figures))
    print("wall ms per action: " + ", ".join(f"{w:.2f}" for _c, w in figures))
    if args.round_trips and vendor == "postgresql":
        trace = _Trace()
        run(trace)
        trips, statements = trace.counts()
        trips, statements = trips / args.actions, statements / args.actions
        print(f"round trips per action: {trips:.2f}, queries sent per action: {statements:.2f}")
    return 0


def _live_table(session_id: int, tokens: list[str]) -> Any:
    """A live table of the session in this process, with a stand-in socket per
    phone, on an event loop that runs what the commits hand it (``settle``)."""
    import asyncio

    from companion import live

    class Phone:
        spectator, language, sent = False, "en", 0

        def __init__(self, token: str) -> None:
            self.token = token

        async def refresh(self, revision: int = 0, *, full: bool = False) -> None:
            self.sent = max(self.sent, revision)

    loop = asyncio.new_event_loop()
    table = live.Table(session_id, loop)
    table.sockets.update(Phone(token) for token in tokens)
    with live._tables_lock:
        live._TABLES.setdefault(session_id, {})[loop] = table
    loop.run_until_complete(table.latest(fresh=True))

    def settle() -> None:
        loop.run_until_complete(asyncio.sleep(0))  # the table takes the offer

    return settle


class _Trace:
    """libpq's trace of the protocol messages of Django's connection, counted: a
    round trip is a run of messages the client sends (F) that ends when it reads the
    server's answer (B); a query is an Execute, or a simple Query message."""

    def start(self) -> None:
        from django.db import connection
        from psycopg import pq

        connection.ensure_connection()
        self.pgconn = connection.connection.pgconn
        self.file = tempfile.TemporaryFile("w+")
        self.pgconn.trace(self.file.fileno())
        self.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)

    def stop(self) -> None:
        self.pgconn.untrace()

    def counts(self) -> tuple[int, int]:
        self.file.seek(0)
        lines = [line.split("\t") for line in self.file.read().splitlines()]
        self.file.close()
        trips = statements = 0
        previous = "B"
        for line in lines:
            if len(line) < 3:
                continue
            direction, message = line[0], line[2]
            if direction == "F" and previous == "B":
                trips += 1
            if direction == "F" and message in ("Execute", "Query"):
                statements += 1
            previous = direction
        return trips, statements


if __name__ == "__main__":
    sys.exit(main())
