"""A character's row: level bounds, selling, powers and their rank limit, races,
Half-Breed, sex, gear, death and Charity, each as a worked example."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine.errors import RuleError
from games.munchkin.rules import (
    ENGINE,
    charity_recipients,
    charity_share,
    power_total,
    sale_levels,
)


def start(players: int = 3, first: int = 0) -> dict[str, Any]:
    options = ENGINE.parse_options({"first_player": first}, players)
    return ENGINE.new_state([f"P{i}" for i in range(players)], options, seed=7)


def act(state: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    return ENGINE.apply(state, ENGINE.parse_action(payload)).state


def events(state: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    return ENGINE.apply(state, ENGINE.parse_action(payload)).events


def with_level(state: dict[str, Any], seat: int, level: int) -> dict[str, Any]:
    state = copy.deepcopy(state)
    state["players"][seat]["level"] = level
    return state


def level(state: dict[str, Any], seat: int = 0) -> int:
    return state["players"][seat]["level"]


def add_power(state: dict[str, Any], seat: int, name: str, rank: int) -> dict[str, Any]:
    return act(state, {"type": "add_power", "seat": seat, "name": name, "rank": rank})


# --------------------------------------------------------------------------
# Level bounds
# --------------------------------------------------------------------------


def test_everyone_starts_as_a_level_1_human_with_no_powers() -> None:
    state = start(4)
    for player in state["players"]:
        assert player["level"] == 1
        assert player["gear"] == 0
        assert player["races"] == []
        assert player["half_breed"] is False
        assert player["powers"] == []


def test_level_goes_up_and_down_by_taps() -> None:
    state = act(start(), {"type": "level", "seat": 1, "delta": 2})
    assert level(state, 1) == 3
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "level", "seat": 1, "delta": -1}))
    assert level(result.state, 1) == 2
    assert result.events == [{"type": "level", "seat": 1, "from": 3, "to": 2, "why": "adjust"}]


def test_level_never_goes_below_1_a_bigger_loss_stops_there() -> None:
    state = act(with_level(start(), 0, 3), {"type": "level", "seat": 0, "delta": -5})
    assert level(state) == 1


def test_level_1_cannot_lose_a_level() -> None:
    with pytest.raises(RuleError, match="already at level 1"):
        act(start(), {"type": "level", "seat": 0, "delta": -1})


def test_level_10_only_by_a_kill_a_tap_or_card_cannot_reach_it() -> None:
    state = with_level(start(), 0, 9)
    with pytest.raises(RuleError, match="only be reached by killing a monster"):
        act(state, {"type": "level", "seat": 0, "delta": 1})
    with pytest.raises(RuleError, match="only be reached by killing a monster"):
        act(with_level(start(), 0, 7), {"type": "level", "seat": 0, "delta": 4})


def test_unknown_seat_is_refused_with_a_clear_message() -> None:
    with pytest.raises(RuleError, match="no player in seat 4"):
        act(start(3), {"type": "level", "seat": 4, "delta": 1})


# --------------------------------------------------------------------------
# Selling items
# --------------------------------------------------------------------------


def test_selling_gives_a_level_per_full_1000_gold_and_no_change() -> None:
    state = start()
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "sell", "seat": 0, "gold": 2500}))
    assert level(result.state) == 3
    assert result.events[0] == {
        "type": "sell",
        "seat": 0,
        "gold": 2500,
        "levels": 2,
        "wasted": 500,
    }
    assert result.events[1] == {"type": "level", "seat": 0, "from": 1, "to": 3, "why": "sell"}
    assert [sale_levels(g) for g in (999, 1000, 1100, 1999, 2000, 3999)] == [0, 1, 1, 1, 2, 3]


def test_selling_under_1000_gold_buys_nothing_and_is_refused() -> None:
    with pytest.raises(RuleError, match="buys nothing"):
        act(start(), {"type": "sell", "seat": 0, "gold": 900})


def test_selling_cannot_reach_level_10() -> None:
    with pytest.raises(RuleError, match="at level 9"):
        act(with_level(start(), 0, 9), {"type": "sell", "seat": 0, "gold": 1000})
    with pytest.raises(RuleError, match="at most 1 level"):
        act(with_level(start(), 0, 8), {"type": "sell", "seat": 0, "gold": 2000})
    state = act(with_level(start(), 0, 8), {"type": "sell", "seat": 0, "gold": 1800})
    assert level(state) == 9


def test_selling_only_on_your_own_turn_and_never_during_a_fight() -> None:
    with pytest.raises(RuleError, match="own turn"):
        act(start(first=0), {"type": "sell", "seat": 1, "gold": 1000})
    fighting = act(start(), {"type": "fight", "seat": 0, "monster": {"level": 1}})
    with pytest.raises(RuleError, match="during a fight"):
        act(fighting, {"type": "sell", "seat": 0, "gold": 1000})


# --------------------------------------------------------------------------
# Powers: the rank total and the Changeling exception
# --------------------------------------------------------------------------


def test_power_ranks_may_add_up_to_the_level_and_no_further() -> None:
    state = with_level(start(), 0, 4)
    state = add_power(state, 0, "Celerity", 3)
    state = add_power(state, 0, "Ascendancy", 1)
    assert power_total(state["players"][0]) == 4
    with pytest.raises(RuleError, match="add up to 5, over level 4"):
        add_power(state, 0, "Bloodlust", 1)


def test_losing_levels_makes_you_discard_powers_newest_first() -> None:
    state = with_level(start(), 0, 5)
    state = add_power(state, 0, "Old", 2)
    state = add_power(state, 0, "Middle", 2)
    state = add_power(state, 0, "New", 1)
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "level", "seat": 0, "delta": -2}))
    powers = result.state["players"][0]["powers"]
    assert [p["name"] for p in powers] == ["Old"]  # 5 ranks -> 3 levels: New and Middle go
    assert [e["name"] for e in result.events if e["type"] == "power"] == ["New", "Middle"]
    assert all(e["why"] == "level_loss" for e in result.events if e["type"] == "power")


def test_a_level_loss_can_name_which_powers_go_first() -> None:
    state = with_level(start(), 0, 5)
    state = add_power(state, 0, "Old", 2)
    state = add_power(state, 0, "Middle", 2)
    state = add_power(state, 0, "New", 1)
    state = act(state, {"type": "level", "seat": 0, "delta": -2, "discard": [0]})
    assert [p["name"] for p in state["players"][0]["powers"]] == ["Middle", "New"]


def test_a_changeling_keeps_every_power_when_its_level_drops() -> None:
    state = with_level(start(), 0, 7)
    state = act(state, {"type": "add_race", "seat": 0, "race": "changeling"})
    for name in ("A", "B", "C"):
        state = add_power(state, 0, name, 2)
    state = add_power(state, 0, "D", 1)
    state = act(state, {"type": "level", "seat": 0, "delta": -1})
    player = state["players"][0]
    assert (player["level"], power_total(player)) == (6, 7)
    # ...but a power that is lost cannot come back until it fits the level again.
    state = act(state, {"type": "remove_power", "seat": 0, "index": 0})
    with pytest.raises(RuleError, match="over level 6"):
        add_power(state, 0, "A", 2)
    state = act(state, {"type": "level", "seat": 0, "delta": 1})
    state = add_power(state, 0, "A", 2)
    assert power_total(state["players"][0]) == 7


def test_a_changeling_who_stops_being_one_discards_the_excess() -> None:
    state = with_level(start(), 0, 4)
    state = act(state, {"type": "add_race", "seat": 0, "race": "changeling"})
    state = add_power(state, 0, "A", 2)
    state = add_power(state, 0, "B", 2)
    state = act(state, {"type": "level", "seat": 0, "delta": -2})
    assert power_total(state["players"][0]) == 4
    result = ENGINE.apply(
        state, ENGINE.parse_action({"type": "remove_race", "seat": 0, "race": "changeling"})
    )
    assert power_total(result.state["players"][0]) == 2
    assert result.events[-1]["why"] == "race_loss"


def test_removing_a_power_that_does_not_exist_is_refused() -> None:
    with pytest.raises(RuleError, match="no power number 1"):
        act(start(), {"type": "remove_power", "seat": 0, "index": 0})


# --------------------------------------------------------------------------
# Races and Half-Breed
# --------------------------------------------------------------------------


def test_one_race_only_without_half_breed() -> None:
    state = act(start(), {"type": "add_race", "seat": 0, "race": "vampire"})
    with pytest.raises(RuleError, match="Half-Breed"):
        act(state, {"type": "add_race", "seat": 0, "race": "werewolf"})


def test_half_breed_allows_two_races_and_no_more() -> None:
    state = act(start(), {"type": "add_race", "seat": 0, "race": "vampire"})
    state = act(state, {"type": "half_breed", "seat": 0, "on": True})
    state = act(state, {"type": "add_race", "seat": 0, "race": "werewolf"})
    assert state["players"][0]["races"] == ["vampire", "werewolf"]
    with pytest.raises(RuleError, match="two races"):
        act(state, {"type": "add_race", "seat": 0, "race": "mummy"})
    with pytest.raises(RuleError, match="already a Vampire"):
        act(state, {"type": "add_race", "seat": 0, "race": "vampire"})


def test_half_breed_needs_a_race_in_play() -> None:
    with pytest.raises(RuleError, match="human"):
        act(start(), {"type": "half_breed", "seat": 0, "on": True})


def test_half_breed_is_lost_with_the_last_race() -> None:
    state = act(start(), {"type": "add_race", "seat": 0, "race": "mummy"})
    state = act(state, {"type": "half_breed", "seat": 0})
    state = act(state, {"type": "remove_race", "seat": 0, "race": "mummy"})
    assert state["players"][0]["races"] == []
    assert state["players"][0]["half_breed"] is False


def test_half_breed_cannot_go_while_two_races_depend_on_it() -> None:
    state = act(start(), {"type": "add_race", "seat": 0, "race": "mummy"})
    state = act(state, {"type": "half_breed", "seat": 0})
    state = act(state, {"type": "add_race", "seat": 0, "race": "vampire"})
    with pytest.raises(RuleError, match="discard one"):
        act(state, {"type": "half_breed", "seat": 0, "on": False})


# --------------------------------------------------------------------------
# Sex, gear, death
# --------------------------------------------------------------------------


def test_starting_sex_comes_from_the_options_and_can_change() -> None:
    options = ENGINE.parse_options({"sexes": ["female", None, "male"]}, 3)
    state = ENGINE.new_state(["A", "B", "C"], options, seed=1)
    assert [p["sex"] for p in state["players"]] == ["female", None, "male"]
    state = act(state, {"type": "sex", "seat": 0, "sex": "male"})
    assert state["players"][0]["sex"] == "male"
    with pytest.raises(RuleError, match="already"):
        act(state, {"type": "sex", "seat": 0, "sex": "male"})


def test_gear_bonus_goes_up_and_down_even_below_zero() -> None:
    state = act(start(), {"type": "gear", "seat": 2, "delta": 5})
    state = act(state, {"type": "gear", "seat": 2, "delta": -7})
    assert state["players"][2]["gear"] == -2


def test_death_keeps_level_races_half_breed_and_powers_but_loses_all_gear() -> None:
    state = with_level(start(), 1, 6)
    state = act(state, {"type": "add_race", "seat": 1, "race": "vampire"})
    state = act(state, {"type": "half_breed", "seat": 1})
    state = act(state, {"type": "add_race", "seat": 1, "race": "werewolf"})
    state = add_power(state, 1, "Celerity", 3)
    state = act(state, {"type": "gear", "seat": 1, "delta": 9})
    before = copy.deepcopy(state["players"][1])
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "die", "seat": 1}))
    after = result.state["players"][1]
    assert after["gear"] == 0
    assert after["deaths"] == 1
    for key in ("level", "races", "half_breed", "powers", "sex", "name"):
        assert after[key] == before[key]
    assert result.events == [{"type": "death", "seat": 1, "gear_lost": 9}]


# --------------------------------------------------------------------------
# Charity
# --------------------------------------------------------------------------


def test_charity_goes_to_the_lowest_level_player() -> None:
    state = start(4)
    for seat, lvl in enumerate((5, 3, 2, 4)):
        state = with_level(state, seat, lvl)
    assert charity_recipients(state, 0) == [2]
    assert charity_share(state, 0, 3) == {"recipients": [2], "each": 3, "extra": 0, "discard": 0}


def test_charity_is_split_between_tied_lowest_players_giver_picks_the_extras() -> None:
    state = start(4)
    for seat, lvl in enumerate((5, 2, 2, 4)):
        state = with_level(state, seat, lvl)
    assert charity_recipients(state, 0) == [1, 2]
    assert charity_share(state, 0, 3) == {
        "recipients": [1, 2],
        "each": 1,
        "extra": 1,
        "discard": 0,
    }


def test_charity_is_discarded_by_the_lowest_player_alone_or_tied() -> None:
    state = start(3)
    for seat, lvl in enumerate((2, 2, 4)):
        state = with_level(state, seat, lvl)
    assert charity_recipients(state, 0) == []
    assert charity_share(state, 1, 2) == {"recipients": [], "each": 0, "extra": 0, "discard": 2}
    assert charity_recipients(state, 2) == [0, 1]
