"""Which engines exist. Game packages are imported lazily, by slug."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any

from games.engine.protocol import Engine, State
from games.engine.rng import SeededRandom

ENGINES: dict[str, str] = {
    "adrenaline": "games.adrenaline.rules:ENGINE",
    "munchkin": "games.munchkin.rules:ENGINE",
    "shazamm": "games.shazamm.rules:ENGINE",
}


BOTS: dict[str, str] = {
    "shazamm": "games.shazamm.bot:choose",
}


def _load(path: str) -> Any:
    module_name, attribute = path.split(":")
    return getattr(import_module(module_name), attribute)


@cache
def get_bot(slug: str) -> Callable[[State, int, SeededRandom], dict[str, Any]]:
    """The game's bot: ``choose(view, seat, rng) -> payload``, from the seat's view only."""
    try:
        return _load(BOTS[slug])
    except KeyError:
        raise LookupError(f"no bot for game {slug!r}") from None


def has_bot(slug: str) -> bool:
    return slug in BOTS


@cache
def get_engine(slug: str) -> Engine:
    try:
        module_name, attribute = ENGINES[slug].split(":")
    except KeyError:
        raise LookupError(f"no engine for game {slug!r}") from None
    return getattr(import_module(module_name), attribute)


def engine_slugs() -> list[str]:
    return list(ENGINES)
