"""The bot for an empty seat: it beats a random player, and it plays from its own
seat's view only (it is never handed another hand)."""

from __future__ import annotations

from games.plastic_attack.bot import choose, play_match, random_choice
from games.plastic_attack.rules import ENGINE


def test_the_bot_beats_a_random_player_in_at_least_90_of_100_two_player_games():
    wins = 0
    for seed in range(100):
        bot = seed % 2  # the bot sits first in half the games
        policies = [random_choice, random_choice]
        policies[bot] = choose
        state = play_match(policies, {"hands": "dealt"}, seed)
        assert state["phase"] == "over"
        wins += state["winner"] == bot
    assert wins >= 90, f"the bot won {wins} of 100"  # 96 when measured (benchmarks/)


def test_the_bot_is_only_ever_given_its_own_hand():
    seen: list[dict] = []

    def watching(view, seat, rng):
        seen.append(view)
        others = [hand for index, hand in enumerate(view["hands"]) if index != seat]
        assert all(hand is None for hand in others), "the bot was shown another hand"
        assert view["rng"] is None and isinstance(view["deck"], int)
        return choose(view, seat, rng)

    state = play_match([watching, random_choice, random_choice], {"hands": "dealt"}, seed=5)
    assert state["phase"] == "over" and len(seen) > 10
    assert ENGINE.outcome(state) is not None
