"""The 15 Shazamm! cards: numbers (the number is also the priority) and names.

Pure data, shared by the rules engine and the bot.
"""

from __future__ import annotations

BLUFF = 0
MUTISM = 1
CLONE = 2
LARCENY = 3
END_OF_ROUND = 4
MIDDLE = 5
RECYCLE = 6
BOOST = 7
DOUBLE_DOSE = 8
LOSER_WINS = 9
BLAZE = 10
RESISTANCE = 11
SAFE_LOSS = 12
REINFORCEMENT = 13
SUCTION = 14

#: Every card of a deck, the bluff card included.
CARDS: tuple[int, ...] = tuple(range(15))
#: The 14 real spells (the bluff card is not shuffled into the deck).
SPELLS: tuple[int, ...] = tuple(range(1, 15))

SLUGS: dict[int, str] = {
    BLUFF: "bluff",
    MUTISM: "mutism",
    CLONE: "clone",
    LARCENY: "larceny",
    END_OF_ROUND: "end-of-round",
    MIDDLE: "middle",
    RECYCLE: "recycle",
    BOOST: "boost-attack",
    DOUBLE_DOSE: "double-dose",
    LOSER_WINS: "loser-wins",
    BLAZE: "blaze",
    RESISTANCE: "resistance",
    SAFE_LOSS: "safe-loss",
    REINFORCEMENT: "reinforcement",
    SUCTION: "suction",
}

NAMES: dict[int, str] = {
    BLUFF: "Bluff",
    MUTISM: "Mutism",
    CLONE: "Clone",
    LARCENY: "Larceny",
    END_OF_ROUND: "End of round",
    MIDDLE: "Middle",
    RECYCLE: "Recycle",
    BOOST: "Boost attack",
    DOUBLE_DOSE: "Double dose",
    LOSER_WINS: "Loser wins",
    BLAZE: "Blaze",
    RESISTANCE: "Resistance",
    SAFE_LOSS: "Safe loss",
    REINFORCEMENT: "Reinforcement",
    SUCTION: "Suction",
}

BOOST_ATTACK = 7  # Boost attack: +7 attack strength
REINFORCE_MANA = 13  # Reinforcement: +13 mana
RECYCLE_RANGE = 5  # Recycle: the bid moves by at most 5 either way
