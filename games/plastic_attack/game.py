"""Plastic Attack declares itself to the platform: see ``games.engine.declaration``.

The engine and the bot are in; the table screens (presenter and templates) come
next, so no session of it can be opened from the home page yet."""

from games.engine.declaration import Game

GAME = Game(
    slug="plastic-attack",
    name="Plastic Attack",
    module=__name__,
    players="2–6",
    engine="rules:ENGINE",
    bot="bot:choose",
    catalog="data/catalog.json",
    rules="data/rules.json",
    pure_modules=("rules", "cards", "bot"),
)
