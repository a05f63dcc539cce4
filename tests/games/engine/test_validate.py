"""Payload validators: whatever a client posts, the answer is InvalidInput, never a crash."""

from __future__ import annotations

import json

import pytest

from games.engine.errors import InvalidInput
from games.engine.validate import as_int


@pytest.mark.parametrize("raw", ["Infinity", "-Infinity", "NaN", "1e400"])
def test_a_number_json_accepts_but_no_counter_can_hold_is_refused(raw):
    value = json.loads(raw)  # Python's json reads these as float infinities / NaN
    with pytest.raises(InvalidInput):
        as_int(value, "damage", 0, 12)


@pytest.mark.parametrize("value", [True, "3.5", 2.5, None, [], {}])
def test_anything_but_a_whole_number_is_refused(value):
    with pytest.raises(InvalidInput):
        as_int(value, "damage", 0, 12)


def test_whole_numbers_in_range_pass_and_out_of_range_are_refused():
    assert as_int(" 7 ", "damage", 0, 12) == 7
    assert as_int(3.0, "damage", 0, 12) == 3
    with pytest.raises(InvalidInput):
        as_int(13, "damage", 0, 12)
