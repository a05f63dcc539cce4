"""Every spell, with worked examples (the Full hand variant: both mages hold every card)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.errors import RuleError
from games.shazamm.rules import ENGINE, Decide, Lock


def duel(**changes: Any) -> dict[str, Any]:
    state = ENGINE.new_state(["Left", "Right"], {"variant": "full_hand"}, seed=1)
    state.update(changes)
    return state


def lock(bid: int, *spells: int, clone: int | None = None) -> Lock:
    return Lock(bid=bid, spells=tuple(sorted(spells)), clone=clone)


def turn(state: dict[str, Any], left: Lock, right: Lock) -> tuple[dict[str, Any], list[dict]]:
    first = ENGINE.apply(state, left, 0)
    second = ENGINE.apply(first.state, right, 1)
    return second.state, first.events + second.events


def decide(state: dict[str, Any], seat: int, value: Any) -> tuple[dict[str, Any], list[dict]]:
    value = tuple(value) if isinstance(value, list) else value
    result = ENGINE.apply(state, Decide(value), seat)
    return result.state, result.events


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# -- plain bids -----------------------------------------------------------------


def test_the_higher_bid_pushes_the_wall_one_slab_toward_the_other_mage_and_both_pay():
    state, events = turn(duel(), lock(10), lock(30))
    assert state["wall"] == 8  # toward seat 0, whatever the margin
    assert state["mana"] == [40, 20]
    assert of(events, "attack") == [{"type": "attack", "attacks": [10, 30], "winner": 1}]
    assert of(events, "move") == [{"type": "move", "wall": 8, "steps": 1, "toward": 0}]
    assert state["turn"] == 2 and state["phase"] == "bidding"


def test_a_tie_leaves_the_wall_where_it_is_and_both_pay():
    state, events = turn(duel(), lock(12), lock(12))
    assert state["wall"] == 9
    assert state["mana"] == [38, 38]
    assert of(events, "move") == [{"type": "move", "wall": 9, "steps": 0, "toward": None}]


# -- cancellation -----------------------------------------------------------------


def test_identical_boosts_cancel_out_and_the_bids_decide():
    state, events = turn(duel(), lock(10, 7), lock(12, 7))
    assert of(events, "cancel") == [{"type": "cancel", "spell": 7}]
    assert not of(events, "boost")
    assert of(events, "attack")[0]["attacks"] == [10, 12]
    assert state["wall"] == 8
    assert 7 in state["discards"][0] and 7 in state["discards"][1]


def test_cancelled_spells_are_untouchable_by_larceny():
    state, events = turn(duel(), lock(10, 3, 7), lock(12, 7))
    assert of(events, "steal") == [{"type": "steal", "seat": 0, "spells": []}]
    assert state["phase"] == "bidding"  # nothing stolen, nothing to decide


# -- 0 Bluff -------------------------------------------------------------------


def test_bluff_has_no_effect_and_is_never_discarded():
    state, events = turn(duel(), lock(10, 0), lock(10, 0))
    assert 0 in state["hands"][0] and 0 in state["hands"][1]
    assert state["discards"] == [[], []]
    assert not of(events, "cancel")  # two bluffs do not "cancel" anything
    state, _ = turn(state, lock(5, 0), lock(4))
    assert 0 in state["hands"][0]
    assert state["previous"][0] == [0]


# -- 1 Mutism ----------------------------------------------------------------------


def test_mutism_voids_every_other_spell_this_turn():
    state, events = turn(duel(), lock(10, 1, 7), lock(6, 8))
    assert of(events, "mutism") == [{"type": "mutism", "seat": 0}]
    assert {(e["seat"], e["spell"]) for e in of(events, "void")} == {(0, 7), (1, 8)}
    assert of(events, "attack")[0]["attacks"] == [10, 6]
    assert state["mutism"] is True
    assert {1, 7} <= set(state["discards"][0]) and 8 in state["discards"][1]


def test_mutism_carries_into_later_turns_of_the_round_for_both_mages():
    state, _ = turn(duel(), lock(3, 1), lock(2))
    state, events = turn(state, lock(6), lock(5, 7, 13))
    assert {e["spell"] for e in of(events, "void")} == {7, 13}
    assert state["wall"] == 11  # 6 beats 5: Boost attack never happened
    state, events = turn(state, lock(1, 5), lock(2))
    assert of(events, "void") == [{"type": "void", "seat": 0, "spell": 5}]
    assert state["wall"] == 10  # no Middle
    assert state["mutism"] is True


def test_mutism_ends_with_the_round():
    state, _ = turn(duel(mana=[50, 4]), lock(2, 1), lock(4))
    # seat 1 is out of mana: the round ended
    assert state["round"] == 2
    assert state["mutism"] is False
    state, events = turn(state, lock(5, 7), lock(10))
    assert of(events, "boost") == [{"type": "boost", "seat": 0, "attack": 12}]


def test_two_mutisms_cancel_out_and_magic_works():
    state, events = turn(duel(), lock(5, 1, 7), lock(10, 1))
    assert of(events, "cancel") == [{"type": "cancel", "spell": 1}]
    assert state["mutism"] is False
    assert of(events, "boost")[0]["attack"] == 12
    assert state["wall"] == 10


# -- 2 Clone ---------------------------------------------------------------------


def test_clone_copies_a_card_that_was_cancelled_the_turn_before():
    state, events = turn(duel(), lock(5, 7), lock(5, 7))
    assert of(events, "cancel")
    assert state["previous"] == [[7], [7]]
    state, events = turn(state, lock(10, 2, clone=7), lock(15))
    assert of(events, "clone") == [{"type": "clone", "seat": 0, "spell": 7}]
    assert of(events, "boost") == [{"type": "boost", "seat": 0, "attack": 17}]
    assert state["wall"] == 10
    assert 2 in state["discards"][0]


def test_a_cloned_card_resolves_at_its_own_priority_and_is_not_cancelled():
    state, _ = turn(duel(), lock(1), lock(1, 8))
    # Seat 1 plays Double dose again? No: it is spent. It plays Boost; seat 0 clones 8.
    state, events = turn(state, lock(10, 2, 7, clone=8), lock(20, 7))
    assert of(events, "cancel") == [{"type": "cancel", "spell": 7}]
    assert of(events, "double") == [{"type": "double", "seat": 0, "attack": 20}]
    assert of(events, "attack")[0]["attacks"] == [20, 20]


def test_clone_must_take_a_card_the_opponent_played_on_the_previous_turn():
    state, _ = turn(duel(), lock(1), lock(1, 13))
    with pytest.raises(RuleError):
        ENGINE.apply(state, lock(5, 2, clone=7), 0)
    with pytest.raises(RuleError):  # the turn before that does not count
        state2, _ = turn(state, lock(1), lock(1))
        ENGINE.apply(state2, lock(5, 2, clone=13), 0)
    assert ENGINE.apply(state, lock(5, 2, clone=13), 0).state["locked"][0]["clone"] == 13


def test_clone_with_no_card_chosen_does_nothing():
    state, events = turn(duel(), lock(5, 2), lock(4))
    assert of(events, "void") == [{"type": "void", "seat": 0, "spell": 2}]
    assert not of(events, "clone")
    assert 2 in state["discards"][0]


def test_clone_can_copy_a_card_the_opponent_took_with_larceny():
    state, _ = turn(duel(), lock(5, 3), lock(4, 13))
    state, _ = decide(state, 0, [13])
    assert state["stolen"] == [[13], []]
    # Seat 1 clones its own Reinforcement, which seat 0 took from it.
    state = ENGINE.apply(state, lock(5), 0).state
    events = ENGINE.apply(state, lock(4, 2, clone=13), 1).events
    assert of(events, "clone") == [{"type": "clone", "seat": 1, "spell": 13}]


# -- 3 Larceny ---------------------------------------------------------------------


def test_larceny_of_double_dose_the_thief_applies_it():
    state, events = turn(duel(), lock(10, 3), lock(8, 8))
    assert of(events, "steal") == [{"type": "steal", "seat": 0, "spells": [8]}]
    assert of(events, "decision") == [{"type": "decision", "seat": 0, "kind": "larceny"}]
    assert state["phase"] == "deciding"
    assert ENGINE.waiting_for(state) == [0]
    state, events = decide(state, 0, [8])
    assert of(events, "kept") == [{"type": "kept", "seat": 0, "spells": [8]}]
    assert of(events, "double") == [{"type": "double", "seat": 0, "attack": 20}]
    assert state["wall"] == 10
    assert 8 in state["discards"][1]  # the card goes back to its owner's discards


def test_larceny_stolen_spells_not_applied_are_discarded():
    state, _ = turn(duel(), lock(10, 3), lock(8, 8, 13))
    state, events = decide(state, 0, [13])
    assert of(events, "void") == [{"type": "void", "seat": 0, "spell": 8}]
    assert of(events, "attack")[0]["attacks"] == [10, 8]
    assert of(events, "reinforce") == [{"type": "reinforce", "seat": 0, "mana": 50}]
    assert state["mana"] == [50, 42]


def test_larceny_of_recycle_corrects_the_thiefs_own_bid():
    state, _ = turn(duel(), lock(10, 3), lock(12, 6))
    state, _ = decide(state, 0, [6])
    assert state["pending"]["kind"] == "recycle" and state["pending"]["seat"] == 0
    state, events = decide(state, 0, 5)
    assert of(events, "recycle") == [{"type": "recycle", "seat": 0, "bid": 15}]
    assert state["wall"] == 10
    assert state["mana"] == [35, 38]


def test_larceny_steals_a_cloned_spell_too():
    state, _ = turn(duel(), lock(1, 7), lock(1))
    state, events = turn(state, lock(10, 3), lock(10, 2, clone=7))
    assert of(events, "steal") == [{"type": "steal", "seat": 0, "spells": [7]}]
    state, events = decide(state, 0, [7])
    assert of(events, "boost") == [{"type": "boost", "seat": 0, "attack": 17}]


def test_larceny_never_steals_lower_spells_which_already_resolved():
    wall_near_1 = duel(wall=11)
    state, events = turn(wall_near_1, lock(1, 3), lock(5, 5, 7))
    # Middle (5) is higher than Larceny (3): stolen too.
    assert of(events, "steal")[0]["spells"] == [5, 7]
    state, events = decide(state, 0, [])
    assert state["wall"] == 10  # no Middle, no Boost: 5 beats 1


# -- 4 End of round -------------------------------------------------------------


def test_end_of_round_ends_the_round_at_once_and_voids_later_spells():
    state, events = turn(duel(wall=8), lock(10, 7), lock(40, 4, 13))
    assert of(events, "end_round_spell") == [{"type": "end_round_spell", "seat": 1}]
    assert {(e["seat"], e["spell"]) for e in of(events, "void")} == {(0, 7), (1, 13)}
    assert not of(events, "attack") and not of(events, "pay")
    assert of(events, "round_end") == [
        {"type": "round_end", "round": 1, "wall": 8, "mages": [5, 11], "broken": 1}
    ]
    assert state["wall"] == 8 and state["mana"] == [50, 50]
    assert state["round"] == 2 and state["turn"] == 1


# -- 5 Middle ------------------------------------------------------------------


def test_middle_puts_the_wall_back_between_the_mages_and_the_turn_goes_on():
    state, events = turn(duel(wall=7), lock(5, 5), lock(10))
    assert of(events, "middle") == [{"type": "middle", "wall": 9}]
    assert state["wall"] == 8  # then seat 1 wins the turn from the middle


def test_middle_resolves_before_resistance_which_cannot_undo_it():
    state, events = turn(duel(wall=7), lock(10, 5), lock(5, 11))
    assert kinds(events).index("middle") < kinds(events).index("resistance")
    assert of(events, "resistance") == [{"type": "resistance", "seat": 1}]
    assert state["wall"] == 9  # moved toward seat 1 by Middle, then blocked


# -- 6 Recycle ---------------------------------------------------------------------


def test_recycle_the_corrected_bid_is_compared_and_paid():
    state, events = turn(duel(), lock(10, 6), lock(12))
    assert state["phase"] == "deciding"
    options = ENGINE.view(state, 0)["pending"]["options"]
    assert options == {
        "bid": 10,
        "low": 5,
        "high": 15,
        "min_change": -5,
        "max_change": 5,
        "bids": [10, 12],
    }
    state, events = decide(state, 0, 3)
    assert of(events, "attack")[0]["attacks"] == [13, 12]
    assert of(events, "pay")[0] == {"type": "pay", "seat": 0, "amount": 13, "mana": 37}
    assert state["last"]["final_bids"] == [13, 12]


def test_recycle_never_below_1_nor_above_the_mana():
    state, _ = turn(duel(), lock(3, 6), lock(2))
    assert state["pending"]["options"]["low"] == 1
    with pytest.raises(RuleError):
        decide(state, 0, -3)
    state, _ = turn(duel(mana=[12, 50]), lock(10, 6), lock(2))
    assert state["pending"]["options"]["high"] == 12
    with pytest.raises(RuleError):
        decide(state, 0, 3)
    state, _ = decide(state, 0, 2)
    assert state["mana"][0] == 0 or state["round"] == 2


def test_recycle_with_no_room_needs_no_decision():
    _state, events = turn(duel(mana=[1, 50]), lock(1, 6), lock(5))
    assert of(events, "recycle") == [{"type": "recycle", "seat": 0, "bid": 1}]
    assert not of(events, "decision")


def test_a_decision_only_belongs_to_the_pending_seat():
    state, _ = turn(duel(), lock(10, 6), lock(12))
    with pytest.raises(RuleError):
        decide(state, 1, 0)
    with pytest.raises(RuleError):
        ENGINE.apply(state, lock(3), 1)  # no new lock while a decision is pending


# -- 7 Boost attack, 8 Double dose -------------------------------------------------


def test_boost_then_double_dose_in_priority_order():
    state, events = turn(duel(), lock(5, 7, 8), lock(23))
    assert of(events, "boost") == [{"type": "boost", "seat": 0, "attack": 12}]
    assert of(events, "double") == [{"type": "double", "seat": 0, "attack": 24}]
    assert state["wall"] == 10
    assert state["mana"] == [45, 27]  # the bid is paid, not the attack


# -- 9 Loser wins, 10 Blaze ----------------------------------------------------


def test_loser_wins_sends_the_wall_toward_the_stronger_attack():
    state, events = turn(duel(), lock(1, 9), lock(10))
    assert of(events, "loser_wins") == [{"type": "loser_wins"}]
    assert state["wall"] == 10


def test_loser_wins_does_nothing_on_a_tie():
    state, events = turn(duel(), lock(4, 9), lock(4))
    assert not of(events, "loser_wins")
    assert state["wall"] == 9


def test_loser_wins_then_blaze_moves_two_slabs_toward_the_winner():
    _state, events = turn(duel(), lock(1, 9), lock(10, 10))
    assert kinds(events).index("loser_wins") < kinds(events).index("blaze")
    assert of(events, "move") == [{"type": "move", "wall": 11, "steps": 2, "toward": 1}]


def test_blaze_moves_two_slabs_and_may_overshoot_the_mage():
    state, events = turn(duel(wall=11), lock(10, 10), lock(5))
    assert of(events, "move")[0] == {"type": "move", "wall": 13, "steps": 2, "toward": 1}
    assert of(events, "round_end")[0]["wall"] == 13
    assert state["mages"] == [10, 16] and state["broken"] == 1


def test_blaze_does_nothing_on_a_tie():
    state, events = turn(duel(), lock(4, 10), lock(4))
    assert not of(events, "blaze") and state["wall"] == 9


# -- 11 Resistance -----------------------------------------------------------------


def test_resistance_keeps_the_wall_from_moving_toward_the_caster():
    state, events = turn(duel(), lock(20), lock(1, 11))
    assert of(events, "resistance") == [{"type": "resistance", "seat": 1}]
    assert state["wall"] == 9
    assert state["mana"] == [30, 49]


def test_resistance_also_stops_loser_wins_and_blaze_coming_your_way():
    state, _ = turn(duel(), lock(20, 11), lock(1, 9, 10))
    assert state["wall"] == 9


def test_resistance_does_not_stop_the_wall_going_the_other_way():
    state, events = turn(duel(), lock(1), lock(20, 11))
    assert not of(events, "resistance")
    assert state["wall"] == 8


# -- 12 Safe loss -------------------------------------------------------------------


def test_safe_loss_a_mage_who_loses_the_turn_does_not_pay():
    state, events = turn(duel(), lock(30, 12), lock(40))
    assert of(events, "safe_loss") == [{"type": "safe_loss", "seat": 0}]
    assert state["mana"] == [50, 10]
    assert [e["seat"] for e in of(events, "pay")] == [1]


def test_safe_loss_is_judged_on_the_final_movement():
    # Seat 0 wins the attacks, but Loser wins sends the wall toward seat 0.
    state, events = turn(duel(), lock(30, 12), lock(5, 9))
    assert of(events, "move")[0]["toward"] == 0
    assert state["mana"] == [50, 45]
    # Seat 0 loses the attacks, but Resistance keeps the wall still: seat 0 pays.
    state, events = turn(duel(), lock(30, 11, 12), lock(40))
    assert not of(events, "safe_loss")
    assert state["mana"] == [20, 10]


def test_a_wall_brought_toward_you_by_middle_is_not_a_lost_turn():
    state, events = turn(duel(wall=11), lock(5, 5), lock(5, 12))
    assert of(events, "middle")[0]["wall"] == 9
    assert not of(events, "safe_loss")
    assert state["mana"] == [45, 45]


# -- 13 Reinforcement, 14 Suction --------------------------------------------------


def test_reinforcement_adds_13_after_payment_capped_at_50():
    state, events = turn(duel(), lock(5, 13), lock(5))
    assert of(events, "reinforce") == [{"type": "reinforce", "seat": 0, "mana": 50}]
    state, _ = turn(duel(mana=[20, 50]), lock(5, 13), lock(5))
    assert state["mana"][0] == 28


def test_suction_adds_the_opponents_bid_capped_at_50():
    state, events = turn(duel(mana=[30, 50]), lock(5, 14), lock(20))
    assert of(events, "suction") == [{"type": "suction", "seat": 0, "mana": 45}]
    state, _ = turn(duel(), lock(5, 14), lock(20))
    assert state["mana"][0] == 50


def test_suction_takes_the_opponents_corrected_bid():
    state, _ = turn(duel(mana=[20, 50]), lock(5, 14), lock(10, 6))
    state, _ = decide(state, 1, 5)
    assert state["mana"] == [30, 35]  # 20 - 5 + 15


def test_suction_counts_the_bid_not_the_boosted_attack():
    state, _ = turn(duel(mana=[20, 50]), lock(5, 14), lock(10, 7, 8))
    assert state["mana"][0] == 25


# -- spells leave the hand -----------------------------------------------------------


def test_every_spell_used_goes_to_the_discard_pile_even_cancelled_or_voided():
    state, _ = turn(duel(), lock(5, 1, 7, 13), lock(5, 7, 14))
    assert sorted(state["discards"][0]) == [1, 7, 13]
    assert sorted(state["discards"][1]) == [7, 14]
    assert not {1, 7, 13} & set(state["hands"][0])
    with pytest.raises(RuleError):
        ENGINE.apply(state, lock(3, 13), 0)
