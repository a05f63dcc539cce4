"""Shazamm! engine benchmark: random full games per second, and the bot's move time.

    .venv/bin/python benchmarks/shazamm_engine.py [--games 300] [--bot-games 60]

Pure engine work in one process (no server, no database). A "random game" goes
through the whole protocol each step: view for the seat, a uniformly random legal
payload, parse_action, apply. The bot's move time is measured on its own moves in games
against the random player, over the standard and full-hand variants.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

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
    """(seconds, games, actions) for ``count`` games of random play."""
    actions = [0]
    player = counted(random_choice, actions)
    start = time.perf_counter()
    for seed in range(count):
        play_match(ENGINE, seed, (player, player), options)
    return time.perf_counter() - start, count, actions[0]


def bot_moves(count: int) -> tuple[list[float], int]:
    """Seconds per bot move over ``count`` games against random play; bot wins."""
    timings: list[float] = []
    bot = timed(choose, timings)
    wins = 0
    for seed in range(count):
        options = {"variant": "full_hand"} if seed % 2 else {}
        wins += play_match(ENGINE, seed, (bot, random_choice), options) == seed % 2
    return timings, wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games per variant")
    parser.add_argument("--bot-games", type=int, default=60, help="bot vs random games")
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


if __name__ == "__main__":
    main()
