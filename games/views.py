"""The web side of each game: the presenter its declaration names (``games.presenter``)."""

from __future__ import annotations

from functools import cache
from typing import cast

from games.engine.registry import games, load_part
from games.presenter import Presenter, Setup

__all__ = ["Presenter", "Setup", "presenter_for", "presenters"]


@cache
def presenter_for(slug: str) -> Presenter:
    return cast(Presenter, load_part(slug, "presenter"))


def presenters() -> list[Presenter]:
    """The presenters of every game that can be played, in the declarations' order."""
    return [presenter_for(slug) for slug, game in games().items() if game.presenter]
