"""Options, payload parsing (InvalidInput) and actions the rules refuse (RuleError)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import InvalidInput, RuleError
from games.shazamm.rules import ENGINE, Decide, Lock, Order


def duel(options: dict[str, Any] | None = None, **changes: Any) -> dict[str, Any]:
    state = ENGINE.new_state(["Left", "Right"], options or {"variant": "full_hand"}, seed=3)
    state.update(changes)
    return state


def lock(**changes: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {"type": "lock", "bid": 5, "spells": [], "clone": None}
    payload.update(changes)
    return payload


# -- the engine and its options ------------------------------------------------------


def test_the_engine_declares_two_seat_bound_seats():
    assert ENGINE.slug == "shazamm"
    assert ENGINE.min_seats == ENGINE.max_seats == 2
    assert ENGINE.seat_bound is True


def test_options_default_to_standard_tracked():
    assert ENGINE.parse_options({}, 2) == {"variant": "standard", "hands": "tracked"}
    assert ENGINE.parse_options(None, 2) == {"variant": "standard", "hands": "tracked"}
    assert ENGINE.parse_options({"variant": "chosen_order", "hands": "physical"}, 2) == {
        "variant": "chosen_order",
        "hands": "physical",
    }


@pytest.mark.parametrize(
    "raw", [{"variant": "expert"}, {"hands": "mental"}, {"variant": 1}, {"hands": True}]
)
def test_unknown_option_values_are_invalid(raw):
    with pytest.raises(InvalidInput):
        ENGINE.parse_options(raw, 2)


@pytest.mark.parametrize("seats", [1, 3])
def test_shazamm_needs_exactly_two_seats(seats):
    with pytest.raises(InvalidInput):
        ENGINE.parse_options({}, seats)


def test_standard_deals_five_cards_plus_the_bluff_from_a_seeded_shuffle():
    state = ENGINE.new_state(["A", "B"], {}, seed=42)
    for seat in (0, 1):
        hand, deck = state["hands"][seat], state["decks"][seat]
        assert len(hand) == 6 and 0 in hand
        assert sorted(hand[1:] + deck) == list(range(1, 15))
    assert state == ENGINE.new_state(["A", "B"], {}, seed=42)
    assert state["hands"] != ENGINE.new_state(["A", "B"], {}, seed=43)["hands"]
    assert state["rng"]["seed"] == 42


def test_full_hand_gives_every_card():
    state = duel()
    assert state["hands"] == [list(range(15)), list(range(15))]
    assert state["decks"] == [[], []]


def test_physical_hands_are_not_tracked():
    state = duel({"hands": "physical"})
    assert state["hands"] is None and state["decks"] is None
    assert state["phase"] == "bidding"


def test_chosen_order_each_mage_orders_the_deck_then_draws_the_first_five():
    state = duel({"variant": "chosen_order"})
    assert state["phase"] == "ordering"
    assert ENGINE.waiting_for(state) == [0, 1]
    order0 = [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    result = ENGINE.apply(state, Order(tuple(order0)), 0)
    assert result.events == [{"type": "ordered", "seat": 0}]
    assert ENGINE.waiting_for(result.state) == [1]
    with pytest.raises(RuleError):
        ENGINE.apply(result.state, Order(tuple(order0)), 0)
    with pytest.raises(RuleError):
        ENGINE.apply(result.state, Lock(bid=3), 1)
    state = ENGINE.apply(result.state, Order(tuple(range(1, 15))), 1).state
    assert state["phase"] == "bidding"
    assert state["hands"] == [[0, 10, 11, 12, 13, 14], [0, 1, 2, 3, 4, 5]]
    assert state["decks"] == [order0[5:], list(range(6, 15))]
    with pytest.raises(RuleError):
        ENGINE.apply(state, Order(tuple(order0)), 0)


# -- parsing -------------------------------------------------------------------------


def test_a_lock_parses_into_a_typed_action_with_sorted_spells():
    action = ENGINE.parse_action(lock(bid="12", spells=[7, 0, 2], clone=13))
    assert action == Lock(bid=12, spells=(0, 2, 7), clone=13)
    assert action.seat is None  # never taken from a payload
    assert ENGINE.owner(duel(), action) is None


def test_a_payload_cannot_forge_a_seat():
    action = ENGINE.parse_action(lock(seat=1))
    assert action.seat is None
    assert "seat" not in action.to_payload()


@pytest.mark.parametrize(
    "payload",
    [
        lock(bid=0),
        lock(bid=-3),
        lock(bid=51),
        lock(bid="lots"),
        lock(bid=True),
        lock(bid=2.5),
        lock(bid=None),
        lock(spells=[15]),
        lock(spells=[-1]),
        lock(spells=[7, 7]),
        lock(spells="7"),
        lock(spells=[[7]]),
        lock(spells=[True]),
        lock(spells=[*range(15), 0]),
        lock(spells=[2], clone=0),
        lock(spells=[2], clone=2),
        lock(spells=[2], clone=15),
        lock(spells=[7], clone=7),
        {"type": "bet", "bid": 3},
        {"bid": 3},
        {"type": "decide"},
        {"type": "decide", "value": 6},
        {"type": "decide", "value": "x"},
        {"type": "decide", "value": [0]},
        {"type": "decide", "value": [15]},
        {"type": "order", "cards": list(range(1, 14))},
        {"type": "order", "cards": [*list(range(1, 14)), 13]},
        {"type": "order", "cards": list(range(0, 14))},
        {"type": "order"},
    ],
)
def test_malformed_payloads_are_invalid_input(payload):
    with pytest.raises(InvalidInput):
        ENGINE.parse_action(payload)


def test_an_unknown_spell_names_its_number():
    with pytest.raises(InvalidInput) as error:
        ENGINE.parse_action(lock(spells=[15]))
    assert error.value.params == {"spell": 15}


def test_messages_are_msgids_with_named_parameters():
    with pytest.raises(RuleError) as error:
        ENGINE.apply(duel(mana=[12, 50]), Lock(bid=20), 0)
    assert error.value.params == {"bid": 20, "mana": 12}
    assert "%(bid)s" in error.value.message and "%(mana)s" in error.value.message
    assert "20" in str(error.value) and "12" in str(error.value)


payloads = st.one_of(
    st.builds(
        lambda bid, spells, clone: lock(
            bid=bid,
            spells=sorted(set(spells) | ({2} if clone else set())),
            clone=clone,
        ),
        st.integers(1, 50),
        st.lists(st.integers(0, 14), max_size=15),
        st.none() | st.sampled_from([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]),
    ),
    st.builds(lambda v: {"type": "decide", "value": v}, st.integers(-5, 5)),
    st.builds(
        lambda v: {"type": "decide", "value": sorted(v)},
        st.lists(st.integers(1, 14), max_size=6),
    ),
    st.builds(lambda p: {"type": "order", "cards": p}, st.permutations(list(range(1, 15)))),
)


@settings(max_examples=200, deadline=None)
@given(payloads)
def test_parse_of_to_payload_is_the_same_action(payload):
    action = ENGINE.parse_action(payload)
    assert ENGINE.parse_action(action.to_payload()) == action
    assert isinstance(action, Lock | Decide | Order)


# -- what the rules refuse -----------------------------------------------------------


def test_bid_over_the_mana_is_refused():
    with pytest.raises(RuleError):
        ENGINE.apply(duel(mana=[9, 50]), Lock(bid=10), 0)
    assert ENGINE.apply(duel(mana=[9, 50]), Lock(bid=9), 0).state["locked"][0]["bid"] == 9


def test_a_spell_not_in_hand_is_refused():
    state = ENGINE.new_state(["A", "B"], {}, seed=5)
    missing = next(n for n in range(1, 15) if n not in state["hands"][0])
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, Lock(bid=3, spells=(missing,)), 0)
    assert error.value.params == {"spell": missing}


def test_locking_twice_is_refused():
    state = ENGINE.apply(duel(), Lock(bid=3), 0).state
    with pytest.raises(RuleError):
        ENGINE.apply(state, Lock(bid=4), 0)


def test_a_seat_action_needs_a_seat():
    with pytest.raises(RuleError):
        ENGINE.apply(duel(), Lock(bid=3), None)
    with pytest.raises(RuleError):
        ENGINE.apply(duel(), Lock(bid=3), 2)


def test_acting_out_of_phase_is_refused():
    with pytest.raises(RuleError):
        ENGINE.apply(duel(), Decide(0), 0)
    with pytest.raises(RuleError):
        ENGINE.apply(duel(), Order(tuple(range(1, 15))), 0)
    state = ENGINE.apply(duel(), Lock(bid=10, spells=(6,)), 0).state
    state = ENGINE.apply(state, Lock(bid=12), 1).state
    assert state["phase"] == "deciding"
    with pytest.raises(RuleError):
        ENGINE.apply(state, Lock(bid=1), 0)


def test_a_decision_of_the_wrong_kind_is_refused():
    state = ENGINE.apply(duel(), Lock(bid=10, spells=(6,)), 0).state
    state = ENGINE.apply(state, Lock(bid=12), 1).state
    with pytest.raises(RuleError):
        ENGINE.apply(state, Decide((7,)), 0)
    state = ENGINE.apply(duel(), Lock(bid=10, spells=(3,)), 0).state
    state = ENGINE.apply(state, Lock(bid=12, spells=(7,)), 1).state
    with pytest.raises(RuleError):
        ENGINE.apply(state, Decide(2), 0)
    with pytest.raises(RuleError):
        ENGINE.apply(state, Decide((8,)), 0)  # not stolen
    with pytest.raises(RuleError):
        ENGINE.apply(state, Decide((7, 7)), 0)  # stolen once only


def test_nothing_is_accepted_once_the_game_is_over():
    state = duel(phase="over", winner=0)
    with pytest.raises(RuleError):
        ENGINE.apply(state, Lock(bid=1), 0)


def test_an_unknown_action_object_is_invalid():
    with pytest.raises(InvalidInput):
        ENGINE.apply(duel(), object(), 0)


def test_physical_mode_only_checks_spells_not_yet_spent():
    state = duel({"hands": "physical"})
    state = ENGINE.apply(state, Lock(bid=3, spells=(0, 7, 13)), 0).state
    state = ENGINE.apply(state, Lock(bid=2, spells=(14,)), 1).state
    assert state["discards"] == [[7, 13], [14]]
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, Lock(bid=3, spells=(13,)), 0)
    assert error.value.params == {"spell": 13}
    assert ENGINE.apply(state, Lock(bid=3, spells=(0, 14)), 0).state["locked"][0]


def test_apply_never_mutates_its_input():
    state = duel()
    before = repr(state)
    ENGINE.apply(state, Lock(bid=3, spells=(7,)), 0)
    assert repr(state) == before


# -- timers --------------------------------------------------------------------------


def test_waiting_for_and_the_default_actions():
    state = duel()
    assert ENGINE.waiting_for(state) == [0, 1]
    assert ENGINE.default_action(state, 0) == {
        "type": "lock",
        "bid": 1,
        "spells": [],
        "clone": None,
    }
    state = ENGINE.apply(state, Lock(bid=10, spells=(3, 6)), 0).state
    assert ENGINE.waiting_for(state) == [1]
    assert ENGINE.default_action(state, 0) is None
    state = ENGINE.apply(state, Lock(bid=12, spells=(13,)), 1).state
    assert ENGINE.waiting_for(state) == [0]
    assert ENGINE.default_action(state, 0) == {"type": "decide", "value": []}
    assert ENGINE.default_action(state, 1) is None
    state = ENGINE.apply(state, ENGINE.parse_action(ENGINE.default_action(state, 0)), 0).state
    assert 13 in state["discards"][1] and state["mana"] == [50, 50]
    assert ENGINE.waiting_for(state) == [0]  # now the Recycle
    assert ENGINE.default_action(state, 0) == {"type": "decide", "value": 0}
    ordering = duel({"variant": "chosen_order"})
    assert ENGINE.default_action(ordering, 1) == {"type": "order", "cards": list(range(1, 15))}


@pytest.mark.parametrize(
    ("payload", "english", "italian"),
    [
        (
            lock(bid="abc"),
            "“bid” must be a whole number.",
            "“puntata” deve essere un numero intero.",
        ),
        (
            lock(spells=["x"]),
            "“spells” must be a whole number.",
            "“incantesimi” deve essere un numero intero.",
        ),
        (lock(clone="x"), "“spell to copy” must be a whole number.", "“incantesimo da copiare”"),
    ],
)
def test_a_bad_lock_names_its_field_in_the_phones_language(payload, english, italian):
    # Found by a player check: an Italian phone read “bid” and “spells” in English.
    from django.utils import translation

    from companion.errors import error_text

    with pytest.raises(InvalidInput) as refused:
        ENGINE.parse_action(payload)
    with translation.override("en"):
        assert english in error_text(refused.value, "shazamm")
    with translation.override("it"):
        assert italian in error_text(refused.value, "shazamm")
