"""Munchkin Bites! (Munchkin Morde!) declares itself: see ``games.engine.declaration``."""

from games.engine.declaration import Game
from games.engine.errors import gettext_noop as _

GAME = Game(
    slug="munchkin",
    name=_("Munchkin Bites!"),
    module=__name__,
    players="3–6",
    engine="rules:ENGINE",
    presenter="views:PRESENTER",
    templates="munchkin",
    catalog="data/catalog.json",
    rules="data/rules.json",
    pure_modules=("rules", "actions", "character", "combat"),
)
