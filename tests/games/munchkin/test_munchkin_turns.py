"""The turn guide, the shared die, and the engine protocol (owner, view, outcome)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine.errors import RuleError
from games.engine.rng import SeededRandom
from games.munchkin.rules import (
    ENGINE,
    PHASE_REMINDERS,
    PHASES,
    Level,
    Roll,
    phase_reminder,
)


def start(players: int = 3, first: int = 0, seed: int = 3) -> dict[str, Any]:
    options = ENGINE.parse_options({"first_player": first}, players)
    return ENGINE.new_state([f"P{i}" for i in range(players)], options, seed=seed)


def act(state: dict[str, Any], payload: dict[str, Any], seat: int | None = None) -> Any:
    return ENGINE.apply(state, ENGINE.parse_action(payload), seat)


def test_engine_declaration() -> None:
    assert (ENGINE.slug, ENGINE.min_seats, ENGINE.max_seats) == ("munchkin", 3, 6)
    assert ENGINE.seat_bound is False


def test_the_turn_walks_through_the_four_phases_then_passes_left() -> None:
    state = start(4, first=3)
    assert state["turn"] == {"seat": 3, "phase": "kick_door", "number": 1, "met": None}
    for phase in PHASES[1:]:
        state = act(state, {"type": "next_phase"}).state
        assert state["turn"]["phase"] == phase
    with pytest.raises(RuleError, match="last phase"):
        act(state, {"type": "next_phase"})
    result = act(state, {"type": "end_turn"})
    assert result.state["turn"] == {"seat": 0, "phase": "kick_door", "number": 2, "met": None}
    assert result.events == [{"type": "turn", "seat": 0, "number": 2}]


def test_a_monster_behind_the_door_skips_looking_for_trouble() -> None:
    state = act(start(), {"type": "fight", "seat": 0, "monster": {"level": 1}}).state
    state = act(state, {"type": "gear", "seat": 0, "delta": 5}).state
    state = act(state, {"type": "resolve"}).state
    assert state["turn"]["met"] == "won"
    state = act(state, {"type": "next_phase"}).state
    assert state["turn"]["phase"] == "loot_room"
    assert "treasure" in phase_reminder(state)


def test_the_turn_remembers_the_phase_its_monster_was_met_in() -> None:
    behind_the_door = act(start(), {"type": "fight", "seat": 0, "monster": {"level": 1}}).state
    assert behind_the_door["turn"]["met_in"] == "kick_door"
    state = act(start(), {"type": "next_phase"}).state  # nothing behind the door
    state = act(state, {"type": "fight", "seat": 0, "monster": {"level": 1}}).state
    assert state["turn"]["met_in"] == "look_for_trouble"


def test_every_phase_has_a_reminder() -> None:
    assert set(PHASE_REMINDERS) == set(PHASES)
    state = start()
    assert phase_reminder(state) == PHASE_REMINDERS["kick_door"]


def test_someone_elses_fight_does_not_count_as_the_current_players_monster() -> None:
    state = act(start(), {"type": "fight", "seat": 2, "monster": {"level": 1}}).state
    assert state["turn"]["met"] is None


def test_the_die_is_seeded_recorded_and_replays_identically() -> None:
    state = start(seed=42)
    expected = SeededRandom(42).randint(1, 6)
    result = act(state, {"type": "roll"}, seat=2)
    assert result.events == [{"type": "roll", "seat": 2, "value": expected}]
    assert result.state["last_roll"] == {"seat": 2, "value": expected}
    assert act(state, {"type": "roll"}, seat=2).state == result.state


def test_die_rolls_cover_one_to_six() -> None:
    state = start(seed=5)
    seen = set()
    for _ in range(60):
        state = act(state, {"type": "roll"}).state
        seen.add(state["last_roll"]["value"])
    assert seen == {1, 2, 3, 4, 5, 6}


def test_apply_never_mutates_its_input() -> None:
    state = act(start(), {"type": "fight", "seat": 0, "monster": {"level": 5}}).state
    before = copy.deepcopy(state)
    act(state, {"type": "evil_twin", "monster": 1})
    act(state, {"type": "resolve"})
    act(state, {"type": "die", "seat": 0})
    assert state == before


def test_owner_is_the_row_changed_or_none_for_table_wide_actions() -> None:
    state = start(first=1)
    fighting = act(state, {"type": "fight", "seat": 2, "monster": {"level": 1}}).state
    cases = [
        ({"type": "level", "seat": 2, "delta": 1}, state, 2),
        ({"type": "sell", "seat": 0, "gold": 1000}, state, 0),
        ({"type": "die", "seat": 1}, state, 1),
        ({"type": "end_turn"}, state, 1),
        ({"type": "roll"}, state, None),
        ({"type": "enhance", "monster": 1, "value": 2}, fighting, None),
        ({"type": "resolve"}, fighting, 2),
        ({"type": "helper", "seat": 0}, fighting, 0),
    ]
    for payload, where, owner in cases:
        assert ENGINE.owner(where, ENGINE.parse_action(payload)) == owner, payload


def test_view_shows_everything_but_the_die_generator() -> None:
    state = start()
    view = ENGINE.view(state, 1)
    assert "rng" not in view
    assert view == {k: v for k, v in state.items() if k != "rng"}
    assert ENGINE.view(state, None) == view


def test_no_timers_no_default_actions_no_outcome_before_the_end() -> None:
    state = start()
    assert ENGINE.waiting_for(state) == []
    assert ENGINE.default_action(state, 0) is None
    assert ENGINE.outcome(state) is None


def test_outcome_lists_the_winner_then_the_others_by_level() -> None:
    state = start(4)
    for seat, level in enumerate((9, 4, 6, 4)):
        state["players"][seat]["level"] = level
    state["players"][0]["gear"] = 10
    state = act(state, {"type": "fight", "seat": 0, "monster": {"level": 2}}).state
    state = act(state, {"type": "resolve"}).state
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.places == [[0], [2], [1, 3]]
    assert outcome.scores == {0: 10, 1: 4, 2: 6, 3: 4}


def test_actions_are_values_that_round_trip_through_their_payload() -> None:
    for action in (Roll(), Level(1, -2, (0, 2))):
        assert ENGINE.parse_action(action.to_payload()) == action
