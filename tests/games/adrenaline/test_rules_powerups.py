"""Power-ups held by kind and colour: drawn, discarded, played as Targeting Scopes
(any number in one shot, each paid for), Tagback Grenades (only with sight of the
shooter, when the map says), Newton and Teleporter (moves on the map)."""

from __future__ import annotations

from typing import Any

import pytest

from games.adrenaline.rules import ENGINE, positions, upgraded
from games.engine.errors import RuleError

CAST = ["dozer", "banshee", "violet"]


def start(board: str | None = "small") -> dict[str, Any]:
    options = ENGINE.parse_options({"characters": CAST, "board": board or ""}, 3)
    return ENGINE.new_state(["Anna", "Bruno", "Carla"], options, seed=0)


def act(state: dict[str, Any], **payload: Any) -> Any:
    return ENGINE.apply(state, ENGINE.parse_action(payload))


def draw(state: dict[str, Any], who: str, kind: str = "", colour: str = "") -> dict[str, Any]:
    return act(state, type="powerup", player=who, op="draw", kind=kind, colour=colour).state


def hand(state: dict[str, Any], who: str) -> list[tuple[Any, Any]]:
    player = next(p for p in state["players"] if p["character"] == who)
    return [(c["kind"], c["colour"]) for c in player["powerups"]]


def place(state: dict[str, Any], **squares: str) -> dict[str, Any]:
    for who, square in squares.items():
        state = act(state, type="move", player=who, square=square).state
    return state


def test_a_hand_holds_three_power_ups_by_kind_and_colour():
    state = draw(start(), "dozer", "scope", "red")
    state = draw(state, "dozer", "newton", "blue")
    state = draw(state, "dozer")  # a table that does not say which
    assert hand(state, "dozer") == [("scope", "red"), ("newton", "blue"), (None, None)]
    with pytest.raises(RuleError, match="already has 3"):
        draw(state, "dozer", "tagback", "yellow")
    state = act(state, type="powerup", player="dozer", op="discard", kind="newton", colour="blue")
    assert hand(state.state, "dozer") == [("scope", "red"), (None, None)]
    with pytest.raises(RuleError, match="no such power-up"):
        act(start(), type="powerup", player="dozer", op="discard", kind="scope")


def test_several_targeting_scopes_in_one_shot_each_paid_for():
    state = draw(draw(start(), "dozer", "scope", "red"), "dozer", "scope", "blue")
    result = act(
        state,
        type="shot",
        shooter="dozer",
        hits=[{"target": "banshee", "damage": 2}, {"target": "violet", "damage": 1}],
        scopes=[
            {"target": "banshee", "colour": "red"},
            {"target": "violet", "colour": "yellow", "card": "blue"},
        ],
    )
    boards = {p["character"]: p for p in result.state["players"]}
    assert len(boards["banshee"]["damage"]) == 3 and len(boards["violet"]["damage"]) == 2
    assert boards["dozer"]["ammo"] == {"red": 0, "blue": 1, "yellow": 0}
    assert boards["dozer"]["powerups"] == []


def test_a_newton_is_no_targeting_scope():
    state = draw(start(), "dozer", "newton", "red")
    with pytest.raises(RuleError, match="no Targeting Scope"):
        act(
            state,
            type="shot",
            shooter="dozer",
            hits=[{"target": "banshee", "damage": 1}],
            scopes=[{"target": "banshee", "colour": "red"}],
        )


def test_a_tagback_grenade_needs_the_card_and_sight_of_the_shooter():
    # Small board: Dozer (on turn) in the red room, Banshee in the white room below
    # a door (2-1 sees the red room through 1-1), Violet in the yellow room (2-3:
    # its door is to the white room, so it cannot see the red room).
    state = place(start(), dozer="1-0", banshee="2-1", violet="2-3")
    state = draw(draw(state, "banshee", "tagback", "red"), "violet", "tagback", "blue")
    state = act(
        state,
        type="shot",
        shooter="dozer",
        hits=[{"target": "banshee", "damage": 1}, {"target": "violet", "damage": 1}],
    ).state
    marked = act(state, type="tagback", **{"from": "banshee", "to": "dozer"})
    assert marked.state["players"][0]["marks"] == {"banshee": 1}
    with pytest.raises(RuleError, match="cannot see"):
        act(state, type="tagback", **{"from": "violet", "to": "dozer"})
    no_card = place(start(), dozer="1-0", banshee="1-1")
    no_card = act(
        no_card, type="shot", shooter="dozer", hits=[{"target": "banshee", "damage": 1}]
    ).state
    with pytest.raises(RuleError, match="no Tagback Grenade"):
        act(no_card, type="tagback", **{"from": "banshee", "to": "dozer"})


def test_newton_moves_another_figure_one_or_two_squares_in_a_line():
    state = draw(place(start(), dozer="1-0", banshee="1-1"), "dozer", "newton", "yellow")
    moved = act(state, type="move", player="banshee", square="1-3", powerup="newton")
    assert positions(moved.state)["banshee"] is not None
    assert str(positions(moved.state)["banshee"]) == "1-3"
    assert hand(moved.state, "dozer") == []  # the card is spent
    assert moved.events[0] == {
        "type": "powerup",
        "player": "dozer",
        "op": "play",
        "kind": "newton",
        "colour": "yellow",
    }
    with pytest.raises(RuleError, match="1 or 2 squares"):
        act(state, type="move", player="banshee", square="2-2", powerup="newton")  # a turn
    with pytest.raises(RuleError, match="another player's figure"):
        act(state, type="move", player="dozer", square="1-1", powerup="newton")


def test_a_teleporter_puts_its_player_anywhere_and_only_its_player():
    state = draw(place(start(), dozer="1-0", banshee="1-1"), "dozer", "teleporter", "red")
    moved = act(state, type="move", player="dozer", square="2-3", powerup="teleporter")
    assert str(positions(moved.state)["dozer"]) == "2-3"
    with pytest.raises(RuleError, match="only the figure of its player"):
        act(state, type="move", player="banshee", square="2-3", powerup="teleporter")
    with pytest.raises(RuleError, match="no such power-up"):
        act(place(start(), dozer="1-0"), type="move", player="dozer", square="2-3",
            powerup="teleporter")  # fmt: skip


def test_a_table_saved_when_power_ups_were_a_count_plays_on():
    old = start(None)
    for player in old["players"]:
        player["powerups"] = 2
        del player["square"]
    del old["board"]
    result = act(
        old,
        type="shot",
        shooter="dozer",
        hits=[{"target": "banshee", "damage": 1}],
        scopes=[{"target": "banshee", "colour": "red"}],
    )
    assert hand(result.state, "dozer") == [(None, None)]
    assert upgraded(old)["players"][1]["powerups"] == [{"kind": None, "colour": None}] * 2
