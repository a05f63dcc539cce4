"""Plastic Attack engine benchmark: random full games per second, the bot's move time,
and how often the bot beats a random player.

    .venv/bin/python benchmarks/plastic_attack_engine.py [--games 200] [--bot-games 100]

Pure engine work in one process (no server, no database). A random game goes through
the whole protocol at every step (the seat's view, a uniformly random legal payload,
parse_action, apply), with the app's deck, 2 to 6 players. The bot plays two-player
games against the random player, seats alternating, seeds 0 … n-1.
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

from games.plastic_attack.bot import choose, play_match, random_choice  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot-games", type=int, default=100)
    args = parser.parse_args()

    started = time.perf_counter()
    turns = 0
    for seed in range(args.games):
        players = 2 + seed % 5
        state = play_match([random_choice] * players, {"hands": "dealt"}, seed)
        assert state["phase"] == "over", seed
        turns += state["turn"]
    elapsed = time.perf_counter() - started

    moves: list[float] = []

    def timed(view, seat, rng):
        t = time.perf_counter()
        payload = choose(view, seat, rng)
        moves.append(time.perf_counter() - t)
        return payload

    wins = 0
    for seed in range(args.bot_games):
        bot = seed % 2
        policies = [random_choice, random_choice]
        policies[bot] = timed
        wins += play_match(policies, {"hands": "dealt"}, seed)["winner"] == bot
    moves.sort()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(
        f"random full games: {args.games / elapsed:.0f}/s "
        f"({args.games} games, 2-6 players, {turns / args.games:.0f} turns on average)"
    )
    print(
        f"bot move: median {moves[len(moves) // 2] * 1e3:.3f} ms, "
        f"max {moves[-1] * 1e3:.3f} ms over {len(moves)} moves (aim: under 50 ms)"
    )
    print(f"bot against a random player: won {wins} of {args.bot_games} two-player games")


if __name__ == "__main__":
    main()
