"""How a game declares itself: one ``Game`` object in ``games/<package>/game.py``.

The declaration is the only place that names a game's parts. The platform finds it
(``games.engine.registry.games``) and takes everything from it: the engine and the bot
(``registry``), the presenter and the game's session URLs (``games.views``,
``games.urls``), the card catalog and the rules summary (``games.catalog_loader``,
``games.reference``), and the modules that must stay pure (the purity test and the
``pure_engines`` import-linter contract).

Parts are named by dotted paths *relative to the game's package* (``"rules:ENGINE"``,
``"views:PRESENTER"``) and imported only when asked for, so this module and every
``game.py`` import nothing but this file: the engine registry can read them without
loading Django. Files are paths relative to the package folder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any


@dataclass(frozen=True)
class Game:
    """One game, as the platform sees it.

    ``module`` is the declaring module's ``__name__`` (it tells the platform which
    package the relative paths below are in). A game with only a card catalog and a
    rules summary (no engine yet) leaves ``engine``, ``presenter`` and ``bot`` out.
    """

    #: The URL and database name of the game (``/new/<slug>/``, ``Card.game``).
    slug: str
    #: The name a player reads, an English msgid marked with ``gettext_noop``.
    name: str
    #: ``__name__`` of the declaring module, e.g. ``"games.adrenaline.game"``.
    module: str
    #: How many players, as printed on the box ("3–5").
    players: str = ""
    #: ``"module:ATTRIBUTE"`` of the object implementing ``games.engine.protocol.Engine``.
    engine: str | None = None
    #: ``"module:ATTRIBUTE"`` of the object implementing ``games.presenter.Presenter``.
    presenter: str | None = None
    #: ``"module:function"`` of ``choose(view, seat, rng) -> payload`` (pure).
    bot: str | None = None
    #: A module whose ``urlpatterns`` are mounted under a session (``/s/<code>/``).
    urls: str | None = None
    #: The game's folder under ``templates/``.
    templates: str | None = None
    #: The card catalog (``load_catalogs`` loads it), relative to the package folder.
    catalog: str | None = None
    #: The rules summary (``/rules/<slug>/`` and the "?" links), relative to the package.
    rules: str | None = None
    #: The modules of the package that make up the rules engine (and the bot): pure
    #: Python, no Django, no I/O. The package itself and the declaring module are
    #: always pure and need not be listed.
    pure_modules: tuple[str, ...] = field(default_factory=tuple)

    @property
    def package(self) -> str:
        """The game's package, e.g. ``"games.adrenaline"``."""
        return self.module.rpartition(".")[0]

    def qualified(self, relative: str) -> str:
        """``"rules:ENGINE"`` → ``"games.adrenaline.rules:ENGINE"``."""
        return f"{self.package}.{relative}"

    @property
    def engine_modules(self) -> list[str]:
        """Every module that must stay pure, fully qualified."""
        names = [self.package, self.module]
        for relative in self.pure_modules:
            qualified = self.qualified(relative)
            if qualified not in names:
                names.append(qualified)
        return names

    def load(self, relative: str) -> Any:
        """Import the object a relative ``"module:ATTRIBUTE"`` path names."""
        module_name, _, attribute = self.qualified(relative).partition(":")
        module = import_module(module_name)
        return getattr(module, attribute) if attribute else module
