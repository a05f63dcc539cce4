"""Pure scoring helpers for Adrenaline: board values, board and track rankings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

NORMAL_VALUES: tuple[int, ...] = (8, 6, 4, 2, 1, 1)
FRENZY_VALUES: tuple[int, ...] = (2, 1, 1, 1)


def board_values(player: Mapping[str, Any]) -> list[int]:
    """The printed values still uncovered on this board, best first.

    A frenzy board is worth 2-1-1-1 whatever its skulls; a normal board loses
    its highest value for each skull on it. Scorers past the end of the list
    get 1 point each (see :func:`value_at`).
    """
    if player["frenzy"]:
        return list(FRENZY_VALUES)
    return list(NORMAL_VALUES[player["skulls"] :])


def value_at(values: Sequence[int], rank: int) -> int:
    """Points for the scorer ranked ``rank`` (0 = best): 1 past the printed values."""
    return values[rank] if rank < len(values) else 1


def rank_board(damage: Sequence[str]) -> list[str]:
    """Shooters by tokens on the board, ties to whoever hit first."""
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for index, shooter in enumerate(damage):
        counts[shooter] = counts.get(shooter, 0) + 1
        first.setdefault(shooter, index)
    return sorted(counts, key=lambda s: (-counts[s], first[s]))


def killshot_ranking(killshot: Sequence[Mapping[str, Any]]) -> list[str]:
    """Killers by tokens on the kill-shot track, ties to the earlier token."""
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for index, entry in enumerate(killshot):
        killer = entry["killer"]
        counts[killer] = counts.get(killer, 0) + int(entry["tokens"])
        first.setdefault(killer, index)
    return sorted(counts, key=lambda k: (-counts[k], first[k]))
