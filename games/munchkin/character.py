"""A Munchkin Bites! character: level, gear, sex, races, powers, and what bounds them.

The functions here read a state, or change one ``apply`` has already copied; they
return the events of what they changed. Pure Python, like every engine module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.errors import RuleError
from games.engine.errors import gettext_noop as _
from games.engine.protocol import Event, State

__all__ = [
    "GEAR_LIMIT",
    "HAND_LIMIT",
    "LEVELS_PER_SALE",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "RACE_NAMES",
    "SALE_PRICE",
    "can_add_power",
    "change_level",
    "charity_recipients",
    "charity_share",
    "drop_excess_powers",
    "label",
    "max_races",
    "new_player",
    "player_at",
    "power_total",
    "strength",
]

MIN_LEVEL, MAX_LEVEL = 1, 10
SALE_PRICE = 1000  # gold pieces per level
LEVELS_PER_SALE = 1
HAND_LIMIT = 5  # cards in hand at the end of a turn
GEAR_LIMIT = 99  # a sanity bound on the gear bonus, either way

# English names; the web layer translates them (Italian: Vampiro, Licantropo,
# Changeling, Mummia). A character with no race is human.
RACE_NAMES: dict[str, str] = {
    "vampire": _("Vampire"),
    "werewolf": _("Werewolf"),
    "changeling": _("Changeling"),
    "mummy": _("Mummy"),
}


def new_player(name: str, sex: str | None) -> dict[str, Any]:
    return {
        "name": name,
        "level": MIN_LEVEL,
        "gear": 0,
        "sex": sex,
        "races": [],
        "half_breed": False,
        "powers": [],
        "deaths": 0,
    }


def label(player: Mapping[str, Any]) -> str:
    return str(player["name"])


def player_at(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The player in ``seat``, or a ``RuleError`` if the table has no such seat."""
    players = state["players"]
    if not 0 <= seat < len(players):
        raise RuleError(_("There is no player in seat %(seat)s."), seat=seat)
    return players[seat]


def power_total(player: Mapping[str, Any]) -> int:
    """The sum of the ranks of the player's powers."""
    return sum(int(power["rank"]) for power in player["powers"])


def strength(player: Mapping[str, Any]) -> int:
    """Combat strength before one-shot bonuses: level plus gear."""
    return int(player["level"]) + int(player["gear"])


def max_races(player: Mapping[str, Any]) -> int:
    return 2 if player["half_breed"] else 1


def can_add_power(player: Mapping[str, Any], rank: int) -> bool:
    """Whether a power of ``rank`` fits: the new rank total must not pass the level.

    This holds for Changelings too: they keep powers over the limit after losing
    levels, but cannot gain a new one until it fits again.
    """
    return power_total(player) + rank <= int(player["level"])


def drop_excess_powers(
    state: State, seat: int, why: str, preference: Sequence[int] = ()
) -> list[Event]:
    """Discard powers until their ranks fit the level (Changelings keep theirs).

    Powers listed in ``preference`` (indices) go first, in that order, then the
    newest ones; only as many as needed.
    """
    player = state["players"][seat]
    if "changeling" in player["races"]:
        return []
    powers = player["powers"]
    for index in preference:
        if index >= len(powers):
            raise RuleError(
                _("%(player)s has no power number %(number)s."),
                player=label(player),
                number=index + 1,
            )
    order = [*preference, *(i for i in reversed(range(len(powers))) if i not in preference)]
    total = power_total(player)
    removed: set[int] = set()
    events: list[Event] = []
    for index in order:
        if total <= player["level"]:
            break
        power = powers[index]
        removed.add(index)
        total -= int(power["rank"])
        events.append(
            {
                "type": "power",
                "seat": seat,
                "op": "remove",
                "name": power["name"],
                "rank": power["rank"],
                "why": why,
            }
        )
    player["powers"] = [p for i, p in enumerate(powers) if i not in removed]
    return events


def change_level(
    state: State,
    seat: int,
    target: int,
    why: str,
    preference: Sequence[int] = (),
) -> list[Event]:
    """Set ``seat``'s level to ``target`` (already checked), discarding powers if due.

    ``why`` is ``adjust``, ``sell``, ``kill`` or ``helper``. Only ``kill`` and
    ``helper`` (a kill shared by the helper) may reach level 10.
    """
    player = state["players"][seat]
    before = player["level"]
    if target >= MAX_LEVEL and why not in ("kill", "helper"):
        raise RuleError(_("Level 10 can only be reached by killing a monster."))
    target = max(MIN_LEVEL, min(MAX_LEVEL, target))
    player["level"] = target
    events: list[Event] = [
        {"type": "level", "seat": seat, "from": before, "to": target, "why": why}
    ]
    if target < before:
        events.extend(drop_excess_powers(state, seat, "level_loss", preference))
    return events


def charity_recipients(state: Mapping[str, Any], seat: int) -> list[int]:
    """Who receives ``seat``'s excess cards at Charity: the lowest-level other players.

    An empty list means ``seat`` is itself the lowest level (alone or tied) and
    discards the excess instead.
    """
    players = state["players"]
    own = players[seat]["level"]
    others = [s for s in range(len(players)) if s != seat]
    lowest = min(players[s]["level"] for s in others)
    if own <= lowest:
        return []
    return [s for s in others if players[s]["level"] == lowest]


def charity_share(state: Mapping[str, Any], seat: int, excess: int) -> dict[str, Any]:
    """How ``excess`` cards are given away: ``each`` to every recipient, and
    ``extra`` cards left over that the giver hands to recipients of their choice.
    With no recipients, all ``excess`` cards are discarded."""
    recipients = charity_recipients(state, seat)
    if not recipients:
        return {"recipients": [], "each": 0, "extra": 0, "discard": excess}
    each, extra = divmod(excess, len(recipients))
    return {"recipients": recipients, "each": each, "extra": extra, "discard": 0}
