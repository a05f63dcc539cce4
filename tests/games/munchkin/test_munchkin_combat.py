"""Fights as worked examples: totals, helper, ties, enhancers, Evil Twin, Wandering
Monster, the kill, level 10, running away monster by monster, death and calling off."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine.errors import RuleError
from games.engine.rng import SeededRandom
from games.munchkin.rules import ENGINE, combat_totals, monster_level, pending_runs


def start(players: int = 3) -> dict[str, Any]:
    return ENGINE.new_state([f"P{i}" for i in range(players)], {}, seed=11)


def act(state: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    return ENGINE.apply(state, ENGINE.parse_action(payload)).state


def events(state: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    return ENGINE.apply(state, ENGINE.parse_action(payload)).events


def with_row(state: dict[str, Any], seat: int, level: int, gear: int = 0) -> dict[str, Any]:
    state = copy.deepcopy(state)
    state["players"][seat]["level"] = level
    state["players"][seat]["gear"] = gear
    return state


def fight(state: dict[str, Any], level: int, seat: int = 0, **monster: Any) -> dict[str, Any]:
    return act(state, {"type": "fight", "seat": seat, "monster": {"level": level, **monster}})


def totals(state: dict[str, Any]) -> dict[str, Any]:
    result = combat_totals(state)
    assert result is not None
    return result


def next_die(state: dict[str, Any]) -> int:
    """The value the state's die will show next (the generator is a pure function)."""
    return SeededRandom.from_state(state["rng"]).randint(1, 6)


# --------------------------------------------------------------------------
# Totals and who is winning
# --------------------------------------------------------------------------


def test_combat_strength_is_level_plus_gear_plus_one_shot_bonuses() -> None:
    state = fight(with_row(start(), 0, 4, gear=3), 9)
    state = act(state, {"type": "bonus", "side": "players", "value": 3, "name": "Potion"})
    assert totals(state)["players"] == 10
    assert totals(state)["monsters"] == 9
    assert totals(state)["winning"] == "players"


def test_a_tie_goes_to_the_monster_players_win_only_when_strictly_higher() -> None:
    state = fight(with_row(start(), 0, 5, gear=3), 8)
    assert (totals(state)["players"], totals(state)["monsters"]) == (8, 8)
    assert totals(state)["winning"] == "monsters"
    state = act(state, {"type": "resolve"})
    assert state["combat"]["stage"] == "running"
    assert state["players"][0]["level"] == 5


def test_one_shot_bonuses_on_the_monsters_side_count_for_the_monsters() -> None:
    state = fight(with_row(start(), 0, 5, gear=5), 8)
    assert totals(state)["winning"] == "players"
    state = act(state, {"type": "bonus", "side": "monsters", "value": 2})
    assert totals(state)["monsters"] == 10
    assert totals(state)["winning"] == "monsters"


def test_helper_level_and_gear_add_in_and_the_helper_gains_no_level() -> None:
    state = with_row(with_row(start(), 0, 3, gear=2), 1, 4, gear=4)
    state = fight(state, 10)
    assert totals(state)["winning"] == "monsters"
    state = act(state, {"type": "helper", "seat": 1})
    assert totals(state)["players"] == 13
    assert totals(state)["helper"] == 8
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "resolve"}))
    assert result.state["players"][0]["level"] == 4
    assert result.state["players"][1]["level"] == 4
    assert result.state["last_combat"]["result"] == "won"


def test_only_one_helper_and_never_the_fighter() -> None:
    state = fight(start(), 3)
    with pytest.raises(RuleError, match="own fight"):
        act(state, {"type": "helper", "seat": 0})
    state = act(state, {"type": "helper", "seat": 1})
    state = act(state, {"type": "helper", "seat": 2})  # a new helper replaces the old one
    assert state["combat"]["helper"] == 2
    state = act(state, {"type": "helper", "seat": None})
    assert state["combat"]["helper"] is None


# --------------------------------------------------------------------------
# Monsters: enhancers, Evil Twin, Wandering Monster
# --------------------------------------------------------------------------


