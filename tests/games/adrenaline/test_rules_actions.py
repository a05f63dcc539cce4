"""Power-ups (scope, tagback), cubes, weapons, turns, owner and view."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.adrenaline.rules import ENGINE, WEAPONS, pickup_cost
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


def adjust(state: dict[str, Any], who: str, field: str, delta: int) -> dict[str, Any]:
    payload = {"type": "adjust", "player": who, "field": field, "delta": delta}
    return act(state, payload).state


def weapon(state: dict[str, Any], who: str, op: str, slug: str, pay: bool = True) -> Result:
    payload = {"type": "weapon", "player": who, "op": op, "weapon": slug, "pay": pay}
    return act(state, payload)


def scoped_shot(
    state: dict[str, Any], hits: list[dict[str, Any]], target: str, colour: str
) -> Result:
    payload = {
        "type": "shot",
        "shooter": "dozer",
        "hits": hits,
        "scope": {"target": target, "colour": colour},
    }
    return act(state, payload)


# Targeting Scope ----------------------------------------------------------


def test_scope_adds_one_damage_and_costs_a_power_up_and_a_cube() -> None:
    state = adjust(start(), "dozer", "powerups", 1)
    result = scoped_shot(state, [{"target": "banshee", "damage": 2}], "banshee", "red")
    dozer = player(result.state, "dozer")
    assert dozer["powerups"] == []
    assert dozer["ammo"] == {"red": 0, "blue": 1, "yellow": 1}
    assert player(result.state, "banshee")["damage"] == ["dozer"] * 3
    assert result.events[0] == {
        "type": "scope",
        "shooter": "dozer",
        "target": "banshee",
        "colour": "red",
    }
    assert result.events[1]["damage"] == 3


def test_scope_damage_comes_before_marks_convert() -> None:
    state = hit(start(), "dozer", "banshee", marks=2)
    state = adjust(turn_of(end_turn(state), "dozer"), "dozer", "powerups", 1)
    result = scoped_shot(state, [{"target": "banshee", "damage": 9}], "banshee", "blue")
    # 9 + 1 scope = 10 direct, then 2 marks convert: 12, nothing lost.
    event = result.events[-1]
    assert (event["damage"], event["converted"], event["lost"]) == (12, 2, 0)


def test_scope_must_target_a_player_taking_damage() -> None:
    state = adjust(start(), "dozer", "powerups", 1)
    hits = [{"target": "banshee", "damage": 1}, {"target": "violet", "marks": 1}]
    with pytest.raises(RuleError):
        scoped_shot(state, hits, "violet", "red")


def test_scope_needs_a_power_up() -> None:
    with pytest.raises(RuleError) as error:
        scoped_shot(start(), [{"target": "banshee", "damage": 1}], "banshee", "red")
    assert "Targeting Scope" in error.value.message


def test_scope_needs_a_cube_of_the_chosen_colour() -> None:
    state = adjust(adjust(start(), "dozer", "powerups", 1), "dozer", "red", -1)
    with pytest.raises(RuleError) as error:
        scoped_shot(state, [{"target": "banshee", "damage": 1}], "banshee", "red")
    assert "red" in error.value.message


# Tagback Grenade -----------------------------------------------------------


def test_tagback_gives_the_shooter_one_mark_and_spends_a_power_up() -> None:
    state = adjust(start(), "banshee", "powerups", 2)
    state = hit(state, "dozer", "banshee", 1)
    result = act(state, {"type": "tagback", "from": "banshee", "to": "dozer"})
    assert player(result.state, "dozer")["marks"] == {"banshee": 1}
    assert len(player(result.state, "banshee")["powerups"]) == 1
    assert result.events == [{"type": "tagback", "from": "banshee", "to": "dozer", "marks_lost": 0}]


def test_tagback_mark_past_three_is_lost() -> None:
    state = adjust(start(), "banshee", "powerups", 1)
    state = hit(state, "banshee", "dozer", marks=3)
    state = hit(state, "dozer", "banshee", 1)
    result = act(state, {"type": "tagback", "from": "banshee", "to": "dozer"})
    assert player(result.state, "dozer")["marks"] == {"banshee": 3}
    assert result.events[0]["marks_lost"] == 1


def test_tagback_needs_a_power_up() -> None:
    state = hit(start(), "dozer", "banshee", 1)
    with pytest.raises(RuleError):
        act(state, {"type": "tagback", "from": "banshee", "to": "dozer"})


def test_tagback_needs_damage_from_that_player_this_turn() -> None:
    state = adjust(start(), "violet", "powerups", 1)
    state = hit(state, "dozer", "violet", marks=1)  # marks are not damage
    with pytest.raises(RuleError):
        act(state, {"type": "tagback", "from": "violet", "to": "dozer"})
    # Damage from an earlier turn does not count either.
    state = end_turn(hit(state, "dozer", "violet", 1))
    with pytest.raises(RuleError):
        act(state, {"type": "tagback", "from": "violet", "to": "dozer"})


def test_tagback_can_only_mark_the_current_player() -> None:
    state = adjust(start(), "banshee", "powerups", 1)
    state = hit(state, "dozer", "banshee", 1)
    with pytest.raises(RuleError):
        act(state, {"type": "tagback", "from": "banshee", "to": "violet"})


# Cubes and power-up counts -------------------------------------------------


def test_adjust_changes_cubes_and_reports_the_new_value() -> None:
    result = act(start(), {"type": "adjust", "player": "violet", "field": "blue", "delta": 2})
    assert player(result.state, "violet")["ammo"]["blue"] == 3
    assert result.events == [
        {"type": "adjust", "player": "violet", "field": "blue", "delta": 2, "value": 3}
    ]


def test_adjust_refuses_a_fourth_cube_of_a_colour() -> None:
    state = adjust(start(), "dozer", "red", 2)
    with pytest.raises(RuleError) as error:
        adjust(state, "dozer", "red", 1)
    assert error.value.message == "%(player)s already has 3 red cubes."
    assert error.value.params["player"] == "Dozer"


def test_adjust_refuses_negative_cubes_and_power_ups() -> None:
    with pytest.raises(RuleError):
        adjust(start(), "dozer", "yellow", -2)
    with pytest.raises(RuleError):
        adjust(start(), "dozer", "powerups", -1)


def test_power_ups_are_capped_at_three() -> None:
    state = adjust(start(), "violet", "powerups", 3)
    with pytest.raises(RuleError):
        adjust(state, "violet", "powerups", 1)


# Weapons -------------------------------------------------------------------


def test_pickup_costs_the_reload_cost_minus_its_first_cube() -> None:
    assert pickup_cost("whisper") == ("blue", "yellow")
    assert pickup_cost("sledgehammer") == ()
    assert WEAPONS["railgun"] == ("yellow", "yellow", "blue")
    result = weapon(start(), "dozer", "pickup", "whisper")
    dozer = player(result.state, "dozer")
    assert dozer["ammo"] == {"red": 1, "blue": 0, "yellow": 0}
    assert dozer["weapons"] == [{"slug": "whisper", "loaded": True}]
    assert result.events[0]["paid"] == ["blue", "yellow"]


def test_pickup_refuses_when_cubes_are_missing_unless_not_paying() -> None:
    state = weapon(start(), "dozer", "pickup", "lock-rifle").state  # pays blue
    with pytest.raises(RuleError) as error:
        weapon(state, "dozer", "pickup", "whisper")
    assert error.value.params["missing"] == "1 blue"
    result = weapon(state, "dozer", "pickup", "whisper", pay=False)
    assert result.events[0]["paid"] == []
    assert player(result.state, "dozer")["ammo"] == {"red": 1, "blue": 0, "yellow": 1}


def test_a_player_holds_at_most_three_weapons() -> None:
    state = start()
    for slug in ("electroscythe", "flamethrower", "shockwave"):
        state = weapon(state, "dozer", "pickup", slug).state
    with pytest.raises(RuleError):
        weapon(state, "dozer", "pickup", "sledgehammer")
    state = weapon(state, "dozer", "drop", "shockwave").state
    state = weapon(state, "dozer", "pickup", "sledgehammer").state
    assert [w["slug"] for w in player(state, "dozer")["weapons"]] == [
        "electroscythe",
        "flamethrower",
        "sledgehammer",
    ]


def test_a_weapon_held_by_someone_else_cannot_be_picked_up() -> None:
    state = weapon(start(), "dozer", "pickup", "shotgun").state
    with pytest.raises(RuleError) as error:
        weapon(state, "banshee", "pickup", "shotgun")
    assert error.value.params["player"] == "Dozer"


def test_shooting_unloads_the_weapon_and_reloading_pays_the_full_cost() -> None:
    state = weapon(start(), "dozer", "pickup", "lock-rifle").state
    result = act(
        state,
        {
            "type": "shot",
            "shooter": "dozer",
            "hits": [{"target": "banshee", "damage": 2, "marks": 1}],
            "weapon": "lock-rifle",
            "effects": ["basic", "second-lock"],
        },
    )
    assert result.events[0] == {
        "type": "weapon_used",
        "shooter": "dozer",
        "weapon": "lock-rifle",
        "effects": ["basic", "second-lock"],
        "paid": ["red"],  # the second lock costs a red cube
    }
    state = result.state
    assert player(state, "dozer")["weapons"] == [{"slug": "lock-rifle", "loaded": False}]
    # Reload costs blue + blue; Dozer has none left.
    with pytest.raises(RuleError) as error:
        weapon(state, "dozer", "reload", "lock-rifle")
    assert error.value.params["missing"] == "2 blue"
    assert error.value.params["blue"] == 2
    state = adjust(state, "dozer", "blue", 2)
    result = weapon(state, "dozer", "reload", "lock-rifle")
    assert result.events[0]["paid"] == ["blue", "blue"]
    assert player(result.state, "dozer")["weapons"] == [{"slug": "lock-rifle", "loaded": True}]
    assert player(result.state, "dozer")["ammo"]["blue"] == 0


def test_cannot_shoot_with_an_unloaded_weapon() -> None:
    shot_with = {
        "type": "shot",
        "shooter": "dozer",
        "hits": [{"target": "banshee", "damage": 1}],
        "weapon": "zx-2",
    }
    state = weapon(start(), "dozer", "pickup", "zx-2").state
    state = weapon(state, "dozer", "unload", "zx-2").state
    with pytest.raises(RuleError):
        act(state, shot_with)


def test_a_weapon_the_app_does_not_track_is_named_and_charges_nothing() -> None:
    """A table that keeps its weapons on the real boards still records the shot:
    the history names the weapon, no cube moves, nothing is unloaded."""
    result = act(
        start(),
        {
            "type": "shot",
            "shooter": "dozer",
            "hits": [{"target": "banshee", "damage": 2, "marks": 0}],
            "weapon": "machine-gun",
            "effects": ["basic", "focus-shot"],
        },
    )
    used = result.events[0]
    assert used["type"] == "weapon_used" and used["untracked"] and used["paid"] == []
    assert player(result.state, "dozer")["ammo"] == {"red": 1, "blue": 1, "yellow": 1}
    assert player(result.state, "dozer")["weapons"] == []
    assert player(result.state, "banshee")["damage"] == ["dozer", "dozer"]


def test_a_weapon_someone_else_holds_cannot_be_fired() -> None:
    state = weapon(start(), "banshee", "pickup", "zx-2").state
    with pytest.raises(RuleError) as error:
        act(
            state,
            {
                "type": "shot",
                "shooter": "dozer",
                "hits": [{"target": "banshee", "damage": 1}],
                "weapon": "zx-2",
            },
        )
    assert "only one" in str(error.value)


def test_picking_up_inside_the_shot_pays_for_it_and_leaves_it_unloaded() -> None:
    state = adjust(start(), "dozer", "blue", 1)
    payload = {
        "type": "shot",
        "shooter": "dozer",
        "hits": [{"target": "banshee", "damage": 2, "marks": 1}],
        "weapon": "lock-rifle",
        "effects": ["basic"],
        "pickup": True,
    }
    result = act(state, payload)
    assert [e["type"] for e in result.events][:2] == ["weapon", "weapon_used"]
    assert result.events[0]["paid"] == list(pickup_cost("lock-rifle"))
    assert player(result.state, "dozer")["weapons"] == [{"slug": "lock-rifle", "loaded": False}]
    assert player(result.state, "dozer")["ammo"]["blue"] == 1
    # The logged payload keeps the pick-up, so a replay does the same.
    assert ENGINE.parse_action(ENGINE.parse_action(payload).to_payload()).pickup


def test_reload_needs_an_unloaded_weapon_held() -> None:
    state = weapon(start(), "dozer", "pickup", "zx-2").state
    with pytest.raises(RuleError):
        weapon(state, "dozer", "reload", "zx-2")
    with pytest.raises(RuleError):
        weapon(state, "dozer", "reload", "thor")


def test_free_reload_when_the_table_pays_by_hand() -> None:
    state = weapon(start(), "dozer", "pickup", "railgun", pay=False).state
    state = weapon(state, "dozer", "unload", "railgun").state
    result = weapon(state, "dozer", "reload", "railgun", pay=False)
    assert player(result.state, "dozer")["ammo"] == {"red": 1, "blue": 1, "yellow": 1}


# Turns, owner, view, purity ------------------------------------------------


def test_end_turn_passes_to_the_next_seat() -> None:
    result = act(start(3, first=2), {"type": "end_turn"})
    assert (result.state["current"], result.state["turn"]) == (0, 2)
    assert result.events == [{"type": "turn", "player": "dozer", "turn": 2, "frenzy_actions": None}]


def test_new_state_shape() -> None:
    state = start(4, skulls=6, first=1)
    assert state["game"] == "adrenaline"
    assert (state["skulls"], state["first_player"], state["current"]) == (6, 1, 1)
    assert state["players"][2] == {
        "character": "violet",
        "name": "Violet",
        "damage": [],
        "marks": {},
        "skulls": 0,
        "frenzy": False,
        "ammo": {"red": 1, "blue": 1, "yellow": 1},
        "weapons": [],
        "powerups": [],
        "points": 0,
        "square": None,
    }
    assert state["board"] is None  # a table that plays without the map
    assert state["frenzy"] is None and state["over"] is False
    assert state["killshot"] == [] and state["awards"] == []


def test_owner_is_the_acting_player() -> None:
    state = start(4)
    parse = ENGINE.parse_action
    assert ENGINE.owner(state, parse({"type": "end_turn"})) == 0
    assert (
        ENGINE.owner(
            state,
            parse(
                {"type": "shot", "shooter": "violet", "hits": [{"target": "dozer", "damage": 1}]}
            ),
        )
        == 2
    )
    assert ENGINE.owner(state, parse({"type": "tagback", "from": "sprog", "to": "dozer"})) == 3
    assert (
        ENGINE.owner(
            state,
            parse({"type": "adjust", "player": "banshee", "field": "red", "delta": 1}),
        )
        == 1
    )


def test_view_is_a_full_copy() -> None:
    state = start()
    view = ENGINE.view(state, 1)
    assert view == state and view is not state
    view["players"][0]["points"] = 99
    assert state["players"][0]["points"] == 0


def test_apply_does_not_mutate_its_input() -> None:
    state = hit(start(), "dozer", "banshee", 10, marks=1)
    before = copy.deepcopy(state)
    act(state, {"type": "shot", "shooter": "dozer", "hits": [{"target": "banshee", "damage": 2}]})
    act(state, {"type": "end_turn"})
    assert state == before


def test_optional_effects_and_modes_cost_their_cubes_and_a_shot_not_paid_for_is_refused() -> None:
    state = weapon(start(), "dozer", "pickup", "lock-rifle").state
    shot = {
        "type": "shot",
        "shooter": "dozer",
        "hits": [{"target": "banshee", "damage": 2, "marks": 1}, {"target": "violet", "marks": 1}],
        "weapon": "lock-rifle",
        "effects": ["basic", "second-lock"],
    }
    red = player(state, "dozer")["ammo"]["red"]
    after = act(state, shot).state
    assert player(after, "dozer")["ammo"]["red"] == red - 1
    broke = adjust(state, "dozer", "red", -red)
    with pytest.raises(RuleError) as error:
        act(broke, shot)
    assert error.value.params["missing"] == "1 red"
    assert player(broke, "dozer")["weapons"] == [{"slug": "lock-rifle", "loaded": True}]
    with pytest.raises(RuleError) as error:
        act(state, {**shot, "effects": ["basic", "third-lock"]})
    assert error.value.params["effect"] == "third-lock"
