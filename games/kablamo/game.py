"""Kablamo declares itself to the platform: see ``games.engine.declaration``."""

from games.engine.declaration import Game

GAME = Game(
    slug="kablamo",
    name="Kablamo",
    module=__name__,
    players="2–5",
    engine="rules:ENGINE",
    presenter="views:PRESENTER",
    templates="kablamo",
    catalog="data/catalog.json",
    rules="data/rules.json",
    pure_modules=("rules",),
)
