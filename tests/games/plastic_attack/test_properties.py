"""Random games of Plastic Attack, every move drawn from the legal-actions list:
Power stays 0-10, every figure is in exactly one army or held captured, the 52
cards are all somewhere, every game ends, and replaying the log gives the same
game. Hypothesis draws the table (players, deck, variant, options, seed); a seeded
random player then plays the whole game, so long games stay cheap to shrink."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.rng import SeededRandom
from games.plastic_attack.cards import DECK
from games.plastic_attack.rules import ENGINE, alive, legal_actions, waiting_for

MAX_STEPS = 6000


def check(state: dict[str, Any]) -> None:
    for char in state["characters"]:
        assert 0 <= char["power"] <= 10, char
        in_army = char["army"] is not None
        held = char["captured_by"] is not None
        assert in_army != held, f"{char['name']} is in {in_army + held} places"
        if in_army:
            assert 1 <= char["power"], char
            assert not state["players"][char["army"]]["out"]
    for seat, player in enumerate(state["players"]):
        has_army = any(c["army"] == seat for c in state["characters"])
        if state["phase"] not in ("setup",):
            assert player["out"] != has_army, (seat, player)
    if state["hands"] is not None and state["phase"] != "setup":  # dealt once armies are in
        held = [c for hand in state["hands"] for c in hand]
        shields = [c for ch in state["characters"] for c in ch["shields"]]
        everything = state["deck"] + state["discard"] + held + shields + state["table"]
        assert sorted(everything) == sorted(DECK), "a card was lost or doubled"


def play(options: dict[str, Any], players: int, seed: int) -> tuple[dict, list]:
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"][:players]
    start = ENGINE.new_state(names, options, seed)
    state = start
    chooser = SeededRandom(seed ^ 0x5EED)
    log: list[tuple[int, dict[str, Any]]] = []
    for _step in range(MAX_STEPS):
        if state["phase"] == "over":
            break
        seats = waiting_for(state) or alive(state)  # "first": anyone says who drew the Ace
        seat = chooser.choice(seats)
        payload = chooser.choice(legal_actions(state, seat))
        action = ENGINE.parse_action(payload)
        assert ENGINE.parse_action(action.to_payload()) == action  # the log replays it
        before = copy.deepcopy(state)
        result = ENGINE.apply(state, action, seat)
        assert state == before, "apply mutated its input"
        state = result.state
        log.append((seat, payload))
        check(state)
    assert state["phase"] == "over", f"no winner after {MAX_STEPS} moves"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    assert sorted(s for place in outcome.places for s in place) == list(range(players))
    replay = start
    for seat, payload in log:
        replay = ENGINE.apply(replay, ENGINE.parse_action(payload), seat).state
    assert replay == state, "replaying the log gave another game"
    return state, log


@settings(max_examples=60, deadline=None)
@given(
    hands=st.sampled_from(["table", "dealt"]),
    players=st.integers(2, 6),
    fast=st.booleans(),
    luck=st.sampled_from(["current", "start"]),
    recovery=st.sampled_from(["roll", "start", "one"]),
    seed=st.integers(0, 2**63),
)
def test_random_games_keep_the_rules_bounds_and_always_end(
    hands, players, fast, luck, recovery, seed
):
    options = {"hands": hands, "fast_capture": fast, "luck": luck, "recovery_power": recovery}
    play(options, players, seed)


def test_a_dead_player_is_never_asked_to_act():
    for seed in range(20):
        _state, log = play({"hands": "dealt"}, 4, seed)
        outs: set[int] = set()
        replay = ENGINE.new_state(["A", "B", "C", "D"], {"hands": "dealt"}, seed)
        for seat, payload in log:
            assert seat not in outs or replay["phase"] == "setup"
            replay = ENGINE.apply(replay, ENGINE.parse_action(payload), seat).state
            outs = {s for s, p in enumerate(replay["players"]) if p["out"]}


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**63))
def test_bots_fill_every_seat_and_play_a_dealt_game_to_its_end_from_their_own_views(players, seed):
    from games.plastic_attack.bot import choose

    state = ENGINE.new_state([f"Bot {n}" for n in range(players)], {"hands": "dealt"}, seed)
    rng = SeededRandom(seed)
    for _step in range(MAX_STEPS):
        if state["phase"] == "over":
            break
        seat = waiting_for(state)[0]
        view = ENGINE.view(state, seat)
        assert all(hand is None for s, hand in enumerate(view["hands"]) if s != seat)
        payload = choose(view, seat, rng)
        assert payload in legal_actions(state, seat) or payload["type"] in ("army", "special")
        state = ENGINE.apply(state, ENGINE.parse_action(payload), seat).state
        check(state)
    assert state["phase"] == "over"
