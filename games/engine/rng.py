"""A seeded, serialisable random source: the only randomness engines may use.

The whole generator state is two integers kept inside the game state, so a
session replays exactly from its action log.

Value n of seed s is ``splitmix64(s ^ splitmix64(n))``. Stored games replay from
these values, so they must never change (``tests/games/shazamm/test_shazamm_replay_pins.py``
pins some). For speed, the inner ``splitmix64(n)`` of the first counters is remembered
once computed, as is the rejection limit of each small span, a shuffle computes
its draws at once (:func:`_draws`), and so does a generator that keeps calling
:meth:`SeededRandom.next_u64` (a batch of the next ones): the same numbers, drawn in
the same order, with fewer Python operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from struct import Struct
from typing import Any, TypeVar

T = TypeVar("T")

_TWO_64 = 1 << 64
_MASK = _TWO_64 - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def _splitmix64(x: int) -> int:
    x = (x + _GAMMA) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


#: ``splitmix64(n)`` of the counters drawn so far, up to ``_MEMO_COUNTERS`` (any other
#: int misses): a memo of a pure function, filled by :func:`_mixed`.
_MIXED: dict[int, int] = {}
_MEMO_COUNTERS = 4096


def _mixed(n: int) -> int:
    """``splitmix64(n)``, remembered for the first counters (a miss of ``_MIXED``)."""
    value = _splitmix64(n)
    if 0 < n <= _MEMO_COUNTERS:
        _MIXED[n] = value
    return value


#: randint's rejection limit of the spans seen so far, up to ``_MEMO_SPANS``: values
#: at or above it are drawn again (so that ``value % span`` has no modulo bias).
_LIMITS: dict[int, int] = {}
_MEMO_SPANS = 4096


def _limit(span: int) -> int:
    """The rejection limit of ``span``, remembered for small spans (a miss of ``_LIMITS``)."""
    value = _TWO_64 - _TWO_64 % span
    if span <= _MEMO_SPANS:
        _LIMITS[span] = value
    return value


def _draw(seed: int, n: int) -> int:
    """Draw number ``n`` of the generator seeded ``seed``: splitmix64(seed ^ mix(n))."""
    inner = _MIXED.get(n)
    return _splitmix64(seed ^ (_mixed(n) if inner is None else inner))


def _below(seed: int, n: int, limit: int) -> tuple[int, int]:
    """The first draw after number ``n`` that is under ``limit`` (rejection sampling,
    so ``value % span`` has no bias), and its number."""
    while True:
        n += 1
        value = _draw(seed, n)
        if value < limit:
            return value, n


#: Batch draws (see :func:`_draws`): each value in its own lane of 128 bits of one int.
_LANE = 128
_BATCH_MAX = 64  # the most draws taken at once (a shuffle of up to 65 items)
_MEMO_BATCHES = 256

#: The set-up of batch draws ``first .. first + count - 1`` seen so far (up to
#: ``_MEMO_BATCHES``): filled by :func:`_batch`.
_BATCHES: dict[tuple[int, int], tuple[int, int, int, int, Struct]] = {}


def _batch(first: int, count: int) -> tuple[int, int, int, int, Struct]:
    """For ``count`` lanes from draw number ``first``: the inner mixes of their numbers
    (one a lane), a 1 in each lane, the increment and the 64-bit mask in each lane, and
    how to read the lanes back."""
    inner = ones = 0
    for i in range(count):
        n = first + i
        value = _MIXED.get(n)
        inner |= (_mixed(n) if value is None else value) << (_LANE * i)
        ones |= 1 << (_LANE * i)
    batch = (inner, ones, _GAMMA * ones, _MASK * ones, Struct("<" + "Q8x" * count))
    if len(_BATCHES) < _MEMO_BATCHES:
        _BATCHES[(first, count)] = batch
    return batch


def _draws(seed: int, first: int, count: int) -> tuple[int, ...]:
    """Draws number ``first`` to ``first + count - 1`` of the generator seeded ``seed``,
    the values :func:`_draw` gives one by one, computed at once: :func:`_splitmix64`'s
    steps on ``count`` lanes of 128 bits of one int. The lanes never mix: each holds a
    value under 2**65 after the addition and under 2**128 after a product (a value
    under 2**64 times a 64-bit multiplier), every shifted value is masked back to its
    lane's low 64 bits, and every product is too."""
    inner, ones, gammas, masks, lanes = _BATCHES.get((first, count)) or _batch(first, count)
    z = (seed * ones ^ inner) + gammas & masks
    z = (z ^ z >> 30 & masks) * _MIX1 & masks
    z = (z ^ z >> 27 & masks) * _MIX2 & masks
    z ^= z >> 31 & masks
    return lanes.unpack(z.to_bytes(16 * count, "little"))