def test_enhancers_add_up_and_a_monster_never_drops_below_level_1() -> None:
    state = fight(start(), 4)
    state = act(state, {"type": "enhance", "monster": 1, "value": 5, "name": "Corrupt"})
    state = act(state, {"type": "enhance", "monster": 1, "value": 3})
    assert monster_level(state["combat"]["monsters"][0]) == 12
    state = act(state, {"type": "enhance", "monster": 1, "value": -10, "name": "Cute"})
    state = act(state, {"type": "enhance", "monster": 1, "value": -5})
    assert monster_level(state["combat"]["monsters"][0]) == 1


def test_evil_twin_copies_the_monster_with_all_its_enhancers() -> None:
    state = fight(start(), 6, name="Ghoul", levels=2)
    state = act(state, {"type": "enhance", "monster": 1, "value": 5, "name": "Corrupt"})
    state = act(state, {"type": "evil_twin", "monster": 1})
    original, twin = state["combat"]["monsters"]
    assert twin["twin_of"] == 1
    assert (twin["name"], twin["level"], twin["levels"]) == ("Ghoul", 6, 2)
    assert twin["enhancers"] == original["enhancers"]
    assert monster_level(twin) == monster_level(original) == 11
    assert totals(state)["monsters"] == 22


def test_enhancers_played_after_the_twin_affect_both_in_any_order() -> None:
    state = fight(start(), 6)
    state = act(state, {"type": "evil_twin", "monster": 1})
    state = act(state, {"type": "enhance", "monster": 1, "value": 5, "name": "Corrupt"})
    state = act(state, {"type": "enhance", "monster": 2, "value": 3, "name": "Poisonous"})
    levels = [monster_level(m) for m in state["combat"]["monsters"]]
    assert levels == [14, 14]


def test_a_wandering_monster_joins_and_enhancers_go_on_one_monster_only() -> None:
    state = fight(with_row(start(), 0, 8, gear=3), 10)
    assert totals(state)["winning"] == "players"
    result = ENGINE.apply(
        state,
        ENGINE.parse_action({"type": "add_monster", "monster": {"name": "Bat", "level": 2}}),
    )
    assert result.events[0]["wandering"] is True
    state = result.state
    assert totals(state)["monsters"] == 12
    assert totals(state)["winning"] == "monsters"
    state = act(state, {"type": "enhance", "monster": 2, "value": 5})
    assert [monster_level(m) for m in state["combat"]["monsters"]] == [10, 7]


def test_each_kill_gives_its_levels_one_or_two_per_monster() -> None:
    state = fight(with_row(start(), 0, 3, gear=20), 4, levels=2)
    state = act(state, {"type": "add_monster", "monster": {"level": 2}})
    assert totals(state)["levels_at_stake"] == 3
    state = act(state, {"type": "resolve"})
    assert state["players"][0]["level"] == 6


def test_a_monster_removed_by_a_card_gives_no_level() -> None:
    state = fight(with_row(start(), 0, 3, gear=20), 4, levels=2)
    state = act(state, {"type": "add_monster", "monster": {"level": 2}})
    state = act(state, {"type": "remove_monster", "monster": 1})
    state = act(state, {"type": "resolve"})
    assert state["players"][0]["level"] == 4


# --------------------------------------------------------------------------
# Level 10 and winning
# --------------------------------------------------------------------------


def test_a_kill_is_the_way_to_level_10_and_wins_the_game() -> None:
    state = fight(with_row(start(), 0, 9, gear=5), 3)
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "resolve"}))
    assert result.state["players"][0]["level"] == 10
    assert result.state["over"] is True
    assert result.state["winners"] == [0]
    assert {"type": "game_over", "winners": [0]} in result.events
    outcome = ENGINE.outcome(result.state)
    assert outcome is not None and outcome.winners == [0]
    with pytest.raises(RuleError, match="over"):
        act(result.state, {"type": "roll"})


def test_a_kill_worth_two_levels_at_level_9_stops_at_10() -> None:
    state = fight(with_row(start(), 0, 9, gear=5), 3, levels=2)
    assert act(state, {"type": "resolve"})["players"][0]["level"] == 10


