"""Shazamm! engine benchmark: random full games per second, and the bot's move time.

    .venv/bin/python benchmarks/shazamm_engine.py [--games 300] [--bot-games 60] [--breakdown]

Pure engine work in one process (no server, no database). A "random game" goes
through the whole protocol each step: view for the seat, a uniformly random legal
payload, parse_action, apply. The bot's move time is measured on its own moves in games
against the random player, over the standard and full-hand variants.

``--breakdown`` also records the steps of 200 standard random games and times each
protocol call on its own over that record (best of 5 passes): where an action's
microseconds go, and new_state's share of a game.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.engine.rng import SeededRandom  # noqa: E402
from games.shazamm.bot import Policy, choose, play_match, random_choice  # noqa: E402
from games.shazamm.rules import ENGINE  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def counted(policy: Policy, counter: list[int]) -> Policy:
    def play(view, seat, rng):
        counter[0] += 1
        return policy(view, seat, rng)

    return play


def timed(policy: Policy, timings: list[float]) -> Policy:
    def play(view, seat, rng):
        begin = time.perf_counter()
        payload = policy(view, seat, rng)
        timings.append(time.perf_counter() - begin)
        return payload

    return play


def random_games(count: int, options: dict) -> tuple[float, int, int]:
    """(seconds, games, actions) for ``count`` games of random play. The actions are
    counted in a second, untimed pass over the same games (counting costs a call)."""
    start = time.perf_counter()
    for seed in range(count):
        play_match(ENGINE, seed, (random_choice, random_choice), options)
    seconds = time.perf_counter() - start
    actions = [0]
    player = counted(random_choice, actions)
    for seed in range(count):
        play_match(ENGINE, seed, (player, player), options)
    return seconds, count, actions[0]


def bot_moves(count: int) -> tuple[list[float], int]:
    """Seconds per bot move over ``count`` games against random play; bot wins."""
    timings: list[float] = []
    bot = timed(choose, timings)
    wins = 0
    for seed in range(count):
        options = {"variant": "full_hand"} if seed % 2 else {}
        wins += play_match(ENGINE, seed, (bot, random_choice), options) == seed % 2
    return timings, wins


def breakdown(count: int = 200) -> None:
    """Microseconds per action of each protocol call, timed apart over recorded games."""
    steps = []  # (state, seat, view, payload, action)
    for seed in range(count):
        state = ENGINE.new_state(["A", "B"], {}, seed)
        rngs = {s: SeededRandom(seed * 7919 + 17 + s) for s in (0, 1)}
        while waiting := ENGINE.waiting_for(state):
            seat = waiting[0]
            view = ENGINE.view(state, seat)
            payload = random_choice(view, seat, rngs[seat])
            action = ENGINE.parse_action(payload)
            steps.append((state, seat, view, payload, action))
            state = ENGINE.apply(state, action, seat).state
    rng = SeededRandom(1)
    calls = {
        "waiting_for": lambda st, seat, view, payload, action: ENGINE.waiting_for(st),
        "view": lambda st, seat, view, payload, action: ENGINE.view(st, seat),
        "random payload": lambda st, seat, view, payload, action: random_choice(view, seat, rng),
        "parse_action": lambda st, seat, view, payload, action: ENGINE.parse_action(payload),
        "apply": lambda st, seat, view, payload, action: ENGINE.apply(st, action, seat),
    }
    print(f"  breakdown over {len(steps)} actions of {count} standard games (µs per action):")
    total = 0.0
    for name, call in calls.items():
        best = math.inf
        for _pass in range(5):
            begin = time.perf_counter()
            for step in steps:
                call(*step)
            best = min(best, time.perf_counter() - begin)
        total += best * 1e6 / len(steps)
        print(f"    {name:<15} {best * 1e6 / len(steps):6.2f}")
    best = math.inf
    for _pass in range(5):
        begin = time.perf_counter()
        for seed in range(count):
            ENGINE.new_state(["A", "B"], {}, seed)
        best = min(best, time.perf_counter() - begin)
    per_game = best * 1e6 / count
    print(f"    {'sum':<15} {total:6.2f}  (+ new_state {per_game:.0f} µs per game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games per variant")
    parser.add_argument("--bot-games", type=int, default=60, help="bot vs random games")
    parser.add_argument("--breakdown", action="store_true", help="time each protocol call")
    args = parser.parse_args()

    print(f"Shazamm! engine benchmark — Python {platform.python_version()}")
    for label, options in (
        ("standard", {}),
        ("full hand", {"variant": "full_hand"}),
        ("physical", {"hands": "physical"}),
    ):
        seconds, games, actions = random_games(args.games, options)
        print(
            f"  random games, {label:<9}: {games / seconds:8.1f} games/s"
            f"  ({actions / games:.1f} actions/game, {actions / seconds:,.0f} actions/s,"
            f" {seconds * 1e6 / actions:.0f} µs/action)"
        )

    timings, wins = bot_moves(args.bot_games)
    micro = [t * 1e6 for t in timings]
    print(
        f"  bot move time ({len(micro)} moves): mean {sum(micro) / len(micro):.0f} µs,"
        f" p50 {percentile(micro, 50):.0f} µs, p95 {percentile(micro, 95):.0f} µs,"
        f" p99 {percentile(micro, 99):.0f} µs, max {max(micro):.0f} µs"
    )
    print(f"  bot vs random: {wins}/{args.bot_games} wins")
    if args.breakdown:
        breakdown()


if __name__ == "__main__":
    main()
