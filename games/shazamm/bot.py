"""A Shazamm! bot that plays from a seat's view only (never the full state).

How it thinks:

- **Value of a position.** A round that ends with the wall on slab ``W`` is worth the
  wall's distance from the middle of the bridge toward the opponent, or ±``FALL`` if
  that round end drops a mage into the lava (the next broken slab is taken into
  account). A position inside a round is worth a mix of the two round ends (the wall
  on the opponent's slab or on ours), weighted by the chance of winning the race to
  the needed number of turns when each turn is won with probability
  ``my mana / (my mana + their mana)`` (a small table, computed once). Running out of
  mana is scored exactly (the other mage's mana pushes the wall).
- **Bids.** The opponent's bid is modelled as a mixture: anything they can afford
  (uniform), what an even spreading of their mana over the turns they need would give,
  and a cautious 1–2. Every candidate bid (with every candidate set of spells) is
  scored by its expected value over that model, so the bot budgets mana across the
  turns it needs, outbids when a turn is decisive and otherwise bids low in this
  all-pay auction. Among bids worth (nearly) the same it picks at random, so that it
  cannot be read too easily.
- **Spells.** Each spell has a *keep value* (what holding it for later is worth); a
  spell is played only when it gains more than that, so Resistance, Loser wins, Blaze
  or Double dose come out at the decisive moments. The keep values are halved when one
  of the two possible ends of this round finishes the game, and drop to 0 when both
  do. Spells are added greedily, best gain first. Clone adds the opponent's previous
  cards as extra candidates; Larceny and Mutism use simple rules (see :func:`_lock`).
- **Decisions** (Recycle, Larceny) are made by replaying the rest of the turn with the
  engine's own resolution on a copy of the view, for every possible answer.

Also :func:`random_choice` (a uniformly random legal payload) and :func:`play_match`.
Pure Python: the only randomness is the ``SeededRandom`` passed in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any

from games.engine.rng import SeededRandom
from games.shazamm import rules
from games.shazamm.spells import (
    BLAZE,
    BLUFF,
    BOOST,
    BOOST_ATTACK,
    CLONE,
    DOUBLE_DOSE,
    END_OF_ROUND,
    LARCENY,
    LOSER_WINS,
    MIDDLE,
    MUTISM,
    RECYCLE,
    RECYCLE_RANGE,
    REINFORCE_MANA,
    REINFORCEMENT,
    RESISTANCE,
    SAFE_LOSS,
    SPELLS,
    SUCTION,
)

__all__ = ["choose", "play_match", "random_choice"]

Policy = Callable[[dict[str, Any], int, SeededRandom], dict[str, Any]]

FALL = 12.0  # the value of making the opponent fall, in slabs of wall
MAX_MANA = rules.MAX_MANA
LAST_SLAB = rules.SLABS - 1
MIN_GAIN = 0.05  # a spell must gain at least this much (in slabs) over keeping it
MIX_MARGIN = 0.03  # bids this close to the best one are picked at random

#: What holding a spell for a later turn is worth (in slabs), when the game goes on.
KEEP: dict[int, float] = {
    MUTISM: 0.5,
    CLONE: 0.3,
    LARCENY: 0.4,
    END_OF_ROUND: 0.6,
    MIDDLE: 0.6,
    RECYCLE: 0.4,
    BOOST: 0.45,
    DOUBLE_DOSE: 0.45,
    LOSER_WINS: 0.7,
    BLAZE: 0.6,
    RESISTANCE: 0.8,
    SAFE_LOSS: 0.35,
    REINFORCEMENT: 0.45,
    SUCTION: 0.45,
}
#: Spells the bid evaluation models (Mutism, Clone and Larceny are handled by rules).
MODELLED: tuple[int, ...] = (END_OF_ROUND, MIDDLE, RECYCLE, BOOST, DOUBLE_DOSE, LOSER_WINS)
MODELLED += (BLAZE, RESISTANCE, SAFE_LOSS, REINFORCEMENT, SUCTION)
#: Chosen-order variant: the most useful spells first.
ORDER: tuple[int, ...] = (11, 6, 7, 9, 5, 13, 10, 8, 14, 3, 12, 4, 1, 2)


def _race_table() -> list[list[list[float]]]:
    """table[a][b][i]: chance to win a turns before losing b, each turn won w.p. i/100."""
    table = [[[0.0] * 101 for _b in range(8)] for _a in range(8)]
    for a in range(1, 8):
        for b in range(1, 8):
            for i in range(101):
                p = i / 100
                table[a][b][i] = sum(
                    math.comb(a - 1 + k, k) * p**a * (1 - p) ** k for k in range(b)
                )
    return table


RACE = _race_table()


# --------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------


class _Context:
    """The numbers the evaluation needs, read once from the view."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        self.seat = seat
        self.opp = 1 - seat
        self.wall = view["wall"]
        self.mages = list(view["mages"])
        self.mana = view["mana"][seat]
        self.opp_mana = view["mana"][self.opp]
        self.dir = 1 if seat == 0 else -1  # wall direction toward the opponent
        self.next_broken = view["broken"] + 1
        self.middle = (self.mages[0] + self.mages[1]) // 2
        self.my_mage = self.mages[seat]
        self.opp_mage = self.mages[self.opp]
        self.f_win = self.final(self.opp_mage)
        self.f_lose = self.final(self.my_mage)
        # Round ends that finish the game (someone falls): spells left are then worthless.
        ends = (abs(self.f_win) >= FALL) + (abs(self.f_lose) >= FALL)
        self.decisive = ends > 0
        self.keep_factor = 1.0 - ends / 2
        self.cache: dict[tuple[int, int, int], float] = {}

    def final(self, wall: int) -> float:
        """Value of the round ending with the wall on slab ``wall``."""
        low, high = self.next_broken, LAST_SLAB - self.next_broken
        me = wall - 3 * self.dir
        them = wall + 3 * self.dir
        i_fall = not low <= me <= high
        they_fall = not low <= them <= high
        if i_fall and they_fall:
            return 0.0
        if they_fall:
            return FALL
        if i_fall:
            return -FALL
        return float((wall - 9) * self.dir)

    def position(self, wall: int, mana: int, opp_mana: int) -> float:
        """Value of a position inside the round (the wall has reached nobody)."""
        to_me = abs(wall - self.my_mage)
        to_them = abs(wall - self.opp_mage)
        if mana <= 0 or opp_mana <= 0:
            if mana > 0:
                return self.final(wall + self.dir * min(mana, to_them))
            if opp_mana > 0:
                return self.final(wall - self.dir * min(opp_mana, to_me))
            return self.final(wall)
        p = RACE[min(to_them, 7)][min(to_me, 7)][(100 * mana) // (mana + opp_mana)]
        return p * self.f_win + (1 - p) * self.f_lose


def _opponent_bids(ctx: _Context) -> list[tuple[int, float]]:
    """A model of the opponent's bid: [(bid, probability)]."""
    mo = ctx.opp_mana
    weights: dict[int, float] = {}

    def add(bid: float, weight: float) -> None:
        b = min(max(round(bid), 1), mo)
        weights[b] = weights.get(b, 0.0) + weight

    points = 5
    for i in range(points):  # anything they can afford
        add(1 + (mo - 1) * (i + 0.5) / points, 0.4 / points)
    to_me = abs(ctx.wall - ctx.my_mage)
    to_them = abs(ctx.wall - ctx.opp_mage)
    target = mo / max(to_me, 1)
    if to_them == 1:  # they must defend
        target = max(target, min(mo, ctx.mana + 1))
    for factor, weight in ((0.6, 0.1), (1.0, 0.2), (1.4, 0.1)):  # spreading their mana
        add(target * factor, weight)
    add(1, 0.12)  # cautious
    add(2, 0.08)
    return sorted(weights.items())


class _Play:
    """A candidate set of spells, with its counts of each effect."""

    __slots__ = ("boosts", "cards", "cost", "doubles", "flags", "reinforce", "suction")

    def __init__(self, cards: Sequence[tuple[int, bool]], keep_factor: float) -> None:
        self.cards = tuple(cards)  # (number, through Clone)
        numbers = [n for n, _c in cards]
        self.boosts = numbers.count(BOOST)
        self.doubles = numbers.count(DOUBLE_DOSE)
        self.reinforce = numbers.count(REINFORCEMENT)
        self.suction = numbers.count(SUCTION)
        self.flags = frozenset(numbers)
        self.cost = keep_factor * sum(KEEP[CLONE if cloned else n] for n, cloned in cards)

    def attack(self, bid: int) -> int:
        return (bid + BOOST_ATTACK * self.boosts) * (2**self.doubles)

    def lowest_bid_beating(self, attack: int) -> int:
        """The smallest bid whose attack is above ``attack``."""
        base = attack // (2**self.doubles) + 1 - BOOST_ATTACK * self.boosts
        return max(base, 1)


def _outcomes(ctx: _Context, play: _Play) -> dict[int, tuple[int, float | None, bool]]:
    """For each way the attacks compare (1: ours is higher, 0: tie, -1: theirs), where
    the wall ends, the round's value if it reached a mage (else None), and whether we
    pay our bid (no spell from the opponent assumed)."""
    flags = play.flags
    start = ctx.middle if MIDDLE in flags else ctx.wall
    table: dict[int, tuple[int, float | None, bool]] = {}
    for compare in (1, 0, -1):
        wall, toward, steps = start, compare, 0
        if toward:
            if LOSER_WINS in flags:
                toward = -toward
            steps = 2 if BLAZE in flags else 1
            if toward < 0 and RESISTANCE in flags:
                toward = steps = 0
        final: float | None = None
        if steps:
            wall += toward * ctx.dir * steps
            mage = ctx.opp_mage if toward > 0 else ctx.my_mage
            reached = (wall - mage) * toward * ctx.dir >= 0
            wall = min(max(wall, 0), LAST_SLAB)
            if reached:
                final = ctx.final(wall)
        pays = not (SAFE_LOSS in flags and toward < 0 and steps)
        table[compare] = (wall, final, pays)
    return table


def _result(
    ctx: _Context,
    play: _Play,
    table: dict[int, tuple[int, float | None, bool]],
    bid: int,
    opp_bid: int,
) -> float:
    """Value after this turn if we bid ``bid`` with ``play`` and they bid ``opp_bid``
    with no spell."""
    if END_OF_ROUND in play.flags:
        return ctx.final(ctx.wall)
    attack = play.attack(bid)
    wall, final, pays = table[(attack > opp_bid) - (attack < opp_bid)]
    if final is not None:
        return final
    mana = ctx.mana - bid if pays else ctx.mana
    for _ in range(play.reinforce):
        mana = min(MAX_MANA, mana + REINFORCE_MANA)
    for _ in range(play.suction):
        mana = min(MAX_MANA, mana + opp_bid)
    key = (wall, mana, opp_bid)
    value = ctx.cache.get(key)
    if value is None:
        value = ctx.cache[key] = ctx.position(wall, mana, ctx.opp_mana - opp_bid)
    return value


def _expected(
    ctx: _Context,
    play: _Play,
    table: dict[int, tuple[int, float | None, bool]],
    bid: int,
    model: list[tuple[int, float]],
) -> float:
    total = 0.0
    recycle = RECYCLE in play.flags
    for opp_bid, weight in model:
        if recycle:  # we will correct the bid once we see theirs
            low = max(1, bid - RECYCLE_RANGE)
            high = min(ctx.mana, bid + RECYCLE_RANGE)
            options = {low, bid, min(max(play.lowest_bid_beating(opp_bid), low), high)}
            value = max(_result(ctx, play, table, b, opp_bid) for b in options)
        else:
            value = _result(ctx, play, table, bid, opp_bid)
        total += weight * value
    return total


def _bid_values(
    ctx: _Context, play: _Play, model: list[tuple[int, float]]
) -> list[tuple[float, int]]:
    """(expected value, bid) for the bids worth considering with ``play``."""
    if END_OF_ROUND in play.flags:  # the bid does not matter: the round just ends
        return [(ctx.final(ctx.wall), 1)]
    candidates = {1, 2, ctx.mana}
    for opp_bid, weight in model:
        candidates.add(play.lowest_bid_beating(opp_bid))
        if weight >= 0.1:
            candidates.add(play.lowest_bid_beating(opp_bid - 1))  # a tie
    table = _outcomes(ctx, play)
    return [
        (_expected(ctx, play, table, bid, model), bid)
        for bid in sorted(candidates)
        if 1 <= bid <= ctx.mana
    ]


def _best_bid(ctx: _Context, play: _Play, model: list[tuple[int, float]]) -> tuple[float, int]:
    best = (-math.inf, 1)
    for value, bid in _bid_values(ctx, play, model):
        if value > best[0] + 1e-9:
            best = (value, bid)
    return best


# --------------------------------------------------------------------------
# Choosing
# --------------------------------------------------------------------------


def _hand(view: dict[str, Any], seat: int) -> list[int]:
    hands = view.get("hands")
    if hands is not None and isinstance(hands[seat], list):
        return list(hands[seat])
    spent = set(view["discards"][seat])  # physical mode: anything not yet spent
    return [n for n in range(15) if n not in spent]


def _opp_hand_count(view: dict[str, Any], seat: int) -> int:
    hands = view.get("hands")
    if hands is None:
        return len(SPELLS) - len(view["discards"][1 - seat])
    other = hands[1 - seat]
    return other if isinstance(other, int) else len(other)


def _lock(view: dict[str, Any], seat: int, rng: SeededRandom) -> dict[str, Any]:
    ctx = _Context(view, seat)
    hand = _hand(view, seat)
    model = _opponent_bids(ctx)
    keep_factor = ctx.keep_factor

    if view["mutism"]:
        _value, bid = _best_bid(ctx, _Play((), keep_factor), model)
        return _payload(bid, [BLUFF] if BLUFF in hand else [], None)

    available: list[tuple[int, bool]] = [(n, False) for n in hand if n in MODELLED]
    if CLONE in hand:
        mine = {n for n, _c in available}
        targets = [n for n in rules.clone_targets(view, seat) if n in MODELLED]
        # Prefer copying what we do not hold ourselves.
        targets.sort(key=lambda n: (n in mine, -KEEP[n]))
        for target in targets[:3]:
            available.append((target, True))

    # Greedy search: start with no spell, add the spell that gains most, repeat; after
    # the first pass only the few most promising spells are tried again.
    chosen: list[tuple[int, bool]] = []
    best_value, _bid = _best_bid(ctx, _Play(chosen, keep_factor), model)
    singles: list[tuple[float, tuple[int, bool]]] = []
    for card in available:
        trial = _Play([card], keep_factor)
        singles.append((_best_bid(ctx, trial, model)[0] - trial.cost, card))
    singles.sort(key=lambda item: -item[0])
    promising = [card for value, card in singles[:5] if value > best_value - 0.5]
    if singles and singles[0][0] > best_value + MIN_GAIN:
        best_value = singles[0][0]
        chosen.append(singles[0][1])
        while len(chosen) < 4:
            pick = None
            for card in promising:
                if card in chosen or (card[1] and any(c[1] for c in chosen)):
                    continue
                trial = _Play([*chosen, card], keep_factor)
                value = _best_bid(ctx, trial, model)[0] - trial.cost
                if value > best_value + MIN_GAIN:
                    best_value, pick = value, card
            if pick is None:
                break
            chosen.append(pick)

    # Mix among the bids that are (nearly) as good: a predictable bid is exploitable.
    values = _bid_values(ctx, _Play(chosen, keep_factor), model)
    top = max(value for value, _b in values)
    near = [bid for value, bid in values if value >= top - MIX_MARGIN]
    best_bid = near[rng.randint(0, len(near) - 1)]

    spells = sorted({n for n, cloned in chosen if not cloned})
    clone = next((n for n, cloned in chosen if cloned), None)
    if clone is not None:
        spells = sorted({*spells, CLONE})

    opp_cards = _opp_hand_count(view, seat)
    to_me = abs(ctx.wall - ctx.my_mage)
    to_them = abs(ctx.wall - ctx.opp_mage)
    critical = to_me == 1 or to_them == 1
    if LARCENY in hand and opp_cards >= 3 and (critical or ctx.decisive):
        spells = sorted({*spells, LARCENY})
    if (
        MUTISM in hand
        and not spells
        and opp_cards >= len(hand) + 2
        and ctx.position(ctx.wall, ctx.mana, ctx.opp_mana) > 0
    ):
        spells = [MUTISM]  # keep the opponent's spells quiet while we are ahead
    if BLUFF in hand and (not spells or rng.randint(0, 1)):
        spells = sorted({*spells, BLUFF})
    return _payload(best_bid, spells, clone)


def _payload(bid: int, spells: list[int], clone: int | None) -> dict[str, Any]:
    return {"type": "lock", "bid": int(bid), "spells": list(spells), "clone": clone}


def _after(view: dict[str, Any], seat: int, value: int | tuple[int, ...]) -> dict[str, Any]:
    """The turn played out on a copy of the view, if ``seat`` answers ``value``."""
    return rules.project_decision(view, seat, value)


def _score(ctx: _Context, view: dict[str, Any], state: dict[str, Any]) -> float:
    if state["phase"] == "over":
        if state["winner"] is None:
            return 0.0
        return 2 * FALL if state["winner"] == ctx.seat else -2 * FALL
    if state["round"] != view["round"]:
        return ctx.final(state["wall"])
    return ctx.position(state["wall"], state["mana"][ctx.seat], state["mana"][ctx.opp])


def _decide(view: dict[str, Any], seat: int) -> dict[str, Any]:
    ctx = _Context(view, seat)
    pending = view["pending"]
    options = pending["options"]
    if pending["kind"] == "recycle":
        best = (-math.inf, 0)
        for change in range(options["min_change"], options["max_change"] + 1):
            value = _score(ctx, view, _after(view, seat, change))
            # On equal value, the smaller bid (it saves mana for later).
            if value > best[0] + 1e-9:
                best = (value, change)
        return {"type": "decide", "value": best[1]}
    stolen = list(options["spells"])
    if len(stolen) <= 6:
        subsets = [
            tuple(n for i, n in enumerate(stolen) if mask >> i & 1)
            for mask in range(1 << len(stolen))
        ]
        best_value, best_subset = -math.inf, ()
        for subset in subsets:
            value = _score(ctx, view, _after(view, seat, tuple(sorted(subset))))
            if value > best_value + 1e-9:
                best_value, best_subset = value, subset
        return {"type": "decide", "value": sorted(best_subset)}
    kept: list[int] = []  # too many to try every subset: add one at a time
    current = _score(ctx, view, _after(view, seat, ()))
    for number in stolen:
        trial = tuple(sorted([*kept, number]))
        value = _score(ctx, view, _after(view, seat, trial))
        if value > current + 1e-9:
            kept, current = list(trial), value
    return {"type": "decide", "value": kept}


def choose(view: dict[str, Any], seat: int, rng: SeededRandom) -> dict[str, Any]:
    """The bot's payload for whatever ``seat`` is waited for, from its view only."""
    phase = view["phase"]
    if phase == "ordering":
        return {"type": "order", "cards": list(ORDER)}
    if phase == "deciding":
        return _decide(view, seat)
    return _lock(view, seat, rng)


# --------------------------------------------------------------------------
# A random player and a match runner
# --------------------------------------------------------------------------


#: The 8 bits of each byte, lowest first: which of 8 cards a byte of a draw plays.
_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(byte >> i & 1 for i in range(8)) for byte in range(256)
)