def test_both_win_when_the_same_kill_takes_fighter_and_helper_to_level_10() -> None:
    # The helper normally gains nothing; a card (the table says how many levels)
    # can give them levels for the kill, and then both can reach 10 together.
    state = with_row(with_row(start(), 0, 9), 1, 9)
    state = fight(state, 12)
    state = act(state, {"type": "helper", "seat": 1})
    state = act(state, {"type": "resolve", "helper_levels": 1})
    assert state["winners"] == [0, 1]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.places[0] == [0, 1]


def test_a_helper_at_level_9_does_not_reach_10_by_helping() -> None:
    state = with_row(with_row(start(), 0, 5), 1, 9, gear=5)
    state = act(fight(state, 3), {"type": "helper", "seat": 1})
    state = act(state, {"type": "resolve"})
    assert state["players"][1]["level"] == 9
    assert state["over"] is False


def test_helper_levels_need_a_helper() -> None:
    with pytest.raises(RuleError, match="Nobody is helping"):
        act(fight(with_row(start(), 0, 5), 1), {"type": "resolve", "helper_levels": 1})


# --------------------------------------------------------------------------
# Running away
# --------------------------------------------------------------------------


def lost_fight(monsters: int = 1, helper: bool = False) -> dict[str, Any]:
    state = fight(start(), 10, name="M1")
    for i in range(2, monsters + 1):
        state = act(state, {"type": "add_monster", "monster": {"name": f"M{i}", "level": 5}})
    if helper:
        state = act(state, {"type": "helper", "seat": 1})
    return act(state, {"type": "resolve"})


def test_losing_means_one_run_away_roll_per_player_per_monster() -> None:
    state = lost_fight(monsters=2, helper=True)
    assert pending_runs(state) == [
        {"seat": 0, "monster": 1},
        {"seat": 0, "monster": 2},
        {"seat": 1, "monster": 1},
        {"seat": 1, "monster": 2},
    ]


def test_run_away_escapes_on_5_or_more_with_the_die_from_the_state() -> None:
    state = lost_fight()
    die = next_die(state)
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "run", "seat": 0, "monster": 1}))
    run = result.events[0]
    assert (run["roll"], run["total"], run["escaped"]) == (die, die, die >= 5)
    assert result.state["last_roll"] == {"seat": 0, "value": die}


def test_run_away_modifiers_per_player_and_per_monster() -> None:
    state = fight(start(), 10, escape=-1)  # a fast monster
    state = act(state, {"type": "run_bonus", "seat": 0, "delta": 5})
    state = act(state, {"type": "resolve"})
    die = next_die(state)
    run = events(state, {"type": "run", "seat": 0})[0]
    assert run["modifier"] == 4
    assert run["total"] == die + 4
    assert run["escaped"] is True  # 1 + 4 is already 5


def test_a_big_penalty_means_no_roll_can_escape() -> None:
    state = act(fight(start(), 10), {"type": "run_bonus", "seat": 0, "delta": -5})
    state = act(state, {"type": "resolve"})
    assert events(state, {"type": "run", "seat": 0})[0]["escaped"] is False


def test_each_monster_is_rolled_for_separately_and_caught_ones_are_listed() -> None:
    state = act(lost_fight(monsters=2), {"type": "run", "seat": 0, "monster": 2, "mode": "caught"})
    assert state["combat"] is not None
    with pytest.raises(RuleError, match="already run"):
        act(state, {"type": "run", "seat": 0, "monster": 2})
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "run", "seat": 0, "monster": 1}))
    end = result.events[-1]
    assert end["type"] == "combat_end" and end["result"] == "fled"
    caught = [(c["seat"], c["monster"]) for c in end["caught"]]
    assert (0, 2) in caught
    # The history names the monster even after the fight is gone.
    assert all(c["name"] for c in end["caught"])
    assert result.state["combat"] is None
    assert result.state["last_combat"]["result"] == "fled"


