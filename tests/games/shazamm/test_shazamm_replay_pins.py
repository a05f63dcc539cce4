"""Stored games replay identically: the engine, fed the same actions, gives the same
states, views, events and refusals as the code that played them, and the seeded
random source draws the same numbers in the same order.

The digests below were computed with the engine as it was before the speed work of
issue 15 (commit 6e79e52): a change that alters any state, view, event, refusal or
deal of these games makes them differ. Never update them to make a test pass: a new
value means stored games would no longer replay the same.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from games.engine.errors import EngineError
from games.engine.rng import SeededRandom
from games.shazamm import bot
from games.shazamm.rules import ENGINE
from games.shazamm.spells import CARDS, SPELLS

VARIANTS = {
    f"{variant}-{hands}": {"variant": variant, "hands": hands}
    for variant in ("standard", "full_hand", "chosen_order")
    for hands in ("tracked", "physical")
}


def _payload(view: dict[str, Any], seat: int, rng: SeededRandom) -> dict[str, Any]:
    """A player that mostly plays legal moves and sometimes tries what the rules or
    the parser refuse (bids above its mana, cards it does not hold, bad Clones...)."""
    wild = rng.randint(0, 3) == 0
    phase = view["phase"]
    if phase == "ordering":
        cards = list(SPELLS)
        rng.shuffle(cards)
        if wild:
            cards[0] = cards[1]
        return {"type": "order", "cards": cards}
    if phase in ("deciding", "over"):
        pending = view["pending"] or {"kind": "recycle", "options": None}
        options = pending["options"]
        if pending["kind"] == "recycle":
            if wild or options is None:
                return {"type": "decide", "value": rng.randint(-6, 6)}
            return {
                "type": "decide",
                "value": rng.randint(options["min_change"], options["max_change"]),
            }
        spells = [n for n in options["spells"] if rng.randint(0, 1)]
        if wild:
            spells.append(rng.choice(SPELLS))
        return {"type": "decide", "value": spells}
    hands = view["hands"]
    spent = view["discards"][seat]
    held = hands[seat] if hands is not None else [n for n in CARDS if n not in spent]
    mana = view["mana"][seat]
    if wild:
        kind = rng.randint(0, 4)
        if kind == 0:
            return {"type": "lock", "bid": rng.randint(0, 60), "spells": []}
        if kind == 1:
            return {"type": "lock", "bid": 1, "spells": [rng.choice(CARDS)] * 2}
        if kind == 2:
            return {"type": "lock", "bid": 1, "spells": [2], "clone": rng.choice(SPELLS)}
        if kind == 3:
            return {"type": "decide", "value": 0}
        return {"type": "lock", "bid": "x"}
    spells = [n for n in held if rng.randint(0, 2) == 0]
    clone = None
    if 2 in spells and rng.randint(0, 1):
        targets = sorted(set(view["previous"][1 - seat]) | set(view["stolen"][1 - seat]))
        targets = [n for n in targets if n not in (0, 2)]
        if targets:
            clone = rng.choice(targets)
    return {"type": "lock", "bid": rng.randint(1, mana), "spells": spells, "clone": clone}


def _game_digest(seed: int, options: dict[str, Any]) -> str:
    """Every view (both seats and a spectator), payload, result and refusal of a game."""
    digest = hashlib.sha256()

    def add(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    state = ENGINE.new_state(["Left", "Right"], options, seed)
    add(state)
    rngs = {s: SeededRandom(seed * 31 + 7 + s) for s in (0, 1)}
    for step in range(2000):
        waiting = ENGINE.waiting_for(state)
        add(waiting)
        if not waiting:
            add(ENGINE.outcome(state).places)
            return digest.hexdigest()
        for viewer in (0, 1, None):
            add(ENGINE.view(state, viewer))
        seat = waiting[step % len(waiting)]
        payload = _payload(ENGINE.view(state, seat), seat, rngs[seat])
        add(payload)
        try:
            action = ENGINE.parse_action(payload)
            add(action.to_payload())
            result = ENGINE.apply(state, action, seat)
        except EngineError as error:
            add([type(error).__name__, error.message, error.params])
            continue
        add(result.events)
        add(result.state)
        state = result.state
    raise AssertionError("the game did not end")


GAME_DIGESTS = {
    "standard-tracked": ("96ec5bf9f4ebaa61c8b7881e54ca67421db86077ad0128ee089ce11fa18c4a76"),
    "standard-physical": ("1b03b87239d0ee355163e00ce151c467a1707a88aaddddc4520967787f70f19c"),
    "full_hand-tracked": ("1bee32a0b58038674b4852eafbc3bbe583ff741be126eb81ef15ae9d3c9c3b03"),
    "full_hand-physical": ("33546d74b88c923bf7b698fb7a007cab441c40a0e366b9acd8512df3b5779e4c"),
    "chosen_order-tracked": ("9c91762c7cd92bb3b68bba302215005fe89688cb6440d72b7b97ea86d1aead4a"),
    "chosen_order-physical": ("4f5d76f005c11efc9e530d3b3a5ee37c5c7a2618942c49ffb2d484ccbc6a9786"),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_seeded_games_give_the_same_states_views_events_and_refusals(name):
    digest = hashlib.sha256()
    for seed in range(12):
        digest.update(_game_digest(seed, VARIANTS[name]).encode())
    assert digest.hexdigest() == GAME_DIGESTS[name]


def _match_log(seed: int, players: tuple[bot.Policy, bot.Policy], options: dict) -> list:
    """The payloads of ``play_match``'s game (the benchmark's and the bot's games)."""
    log: list[Any] = []

    def recorded(policy: bot.Policy) -> bot.Policy:
        def play(view: dict[str, Any], seat: int, rng: SeededRandom) -> dict[str, Any]:
            payload = policy(view, seat, rng)
            log.append([seat, payload])
            return payload

        return play

    winner = bot.play_match(ENGINE, seed, (recorded(players[0]), recorded(players[1])), options)
    log.append(winner)
    return log


