"""Adrenaline (Adrenalina) declares itself to the platform: see ``games.engine.declaration``."""

from games.engine.declaration import Game
from games.engine.errors import gettext_noop as _

GAME = Game(
    slug="adrenaline",
    name=_("Adrenaline"),
    module=__name__,
    players="3–5",
    engine="rules:ENGINE",
    presenter="views:PRESENTER",
    urls="urls",
    templates="adrenaline",
    catalog="data/catalog.json",
    rules="data/rules.json",
    pure_modules=("rules", "scoring", "arena", "targeting", "map_view"),
)
