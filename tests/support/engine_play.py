"""Random play for the engines' property tests: one loop, shared by every game.

``random_play`` draws payloads from a hypothesis strategy and applies them; a move
the rules refuse must leave the state untouched, an accepted one must not mutate
its input. Each accepted state goes through the game's own invariant check, and at
the end replaying the accepted payloads from the start must give the same state
(a session is replayed from its action log, so this is what undo rests on).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from games.engine.errors import RuleError
from games.engine.protocol import Engine, Event, State


def random_play(
    engine: Engine,
    start: State,
    data: st.DataObject,
    payloads: Callable[[State], st.SearchStrategy[dict[str, Any]]],
    check: Callable[[State, dict[str, Any], list[Event]], None],
    *,
    max_steps: int,
) -> State:
    state = start
    log: list[dict[str, Any]] = []
    for _ in range(data.draw(st.integers(1, max_steps), label="steps")):
        if state.get("over"):
            break
        payload = data.draw(payloads(state))
        action = engine.parse_action(payload)
        before = copy.deepcopy(state)
        try:
            result = engine.apply(state, action)
        except RuleError:
            assert state == before, "a refused move changed the state"
            continue
        assert state == before, "apply mutated its input"
        state = result.state
        log.append(payload)
        check(state, payload, result.events)
    replay = start
    for payload in log:
        replay = engine.apply(replay, engine.parse_action(payload)).state
    assert replay == state, "replaying the log gave another state"
    return state
