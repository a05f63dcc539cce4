"""Damage and marks: worked examples from the rulebook."""

from __future__ import annotations

from typing import Any

import pytest

from games.adrenaline.rules import ENGINE, adrenaline_level, is_dead
from games.engine.errors import RuleError
from games.engine.protocol import Result

CAST = ("dozer", "banshee", "violet", "sprog", "dstructor")


def start(n: int = 3, skulls: int = 5, first: int = 0) -> dict[str, Any]:
    chars = list(CAST[:n])
    options = ENGINE.parse_options(
        {"characters": chars, "skulls": skulls, "first_player": first}, n
    )
    return ENGINE.new_state([c.title() for c in chars], options, seed=0)


def act(state: dict[str, Any], payload: dict[str, Any]) -> Result:
    return ENGINE.apply(state, ENGINE.parse_action(payload))


def player(state: dict[str, Any], character: str) -> dict[str, Any]:
    return next(p for p in state["players"] if p["character"] == character)


def end_turn(state: dict[str, Any]) -> dict[str, Any]:
    return act(state, {"type": "end_turn"}).state


def turn_of(state: dict[str, Any], character: str) -> dict[str, Any]:
    while state["players"][state["current"]]["character"] != character:
        state = end_turn(state)
    return state


def shot(
    state: dict[str, Any], shooter: str, target: str, damage: int = 0, marks: int = 0
) -> Result:
    state = turn_of(state, shooter)
    hits = [{"target": target, "damage": damage, "marks": marks}]
    return act(state, {"type": "shot", "shooter": shooter, "hits": hits})


def hit(
    state: dict[str, Any], shooter: str, target: str, damage: int = 0, marks: int = 0
) -> dict[str, Any]:
    return shot(state, shooter, target, damage, marks).state


def test_direct_damage_places_shooter_tokens_in_order() -> None:
    state = hit(start(), "dozer", "banshee", 2)
    state = hit(state, "violet", "banshee", 1)
    assert player(state, "banshee")["damage"] == ["dozer", "dozer", "violet"]


def test_marks_only_hit_does_not_convert_existing_marks() -> None:
    state = hit(start(), "dozer", "banshee", marks=1)
    result = shot(state, "dozer", "banshee", marks=1)
    banshee = player(result.state, "banshee")
    assert banshee["damage"] == []
    assert banshee["marks"] == {"dozer": 2}
    assert result.events[0]["converted"] == 0


def test_marks_convert_only_when_the_same_shooter_next_deals_damage() -> None:
    state = hit(start(), "dozer", "banshee", marks=2)
    # Violet's damage leaves Dozer's marks alone.
    state = hit(state, "violet", "banshee", 1)
    assert player(state, "banshee")["marks"] == {"dozer": 2}
    # Dozer's next damaging hit: 1 direct + 2 converted.
    result = shot(state, "dozer", "banshee", 1)
    banshee = player(result.state, "banshee")
    assert banshee["damage"] == ["violet", "dozer", "dozer", "dozer"]
    assert banshee["marks"] == {}
    event = result.events[0]
    assert (event["damage"], event["converted"], event["lost"]) == (3, 2, 0)


def test_new_marks_from_the_same_hit_are_placed_after_conversion() -> None:
    state = hit(start(), "dozer", "banshee", marks=1)
    # 1 damage + 2 marks: the old mark converts, the 2 new ones stay.
    result = shot(state, "dozer", "banshee", 1, marks=2)
    banshee = player(result.state, "banshee")
    assert banshee["damage"] == ["dozer", "dozer"]
    assert banshee["marks"] == {"dozer": 2}
    assert result.events[0]["marks"] == 2


def test_marks_cap_at_three_per_shooter_and_extra_marks_are_lost() -> None:
    state = hit(start(), "dozer", "banshee", marks=2)
    result = shot(state, "dozer", "banshee", marks=2)
    assert player(result.state, "banshee")["marks"] == {"dozer": 3}
    assert (result.events[0]["marks"], result.events[0]["marks_lost"]) == (1, 1)
    # The cap is per shooter: Violet can still put 3 marks on Banshee.
    state = hit(result.state, "violet", "banshee", marks=3)
    assert player(state, "banshee")["marks"] == {"dozer": 3, "violet": 3}


def test_eleventh_token_kills_twelfth_is_overkill() -> None:
    state = hit(start(), "dozer", "banshee", 10)
    first = shot(state, "dozer", "banshee", 1)
    assert first.events[0]["killed"] and not first.events[0]["overkill"]
    assert is_dead(player(first.state, "banshee"))
    assert first.state["killed_this_turn"] == ["banshee"]
    second = shot(first.state, "dozer", "banshee", 1)
    assert not second.events[0]["killed"] and second.events[0]["overkill"]


def test_damage_past_twelve_is_lost() -> None:
    state = hit(start(), "dozer", "banshee", 10)
    result = shot(state, "dozer", "banshee", 5)
    assert len(player(result.state, "banshee")["damage"]) == 12
    event = result.events[0]
    assert (event["damage"], event["lost"]) == (2, 3)
    assert event["killed"] and event["overkill"]


def test_converted_marks_past_twelve_are_lost_too() -> None:
    state = hit(start(), "dozer", "banshee", marks=2)
    # Next round: 11 direct, then 2 marks convert but only 1 fits.
    result = shot(end_turn(state), "dozer", "banshee", 11)
    event = result.events[0]
    assert (event["damage"], event["converted"], event["lost"]) == (12, 2, 1)
    assert player(result.state, "banshee")["marks"] == {}


def test_hits_on_several_targets_in_one_shot() -> None:
    state = start(4)
    result = act(
        state,
        {
            "type": "shot",
            "shooter": "dozer",
            "hits": [
                {"target": "banshee", "damage": 2},
                {"target": "violet", "damage": 0, "marks": 1},
                {"target": "sprog", "damage": 1, "marks": 1},
            ],
        },
    )
    assert [e["target"] for e in result.events] == ["banshee", "violet", "sprog"]
    assert player(result.state, "violet")["marks"] == {"dozer": 1}
    assert player(result.state, "sprog")["damage"] == ["dozer"]


def test_only_the_current_player_may_shoot() -> None:
    state = start()
    with pytest.raises(RuleError) as error:
        act(
            state,
            {
                "type": "shot",
                "shooter": "violet",
                "hits": [{"target": "banshee", "damage": 1}],
            },
        )
    assert error.value.params == {"player": "Dozer"}


def test_a_character_not_seated_cannot_be_shot() -> None:
    with pytest.raises(RuleError) as error:
        act(
            start(3),
            {
                "type": "shot",
                "shooter": "dozer",
                "hits": [{"target": "sprog", "damage": 1}],
            },
        )
    assert error.value.params == {"character": "Sprog"}


def test_adrenaline_levels_at_three_and_six_damage() -> None:
    state = hit(start(), "dozer", "banshee", 2)
    assert adrenaline_level(player(state, "banshee")) == 0
    state = hit(state, "dozer", "banshee", 1)
    assert adrenaline_level(player(state, "banshee")) == 1
    state = hit(state, "dozer", "banshee", 3)
    assert adrenaline_level(player(state, "banshee")) == 2
