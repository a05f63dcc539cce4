"""Plastic Attack declares itself: for now a card catalog and a rules summary, no engine."""

from games.engine.declaration import Game

GAME = Game(
    slug="plastic-attack",
    name="Plastic Attack",
    module=__name__,
    players="2+",
    catalog="data/catalog.json",
    rules="data/rules.json",
)
