"""Property tests: random tables of play never break the rules' bounds, and a log
replayed from the same seed gives the same state."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.munchkin.rules import ENGINE, PHASES, RACES, combat_totals, pending_runs, power_total
from tests.support.engine_play import random_play


@st.composite
def payloads(draw: st.DrawFn, state: dict[str, Any]) -> dict[str, Any]:
    seats = list(range(len(state["players"])))
    seat = draw(st.sampled_from(seats))
    fight = state["combat"]
    if fight is not None and fight["stage"] == "running" and draw(st.integers(0, 3)):
        owed = pending_runs(state)
        pick = draw(st.sampled_from(owed)) if owed else {"seat": seat, "monster": 1}
        return {
            "type": "run",
            "seat": pick["seat"],
            "monster": draw(st.sampled_from([pick["monster"], None])),
            "mode": draw(st.sampled_from(["roll", "roll", "escape", "caught"])),
        }
    monster_ids = [m["id"] for m in fight["monsters"]] if fight else []
    monster_ids = monster_ids or [1]
    kind = draw(
        st.sampled_from(
            ["level"] * 4
            + ["gear"] * 2
            + ["add_power"] * 3
            + ["fight", "resolve"] * 3
            + ["add_race", "remove_race", "half_breed", "remove_power", "sell", "die"]
            + ["enhance", "evil_twin", "add_monster", "bonus", "helper", "run_bonus"]
            + ["next_phase", "end_turn", "roll", "cancel_combat", "sex", "remove_monster"]
        )
    )
    if kind == "level":
        return {
            "type": "level",
            "seat": seat,
            "delta": draw(st.sampled_from([-3, -2, -1, 1, 1, 2, 3, 9, -9])),
            "discard": draw(st.lists(st.integers(0, 4), unique=True, max_size=2)),
        }
    if kind in ("gear", "run_bonus"):
        return {"type": kind, "seat": seat, "delta": draw(st.sampled_from([-3, -1, 2, 5]))}
    if kind == "add_power":
        return {"type": kind, "seat": seat, "name": "P", "rank": draw(st.integers(1, 3))}
    if kind == "remove_power":
        return {"type": kind, "seat": seat, "index": draw(st.integers(0, 3))}
    if kind in ("add_race", "remove_race"):
        return {"type": kind, "seat": seat, "race": draw(st.sampled_from(RACES))}
    if kind == "half_breed":
        return {"type": kind, "seat": seat, "on": draw(st.booleans())}
    if kind == "sex":
        return {"type": kind, "seat": seat, "sex": draw(st.sampled_from(["male", "female"]))}
    if kind == "sell":
        return {"type": kind, "seat": seat, "gold": draw(st.sampled_from([500, 1000, 2500]))}
    if kind == "die":
        return {"type": kind, "seat": seat}
    if kind in ("fight", "add_monster"):
        monster = {"level": draw(st.integers(1, 12)), "levels": draw(st.integers(1, 2))}
        if kind == "fight":
            return {"type": kind, "seat": seat, "monster": monster}
        return {"type": kind, "monster": monster}
    if kind == "resolve":
        return {"type": kind, "helper_levels": draw(st.sampled_from([0, 0, 0, 1, 2]))}
    if kind == "enhance":
        value = draw(st.sampled_from([-10, -5, 3, 5, 10]))
        return {"type": kind, "monster": draw(st.sampled_from(monster_ids)), "value": value}
    if kind in ("evil_twin", "remove_monster"):
        return {"type": kind, "monster": draw(st.sampled_from(monster_ids))}
    if kind == "bonus":
        side = draw(st.sampled_from(["players", "monsters"]))
        return {"type": kind, "side": side, "value": draw(st.sampled_from([-5, 3, 10]))}
    if kind == "helper":
        return {"type": kind, "seat": draw(st.none() | st.sampled_from(seats))}
    return {"type": kind}


def new_game(data: st.DataObject) -> dict[str, Any]:
    seats = data.draw(st.integers(3, 6), label="seats")
    first = data.draw(st.integers(0, seats - 1), label="first")
    options = ENGINE.parse_options({"first_player": first}, seats)
    seed = data.draw(st.integers(0, 2**32), label="seed")
    return ENGINE.new_state([f"P{i}" for i in range(seats)], options, seed=seed)


def check_invariants(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    for seat, player in enumerate(state["players"]):
        assert 1 <= player["level"] <= 10
        if player["level"] == 10:
            assert seat in state["winners"]
        if power_total(player) > player["level"]:
            assert "changeling" in player["races"]
        assert all(1 <= p["rank"] <= 3 for p in player["powers"])
        races = player["races"]
        assert len(set(races)) == len(races)
        assert len(races) <= (2 if player["half_breed"] else 1)
        if player["half_breed"]:
            assert races
    for event in events:
        if event["type"] == "level" and event["to"] == 10:
            assert event["why"] in ("kill", "helper")
    assert bool(state["winners"]) == state["over"]
    assert state["turn"]["phase"] in PHASES
    fight = state["combat"]
    if fight is not None:
        assert fight["helper"] != fight["fighter"]
        totals = combat_totals(state)
        assert totals is not None
        assert all(m["level"] >= 1 for m in totals["monster_levels"])
        if fight["stage"] == "running":
            assert pending_runs(state)
    assert json.loads(json.dumps(state)) == state


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_random_play_keeps_the_bounds_and_replays_identically(data: st.DataObject) -> None:
    start = new_game(data)
    random_play(
        ENGINE,
        start,
        data,
        payloads,
        lambda state, payload, events: check_invariants(state, events),
        max_steps=80,
    )