MATCH_DIGESTS = {
    "random-random": ("34d8bb84aa89105e18ca710fa2163a43530604d2f1018a355e86d181063e006c"),
    "bot-random": ("0642b9ef653fee36b8203db0bfc71c3e542660b07ebc32264efcc503d7979c2c"),
}


def test_the_random_player_and_the_bot_play_the_same_games():
    """The benchmark's games stay the same games, so figures compare before and after."""
    pairs = {
        "random-random": ((bot.random_choice, bot.random_choice), 8),
        "bot-random": ((bot.choose, bot.random_choice), 3),
    }
    for name, (players, seeds) in pairs.items():
        digest = hashlib.sha256()
        for seed in range(seeds):
            for options in VARIANTS.values():
                digest.update(json.dumps(_match_log(seed, players, options)).encode())
        assert digest.hexdigest() == MATCH_DIGESTS[name], name


def test_seeded_random_draws_the_same_numbers():
    first = SeededRandom(0)
    assert [first.next_u64() for _ in range(3)] == [
        6791897765849424158,
        7235116703822611636,
        13604808898340030615,
    ]
    assert SeededRandom(1).next_u64() == 16860738450190168606
    big = SeededRandom(2**64 - 1, counter=1000)
    assert [big.next_u64() for _ in range(2)] == [8775144533432799914, 4807389197559500706]
    assert SeededRandom(-5).seed == 2**64 - 5
    rng = SeededRandom(42)
    assert [rng.randint(1, 6) for _ in range(10)] == [2, 2, 3, 6, 3, 1, 1, 6, 3, 4]
    assert [rng.randint(-5, 5) for _ in range(5)] == [1, 1, 5, 5, -2]
    # A span just above 2**63 rejects about half the draws: the counter shows how many.
    rng = SeededRandom(7)
    assert [rng.randint(0, 2**63) for _ in range(6)] == [
        8581286081765471666,
        1988111358474182198,
        4854513374406671322,
        3116763096878992355,
        4196224743621838704,
        2551846050729801635,
    ]
    assert rng.counter == 11
    assert [rng.randint(0, 2**64 - 1) for _ in range(2)] == [
        10844028036091490113,
        16105962857814088967,
    ]
    cards = list(range(20))
    rng = SeededRandom(2024, counter=5)
    rng.shuffle(cards)
    assert cards == [15, 9, 11, 10, 5, 1, 8, 4, 17, 19, 12, 16, 14, 0, 13, 3, 7, 18, 6, 2]
    assert [rng.choice("abcdef") for _ in range(6)] == list("eedaad")
    assert rng.to_state() == {"seed": 2024, "counter": 30}
    assert SeededRandom.from_state({"seed": 3, "counter": 9}).next_u64() == 14927983392357216094
    with pytest.raises(ValueError):
        rng.randint(2, 1)
