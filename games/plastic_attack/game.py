"""Plastic Attack declares itself to the platform: see ``games.engine.declaration``."""

from games.engine.declaration import Game

GAME = Game(
    slug="plastic-attack",
    name="Plastic Attack",
    module=__name__,
    players="2–6",
    engine="rules:ENGINE",
    presenter="views:PRESENTER",
    bot="bot:choose",
    templates="plastic_attack",
    catalog="data/catalog.json",
    rules="data/rules.json",
    pure_modules=("rules", "cards", "bot"),
)
