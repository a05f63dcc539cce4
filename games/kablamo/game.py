"""Kablamo declares itself: the table companion's engine, a card catalog and a rules
summary (the phones' screens come next, so no session of it opens from the home page
yet)."""

from games.engine.declaration import Game

GAME = Game(
    slug="kablamo",
    name="Kablamo",
    module=__name__,
    players="2–5",
    engine="rules:ENGINE",
    catalog="data/catalog.json",
    rules="data/rules.json",
    pure_modules=("rules",),
)
