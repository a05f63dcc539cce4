"""Property test: random play with undos mixed in, through the real services, with
checkpoints taken every 3 versions so that undos keep crossing them.

After every undo the session's state must equal a full replay, from
``initial_state``, of the actions still in effect, kept here independently of
the log (a stack: an action pushes, an undo pops). The moves come from the
games' own random-play strategies (``tests/games/*/test_*_properties.py``, the
ones ``tests/support/engine_play.random_play`` is driven with).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import checkpoints, models, services
from companion.errors import ServiceError
from companion.models import Checkpoint
from games.engine.errors import EngineError
from games.engine.registry import get_engine
from tests.conftest import next_key
from tests.games.adrenaline import test_rules_properties as adrenaline
from tests.games.munchkin import test_munchkin_properties as munchkin

pytestmark = pytest.mark.django_db

GAMES = {
    "adrenaline": (
        adrenaline.payloads,
        lambda data: {
            "characters": list(
                data.draw(st.permutations(adrenaline.CHARACTERS), label="characters")[:4]
            ),
            "skulls": data.draw(st.integers(5, 8), label="skulls"),
            "first_player": 0,
        },
        4,
    ),
    "munchkin": (
        munchkin.payloads,
        lambda data: {"first_player": data.draw(st.integers(0, 3), label="first")},
        4,
    ),
}


@pytest.fixture
def often(monkeypatch):
    """A checkpoint every 3 versions, so short games have many."""
    monkeypatch.setattr(models, "CHECKPOINT_EVERY", 3)


def replay(engine: Any, start: dict[str, Any], effective: list[tuple[dict, None]]) -> dict:
    state = start
    for payload, seat in effective:
        state = engine.apply(state, engine.parse_action(payload), seat).state
    return state


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_undo_always_equals_a_full_replay_of_the_actions_in_effect(often, game, data):
    payloads, options, seats = GAMES[game]
    engine = get_engine(game)
    session = services.create_session(
        game=game,
        seat_names=[f"P{i}" for i in range(seats)],
        options=options(data),
        host_token="host",
        seed=data.draw(st.integers(0, 2**32), label="seed"),
    )
    effective: list[tuple[int, dict, None]] = []  # (version, payload, seat), oldest first
    undos = 0
    for _step in range(data.draw(st.integers(5, 60), label="steps")):
        session.refresh_from_db()
        if session.state.get("over"):
            break
        if effective and data.draw(st.integers(0, 3), label="undo?") == 0:
            # A run of undos, often reaching behind a checkpoint or two.
            for _ in range(data.draw(st.integers(1, 5), label="undos")):
                if not effective:
                    break
                target = effective[-1][0]
                stale = data.draw(st.booleans(), label="stale") and len(effective) > 1
                before = session.version
                if stale:  # a phone that saw an older last action is refused
                    with pytest.raises(ServiceError):
                        services.undo(
                            session,
                            token="host",
                            key=next_key(),
                            expected=effective[-2][0],
                            require_expected=True,
                        )
                    session.refresh_from_db()
                    assert session.version == before
                services.undo(
                    session, token="host", key=next_key(), expected=target, require_expected=True
                )
                effective.pop()
                undos += 1
                session.refresh_from_db()
                expected_state = replay(
                    engine, session.initial_state, [(p, s) for _v, p, s in effective]
                )
                assert session.state == expected_state
                assert checkpoints.replay_all(session, engine) == expected_state
            continue
        payload = data.draw(payloads(session.state), label="move")
        try:
            applied = services.submit_action(session, payload, token="host", key=next_key())
        except EngineError:
            continue
        effective.append((applied.action.version, applied.action.payload, applied.action.seat))
    session.refresh_from_db()
    for checkpoint in Checkpoint.objects.filter(session=session):
        assert checkpoint.version % 3 == 0
    # Undo everything that is left: back to the start, whatever the checkpoints say.
    while effective:
        services.undo(session, token="host", key=next_key(), expected=effective.pop()[0])
    session.refresh_from_db()
    assert session.state == session.initial_state
