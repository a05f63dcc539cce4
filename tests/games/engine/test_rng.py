"""The seeded random source draws the same numbers however it computes them: a
shuffle takes its draws at once (lane by lane in one big integer), and must give
exactly the shuffle that draws one card at a time, rejected draws included."""

from __future__ import annotations

import pytest

from games.engine import rng
from games.engine.rng import SeededRandom

SEEDS = [0, 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15, 123456789]


def one_by_one(generator: SeededRandom, items: list[int]) -> None:
    """Fisher-Yates as the generator documents it: one randint per card."""
    for i in range(len(items) - 1, 0, -1):
        j = generator.randint(0, i)
        items[i], items[j] = items[j], items[i]


def test_draws_taken_at_once_are_the_draws_taken_one_by_one():
    for seed in SEEDS:
        for first in (1, 2, 14, 4090, 5000, 2**40):
            for count in (1, 2, 13, 64):
                expected = [rng._draw(seed, n) for n in range(first, first + count)]
                assert list(rng._draws(seed, first, count)) == expected


@pytest.mark.parametrize("size", [0, 1, 2, 14, 65, 66, 100])
def test_a_shuffle_is_the_one_card_at_a_time_shuffle(size):
    for seed in SEEDS:
        for counter in (0, 7, 4095):
            fast, slow = list(range(size)), list(range(size))
            first = SeededRandom(seed, counter)
            first.shuffle(fast)
            second = SeededRandom(seed, counter)
            one_by_one(second, slow)
            assert fast == slow
            assert first.counter == second.counter == counter + max(size - 1, 0)


def test_a_rejected_draw_is_drawn_again_in_a_shuffle(monkeypatch):
    # A span of a few cards rejects about one draw in 10**18; with these limits, half.
    monkeypatch.setattr(rng, "_LIMITS", {span: 2**63 for span in range(2, 15)})
    monkeypatch.setattr(rng, "_SPAN_LIMITS", {})
    for seed in SEEDS:
        fast, slow = list(range(14)), list(range(14))
        first = SeededRandom(seed)
        first.shuffle(fast)
        second = SeededRandom(seed)
        one_by_one(second, slow)
        assert fast == slow
        assert first.counter == second.counter > 13  # some draws were rejected


def test_next_u64_gives_draw_after_draw_however_the_generator_is_moved():
    # next_u64 computes a batch of the next draws at once: the values stay draw n of
    # the seed, whatever else moves the counter or the seed in between.
    for seed in SEEDS:
        generator = SeededRandom(seed, 5)
        for step in range(60):
            if step % 7 == 3:
                generator.randint(0, 5)  # draws without next_u64
            if step == 20:
                generator.counter = 2  # back before the batch
            if step == 40:
                generator.seed = seed ^ 0xFFFF  # another seed, same counter
            expected = rng._draw(generator.seed, generator.counter + 1)
            assert generator.next_u64() == expected
