"""The map at the table: figures put on squares of the chosen board, and moved."""

from __future__ import annotations

from typing import Any

import pytest

from games.adrenaline.arena import Square
from games.adrenaline.rules import ENGINE, Move, positions
from games.engine.errors import InvalidInput, RuleError


def start(board: str | None = "small") -> dict[str, Any]:
    options = ENGINE.parse_options(
        {"characters": ["dozer", "banshee", "violet"], "board": board or ""}, 3
    )
    return ENGINE.new_state(["Anna", "Bruno", "Carla"], options, seed=0)


def move(state: dict[str, Any], player: str, square: str) -> Any:
    return ENGINE.apply(
        state, ENGINE.parse_action({"type": "move", "player": player, "square": square})
    )


def test_a_figure_starts_off_the_map_and_is_put_on_a_square_then_taken_off() -> None:
    state = start()
    assert state["board"] == "small" and positions(state)["dozer"] is None
    result = move(state, "dozer", "1-0")
    assert positions(result.state)["dozer"] == Square(1, 0)
    assert result.events == [{"type": "move", "player": "dozer", "from": None, "to": [1, 0]}]
    off = move(result.state, "dozer", "")
    assert positions(off.state)["dozer"] is None
    assert off.events[0]["from"] == [1, 0]


def test_a_square_missing_from_the_board_is_refused() -> None:
    # The small board has no square in the top-right corner.
    with pytest.raises(RuleError, match="not on this map"):
        move(start(), "dozer", "0-3")


def test_without_the_map_there_is_nowhere_to_move() -> None:
    with pytest.raises(RuleError, match="without the map"):
        move(start(None), "dozer", "1-0")


@pytest.mark.parametrize("square", ["1", "a-b", "1-", "-1", "12345-6", 7, ["1", "0"]])
def test_a_malformed_square_is_refused_as_bad_input(square: Any) -> None:
    with pytest.raises(InvalidInput):
        ENGINE.parse_action({"type": "move", "player": "dozer", "square": square})


def test_an_unknown_board_is_refused_at_set_up() -> None:
    with pytest.raises(InvalidInput):
        ENGINE.parse_options({"characters": ["dozer", "banshee", "violet"], "board": "moon"}, 3)


def test_a_move_replays_from_its_payload_and_belongs_to_the_moved_figure() -> None:
    action = ENGINE.parse_action({"type": "move", "player": "banshee", "square": "2-2"})
    assert action == Move("banshee", Square(2, 2))
    assert ENGINE.parse_action(action.to_payload()) == action
    assert ENGINE.owner(start(), action) == 1


def test_a_shot_records_the_moves_its_effects_make_after_it_hits() -> None:
    state = move(move(start(), "dozer", "1-0").state, "banshee", "1-2").state
    payload = {
        "type": "shot",
        "shooter": "dozer",
        "hits": [{"target": "banshee", "damage": 1}],
        "weapon": "tractor-beam",
        "moves": [{"player": "banshee", "square": "1-1"}, {"player": "violet", "square": ""}],
    }
    result = ENGINE.apply(state, ENGINE.parse_action(payload))
    assert positions(result.state)["banshee"] == Square(1, 1)
    assert result.events[-1]["type"] == "move"
    action = ENGINE.parse_action(payload)
    assert action.moves == (("banshee", Square(1, 1)),)
    assert ENGINE.parse_action(action.to_payload()) == action
    with pytest.raises(RuleError, match="without the map"):
        ENGINE.apply(start(None), ENGINE.parse_action(payload))
