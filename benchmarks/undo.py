"""How long an undo holds the session lock, as the game gets longer.

Sets Django up in this process (no server), on a fresh SQLite file by default or
on the database ``DATABASE_URL`` names (PostgreSQL: the sessions it makes are
deleted at the end). For 100, 1,000 and 3,000 actions it plays an Adrenaline
table through ``services.submit_action`` (cube +1/−1 pairs and turn ends, so the
game never ends), then times, turn about, on the same table:

* ``before`` — the undo as it was: read the whole log, replay ``initial_state``
  through every action still in effect but the last, append the undo row (the
  floor the checkpoints are measured against);
* ``after``  — ``services.undo``: replay from the newest checkpoint that holds.

Each is the whole transaction (lock, reads, replay, write, commit), repeated
after re-playing the undone action; the median is printed.

    .venv/bin/python benchmarks/undo.py [--sizes 100 1000 3000] [--repeat 7]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/segnalino_bench \
        .venv/bin/python benchmarks/undo.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import setup_django_in_process  # noqa: E402

CHARACTERS = ["dstructor", "banshee", "dozer", "violet", "sprog"]
MOVES = [
    {"type": "adjust", "player": "dozer", "field": "red", "delta": 1},
    {"type": "adjust", "player": "dozer", "field": "red", "delta": -1},
    {"type": "end_turn"},
]


def old_undo(session, key: str) -> None:
    """The undo before checkpoints, kept here as the floor."""
    from django.db import transaction

    from companion import services
    from companion.models import Action, GameSession
    from games.engine.registry import get_engine

    engine = get_engine(session.game)
    with transaction.atomic():
        locked = GameSession.objects.select_for_update().get(pk=session.pk)
        Action.objects.filter(session=locked, key=key).first()
        rows = list(locked.actions.all())
        undone = {row.undoes for row in rows if row.kind == Action.Kind.UNDO}
        effective = [r for r in rows if r.kind == Action.Kind.GAME and r.version not in undone]
        target = effective[-1]
        waiting_before = engine.waiting_for(locked.state)
        state = locked.initial_state
        for row in effective[:-1]:
            state = engine.apply(state, engine.parse_action(row.payload), row.seat).state
        services._append(
            locked,
            state,
            kind=Action.Kind.UNDO,
            seat=None,
            key=key,
            payload={},
            events=[],
            undoes=target.version,
        )
        services._after_change(locked, engine, waiting_before)


def measure(size: int, repeat: int) -> dict[str, float]:
    from companion import services
    from companion.checkpoints import replay_all
    from games.engine.registry import get_engine

    engine = get_engine("adrenaline")
    session = services.create_session(
        game="adrenaline",
        seat_names=[c.title() for c in CHARACTERS],
        options={"characters": CHARACTERS, "skulls": 8, "first_player": 0},
        host_token="bench",
    )
    keys = iter(range(10**9))

    def play(move: dict) -> float:
        started = time.perf_counter()
        services.submit_action(session, move, token="bench", key=f"a{next(keys)}")
        return time.perf_counter() - started

    taps = [play(MOVES[i % len(MOVES)]) for i in range(size)]
    before, after = [], []
    for i in range(repeat):
        move = MOVES[(size + i) % 2]  # a cube +1 or −1: undone, then played again
        started = time.perf_counter()
        old_undo(session, f"old{i}")
        before.append(time.perf_counter() - started)
        play(move)
        session.refresh_from_db()
        started = time.perf_counter()
        services.undo(session, token="bench", key=f"new{i}")
        after.append(time.perf_counter() - started)
        play(move)
    session.refresh_from_db()
    assert session.state == replay_all(session, engine), "the checkpoints disagree with a replay"
    session.delete()
    return {
        "tap": statistics.median(taps[-50:]) * 1000,
        "before": statistics.median(before) * 1000,
        "after": statistics.median(after) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 3000])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        vendor = setup_django_in_process(directory, keep_database=True)
        from companion.models import CHECKPOINT_EVERY

        print(f"undo on {vendor}, a checkpoint every {CHECKPOINT_EVERY} versions,", end=" ")
        print(f"median of {args.repeat}")
        print(f"{'actions':>8} {'tap ms':>8} {'before ms':>10} {'after ms':>9} {'ratio':>6}")
        for size in args.sizes:
            r = measure(size, args.repeat)
            ratio = r["before"] / r["after"] if r["after"] else float("inf")
            figures = f"{r['tap']:>8.1f} {r['before']:>10.1f} {r['after']:>9.1f}"
            print(f"{size:>8} {figures} {ratio:>5.1f}x", flush=True)


if __name__ == "__main__":
    main()
