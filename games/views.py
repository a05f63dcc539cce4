"""The web side of each game: which presenter renders it, and game-specific pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any


@dataclass(frozen=True)
class Setup:
    """What a game's set-up form asks for, parsed by its presenter."""

    names: list[str]
    options: dict[str, Any]
    host_seat: int | None = None
    mode: str = "companion"
    turn_seconds: int = 0
    bot_seats: tuple[int, ...] = field(default_factory=tuple)


PRESENTERS: dict[str, str] = {
    "adrenaline": "games.adrenaline.views:PRESENTER",
    "munchkin": "games.munchkin.views:PRESENTER",
    "shazamm": "games.shazamm.views:PRESENTER",
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