#: For a shuffle of n items: the rejection limits of its draws' spans, n down to 2,
#: and the lowest of them.
_SPAN_LIMITS: dict[int, tuple[tuple[int, ...], int]] = {}


def _span_limits(size: int) -> tuple[tuple[int, ...], int]:
    """The limits of a shuffle of ``size`` items (at most ``_BATCH_MAX + 1``) and the
    lowest one, remembered."""
    limits = tuple(_LIMITS.get(span) or _limit(span) for span in range(size, 1, -1))
    _SPAN_LIMITS[size] = limits, min(limits)
    return limits, min(limits)


#: How many draws :meth:`SeededRandom.next_u64` computes at once after its first one.
_AHEAD = 16


class SeededRandom:
    """Counter-based generator: value n is a pure function of (seed, n)."""

    __slots__ = ("_ahead", "counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & _MASK
        self.counter = counter
        # next_u64's last draws: (seed, number of the first, values), or None
        self._ahead: tuple[int, int, tuple[int, ...]] | None = None

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> SeededRandom:
        return cls(int(data["seed"]), int(data["counter"]))

    def to_state(self) -> dict[str, int]:
        return {"seed": self.seed, "counter": self.counter}

    def next_u64(self) -> int:
        """Draw number ``counter + 1``. The first call draws just that one; a later one
        that is not among the draws already made computes ``_AHEAD`` at once, from its
        own (:func:`_draws`: about a quarter of the cost each, for a generator that is
        kept and drawn from again, like a random player's)."""
        seed = self.seed
        n = self.counter = self.counter + 1
        ahead = self._ahead
        if ahead is None or ahead[0] != seed:
            values: tuple[int, ...] = (_draw(seed, n),)
        else:
            _seed, first, values = ahead
            if 0 <= n - first < len(values):
                return values[n - first]
            values = _draws(seed, n, _AHEAD)
        self._ahead = seed, n, values
        return values[0]

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], without modulo bias."""
        if high < low:
            raise ValueError("empty range")
        span = high - low + 1
        value, self.counter = _below(self.seed, self.counter, _LIMITS.get(span) or _limit(span))
        return low + value % span

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates: for i from the end down to 1, swap items i and randint(0, i)."""
        seed, n = self.seed, self.counter
        last = len(items) - 1
        if 0 < last <= _BATCH_MAX:
            # The draws at once; kept unless one is rejected (about 1 in 10**17 for a
            # few cards), in which case the loop below draws them again, one by one.
            values = _draws(seed, n + 1, last)
            under, lowest = _SPAN_LIMITS.get(last + 1) or _span_limits(last + 1)
            # (all under the lowest limit: one comparison instead of one per draw)
            if max(values) < lowest or all(map(int.__lt__, values, under)):
                for i, value in zip(range(last, 0, -1), values):  # noqa: B905 (the same length)
                    j = value % (i + 1)
                    items[i], items[j] = items[j], items[i]
                self.counter = n + last
                return
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            span = i + 1
            value, n = _below(seed, n, limits.get(span) or _limit(span))
            j = value % span
            items[i], items[j] = items[j], items[i]
        self.counter = n
