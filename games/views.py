"""The web side of each game: which presenter renders it, and game-specific pages."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

PRESENTERS: dict[str, str] = {
    "adrenaline": "games.adrenaline.views:PRESENTER",
}


@cache
def presenter_for(slug: str) -> Any:
    try:
        module_name, attribute = PRESENTERS[slug].split(":")
    except KeyError:
        raise LookupError(f"no presenter for game {slug!r}") from None
    return getattr(import_module(module_name), attribute)


def presenters() -> list[Any]:
    return [presenter_for(slug) for slug in PRESENTERS]
