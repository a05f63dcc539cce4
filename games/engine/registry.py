"""Which games exist: every ``games/<package>/game.py`` that declares a ``GAME``.

Discovery lists the packages under ``games/`` (``pkgutil``, without importing them),
imports the ``game`` module of those that have one, and keeps its ``GAME``. Engines,
bots and presenters are imported lazily, by slug, from the dotted paths the
declaration gives. Nothing here imports Django.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import Any, cast

from games.engine.declaration import Game
from games.engine.protocol import Engine, State
from games.engine.rng import SeededRandom

#: The package games live in, and the module name a game declares itself in.
GAMES_PACKAGE = "games"
DECLARATION = "game"

Bot = Callable[[State, int, SeededRandom], dict[str, Any]]


def declaring_packages() -> list[str]:
    """Packages under ``games/`` that have a ``game`` module, by file listing only."""
    root = import_module(GAMES_PACKAGE)
    found = []
    for info in pkgutil.iter_modules(root.__path__):
        if not info.ispkg:
            continue
        package = f"{GAMES_PACKAGE}.{info.name}"
        spec = find_spec(package)  # finds the package's folder without importing it
        folders = spec.submodule_search_locations if spec else None
        if folders and any(sub.name == DECLARATION for sub in pkgutil.iter_modules(folders)):
            found.append(package)
    return sorted(found)


@cache
def games() -> dict[str, Game]:
    """Every declared game by slug, in the order of their packages' names."""
    declared: dict[str, Game] = {}
    for package in declaring_packages():
        module_name = f"{package}.{DECLARATION}"
        game = getattr(import_module(module_name), "GAME", None)
        if not isinstance(game, Game):
            raise TypeError(f"{module_name} must define GAME = Game(...)")
        if game.module != module_name:
            raise ValueError(f"{module_name}: GAME.module is {game.module!r}, not __name__")
        if game.slug in declared:
            raise ValueError(f"two games declare the slug {game.slug!r}")
        declared[game.slug] = game
    return declared


def get_game(slug: str) -> Game:
    try:
        return games()[slug]
    except KeyError:
        raise LookupError(f"no game {slug!r}") from None


def load_part(slug: str, part: str) -> object:
    """What a game's declaration names for ``part`` ("engine", "bot", "presenter"…),
    imported; LookupError if the game has none."""
    game = games().get(slug)
    path = getattr(game, part, None) if game is not None else None
    if game is None or path is None:
        raise LookupError(f"no {part} for game {slug!r}")
    return game.load(path)


@cache
def get_bot(slug: str) -> Bot:
    """The game's bot: ``choose(view, seat, rng) -> payload``, from the seat's view only."""
    return cast(Bot, load_part(slug, "bot"))


def has_bot(slug: str) -> bool:
    game = games().get(slug)
    return game is not None and game.bot is not None


def bot_slugs() -> list[str]:
    return [slug for slug, game in games().items() if game.bot is not None]


@cache
def get_engine(slug: str) -> Engine:
    return cast(Engine, load_part(slug, "engine"))


def engine_slugs() -> list[str]:
    """Games that can be played (they have a rules engine)."""
    return [slug for slug, game in games().items() if game.engine is not None]


def engine_modules() -> list[str]:
    """Every module that must stay pure: the engine package and each game's declared ones."""
    modules = ["games.engine"]
    for game in games().values():
        modules.extend(game.engine_modules)
    return modules
