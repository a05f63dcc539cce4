"""Parsing set-up options and action payloads: garbage is InvalidInput, never a crash."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import InvalidInput
from games.munchkin.rules import (
    ACTION_TYPES,
    ENGINE,
    RACES,
    AddMonster,
    AddPower,
    Bonus,
    Fight,
    Helper,
    Level,
    MonsterSpec,
    Resolve,
    Run,
    Sell,
)


def test_payloads_parse_into_typed_actions_with_defaults() -> None:
    assert ENGINE.parse_action({"type": "level", "seat": "2", "delta": -1}) == Level(2, -1)
    assert ENGINE.parse_action(
        {"type": "fight", "seat": 0, "monster": {"name": "  Ghoul  ", "level": 6}}
    ) == Fight(0, MonsterSpec("Ghoul", 6, 1, 0))
    assert ENGINE.parse_action({"type": "add_monster", "monster": {"level": 2}}) == AddMonster(
        MonsterSpec("", 2), True
    )
    assert ENGINE.parse_action({"type": "helper", "seat": None}) == Helper(None)
    assert ENGINE.parse_action({"type": "resolve"}) == Resolve(0)
    assert ENGINE.parse_action({"type": "run", "seat": 1}) == Run(1, None, "roll")
    assert ENGINE.parse_action({"type": "sell", "seat": 0, "gold": "2500"}) == Sell(0, 2500)


@pytest.mark.parametrize(
    "payload",
    [
        None,
        "level",
        ["level"],
        {},
        {"type": "teleport"},
        {"type": 3},
        {"type": "level", "seat": 0},
        {"type": "level", "seat": 0, "delta": 0},
        {"type": "level", "seat": 0, "delta": 10},
        {"type": "level", "seat": 0, "delta": 1.5},
        {"type": "level", "seat": 0, "delta": True},
        {"type": "level", "seat": 0, "delta": "up"},
        {"type": "level", "seat": 6, "delta": 1},
        {"type": "level", "seat": -1, "delta": 1},
        {"type": "level", "seat": "first", "delta": 1},
        {"type": "level", "seat": 0, "delta": -1, "discard": [0, 0]},
        {"type": "level", "seat": 0, "delta": -1, "discard": "0"},
        {"type": "gear", "seat": 0, "delta": 0},
        {"type": "gear", "seat": 0, "delta": 1000},
        {"type": "sex", "seat": 0, "sex": "other"},
        {"type": "add_race", "seat": 0, "race": "elf"},
        {"type": "add_race", "seat": 0},
        {"type": "remove_race", "seat": 0, "race": "Vampiro"},
        {"type": "half_breed", "seat": 0, "on": "perhaps"},
        {"type": "add_power", "seat": 0, "name": "Celerity", "rank": 4},
        {"type": "add_power", "seat": 0, "name": "Celerity", "rank": 0},
        {"type": "add_power", "seat": 0, "name": "   ", "rank": 1},
        {"type": "add_power", "seat": 0, "name": "x" * 61, "rank": 1},
        {"type": "add_power", "seat": 0, "name": 7, "rank": 1},
        {"type": "remove_power", "seat": 0, "index": -1},
        {"type": "sell", "seat": 0, "gold": 0},
        {"type": "sell", "seat": 0, "gold": -1000},
        {"type": "sell", "seat": 0, "gold": 10**9},
        {"type": "die"},
        {"type": "fight", "seat": 0},
        {"type": "fight", "seat": 0, "monster": 5},
        {"type": "fight", "seat": 0, "monster": {"name": "Ghoul"}},
        {"type": "fight", "seat": 0, "monster": {"level": 0}},
        {"type": "fight", "seat": 0, "monster": {"level": 31}},
        {"type": "fight", "seat": 0, "monster": {"level": 3, "levels": 3}},
        {"type": "fight", "seat": 0, "monster": {"level": 3, "escape": 9}},
        {"type": "add_monster", "monster": {"level": 3}, "wandering": "sometimes"},
        {"type": "evil_twin"},
        {"type": "evil_twin", "monster": 0},
        {"type": "enhance", "monster": 1, "value": 0},
        {"type": "enhance", "monster": 1, "value": 11},
        {"type": "enhance", "monster": 1, "value": 2, "name": ["Corrupt"]},
        {"type": "bonus", "side": "referee", "value": 2},
        {"type": "bonus", "side": "players", "value": 21},
        {"type": "helper", "seat": 9},
        {"type": "resolve", "helper_levels": 3},
        {"type": "resolve", "helper_levels": -1},
        {"type": "run", "seat": 0, "mode": "fly"},
        {"type": "run", "seat": 0, "monster": "first"},
        {"type": "run_bonus", "seat": 0, "delta": 0},
        {"type": "run_bonus", "seat": 0, "delta": 7},
    ],
)
def test_malformed_payloads_raise_invalid_input(payload: Any) -> None:
    with pytest.raises(InvalidInput):
        ENGINE.parse_action(payload)


garbage = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats()
garbage = garbage | st.text(max_size=8) | st.lists(st.integers(), max_size=3)
garbage = garbage | st.dictionaries(st.sampled_from(["level", "name"]), st.integers(-50, 50))


@settings(max_examples=200)
@given(
    st.sampled_from(ACTION_TYPES),
    st.dictionaries(
        st.sampled_from(
            ["seat", "delta", "monster", "value", "gold", "name", "rank", "side", "mode", "on"]
        ),
        garbage,
    ),
)
def test_random_garbage_is_rejected_as_invalid_input_or_parsed(
    kind: str, fields: dict[str, Any]
) -> None:
    try:
        action = ENGINE.parse_action({"type": kind, **fields})
    except InvalidInput:
        return
    assert ENGINE.parse_action(action.to_payload()) == action


def test_infinite_numbers_are_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        ENGINE.parse_action({"type": "gear", "seat": 0, "delta": float("inf")})


def test_parse_options_defaults_and_sexes() -> None:
    assert ENGINE.parse_options({}, 3) == {"first_player": 0, "sexes": [None, None, None]}
    assert ENGINE.parse_options(None, 4)["sexes"] == [None] * 4
    options = ENGINE.parse_options({"first_player": 5, "sexes": ["male", "female"]}, 6)
    assert options == {"first_player": 5, "sexes": ["male", "female", None, None, None, None]}


@pytest.mark.parametrize(
    ("raw", "seats"),
    [
        ({}, 2),
        ({}, 7),
        ({"first_player": 3}, 3),
        ({"first_player": -1}, 3),
        ({"sexes": ["male", "male", "male", "male"]}, 3),
        ({"sexes": ["robot"]}, 3),
        ({"sexes": "male"}, 3),
        ("options", 3),
    ],
)
def test_bad_options_raise_invalid_input(raw: Any, seats: int) -> None:
    with pytest.raises(InvalidInput):
        ENGINE.parse_options(raw, seats)


monsters = st.builds(
    MonsterSpec,
    st.text(alphabet="abc XYZ", max_size=10).map(lambda s: " ".join(s.split())),
    st.integers(1, 30),
    st.integers(1, 2),
    st.integers(-6, 6),
)
actions = st.one_of(
    st.builds(
        Level,
        st.integers(0, 5),
        st.integers(1, 9) | st.integers(-9, -1),
        st.lists(st.integers(0, 5), unique=True, max_size=3).map(tuple),
    ),
    st.builds(AddPower, st.integers(0, 5), st.sampled_from(RACES), st.integers(1, 3)),
    st.builds(Fight, st.integers(0, 5), monsters),
    st.builds(AddMonster, monsters, st.booleans()),
    st.builds(Bonus, st.sampled_from(["players", "monsters"]), st.integers(1, 20), st.just("x")),
    st.builds(Helper, st.none() | st.integers(0, 5)),
    st.builds(Resolve, st.integers(0, 2)),
    st.builds(
        Run,
        st.integers(0, 5),
        st.none() | st.integers(1, 999),
        st.sampled_from(["roll", "escape", "caught"]),
    ),
)


@settings(max_examples=200)
@given(actions)
def test_parse_action_of_to_payload_round_trips(action: Any) -> None:
    assert ENGINE.parse_action(action.to_payload()) == action