def random_choice(view: dict[str, Any], seat: int, rng: SeededRandom) -> dict[str, Any]:
    """A uniformly random legal payload for ``seat`` (a benchmark opponent).

    A bid draws one 64-bit number and reads its bits (one draw instead of one per
    card): one per card of the hand (play it or not), one for whether a Clone copies,
    then 24 bits modulo the mana for the bid and 24 more for the Clone's target (a
    bias of at most 3 in a million)."""
    phase = view["phase"]
    if phase == "ordering":
        cards = list(SPELLS)
        rng.shuffle(cards)
        return {"type": "order", "cards": cards}
    if phase == "deciding":
        options = view["pending"]["options"]
        if view["pending"]["kind"] == "recycle":
            return {
                "type": "decide",
                "value": rng.randint(options["min_change"], options["max_change"]),
            }
        # rng.randint(0, 1) for each spell, as next_u64() & 1: the same draws (a span of
        # 2 rejects none), the cheaper call
        return {"type": "decide", "value": [n for n in options["spells"] if rng.next_u64() & 1]}
    bits = rng.next_u64()
    hands = view["hands"]
    hand = hands[seat] if hands is not None else _hand(view, seat)
    played = _BITS[bits & 0xFF]  # the first 8 cards' bits; the next byte's for the others
    spells = list(compress(hand, played if len(hand) <= 8 else played + _BITS[bits >> 8 & 0xFF]))
    clone = None
    if CLONE in spells and bits >> 15 & 1:
        targets = rules.clone_targets(view, seat)
        if targets:
            clone = targets[(bits >> 40) % len(targets)]
    bid = 1 + (bits >> 16 & 0xFFFFFF) % view["mana"][seat]
    return {"type": "lock", "bid": bid, "spells": spells, "clone": clone}


def play_match(
    engine: Any,
    seed: int,
    players: tuple[Policy, Policy] = (choose, random_choice),
    options: dict[str, Any] | None = None,
) -> int | None:
    """Play a whole game; ``players[0]`` sits at seat ``seed % 2``. The winner's seat
    (``None`` for a draw)."""
    first = seed % 2
    policy = players if first == 0 else players[::-1]  # by seat
    state = engine.new_state(["A", "B"], options or {}, seed)
    rngs = (SeededRandom(seed * 7919 + 17), SeededRandom(seed * 7919 + 18))
    waiting_for, view, parse, apply = (
        engine.waiting_for,
        engine.view,
        engine.parse_action,
        engine.apply,
    )
    for _step in range(10_000):
        waiting = waiting_for(state)
        if not waiting:
            break
        seat = waiting[0]
        payload = policy[seat](view(state, seat), seat, rngs[seat])
        state = apply(state, parse(payload), seat).state
    outcome = engine.outcome(state)
    if outcome is None or len(outcome.places[0]) != 1:
        return None
    return outcome.places[0][0]
