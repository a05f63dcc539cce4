"""What the app offers for each game, read from the games' declarations.

The home page lists every declared game with what Segnalino does for it, so a new
game (or a game that gains online play or a card list) shows up there without a
list to keep: everything below comes from ``games.engine.registry``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine.registry import games, get_engine


@dataclass(frozen=True)
class GameOffer:
    """One game on the home page: its name, players and what the app does for it."""

    slug: str
    name: str | Promise
    players: str
    #: The set-up page of a new session (a table companion), or "" if none.
    new_url: str
    #: Online play: the app deals and hides each phone's cards (the engine keeps
    #: seat secrets), so the players need not sit at one table.
    online: bool
    #: A bot can take an empty seat online.
    bot: bool
    #: The game's cards in the card reference, or "".
    cards_url: str
    #: The game's rules summary, or "".
    rules_url: str


def game_offers() -> list[GameOffer]:
    """Every declared game, in the declarations' order."""
    offers = []
    for slug, game in games().items():
        playable = game.engine is not None and game.presenter is not None
        offers.append(
            GameOffer(
                slug=slug,
                name=_(game.name),
                players=game.players,
                new_url=reverse("new_session", args=[slug]) if playable else "",
                online=playable and get_engine(slug).seat_bound,
                bot=game.bot is not None,
                cards_url=f"{reverse('cards')}?game={slug}" if game.catalog else "",
                rules_url=reverse("rules", args=[slug]) if game.rules else "",
            )
        )
    return offers
