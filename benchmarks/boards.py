"""Each game's board, rendered as a live table renders it with nothing kept.

Munchkin, Kablamo and Shazamm! have no pieces inside their boards, so a live table
renders the whole of a table's shared part (status, board, undo bar, history) after
every tap; Plastic Attack's armies and Adrenaline's boards are pieces, which a
table keeps between taps but renders whole for a table's first phone. Here, in this
process (the embedded settings on a fresh SQLite file, ``DJANGO_DEBUG=0``), a new
table of each game (seeded, three seats, two for Shazamm!, the first one taken) has
its shared part rendered ``--renders`` times in English for its seated phone, with
no store: the CPU milliseconds a render are printed, and the size of the HTML.

Compare two trees by running each in turn, alternated (``--repo`` is not needed:
run it from each tree's directory), e.g.

    (cd /tmp/before && .venv/bin/python /work/main/benchmarks/boards.py)
    .venv/bin/python benchmarks/boards.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "benchmarks"))

GAMES = ("munchkin", "kablamo", "shazamm", "plastic-attack", "adrenaline")
NAMES = ("Anna", "Bruno", "Carla")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=200, help="renders a game (timed)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated slugs")
    args = parser.parse_args(argv)

    from _common import setup_django_in_process

    setup_django_in_process(tempfile.mkdtemp(prefix="segnalino-boards-"), catalogs=True)
    from django.utils import translation

    from companion import rendering, services
    from companion.models import GameSession
    from companion.selectors import log_tail, viewer_for

    options = {"adrenaline": {"characters": ["dstructor", "banshee", "dozer"], "skulls": 5}}
    for game in args.games.split(","):
        seats = NAMES[:2] if game == "shazamm" else NAMES
        created = services.create_session(
            game=game,
            seat_names=list(seats),
            options=options.get(game, {}),
            host_token="anna",
            seed=7,
        )
        services.claim_seat(created, 0, "anna")
        session = GameSession.objects.get(pk=created.pk)
        held = list(session.seats.all())
        tail = log_tail(session)
        viewer = viewer_for(session, held, "anna")
        with translation.override("en"):
            written = rendering.render_part(rendering.SHARED, session, held, viewer, "en", tail)
            html = "".join(written)
            started = time.process_time()
            for _ in range(args.renders):
                "".join(rendering.render_part(rendering.SHARED, session, held, viewer, "en", tail))
            cpu = (time.process_time() - started) / max(args.renders, 1) * 1000
        print(f"{game:15} {len(html):6} chars  {cpu:6.3f} ms CPU a render")
    return 0


if __name__ == "__main__":
    sys.exit(main())
