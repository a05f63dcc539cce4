"""An engine's working copy of a state: equal to it, and sharing nothing mutable with
it, so an engine's ``apply`` never changes the state a table shows meanwhile."""

from __future__ import annotations

from collections import OrderedDict

from hypothesis import given
from hypothesis import strategies as st

from games.engine.state import copy_state

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=40,
)


def mutable_parts(value, found=None):
    found = [] if found is None else found
    if isinstance(value, dict | list):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            mutable_parts(item, found)
    return found


@given(JSON)
def test_a_copy_equals_the_state_and_shares_no_list_or_dict_with_it(state):
    copy = copy_state(state)
    assert copy == state
    assert [type(part) for part in mutable_parts(copy)] == [
        type(part) for part in mutable_parts(state)
    ]
    originals = {id(part) for part in mutable_parts(state)}
    assert not originals & {id(part) for part in mutable_parts(copy)}


def test_true_and_false_stay_what_they_are_not_one_and_zero():
    copy = copy_state({"dead": True, "frenzy": False, "marks": [1, 0]})
    assert copy["dead"] is True and copy["frenzy"] is False
    assert [type(n) for n in copy["marks"]] == [int, int]


def test_a_list_that_appears_twice_comes_back_as_two():
    # An engine that shares a part between two places of a state it makes must not
    # find, in its next copy, that changing one place changes the other.
    hand = ["fireball", "mirror"]
    copy = copy_state({"seen": hand, "hand": hand})
    copy["hand"].append("clone")
    assert copy["seen"] == ["fireball", "mirror"]


def test_a_state_holding_a_subclass_of_dict_is_still_copied():
    state = {"players": OrderedDict(anna={"damage": [1]})}
    copy = copy_state(state)
    assert copy == state
    copy["players"]["anna"]["damage"].append(2)
    assert state["players"]["anna"]["damage"] == [1]
