"""The poker deck of Plastic Attack: ranks, their values, and the bands of special
actions. Pure data and small functions (no Django)."""

from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
VALUES = {rank: value for value, rank in enumerate(RANKS, start=2)}  # J 11 … A 14

#: The four bands of a character card, by the ranks that trigger them.
BANDS = ("7-8", "9-10", "J-Q", "K-A")
_BAND_OF = {"7": "7-8", "8": "7-8", "9": "9-10", "10": "9-10", "J": "J-Q", "Q": "J-Q"}
_BAND_OF.update({"K": "K-A", "A": "K-A"})
CHOSEN_BANDS = BANDS[:3]  # the three a player fills; K-A is always Recovery

#: The special actions by their catalog slugs (games/plastic_attack/data/catalog.json).
SPECIALS = (
    "deception",
    "remedy",
    "intimidation",
    "knock-out",
    "luck",
    "master-plan",
    "mind-control",
    "quick-action",
    "recovery",
    "sniper",
    "shield",
    "special-weapons",
    "vulnerability",
)
RECOVERY = "recovery"

#: A full deck without jokers: "2S" … "AC".
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def rank_of(card: str) -> str:
    """ "10H" → "10"; a bare rank (the table's own deck) is its own rank."""
    return card if card in VALUES else card[:-1]


def value_of(card: str) -> int:
    return VALUES[rank_of(card)]


def band_of(card: str) -> str | None:
    """The band a battle card triggers, or None below 7."""
    return _BAND_OF.get(rank_of(card))


def is_card(text: str) -> bool:
    return text in DECK
