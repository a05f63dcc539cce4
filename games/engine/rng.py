"""A seeded, serialisable random source: the only randomness engines may use.

The whole generator state is two integers kept inside the game state, so a
session replays exactly from its action log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class SeededRandom:
    """Counter-based generator: value n is a pure function of (seed, n)."""

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & _MASK
        self.counter = counter

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> SeededRandom:
        return cls(int(data["seed"]), int(data["counter"]))

    def to_state(self) -> dict[str, int]:
        return {"seed": self.seed, "counter": self.counter}

    def next_u64(self) -> int:
        self.counter += 1
        return _splitmix64(self.seed ^ _splitmix64(self.counter))

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], without modulo bias."""
        if high < low:
            raise ValueError("empty range")
        span = high - low + 1
        limit = (1 << 64) - ((1 << 64) % span)
        while True:
            value = self.next_u64()
            if value < limit:
                return low + value % span

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]
