"""Property tests: random tables of play keep the bookkeeping consistent."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.adrenaline.arena import BOARD_IDS, load_board
from games.adrenaline.rules import CHARACTERS, ENGINE, WEAPONS, is_dead, positions
from tests.support.engine_play import random_play

# A few weapons only, so that players compete for the same cards.
SOME_WEAPONS = ("lock-rifle", "zx-2", "sledgehammer", "railgun", "shotgun")


def current(state: dict[str, Any]) -> str:
    return state["players"][state["current"]]["character"]


@st.composite
def payloads(draw: st.DrawFn, state: dict[str, Any]) -> dict[str, Any]:
    seated = [p["character"] for p in state["players"]]
    kinds = ["shot"] * 4 + ["end_turn"] * 3 + ["adjust", "weapon", "tagback", "move", "powerup"]
    kind = draw(st.sampled_from(kinds))
    if kind == "shot":
        shooter = draw(st.sampled_from([current(state)] * 4 + seated))
        others = [c for c in seated if c != shooter]
        targets = draw(st.lists(st.sampled_from(others), min_size=1, max_size=4, unique=True))
        hits = [
            {
                "target": t,
                "damage": draw(st.integers(0, 12) | st.sampled_from([6, 11, 12])),
                "marks": draw(st.integers(0, 3)),
            }
            for t in targets
        ]
        if not any(h["damage"] or h["marks"] for h in hits):
            hits[0]["damage"] = 1
        scopes = [
            {
                "target": draw(st.sampled_from(targets)),
                "colour": draw(st.sampled_from(["red", "blue", "yellow"])),
            }
            for _ in range(draw(st.integers(0, 2)))
        ]
        return {
            "type": "shot",
            "shooter": shooter,
            "hits": hits,
            "weapon": draw(st.none() | st.sampled_from(SOME_WEAPONS)),
            "effects": [],
            "scopes": scopes,
        }
    if kind == "adjust":
        return {
            "type": "adjust",
            "player": draw(st.sampled_from(seated)),
            "field": draw(st.sampled_from(["red", "blue", "yellow", "powerups"])),
            "delta": draw(st.sampled_from([-3, -2, -1, 1, 2, 3])),
        }
    if kind == "weapon":
        return {
            "type": "weapon",
            "player": draw(st.sampled_from(seated)),
            "op": draw(st.sampled_from(["pickup", "reload", "drop", "unload"])),
            "weapon": draw(st.sampled_from(SOME_WEAPONS)),
            "pay": draw(st.booleans()),
        }
    if kind == "move":
        rows, cols = draw(st.integers(0, 2)), draw(st.integers(0, 3))
        square = draw(st.sampled_from(["", f"{rows}-{cols}"]))
        return {
            "type": "move",
            "player": draw(st.sampled_from(seated)),
            "square": square,
            "powerup": draw(st.sampled_from(["", "", "newton", "teleporter"])) if square else "",
        }
    if kind == "powerup":
        return {
            "type": "powerup",
            "player": draw(st.sampled_from(seated)),
            "op": draw(st.sampled_from(["draw", "draw", "discard"])),
            "kind": draw(st.sampled_from(["", "scope", "newton", "tagback", "teleporter"])),
            "colour": draw(st.sampled_from(["", "red", "blue", "yellow"])),
        }
    if kind == "tagback":
        source = draw(st.sampled_from([c for c in seated if c != current(state)]))
        return {"type": "tagback", "from": source, "to": current(state)}
    return {"type": "end_turn"}


def new_game(data: st.DataObject) -> dict[str, Any]:
    seats = data.draw(st.integers(3, 5), label="seats")
    characters = data.draw(st.permutations(CHARACTERS), label="characters")[:seats]
    options = ENGINE.parse_options(
        {
            "characters": characters,
            "skulls": data.draw(st.integers(5, 8), label="skulls"),
            "first_player": data.draw(st.integers(0, seats - 1), label="first"),
            "board": data.draw(st.sampled_from(["", *BOARD_IDS]), label="board"),
        },
        seats,
    )
    return ENGINE.new_state([f"P{i}" for i in range(seats)], options, seed=0)


def check_invariants(state: dict[str, Any], after_end_turn: bool) -> None:
    seated = {p["character"] for p in state["players"]}
    held: list[str] = []
    for player in state["players"]:
        me = player["character"]
        assert len(player["damage"]) <= 12
        assert set(player["damage"]) <= seated - {me}
        assert all(1 <= n <= 3 for n in player["marks"].values())
        assert set(player["marks"]) <= seated - {me}
        assert all(0 <= n <= 3 for n in player["ammo"].values())
        assert 0 <= len(player["powerups"]) <= 3
        assert len(player["weapons"]) <= 3
        assert all(w["slug"] in WEAPONS for w in player["weapons"])
        held.extend(w["slug"] for w in player["weapons"])
        awarded = sum(a["points"] for a in state["awards"] if a["to"] == me)
        assert player["points"] == awarded
        if after_end_turn:
            assert not is_dead(player)
    assert len(held) == len(set(held))
    assert sum(p["points"] for p in state["players"]) == sum(a["points"] for a in state["awards"])
    assert all(k["tokens"] in (1, 2) for k in state["killshot"])
    assert sum(p["skulls"] for p in state["players"]) == min(
        len(state["killshot"]), state["skulls"]
    )
    if state["frenzy"] is not None:
        assert len(state["killshot"]) >= state["skulls"]
    assert json.loads(json.dumps(state)) == state
    # Every figure on the map stands on a square of the table's board.
    placed = [square for square in positions(state).values() if square is not None]
    assert not placed or set(placed) <= set(load_board(state["board"]).squares)
    if state["over"]:
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert sorted(s for place in outcome.places for s in place) == list(
            range(len(state["players"]))
        )


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_play_keeps_the_invariants_and_replays_identically(data: st.DataObject) -> None:
    start = new_game(data)
    random_play(
        ENGINE,
        start,
        data,
        payloads,
        lambda state, payload, _events: check_invariants(
            state, after_end_turn=payload["type"] == "end_turn"
        ),
        max_steps=150,
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_game_ends_in_bounded_turns_when_every_turn_kills(data: st.DataObject) -> None:
    state = new_game(data)
    seats = len(state["players"])
    end_turns = 0
    while not state["over"]:
        shooter = current(state)
        others = [p["character"] for p in state["players"] if p["character"] != shooter]
        victims = data.draw(st.lists(st.sampled_from(others), min_size=1, unique=True))
        hits = [{"target": v, "damage": data.draw(st.integers(11, 12))} for v in victims]
        state = ENGINE.apply(
            state,
            ENGINE.parse_action({"type": "shot", "shooter": shooter, "hits": hits}),
        ).state
        state = ENGINE.apply(state, ENGINE.parse_action({"type": "end_turn"})).state
        end_turns += 1
        check_invariants(state, after_end_turn=True)
        assert end_turns <= state["skulls"] + seats
    # Frenzy gives everybody exactly one more turn after the last skull.
    assert state["frenzy"] is not None
    assert len(state["frenzy"]["order"]) == seats
    assert end_turns >= seats + 1
