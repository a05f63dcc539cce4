"""Shazamm! declares itself to the platform: see ``games.engine.declaration``."""

from games.engine.declaration import Game

GAME = Game(
    slug="shazamm",
    name="Shazamm!",
    module=__name__,
    players="2",
    engine="rules:ENGINE",
    presenter="views:PRESENTER",
    bot="bot:choose",
    templates="shazamm",
    catalog="data/catalog.json",
    rules="data/rules.json",
    pure_modules=("rules", "spells", "bot"),
)
