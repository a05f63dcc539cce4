"""Property tests: random legal play (chosen by hypothesis) keeps the duel consistent."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.shazamm.rules import ENGINE, clone_targets

SPELLS = list(range(1, 15))
# A whole game is a long example by nature.
SLOW_OK = [HealthCheck.large_base_example, HealthCheck.too_slow, HealthCheck.data_too_large]


def legal_payload(data: st.DataObject, state: dict[str, Any], seat: int) -> dict[str, Any]:
    view = ENGINE.view(state, seat)
    phase = state["phase"]
    if phase == "ordering":
        return {"type": "order", "cards": data.draw(st.permutations(SPELLS))}
    if phase == "deciding":
        options = view["pending"]["options"]
        if view["pending"]["kind"] == "recycle":
            change = data.draw(st.integers(options["min_change"], options["max_change"]))
            return {"type": "decide", "value": change}
        stolen = options["spells"]
        keep = data.draw(st.lists(st.booleans(), min_size=len(stolen), max_size=len(stolen)))
        return {"type": "decide", "value": [n for n, k in zip(stolen, keep, strict=True) if k]}
    if state["hands"] is None:
        hand = [n for n in range(15) if n not in state["discards"][seat]]
    else:
        hand = view["hands"][seat]
    spells = data.draw(st.lists(st.sampled_from(hand), unique=True)) if hand else []
    clone = None
    targets = clone_targets(view, seat)
    if 2 in spells and targets:
        clone = data.draw(st.none() | st.sampled_from(targets))
    # All-in first: the simplest example is then a short game.
    bid = data.draw(st.just(state["mana"][seat]) | st.integers(1, state["mana"][seat]))
    return {"type": "lock", "bid": bid, "spells": spells, "clone": clone}


def play(data: st.DataObject, seed: int, options: dict[str, Any]):
    """Yield (state before, seat, payload, state after) until the game is over."""
    state = ENGINE.new_state(["L", "R"], options, seed)
    for _step in range(2000):
        waiting = ENGINE.waiting_for(state)
        if not waiting:
            return
        seat = data.draw(st.sampled_from(waiting))
        payload = legal_payload(data, state, seat)
        after = ENGINE.apply(state, ENGINE.parse_action(payload), seat).state
        yield state, seat, payload, after
        state = after
    raise AssertionError("the game did not end")


options_strategy = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(["standard", "full_hand", "chosen_order"]),
        "hands": st.sampled_from(["tracked", "physical"]),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW_OK)
@given(st.data(), st.integers(0, 2**40), options_strategy)
def test_random_play_keeps_every_invariant(data, seed, options):
    last = None
    for before, seat, payload, after in play(data, seed, options):
        frozen = json.dumps(before, sort_keys=True)
        again = ENGINE.apply(before, ENGINE.parse_action(payload), seat).state
        assert json.dumps(before, sort_keys=True) == frozen  # apply never mutates
        assert again == after  # deterministic
        assert json.loads(json.dumps(after)) == after  # JSON-serialisable
        assert all(0 <= m <= 50 for m in after["mana"])
        assert 0 <= after["wall"] <= 18
        assert after["round"] <= 7
        if after["phase"] != "over":
            # One slab breaks at each end per round end: symmetric, and nobody stands
            # on a broken slab while the duel goes on.
            assert after["broken"] == after["round"] - 1
            k = after["broken"]
            assert k <= after["mages"][0] < after["wall"] < after["mages"][1] <= 18 - k
            assert after["mages"][1] - after["mages"][0] == 6
        if after["hands"] is not None:
            for s in (0, 1):
                assert 0 in after["hands"][s]  # the bluff card never leaves the hand
                cards = after["hands"][s] + after["decks"][s] + after["discards"][s]
                if after["phase"] != "ordering":
                    assert sorted(cards) == list(range(15))
        for s in (0, 1):
            assert 0 not in after["discards"][s]
            assert len(set(after["discards"][s])) == len(after["discards"][s])
        last = after
    assert last is not None and last["phase"] == "over"
    assert ENGINE.outcome(last) is not None
    assert last["round"] <= 7 and last["broken"] <= 7


@settings(max_examples=30, deadline=None, suppress_health_check=SLOW_OK)
@given(st.data(), st.integers(0, 2**40), options_strategy)
def test_replaying_the_same_actions_gives_the_same_state(data, seed, options):
    log = [(seat, payload) for _b, seat, payload, _a in play(data, seed, options)]
    states = []
    for _attempt in range(2):
        state = ENGINE.new_state(["L", "R"], options, seed)
        for seat, payload in log:
            stored = json.loads(json.dumps(ENGINE.parse_action(payload).to_payload()))
            state = ENGINE.apply(state, ENGINE.parse_action(stored), seat).state
        states.append(state)
    assert states[0] == states[1]
    assert states[0]["phase"] == "over"