def test_fighter_and_helper_both_run_and_can_both_be_caught() -> None:
    state = lost_fight(helper=True)
    state = act(state, {"type": "run", "seat": 0, "mode": "caught"})
    state = act(state, {"type": "run", "seat": 1, "mode": "caught"})
    assert state["last_combat"]["runs"][0]["escaped"] is False
    assert [r["seat"] for r in state["last_combat"]["runs"]] == [0, 1]


def test_an_automatic_escape_from_every_monster_needs_no_roll() -> None:
    state = lost_fight(monsters=3)
    rng = state["rng"]
    state = act(state, {"type": "run", "seat": 0, "mode": "escape"})
    assert state["rng"] == rng
    assert all(r["escaped"] and r["roll"] is None for r in state["last_combat"]["runs"])


def test_nobody_runs_before_the_fight_is_decided_and_only_those_in_it_run() -> None:
    state = fight(start(), 10)
    with pytest.raises(RuleError, match="before the fight is decided"):
        act(state, {"type": "run", "seat": 0})
    state = act(state, {"type": "resolve"})
    with pytest.raises(RuleError, match="not running"):
        act(state, {"type": "run", "seat": 2})


def test_after_losing_the_fight_cannot_be_changed_any_more() -> None:
    state = lost_fight()
    for payload in (
        {"type": "bonus", "side": "players", "value": 5},
        {"type": "add_monster", "monster": {"level": 1}},
        {"type": "helper", "seat": 1},
        {"type": "resolve"},
    ):
        with pytest.raises(RuleError, match="running away"):
            act(state, payload)


def test_dying_while_running_settles_the_remaining_rolls() -> None:
    state = lost_fight(monsters=2)
    state = act(state, {"type": "run", "seat": 0, "monster": 1, "mode": "caught"})
    result = ENGINE.apply(state, ENGINE.parse_action({"type": "die", "seat": 0}))
    assert result.state["combat"] is None
    assert result.events[-1]["result"] == "fled"


def test_a_fighter_who_dies_mid_fight_ends_it_a_dead_helper_just_leaves() -> None:
    state = act(fight(start(), 10), {"type": "helper", "seat": 1})
    after_helper = act(state, {"type": "die", "seat": 1})
    assert after_helper["combat"]["helper"] is None
    after_fighter = act(state, {"type": "die", "seat": 0})
    assert after_fighter["combat"] is None
    assert after_fighter["last_combat"]["result"] == "cancelled"


# --------------------------------------------------------------------------
# Starting, calling off, errors
# --------------------------------------------------------------------------


def test_combat_actions_without_a_fight_are_refused() -> None:
    state = start()
    for payload in (
        {"type": "enhance", "monster": 1, "value": 2},
        {"type": "evil_twin", "monster": 1},
        {"type": "resolve"},
        {"type": "run", "seat": 0},
        {"type": "cancel_combat"},
        {"type": "helper", "seat": 1},
        {"type": "bonus", "side": "players", "value": 1},
    ):
        with pytest.raises(RuleError, match="no fight"):
            act(state, payload)


def test_one_fight_at_a_time_and_unknown_monsters_are_refused() -> None:
    state = fight(start(), 3)
    with pytest.raises(RuleError, match="already going on"):
        fight(state, 4)
    with pytest.raises(RuleError, match="no monster number 7"):
        act(state, {"type": "evil_twin", "monster": 7})


def test_calling_a_fight_off_changes_no_level() -> None:
    state = fight(with_row(start(), 0, 5, gear=10), 2)
    state = act(state, {"type": "cancel_combat"})
    assert state["combat"] is None
    assert state["players"][0]["level"] == 5
    assert state["last_combat"]["result"] == "cancelled"


def test_a_fight_with_no_monster_left_cannot_be_resolved() -> None:
    state = act(fight(start(), 3), {"type": "remove_monster", "monster": 1})
    with pytest.raises(RuleError, match="call it off"):
        act(state, {"type": "resolve"})


def test_the_turn_cannot_move_on_during_a_fight() -> None:
    state = fight(start(), 3)
    for payload in ({"type": "next_phase"}, {"type": "end_turn"}):
        with pytest.raises(RuleError, match="Finish the fight"):
            act(state, payload)
