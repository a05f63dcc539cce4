"""Working copies of a game state: engines never mutate the state they are given."""

from __future__ import annotations

from typing import Any


def copy_state(value: Any) -> Any:
    """Deep copy of JSON-like data (dicts, lists and scalars), much faster than
    ``copy.deepcopy``: what an engine's ``apply`` changes instead of its input."""
    if isinstance(value, dict):
        return {k: copy_state(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_state(v) for v in value]
    return value
