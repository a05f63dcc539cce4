"""Kablamo declares itself: for now a card catalog and a rules summary, no engine."""

from games.engine.declaration import Game

GAME = Game(
    slug="kablamo",
    name="Kablamo",
    module=__name__,
    players="2–5",
    catalog="data/catalog.json",
    rules="data/rules.json",
)
