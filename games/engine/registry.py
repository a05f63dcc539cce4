"""Which engines exist. Game packages are imported lazily, by slug."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from games.engine.protocol import Engine

ENGINES: dict[str, str] = {
    "adrenaline": "games.adrenaline.rules:ENGINE",
}


@cache
def get_engine(slug: str) -> Engine:
    try:
        module_name, attribute = ENGINES[slug].split(":")
    except KeyError:
        raise LookupError(f"no engine for game {slug!r}") from None
    return getattr(import_module(module_name), attribute)


def engine_slugs() -> list[str]:
    return list(ENGINES)
