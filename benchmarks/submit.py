"""The write path alone: CPU per game action through ``services.submit_action_at``.

In this process, on PostgreSQL (``DATABASE_URL``, default the local
``segnalino_bench`` database) or, with ``--sqlite``, a fresh SQLite file: a
5-player Adrenaline table, then ``--actions`` cube adjustments (lock the session,
read its seats, apply, write the state, append the action, commit), ``--runs``
times; no sockets are listening. Prints CPU and wall milliseconds per action for
each run: the ORM's share of a tap, without a server or the live path.

    .venv/bin/python benchmarks/submit.py [--actions 200] [--runs 5] [--sqlite]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import setup_django_in_process

CHARACTERS = ["dstructor", "banshee", "dozer", "violet", "sprog"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args(argv)
    if not args.sqlite:
        os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/segnalino_bench")
        os.environ["DB_CONN_MAX_AGE"] = "600"
    vendor = setup_django_in_process(
        tempfile.mkdtemp(prefix="segnalino-submit-"), keep_database=not args.sqlite
    )

    from companion import services

    tokens = [f"phone-{i}" for i in range(len(CHARACTERS))]

    def run() -> tuple[float, float]:
        session = services.create_session(
            game="adrenaline",
            seat_names=[c.title() for c in CHARACTERS],
            options={"characters": CHARACTERS, "skulls": 8, "first_player": 0},
            host_token=tokens[0],
        )
        for index, token in enumerate(tokens):
            services.claim_seat(session, index, token)
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
        return (
            (time.process_time() - cpu) * 1000 / args.actions,
            (time.perf_counter() - wall) * 1000 / args.actions,
        )

    run()  # warm-up
    figures = [run() for _ in range(args.runs)]
    print(f"{vendor}, {args.actions} actions x {args.runs} runs, load {os.getloadavg()[0]:.1f}")
    print("CPU ms per action: " + ", ".join(f"{c:.2f}" for c, _w in figures))
    print("wall ms per action: " + ", ".join(f"{w:.2f}" for _c, w in figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
