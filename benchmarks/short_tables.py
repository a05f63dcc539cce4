"""What a live table does per tap while its history is short: many fresh tables.

``profile_action.py`` follows one table for hundreds of actions, so its history is
always full. Here each of ``--tables`` new 5-player Adrenaline tables (SQLite, in
this process) takes ``--actions`` hits, and after each one the script does what a
live table does for its five phones, and times only that: render both parts for
each phone (the shared one five times, where a live table renders it once: what
the history costs per render counts five times here) with the table's store of
pieces, cut them with the table's cuts, and have each phone's ``rendering.Shown``
keep what changed. Prints the median and
mean CPU milliseconds per action over the tables. Compare two trees by running it
from each, alternately:

    (cd TREE && /work/main/.venv/bin/python benchmarks/short_tables.py [--tables 30])
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "benchmarks"))

from _common import FIVE, seated_table, setup_django_in_process

CHARACTERS = FIVE
TOKENS = [f"phone-{n}" for n in range(len(CHARACTERS))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--actions", type=int, default=3, help="hits per table (default 3)")
    args = parser.parse_args(argv)
    setup_django_in_process(tempfile.mkdtemp(prefix="segnalino-short-"), catalogs=True)

    from django.utils import translation

    from companion import fragments, rendering, selectors, services
    from games.adrenaline.rules import CHARACTER_NAMES

    def one_table(number: int) -> float:
        session = seated_table(TOKENS, seat_names=[CHARACTER_NAMES[c] for c in CHARACTERS])
        store, cuts = fragments.Store(), rendering.Cuts()
        shown = [rendering.Shown() for _ in TOKENS]

        def frame(token: str, seats: list, tail: selectors.LogTail) -> rendering.Frame:
            viewer = selectors.viewer_for(session, seats, token)
            return tuple(
                piece
                for part in (rendering.PERSONAL, rendering.SHARED)
                for piece in cuts.chunks(
                    rendering.render_part(part, session, seats, viewer, "en", tail, store)
                )
            )

        session.refresh_from_db()
        seats, tail = list(session.seats.all()), selectors.log_tail(session)
        for seen, token in zip(shown, TOKENS, strict=True):
            seen.everything(frame(token, seats, tail))
        spent = 0.0
        for n in range(args.actions):
            target = CHARACTERS[1 + n % (len(CHARACTERS) - 1)]
            services.submit_action(
                session,
                {
                    "type": "shot",
                    "shooter": CHARACTERS[0],
                    "hits": [{"target": target, "damage": 1}],
                },
                token=TOKENS[0],
                key=f"k{number}-{n}",
            )
            # What a live table has in hand after a commit: the row, seats, log tail.
            session.refresh_from_db()
            seats, tail = list(session.seats.all()), selectors.log_tail(session)
            start = time.process_time()
            store.advance()
            cuts.advance()
            for seen, token in zip(shown, TOKENS, strict=True):
                seen.changes(frame(token, seats, tail))
            spent += time.process_time() - start
        return spent / args.actions

    with translation.override("en"):
        one_table(-1)  # warm-up
        spent = [one_table(n) for n in range(args.tables)]
    print(
        f"{Path.cwd()}: {args.tables} tables × {args.actions} hits; CPU ms per action "
        f"(five phones' parts rendered, cut and diffed): median "
        f"{statistics.median(spent) * 1000:.2f}, mean {statistics.mean(spent) * 1000:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
