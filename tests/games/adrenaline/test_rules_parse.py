"""Parsing set-up options and action payloads: bad input is InvalidInput."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.adrenaline.rules import (
    CHARACTERS,
    COLOURS,
    ENGINE,
    WEAPONS,
    Adjust,
    EndTurn,
    Hit,
    Scope,
    Shot,
    Tagback,
    WeaponAction,
)
from games.engine.errors import InvalidInput


def shot(**changes: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "type": "shot",
        "shooter": "dozer",
        "hits": [{"target": "banshee", "damage": 2, "marks": 1}],
        "weapon": None,
        "effects": [],
        "scope": None,
    }
    payload.update(changes)
    return payload


def test_a_full_shot_payload_parses_into_a_typed_action() -> None:
    action = ENGINE.parse_action(
        shot(
            hits=[{"target": "banshee", "damage": "3"}, {"target": "violet", "marks": 2}],
            weapon="zx-2",
            effects=["basic mode"],
            scope={"target": "banshee", "colour": "yellow"},
        )
    )
    assert action == Shot(
        shooter="dozer",
        hits=(Hit("banshee", 3, 0), Hit("violet", 0, 2)),
        weapon="zx-2",
        effects=("basic mode",),
        scopes=(Scope("banshee", "yellow"),),
    )


@pytest.mark.parametrize(
    "payload",
    [
        shot(hits=[{"target": "banshee", "damage": 13}]),
        shot(hits=[{"target": "banshee", "damage": -1}]),
        shot(hits=[{"target": "banshee", "damage": 1, "marks": 4}]),
        shot(shooter="terminator"),
        shot(hits=[{"target": "mario", "damage": 1}]),
        shot(weapon="bfg-9000"),
        shot(hits=[{"target": "banshee", "damage": "lots"}]),
        shot(hits=[{"target": "banshee", "damage": True}]),
        shot(hits=[{"target": "banshee", "damage": 1.5}]),
        shot(hits={"target": "banshee", "damage": 1}),
        shot(hits=["banshee"]),
        shot(shooter=3),
        shot(
            hits=[
                {"target": t, "damage": 1}
                for t in ("banshee", "violet", "sprog", "dstructor", "banshee")
            ]
        ),
        shot(hits=[]),
        shot(hits=[{"target": "banshee", "damage": 1}, {"target": "banshee", "damage": 1}]),
        shot(hits=[{"target": "dozer", "damage": 1}]),
        shot(hits=[{"target": "banshee", "damage": 0, "marks": 0}]),
        shot(effects=["x" * 41]),
        shot(effects=["a", "b", "c", "d", "e"]),
        shot(effects=[3]),
        shot(effects="basic"),
        shot(scope={"target": "banshee", "colour": "green"}),
        shot(scope="banshee"),
        {"type": "tagback", "from": "banshee", "to": "banshee"},
        {"type": "tagback", "from": "banshee"},
        {"type": "adjust", "player": "dozer", "field": "red", "delta": 0},
        {"type": "adjust", "player": "dozer", "field": "red", "delta": 4},
        {"type": "adjust", "player": "dozer", "field": "green", "delta": 1},
        {"type": "weapon", "player": "dozer", "op": "steal", "weapon": "zx-2"},
        {"type": "weapon", "player": "dozer", "op": "pickup", "weapon": "bfg-9000"},
        {"type": "weapon", "player": "dozer", "op": "pickup", "weapon": "zx-2", "pay": "maybe"},
        {"type": "move"},
        {"shooter": "dozer"},
        ["end_turn"],
    ],
)
def test_malformed_payloads_raise_invalid_input(payload: Any) -> None:
    with pytest.raises(InvalidInput):
        ENGINE.parse_action(payload)


def test_missing_damage_and_marks_default_to_zero() -> None:
    action = ENGINE.parse_action(
        {"type": "shot", "shooter": "dozer", "hits": [{"target": "violet", "marks": 1}]}
    )
    assert action == Shot("dozer", (Hit("violet", 0, 1),))


def test_weapon_pay_defaults_to_true() -> None:
    action = ENGINE.parse_action(
        {"type": "weapon", "player": "sprog", "op": "reload", "weapon": "thor"}
    )
    assert action == WeaponAction("sprog", "reload", "thor", True)


def test_parse_options_defaults() -> None:
    options = ENGINE.parse_options({"characters": ["sprog", "violet", "dozer"]}, 3)
    assert options == {
        "characters": ["sprog", "violet", "dozer"],
        "skulls": 8,
        "first_player": 0,
        "board": None,
    }


@pytest.mark.parametrize(
    ("raw", "seats"),
    [
        ({"characters": ["sprog", "violet"]}, 2),
        ({"characters": [*CHARACTERS, "sprog"]}, 6),
        ({"characters": ["sprog", "violet"]}, 3),
        ({"characters": ["sprog", "sprog", "dozer"]}, 3),
        ({"characters": ["sprog", "luigi", "dozer"]}, 3),
        ({}, 3),
        ({"characters": ["sprog", "violet", "dozer"], "skulls": 4}, 3),
        ({"characters": ["sprog", "violet", "dozer"], "skulls": 9}, 3),
        ({"characters": ["sprog", "violet", "dozer"], "first_player": 3}, 3),
        ({"characters": ["sprog", "violet", "dozer"], "first_player": -1}, 3),
    ],
)
def test_bad_options_raise_invalid_input(raw: dict[str, Any], seats: int) -> None:
    with pytest.raises(InvalidInput):
        ENGINE.parse_options(raw, seats)


def test_engine_declaration() -> None:
    assert (ENGINE.slug, ENGINE.min_seats, ENGINE.max_seats) == ("adrenaline", 3, 5)


characters = st.sampled_from(CHARACTERS)


@st.composite
def shots(draw: st.DrawFn) -> Shot:
    shooter = draw(characters)
    others = [c for c in CHARACTERS if c != shooter]
    targets = draw(st.lists(st.sampled_from(others), min_size=1, max_size=4, unique=True))
    hits = [Hit(t, draw(st.integers(0, 12)), draw(st.integers(0, 3))) for t in targets]
    if not any(h.damage or h.marks for h in hits):
        hits[0] = Hit(hits[0].target, 1, hits[0].marks)
    scopes = draw(
        st.lists(
            st.builds(
                Scope,
                st.sampled_from(targets),
                st.sampled_from(COLOURS),
                st.none() | st.sampled_from(COLOURS),
            ),
            max_size=3,
        )
    )
    return Shot(
        shooter,
        tuple(hits),
        draw(st.none() | st.sampled_from(sorted(WEAPONS))),
        tuple(draw(st.lists(st.text(max_size=40), max_size=4))),
        tuple(scopes),
    )


@st.composite
def tagbacks(draw: st.DrawFn) -> Tagback:
    source, target = draw(st.lists(characters, min_size=2, max_size=2, unique=True))
    return Tagback(source, target)


actions = st.one_of(
    shots(),
    tagbacks(),
    st.builds(
        Adjust,
        characters,
        st.sampled_from(("red", "blue", "yellow", "powerups")),
        st.sampled_from((-3, -2, -1, 1, 2, 3)),
    ),
    st.builds(
        WeaponAction,
        characters,
        st.sampled_from(("pickup", "reload", "drop", "unload")),
        st.sampled_from(sorted(WEAPONS)),
        st.booleans(),
    ),
    st.just(EndTurn()),
)


@settings(max_examples=200)
@given(actions)
def test_parse_action_of_to_payload_round_trips(action: Any) -> None:
    assert ENGINE.parse_action(action.to_payload()) == action
