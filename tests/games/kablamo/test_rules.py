"""Kablamo at the table, worked through as the rulebook's examples play (seed 003),
with each reading of docs/rules/kablamo.md (A-K…) checked where it matters."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import RuleError
from games.engine.rng import SeededRandom
from games.kablamo.rules import ENGINE, alive, head, legal_actions

ANNA, BRUNO, CARLA = 0, 1, 2


def act(state: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    return ENGINE.apply(state, ENGINE.parse_action(payload)).state


def events(state: dict[str, Any], payload: dict[str, Any]) -> list[dict[str, Any]]:
    return ENGINE.apply(state, ENGINE.parse_action(payload)).events


def table(players: int = 3, **options: Any) -> dict[str, Any]:
    """Loaded revolvers, the box's numbers entered, turn 1 at Rotate."""
    state = ENGINE.new_state(["Anna", "Bruno", "Carla", "Dario", "Elena"][:players], options, 1)
    for name, number, kind in (
        ("Speed Load", 12, "action"),
        ("Test of Honor", 7, "action"),
        ("Cylinder Malfunction", 20, "action"),
        ("Stockpiling", 7, "action"),
        ("Trigger Happy", 30, "action"),
    ):
        state = act(state, {"type": "add_bullet", "name": name, "number": number, "kind": kind})
    for seat in range(players):
        state = act(state, {"type": "loaded", "seat": seat})
    return state


def fire(state: dict[str, Any], **results: Any) -> dict[str, Any]:
    """Rotate, then what came up under each hammer (revolver → result or bullet slug)."""
    state = act(state, {"type": "rotate"})
    for revolver, result in results.items():
        payload = {"type": "reveal", "revolver": int(revolver.removeprefix("r"))}
        if result in ("kablamo", "click", "empty"):
            payload["result"] = result
        else:
            payload.update(result="bullet", bullet=result)
        state = act(state, payload)
    return state


def resolve(state: dict[str, Any], target: int, outcome: str = "done", place: str = ""):
    state = act(state, {"type": "assign", "target": target})
    payload = {"type": "settle", "outcome": outcome}
    if place:
        payload["place"] = place
    return act(state, payload)


def test_a_turn_goes_rotate_reveal_resolve_replace_reload_then_the_next_turn():
    state = ENGINE.new_state(["Anna", "Bruno"], {}, 1)
    state = act(state, {"type": "loaded", "seat": ANNA})
    assert state["phase"] == "load"  # locked only once everyone has loaded
    state = act(state, {"type": "loaded", "seat": BRUNO})
    assert state["phase"] == "rotate" and state["turn"] == 1
    state = fire(state, r0="click", r1="empty")
    assert state["phase"] == "replace"  # a Click needs no choice; nothing else fired
    state = act(act(state, {"type": "next"}), {"type": "next"})
    assert state["phase"] == "rotate" and state["turn"] == 2


def test_live_bullets_first_then_by_printed_number_ties_in_seat_order():  # A-K2
    state = fire(table(), r0="speed-load", r1="test-of-honor", r2="stockpiling")
    order = [(e["revolver"], e["number"]) for e in state["queue"]]
    assert order == [(1, 7), (2, 7), (0, 12)]  # two 7s: Bruno's revolver before Carla's
    state = fire(table(), r0="speed-load", r1="click", r2="test-of-honor")
    assert [e["result"] for e in state["queue"]] == ["click", "bullet", "bullet"]
    assert head(state)["revolver"] == 2  # the click is done; then 7 before 12


def test_the_firing_revolvers_holder_assigns_and_the_target_settles_it():
    state = fire(table(), r0="speed-load", r1="empty", r2="empty")
    assert ENGINE.owner(state, ENGINE.parse_action({"type": "assign", "target": 1})) == ANNA
    state = act(state, {"type": "assign", "target": BRUNO})
    assert ENGINE.owner(state, ENGINE.parse_action({"type": "settle", "outcome": "done"})) == BRUNO
    state = act(state, {"type": "settle", "outcome": "done"})
    assert state["phase"] == "replace"


def test_a_kablamo_eliminates_the_revolvers_holder():
    state = fire(table(), r0="kablamo", r1="click", r2="empty")
    assert alive(state) == [BRUNO, CARLA] and state["players"][ANNA]["out_turn"] == 1
    assert state["phase"] == "replace"


