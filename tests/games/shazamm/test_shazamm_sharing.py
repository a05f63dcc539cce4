"""States share structure (apply copies only what an action changes): nothing a caller
was given ever changes afterwards, whatever is played from it or from a later state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.rng import SeededRandom
from games.shazamm import bot
from games.shazamm.rules import ENGINE, project_decision

VARIANTS = [
    {"variant": variant, "hands": hands}
    for variant in ("standard", "full_hand", "chosen_order")
    for hands in ("tracked", "physical")
]


class Album:
    """Everything the engine handed out, with what it was when handed out."""

    def __init__(self) -> None:
        self.kept: list[tuple[str, Any, str]] = []

    def keep(self, label: str, value: Any) -> Any:
        self.kept.append((label, value, json.dumps(value, sort_keys=True)))
        return value

    def assert_unchanged(self) -> None:
        for label, value, snapshot in self.kept:
            assert json.dumps(value, sort_keys=True) == snapshot, f"{label} changed"


def play(seed: int, options: dict[str, Any], album: Album, branch_every: int) -> list:
    """A game of the random player against the bot; every state, view and event list
    goes in ``album``. Every ``branch_every`` steps, another answer is also applied to
    the same state and played on for a few steps (an undo, or a bot's look-ahead),
    then dropped. Returns the log: [(seat, payload)]."""
    state = album.keep("state 0", ENGINE.new_state(["L", "R"], options, seed))
    rngs = {s: SeededRandom(seed * 13 + s) for s in (0, 1)}
    players = {seed % 2: bot.choose, 1 - seed % 2: bot.random_choice}
    log = []
    for step in range(1, 500):
        waiting = ENGINE.waiting_for(state)
        if not waiting:
            return log
        for seat in (0, 1, None):
            album.keep(f"view {step} for {seat}", ENGINE.view(state, seat))
        seat = waiting[step % len(waiting)]
        view = ENGINE.view(state, seat)
        if view["phase"] == "deciding":  # what the bot does on its view
            project_decision(view, seat, () if view["pending"]["kind"] == "larceny" else 0)
            album.keep(f"view {step} decided on", view)
        payload = players[seat](view, seat, rngs[seat])
        if step % branch_every == 0:
            side = ENGINE.default_action(state, seat)
            other = ENGINE.apply(state, ENGINE.parse_action(side), seat)
            album.keep(f"branch at {step}", other.events)
            for extra in range(3):
                more = ENGINE.waiting_for(other.state)
                if not more:
                    break
                side = bot.random_choice(
                    ENGINE.view(other.state, more[0]), more[0], SeededRandom(extra)
                )
                other = ENGINE.apply(other.state, ENGINE.parse_action(side), more[0])
        result = ENGINE.apply(state, ENGINE.parse_action(payload), seat)
        album.keep(f"events {step}", result.events)
        state = album.keep(f"state {step}", result.state)
        log.append((seat, payload))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o['variant']}-{o['hands']}")
def test_nothing_handed_out_changes_later_in_seeded_games(options):
    for seed in range(12):
        album = Album()
        play(seed, options, album, branch_every=2 + seed % 3)
        album.assert_unchanged()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**40), st.sampled_from(VARIANTS), st.integers(1, 6))
def test_nothing_handed_out_changes_later(seed, options, branch_every):
    album = Album()
    log = play(seed, options, album, branch_every)
    album.assert_unchanged()
    # Replaying the log from stored (JSON) payloads gives every state again.
    states = [value for label, value, _s in album.kept if label.startswith("state ")]
    state = ENGINE.new_state(["L", "R"], options, seed)
    assert state == states[0]
    for (seat, payload), expected in zip(log, states[1:], strict=True):
        stored = json.loads(json.dumps(ENGINE.parse_action(payload).to_payload()))
        state = ENGINE.apply(state, ENGINE.parse_action(stored), seat).state
        assert state == expected
        assert json.loads(json.dumps(state)) == state
    assert state["phase"] == "over"
