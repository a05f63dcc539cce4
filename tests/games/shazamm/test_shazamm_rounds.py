"""The wall, running out of mana, the end of a round, falls, draws and card draws."""

from __future__ import annotations

from typing import Any

from games.engine.protocol import Outcome
from games.shazamm.rules import ENGINE, Lock


def duel(variant: str = "full_hand", **changes: Any) -> dict[str, Any]:
    state = ENGINE.new_state(["Left", "Right"], {"variant": variant}, seed=7)
    state.update(changes)
    return state


def lock(bid: int, *spells: int) -> Lock:
    return Lock(bid=bid, spells=tuple(sorted(spells)))


def turn(state: dict[str, Any], left: Lock, right: Lock) -> tuple[dict[str, Any], list[dict]]:
    first = ENGINE.apply(state, left, 0)
    second = ENGINE.apply(first.state, right, 1)
    return second.state, first.events + second.events


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def test_the_duel_starts_in_the_middle_of_a_19_slab_bridge():
    state = duel("standard")
    assert state["slabs"] == 19 and state["broken"] == 0
    assert state["wall"] == 9 and state["mages"] == [6, 12]
    assert state["mana"] == [50, 50]
    assert state["round"] == 1 and state["turn"] == 1


def test_the_wall_reaching_a_mage_ends_the_round():
    state, events = turn(duel(wall=11), lock(10), lock(5))
    assert of(events, "move")[0] == {"type": "move", "wall": 12, "steps": 1, "toward": 1}
    assert of(events, "round_end") == [
        {"type": "round_end", "round": 1, "wall": 12, "mages": [9, 15], "broken": 1}
    ]
    assert state["round"] == 2 and state["turn"] == 1
    assert state["mana"] == [50, 50]
    assert state["mages"] == [9, 15] and state["wall"] == 12


def test_out_of_mana_the_other_mage_pushes_the_wall_with_what_is_left():
    state, events = turn(duel(mana=[10, 5]), lock(8), lock(5))
    # 8 beats 5: the wall moves to 10; seat 1 has 0 mana, seat 0 has 2 left.
    assert of(events, "out_of_mana") == [{"type": "out_of_mana", "seat": 1, "push": 2}]
    assert of(events, "move")[-1] == {"type": "move", "wall": 12, "steps": 2, "toward": 1}
    assert of(events, "round_end")[0]["wall"] == 12
    assert state["round"] == 2


def test_out_of_mana_push_stops_at_the_mage():
    state, events = turn(duel(mana=[50, 5]), lock(3), lock(5))
    # 5 beats 3: the wall moves to 8; seat 0 has 47 left but the mage is 4 slabs away.
    assert of(events, "move")[-1] == {"type": "move", "wall": 12, "steps": 4, "toward": 1}
    assert state["wall"] == 12 and state["mages"] == [9, 15]


def test_both_out_of_mana_the_round_ends_and_the_wall_stays():
    state, events = turn(duel(mana=[7, 7]), lock(7), lock(7))
    assert of(events, "out_of_mana") == [{"type": "out_of_mana", "seat": None, "push": 0}]
    assert of(events, "round_end")[0]["wall"] == 9
    assert state["mages"] == [6, 12] and state["broken"] == 1


def test_reinforcement_after_payment_saves_a_mage_from_running_out():
    state, events = turn(duel(mana=[5, 50]), lock(5, 13), lock(6))
    assert not of(events, "out_of_mana")
    assert state["mana"][0] == 13 and state["round"] == 1


def test_round_end_breaks_one_slab_at_each_end_and_a_mage_on_it_falls():
    # Four slabs broken at each end (0-3 and 15-18); seat 0 stands on slab 4.
    state = duel(broken=4, wall=5, mages=[4, 10])
    state, events = turn(state, lock(2), lock(9))
    assert of(events, "round_end") == [
        {"type": "round_end", "round": 1, "wall": 4, "mages": [1, 7], "broken": 5}
    ]
    assert of(events, "game_over") == [{"type": "game_over", "winner": 1}]
    assert state["phase"] == "over" and state["winner"] == 1 and not state["draw"]
    assert ENGINE.outcome(state) == Outcome(places=[[1], [0]])
    assert ENGINE.waiting_for(state) == []


def test_both_mages_falling_at_once_is_a_draw():
    # Slabs 6..12 are intact; the 7th round end leaves 7..11 only.
    state = duel(broken=6, round=7)
    state, events = turn(state, lock(5, 4), lock(5))
    assert of(events, "game_over") == [{"type": "game_over", "winner": None}]
    assert state["draw"] is True and state["winner"] is None
    assert ENGINE.outcome(state) == Outcome(places=[[0, 1]])


def test_a_round_end_with_room_on_both_sides_starts_a_new_round():
    state = duel(broken=2, wall=10, mages=[7, 13])
    state, events = turn(state, lock(10, 4), lock(3))
    assert state["broken"] == 3 and state["mages"] == [7, 13]
    assert state["phase"] == "bidding" and state["round"] == 2
    assert not of(events, "game_over")
    assert ENGINE.outcome(state) is None


def test_each_mage_draws_three_cards_at_a_new_round_while_the_deck_lasts():
    state = duel("standard")
    assert [len(h) for h in state["hands"]] == [6, 6]
    assert [len(d) for d in state["decks"]] == [9, 9]
    deck0 = list(state["decks"][0])
    state, events = turn(state, lock(50), lock(50))  # both out of mana: round over
    assert of(events, "drew") == [
        {"type": "drew", "seat": 0, "count": 3},
        {"type": "drew", "seat": 1, "count": 3},
    ]
    assert set(deck0[:3]) <= set(state["hands"][0])
    assert [len(d) for d in state["decks"]] == [6, 6]
    state["decks"] = [state["decks"][0][:1], []]
    hand1 = list(state["hands"][1])
    state, events = turn(state, lock(50), lock(50))
    assert of(events, "drew") == [{"type": "drew", "seat": 0, "count": 1}]
    assert state["decks"] == [[], []] and state["hands"][1] == hand1


def test_draw_events_never_name_the_cards():
    state = duel("standard")
    state, events = turn(state, lock(50), lock(50))
    assert of(events, "drew")
    for event in of(events, "drew"):
        assert set(event) == {"type", "seat", "count"}


def test_a_game_lasts_at_most_seven_rounds_even_if_the_wall_never_moves():
    state = duel()
    for _round in range(7):
        if state["phase"] == "over":
            break
        state, _ = turn(state, lock(50), lock(50))  # tie, both out of mana
    assert state["phase"] == "over"
    assert state["round"] == 7 and state["broken"] == 7 and state["draw"] is True


def test_the_wall_position_after_a_round_is_where_the_next_one_starts():
    state, _ = turn(duel(wall=7), lock(1), lock(2))
    assert state["wall"] == 6 and state["mages"] == [3, 9]
    state, _ = turn(state, lock(3, 5), lock(2))
    assert state["wall"] == 7  # Middle: back to slab 6, then one step toward seat 1