def test_marquis_played_before_the_fire_saves_everyone_for_the_rest_of_the_turn():  # A-K9
    state = act(table(), {"type": "play", "seat": CARLA, "bullet": "marquis-of-queensbury-rules"})
    state = fire(state, r0="kablamo", r1="kablamo", r2="empty")
    assert alive(state) == [ANNA, BRUNO, CARLA]
    # …and it ends with the turn.
    state = act(act(state, {"type": "next"}), {"type": "next"})
    state = fire(state, r0="kablamo", r1="empty", r2="empty")
    assert alive(state) == [BRUNO, CARLA]


def test_marquis_played_after_the_fire_saves_nobody_already_shot():
    state = fire(table(), r0="kablamo", r1="speed-load", r2="empty")
    assert alive(state) == [BRUNO, CARLA]
    state = act(state, {"type": "play", "seat": BRUNO, "bullet": "marquis-of-queensbury-rules"})
    assert alive(state) == [BRUNO, CARLA]  # never retroactive


def test_lights_out_swaps_revolvers_with_what_is_delayed_on_them():
    state = fire(table(), r0="cylinder-malfunction", r1="empty", r2="empty")
    state = resolve(state, ANNA, "delayed", "revolver")  # played on Anna: on her revolver
    assert state["revolvers"][0]["delayed"] == ["cylinder-malfunction"]
    state = act(act(state, {"type": "next"}), {"type": "next"})
    state = act(state, {"type": "play", "seat": ANNA, "bullet": "lights-out", "other": BRUNO})
    assert state["revolvers"][0]["owner"] == BRUNO and state["revolvers"][1]["owner"] == ANNA
    assert state["revolvers"][0]["delayed"] == ["cylinder-malfunction"]  # it travels
    # Bruno now fires revolver 0, and its Cylinder Malfunction turns it the other way.
    rotated = events(state, {"type": "rotate"})
    assert rotated[0] == {"kind": "rotated", "anticlockwise": [0]}
    state = fire(state, r0="kablamo", r1="empty", r2="empty")
    assert alive(state) == [ANNA, CARLA]  # the holder of revolver 0 was Bruno


def test_cylinder_malfunctions_stack_one_per_shot():  # A-K16
    state = fire(table(), r0="cylinder-malfunction", r1="cylinder-malfunction", r2="empty")
    state = resolve(state, ANNA, "delayed", "revolver")  # on Anna's revolver (0)
    state = resolve(state, BRUNO, "delayed", "revolver")  # on Bruno's revolver (1)
    assert state["revolvers"][0]["delayed"] == ["cylinder-malfunction"]
    assert state["revolvers"][1]["delayed"] == ["cylinder-malfunction"]
    state["revolvers"][2]["delayed"] = ["cylinder-malfunction", "cylinder-malfunction"]
    state = act(act(state, {"type": "next"}), {"type": "next"})
    assert events(state, {"type": "rotate"})[0]["anticlockwise"] == [0, 1, 2]
    state = act(state, {"type": "rotate"})
    assert state["revolvers"][2]["delayed"] == ["cylinder-malfunction"]  # one left


def test_extra_shots_fire_in_the_repeat_phase_then_the_turn_goes_on():
    state = fire(table(), r0="speed-load", r1="empty", r2="empty")
    state = act(state, {"type": "extra_shot", "revolver": 2})
    state = resolve(state, ANNA)
    assert state["phase"] == "rotate" and state["repeat"] == [2]
    with pytest.raises(RuleError, match="does not fire"):
        fire(state, r0="click")
    state = fire(state, r2="kablamo")
    assert alive(state) == [ANNA, BRUNO] and state["phase"] == "replace"


def test_a_bullet_whose_holder_died_first_is_no_longer_active():  # A-K18
    state = fire(table(), r0="test-of-honor", r1="speed-load", r2="empty")
    state = act(state, {"type": "eliminate", "seat": BRUNO})  # before his 12 resolves
    state = resolve(state, CARLA)  # Anna's 7
    assert [e["status"] for e in state["queue"]] == ["done", "inactive"]
    assert state["phase"] == "replace"


def test_the_last_one_standing_wins_and_dying_together_means_nobody_wins():  # A-K22
    state = fire(table(), r0="kablamo", r1="kablamo", r2="empty")
    assert state["phase"] == "over" and state["winner"] == CARLA
    assert ENGINE.outcome(state).winners == [CARLA]
    state = fire(table(2), r0="kablamo", r1="kablamo")
    assert state["phase"] == "over" and state["winner"] is None and state["nobody"]
    assert ENGINE.outcome(state).places == [[ANNA, BRUNO]]


def test_the_box_list_grows_and_a_number_is_learnt_at_the_first_reveal():
    state = table(2)
    state = act(
        state,
        {"type": "add_bullet", "name": "Bolshevik Rules", "number": 3, "kind": "high-velocity"},
    )
    assert state["bullets"]["bolshevik-rules"]["number"] == 3
    with pytest.raises(RuleError, match="number 12"):
        act(state, {"type": "add_bullet", "name": "speed load", "number": 13, "kind": "action"})
    with pytest.raises(RuleError, match="Enter the number"):
        fire(state, r0="triple-action")
    state = act(state, {"type": "rotate"})
    state = act(
        state,
        {
            "type": "reveal",
            "revolver": 0,
            "result": "bullet",
            "bullet": "triple-action",
            "number": 9,
        },
    )
    assert state["bullets"]["triple-action"]["number"] == 9


def test_the_hardcore_variant_has_no_high_velocity_bullets():
    state = table(2, variant="hardcore")
    with pytest.raises(RuleError, match="hardcore"):
        act(state, {"type": "play", "seat": ANNA, "bullet": "marquis-of-queensbury-rules"})


def test_no_bullet_is_ever_entered_for_a_chamber_that_has_not_fired():
    # The app keeps no chamber contents: it only ever hears of a bullet when it fires.
    state = table(2)
    assert "chambers" not in str(state.keys()) and "shot" in state


# ---------------------------------------------------------------- random games


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 5),
    variant=st.sampled_from(["standard", "hardcore"]),
    seed=st.integers(0, 2**63),
)
def test_random_games_always_end_replay_the_same_and_the_dead_never_fire(players, variant, seed):
    start = ENGINE.new_state([f"P{n}" for n in range(players)], {"variant": variant}, seed)
    start = act(start, {"type": "add_bullet", "name": "Speed Load", "number": 12, "kind": "action"})
    start = act(
        start, {"type": "add_bullet", "name": "Test of Honor", "number": 7, "kind": "action"}
    )
    state, log = start, []
    rng = SeededRandom(seed)
    for _step in range(5000):
        if state["phase"] == "over":
            break
        options = legal_actions(state)
        moves = [p for p in options if p["type"] not in ("play", "extra_shot")]
        # Mostly the turn's own moves; now and then a bullet from the hand or an
        # extra shot (every one of them is legal).
        payload = rng.choice(moves if moves and rng.randint(0, 9) else options)
        action = ENGINE.parse_action(payload)
        assert ENGINE.parse_action(action.to_payload()) == action  # the log replays it
        if payload["type"] == "reveal":
            owner = state["revolvers"][payload["revolver"]]["owner"]
            assert state["players"][owner]["alive"], "a dead player's revolver fired"
        if payload["type"] == "assign":
            assert state["players"][head(state)["owner"]]["alive"]
        state = ENGINE.apply(state, action).state
        log.append(payload)
    assert state["phase"] == "over"
    replay = start
    for payload in log:
        replay = act(replay, payload)
    assert replay == state


def test_a_delayed_effect_on_a_revolver_goes_on_the_revolver_of_the_player_it_was_played_on():
    state = fire(table(), r0="empty", r1="empty", r2="cylinder-malfunction")
    state = resolve(state, BRUNO, "delayed", "revolver")  # Carla's bullet, played on Bruno
    assert state["revolvers"][1]["delayed"] == ["cylinder-malfunction"]
    assert state["revolvers"][2]["delayed"] == []


def test_a_listed_bullet_keeps_its_number_and_a_bullet_must_be_chosen():
    state = act(table(2), {"type": "rotate"})
    with pytest.raises(RuleError, match="number 12 on the table's list"):
        act(
            state,
            {
                "type": "reveal",
                "revolver": 0,
                "result": "bullet",
                "bullet": "speed-load",
                "number": 9,
            },
        )
    with pytest.raises(RuleError, match="Choose which bullet"):
        act(state, {"type": "reveal", "revolver": 0, "result": "bullet", "bullet": ""})


def test_every_shot_empties_a_chamber_to_refill_at_replace():
    state = fire(table(), r0="empty", r1="click", r2="speed-load")
    assert state["emptied"] == {"0": 1, "1": 1, "2": 1}
