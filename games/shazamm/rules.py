"""Shazamm! (2 players): the duel of two mages on a bridge over a river of lava.

Each turn both mages secretly lock in a mana bid and some spell cards; when the second
one locks in, both are revealed and resolved (spells in ascending number), the stronger
attack pushes the wall of fire one slab toward the other mage, and both pay their bids.
When the wall reaches a mage, or a mage runs out of mana, the round ends: one slab
breaks at each end of the bridge and the mages step back to 3 slabs from the wall. A
mage standing on a broken slab (or off the bridge) falls into the lava and loses.

Pure Python: no Django, no I/O, no clock, no global randomness (the only randomness is
:class:`~games.engine.rng.SeededRandom`, kept in ``state["rng"]``). ``apply`` never
mutates its input and the state is JSON-serialisable. Decisions where the rulebook is
silent are listed in ``docs/rules/shazamm.md``.

Seats: seat 0 is the mage on the left (lower slab numbers), seat 1 on the right. Actions
never carry a seat: the platform passes the poster's seat to :meth:`ShazammEngine.apply`.

The shape of :meth:`ShazammEngine.view` for a seat ``s`` (``None``: a spectator):

- ``"hands"``: ``[own cards, opponent's count]`` in seat order, e.g. ``[[0, 3, 7], 5]``
  for seat 0 and ``[4, [0, 1, 12, 14]]`` for seat 1: one's own hand is a list of card
  numbers, the other hand is replaced by its number of cards (an ``int``). A spectator
  sees two counts. ``None`` in physical mode (the app does not know the hands).
- ``"decks"``: ``[count, count]`` for everybody (a deck's order is never shown).
- ``"locked"``: one's own entry as is (``{"bid", "spells", "clone"}`` or ``None``); the
  other entry is ``True`` (they have locked in) or ``None``.
- ``"orders"`` (chosen-order variant, before the duel): same rule as ``"locked"``.
- ``"pending"``: ``{"seat", "kind", "options"}``; ``"options"`` is ``None`` unless the
  viewer is the deciding seat.
- ``"rng"`` is removed.

Everything else (mana, wall, mages, broken slabs, discards, the previous turn's cards,
the last reveal and the resolution in progress) is public: it was revealed.

**Shared structure.** ``apply`` does not deep-copy the state: the new state is a shallow
copy of the old one in which only the parts the action changes are copied (see
:func:`_thaw`); everything else (names, options, the rng, the previous cards, the events
of the last reveal, ...) is the same object in both. ``view`` shares the same way, and
the events of a :class:`Result` are the same objects as the new state's
``last["steps"]``. A few constant parts are even shared by every game: the "locked"
events and a new turn's empty locks and stolen lists (see ``_LOCKED`` and ``_NO_LOCKS``).
So states, views and events are read-only values: the engine never changes one it was
given or returned, and callers must not either (the platform only reads them, stores
them as JSON and loads fresh copies).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from games.engine.errors import InvalidInput, RuleError
from games.engine.errors import gettext_noop as _
from games.engine.protocol import Engine, Event, Outcome, Result, State
from games.engine.rng import SeededRandom
from games.engine.validate import as_choice, as_int, as_list, require
from games.shazamm.spells import (
    BLAZE,
    BLUFF,
    BOOST,
    BOOST_ATTACK,
    CARDS,
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

__all__ = [
    "ENGINE",
    "HANDS_MODES",
    "MAX_MANA",
    "SLABS",
    "VARIANTS",
    "Action",
    "Decide",
    "Lock",
    "Order",
    "ShazammEngine",
    "clone_targets",
    "distances",
    "parse_action",
    "parse_options",
    "project_decision",
]

# --------------------------------------------------------------------------
# Rules data
# --------------------------------------------------------------------------

SLABS = 19
WALL_START = 9
MAGE_GAP = 3  # mages stand 3 slabs from the wall at the start of a round
MAX_MANA = 50
FIRST_HAND = 5
DRAW_PER_ROUND = 3
MAX_ROUNDS = 7  # 16 broken-slab tiles: the 7th round end always drops someone

VARIANTS: tuple[str, ...] = ("standard", "full_hand", "chosen_order")
HANDS_MODES: tuple[str, ...] = ("tracked", "physical")
ACTION_TYPES: tuple[str, ...] = ("lock", "decide", "order")
LAST_CARD = CARDS[-1]


# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Lock:
    """A secret bid and spells. ``seat`` is never read from a payload (see module doc)."""

    bid: int
    spells: tuple[int, ...] = ()
    clone: int | None = None
    seat: int | None = field(default=None, compare=False)

    def to_payload(self) -> dict[str, Any]:
        return {"type": "lock", "bid": self.bid, "spells": list(self.spells), "clone": self.clone}


@dataclass(frozen=True)
class Decide:
    """A pending decision: an ``int`` for Recycle, a tuple of spells for Larceny."""

    value: int | tuple[int, ...]
    seat: int | None = field(default=None, compare=False)

    def to_payload(self) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"type": "decide", "value": value}


@dataclass(frozen=True)
class Order:
    """Chosen-order variant: the order of one's 14 spells in the deck."""

    cards: tuple[int, ...]
    seat: int | None = field(default=None, compare=False)

    def to_payload(self) -> dict[str, Any]:
        return {"type": "order", "cards": list(self.cards)}


Action = Lock | Decide | Order

_new = object.__new__


def _quick_lock(bid: int, spells: tuple[int, ...], clone: int | None) -> Lock:
    """``Lock(bid, spells, clone)`` for the parser, at a third of the cost: a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``; this
    fills the new instance's ``__dict__`` directly (the same fields and values)."""
    lock = _new(Lock)
    fields = lock.__dict__
    fields["bid"] = bid
    fields["spells"] = spells
    fields["clone"] = clone
    fields["seat"] = None
    return lock


def _spell_list(value: Any, field_name: str, low: int) -> tuple[int, ...]:
    items = as_list(value, field_name, len(CARDS))
    numbers: list[int] = []
    for item in items:
        if type(item) is int and low <= item <= LAST_CARD:  # the usual case, quickly
            numbers.append(item)
            continue
        if isinstance(item, bool) or not isinstance(item, int | str):
            raise InvalidInput(_("“%(field)s” must list spell numbers."), field=field_name)
        number = as_int(item, field_name, -1000, 1000)
        if not low <= number <= LAST_CARD:
            raise InvalidInput(_("There is no spell number %(spell)s."), spell=number)
        numbers.append(number)
    return tuple(numbers)


_CARD_SET = frozenset(CARDS)

#: The quick path's spell lists seen so far (up to ``_MEMO_SPELLS``), as given (plain
#: ints only: looked up once their types are checked) -> as a lock holds them (sorted).
#: A list missing here is one not yet seen, or not a valid one: checked in full.
_SPELL_MEMO: dict[tuple[int, ...], tuple[int, ...]] = {}
_MEMO_SPELLS = 4096


def _parse_lock(payload: Mapping[str, Any]) -> Lock:
    bid = payload.get("bid")
    if type(bid) is not int or not 1 <= bid <= MAX_MANA:  # else the usual case, quickly
        bid = as_int(require(payload, "bid"), "bid", 1, MAX_MANA)
    spells = _spell_list(payload.get("spells"), "spells", BLUFF)
    if len(set(spells)) != len(spells):
        raise InvalidInput(_("Each spell can be played only once per turn."))
    raw_clone = payload.get("clone")
    clone: int | None = None
    if raw_clone is not None:
        clone = as_int(raw_clone, "clone", 1, SPELLS[-1])
        if clone == CLONE:
            raise InvalidInput(_("A Clone cannot copy another Clone."))
        if CLONE not in spells:
            raise InvalidInput(_("Only a Clone spell can copy a spell: play the Clone (2)."))
    return _quick_lock(bid, tuple(sorted(spells)), clone)


def _parse_decide(payload: Mapping[str, Any]) -> Decide:
    if "value" not in payload or payload["value"] is None:
        raise InvalidInput(_("The field “%(field)s” is missing."), field="value")
    raw = payload["value"]
    if isinstance(raw, list):
        return Decide(tuple(sorted(_spell_list(raw, "value", 1))))
    return Decide(as_int(raw, "value", -RECYCLE_RANGE, RECYCLE_RANGE))


def _parse_order(payload: Mapping[str, Any]) -> Order:
    cards = _spell_list(require(payload, "cards"), "cards", 1)
    if sorted(cards) != list(SPELLS):
        raise InvalidInput(_("The order must list each spell from 1 to 14 exactly once."))
    return Order(cards)


def parse_action(payload: Mapping[str, Any]) -> Action:
    if type(payload) is dict and payload.get("type") == "lock":
        # The usual lock, quickly: a bid in range, distinct card numbers given as plain
        # ints (so at most 15), no Clone copy. Anything else takes the full path.
        bid = payload.get("bid")
        raw = payload.get("spells")
        if (
            type(bid) is int
            and 1 <= bid <= MAX_MANA
            and type(raw) is list
            and payload.get("clone") is None
        ):
            for number in raw:
                if type(number) is not int:
                    break
            else:
                given = tuple(raw)
                spells = _SPELL_MEMO.get(given)
                if spells is not None:
                    return _quick_lock(bid, spells, None)
                distinct = set(raw)
                if len(distinct) == len(raw) and distinct <= _CARD_SET:
                    spells = tuple(sorted(raw))
                    if len(_SPELL_MEMO) < _MEMO_SPELLS:
                        _SPELL_MEMO[given] = spells
                    return _quick_lock(bid, spells, None)
    if type(payload) is not dict and not isinstance(payload, Mapping):
        raise InvalidInput(_("Unknown action."))
    kind = payload.get("type")
    if kind == "lock":
        return _parse_lock(payload)
    if kind not in ACTION_TYPES:  # raises the reason
        kind = as_choice(require(payload, "type"), "type", ACTION_TYPES)
    if kind == "decide":
        return _parse_decide(payload)
    return _parse_order(payload)


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    if seats != 2:
        raise InvalidInput(_("Shazamm! is a game for exactly 2 players."))
    if not raw:  # the defaults
        return {"variant": "standard", "hands": "tracked"}
    if not isinstance(raw, Mapping):
        raise InvalidInput(_("“%(field)s” must be an object."), field="options")
    variant = raw.get("variant") or "standard"
    hands = raw.get("hands") or "tracked"
    return {
        "variant": as_choice(variant, "variant", VARIANTS),
        "hands": as_choice(hands, "hands", HANDS_MODES),
    }


# --------------------------------------------------------------------------
# Helpers (also used by the bot, on views)
# --------------------------------------------------------------------------


def tracked(state: Mapping[str, Any]) -> bool:
    return state["options"]["hands"] == "tracked"


def clone_targets(state: Mapping[str, Any], seat: int) -> list[int]:
    """The spells ``seat``'s Clone may copy: what the opponent played (cancelled ones
    included) or took with Larceny on the previous turn, minus the bluff and Clone."""
    other = 1 - seat
    cards = set(state["previous"][other]) | set(state["stolen"][other])
    return sorted(cards - {BLUFF, CLONE})


def distances(state: Mapping[str, Any], seat: int) -> tuple[int, int]:
    """(slabs between the wall and ``seat``'s mage, the same for the opponent)."""
    wall = state["wall"]
    mages = state["mages"]
    return abs(wall - mages[seat]), abs(wall - mages[1 - seat])


def recycle_bounds(state: Mapping[str, Any], seat: int, bid: int) -> tuple[int, int]:
    """Lowest and highest corrected bid a Recycle allows from ``bid``."""
    low = max(1, bid - RECYCLE_RANGE)
    high = min(state["mana"][seat], bid + RECYCLE_RANGE)
    return low, max(low, high)


def project_decision(view: Mapping[str, Any], seat: int, value: int | tuple[int, ...]) -> State:
    """The rest of the turn played out on a copy of ``view`` (a state or a seat's view)
    if ``seat`` answers ``value`` to the pending decision; any later decision gets its
    default answer. For the bot: it needs no hand, deck or rng (no cards are drawn)."""
    state = dict(view)
    state["options"] = {**state["options"], "hands": "physical"}
    _thaw(state)
    _apply_decide(state, Decide(value), seat)
    while state["phase"] == "deciding":
        pending = state["pending"]
        default = Decide(0) if pending["kind"] == "recycle" else Decide(())
        _apply_decide(state, default, pending["seat"])
    return state


def _thaw(state: State, turn: bool = True) -> None:
    """Give ``state``, a shallow copy of a state (or a view), its own copies of the
    parts that resolving an action changes in place: the mana and, with ``turn``, the
    turn in progress (locks, orders and the last reveal), which a reveal replaces
    with new ones instead. The rest stays shared with the original,
    which is left as it was. Whatever a helper below changes in place must be copied
    here; anything else (the hands, decks and discard piles included, and the
    resolution, which a decision reads into new lists) may only be replaced by a new
    object."""
    state["mana"] = list(state["mana"])
    if not turn:
        return
    state["locked"] = list(state["locked"])
    if state["orders"] is not None:
        state["orders"] = list(state["orders"])
    last = state["last"]
    if last is not None:
        state["last"] = {**last, "steps": list(last["steps"])}


def _fallen(state: Mapping[str, Any], seat: int) -> bool:
    broken = state["broken"]
    return not broken <= state["mages"][seat] <= SLABS - 1 - broken


def _deal(state: State, count: int) -> tuple[int, int]:
    """Each mage draws ``count`` cards (fewer from a short deck): how many each drew."""
    deck0, deck1 = state["decks"]
    hand0, hand1 = state["hands"]
    new0, new1 = hand0 + deck0[:count], hand1 + deck1[:count]  # new lists, sorted in place
    new0.sort()
    new1.sort()
    state["decks"] = [deck0[count:], deck1[count:]]
    state["hands"] = [new0, new1]
    return len(new0) - len(hand0), len(new1) - len(hand1)


# --------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------


#: A spell waiting in the resolution queue, as the engine works on it: (spell number,
#: cloned, seat, stolen). The state stores each as a dict (see :func:`_stored`) only
#: when the turn stops for a decision.
_Entry = tuple[int, bool, int, bool]

# Ascending number; a card played from the hand before a cloned copy of the same
# number; then seat order (two clones of the same number).
_entry_key = itemgetter(0, 1, 2)


def _stored(entries: list[_Entry]) -> list[dict[str, Any]]:
    return [
        {"spell": spell, "seat": seat, "cloned": cloned, "stolen": stolen}
        for spell, cloned, seat, stolen in entries
    ]


def _loaded(entries: list[dict[str, Any]]) -> list[_Entry]:
    return [(e["spell"], e["cloned"], e["seat"], e["stolen"]) for e in entries]


def _void(entries: list[_Entry], events: list[Event]) -> None:
    for entry in entries:
        events.append({"type": "void", "seat": entry[2], "spell": entry[0]})


def _resolution(
    queue: list[_Entry],
    bids: list[int],
    attacks: list[int],
    loser_wins: bool,
    blaze: bool,
    resistance: list[bool],
    stolen: list[_Entry],
) -> dict[str, Any]:
    """The resolution in progress as the state stores it while a decision is pending."""
    return {
        "queue": _stored(queue),
        "bids": bids,
        "attacks": attacks,
        "loser_wins": loser_wins,
        "blaze": blaze,
        "resistance": resistance,
        "stolen": _stored(stolen),
    }


#: A new turn's locks and stolen spells, the same lists in every state from a reveal
#: (read-only: an action replaces them with new lists, see _apply_lock and _run).
_NO_LOCKS: list[Any] = [None, None]
_NOTHING_STOLEN: list[list[int]] = [[], []]


def _reveal(
    state: State,
    bid0: int,
    spells0: list[int],
    clone0: int | None,
    bid1: int,
    spells1: list[int],
    clone1: int | None,
) -> list[Event]:
    """Both locks revealed: the turn resolves. Each seat's bid, spells and Clone's
    target; the spell lists are shared from now on (read-only), and so are the lists
    of bids, spells and clones that the reveal event, the turn record and
    ``previous`` hold (the same values)."""
    bids = [bid0, bid1]
    spells = [spells0, spells1]
    clones = [clone0, clone1]
    state["locked"] = _NO_LOCKS
    events: list[Event] = [{"type": "reveal", "bids": bids, "spells": spells, "clones": clones}]

    # The cards leave the hands; every real spell goes to its owner's discard pile.
    real0, real1 = spells0, spells1
    if BLUFF in real0:
        real0 = list(real0)
        while BLUFF in real0:  # once, for a parsed lock (its spells are distinct)
            real0.remove(BLUFF)
    if BLUFF in real1:
        real1 = list(real1)
        while BLUFF in real1:
            real1.remove(BLUFF)
    if real0 or real1:
        if state["options"]["hands"] == "tracked":
            hands = list(state["hands"] or ())
            if real0:
                hand = hands[0] = list(hands[0])
                for number in real0:
                    hand.remove(number)
            if real1:
                hand = hands[1] = list(hands[1])
                for number in real1:
                    hand.remove(number)
            state["hands"] = hands
        discards = list(state["discards"])
        if real0:
            discards[0] = discards[0] + real0
        if real1:
            discards[1] = discards[1] + real1
        state["discards"] = discards
    state["previous"] = spells
    state["stolen"] = _NOTHING_STOLEN
    state["last"] = {
        "bids": bids,
        "spells": spells,
        "clones": clones,
        "final_bids": None,
        "attacks": None,
        "steps": events,  # what this reveal returns, once resolved
    }

    # Identical spells cancel out, untouchable by anything else.
    if real0 and real1:
        common = set(real0).intersection(real1)
        if common:
            for number in sorted(common):
                events.append({"type": "cancel", "spell": number})
            real0 = [n for n in real0 if n not in common]
            real1 = [n for n in real1 if n not in common]
    queue: list[_Entry] = []
    if real0 or real1:
        # Ascending number, then seat order (nothing is cloned or stolen yet)
        as_entries = [(n, False, 0, False) for n in real0]
        as_entries += [(n, False, 1, False) for n in real1]
        as_entries.sort()
        if state["mutism"]:
            _void(as_entries, events)
        elif as_entries[0][0] == MUTISM:  # the lowest number: the first caster
            state["mutism"] = True
            events.append({"type": "mutism", "seat": as_entries[0][2]})
            _void([e for e in as_entries if e[0] != MUTISM], events)
        elif CLONE not in real0 and CLONE not in real1:
            queue = as_entries
        else:
            cloned = False
            for entry in as_entries:
                if entry[0] != CLONE:
                    queue.append(entry)
                    continue
                seat = entry[2]
                target = clones[seat]
                if target is None:
                    _void([entry], events)
                    continue
                events.append({"type": "clone", "seat": seat, "spell": target})
                queue.append((target, True, seat, False))
                cloned = True
            if cloned:
                queue.sort(key=_entry_key)

    # The resolution starts: each seat's bid is its attack until a spell changes it.
    # ``bids`` is shared again (only Recycle changes a bid, on a copy: _apply_decide).
    if queue:
        _run(state, events, queue, bids, [bid0, bid1], False, False, [False, False])
    else:
        _finish_turn(state, events, False, bids, bids, queue, False, False, _NO_RESISTANCE)
    return events


#: Resistance played by neither seat, for a turn without spells (read only: _run, which
#: may change it, is given a list of its own).
_NO_RESISTANCE: list[bool] = [False, False]


def _run(
    state: State,
    events: list[Event],
    queue: list[_Entry],
    bids: list[int],
    attacks: list[int],
    loser_wins: bool,
    blaze: bool,
    resistance: list[bool],
) -> None:
    """Resolve the resolution in progress until a decision is needed, which stores it
    in ``state["resolution"]``, or the turn is over; the events go at the end of
    ``events``. The resolution is given in parts: the ``queue`` of spells (sorted), the
    bids (only read), the attacks so far and the effects so far; the queue, attacks
    and resistance lists are the caller's own, changed here."""
    while queue and queue[0][0] < SAFE_LOSS:
        entry = queue.pop(0)
        number, seat = entry[0], entry[2]
        if number == MUTISM:  # only a cloned Mutism gets here
            state["mutism"] = True
            events.append({"type": "mutism", "seat": seat})
            _void(queue, events)
            queue.clear()
        elif number == LARCENY:
            other = 1 - seat
            stolen = [e for e in queue if e[2] == other]
            queue = [e for e in queue if e[2] != other]
            numbers = [e[0] for e in stolen]
            stolen_by_seat = list(state["stolen"])  # replaced, not changed: see _reveal
            stolen_by_seat[seat] = stolen_by_seat[seat] + numbers
            state["stolen"] = stolen_by_seat
            events.append({"type": "steal", "seat": seat, "spells": numbers})
            if stolen:
                state["resolution"] = _resolution(
                    queue, bids, attacks, loser_wins, blaze, resistance, stolen
                )
                state["pending"] = {
                    "seat": seat,
                    "kind": "larceny",
                    "options": {"spells": numbers},
                }
                state["phase"] = "deciding"
                events.append({"type": "decision", "seat": seat, "kind": "larceny"})
                return
        elif number == END_OF_ROUND:
            events.append({"type": "end_round_spell", "seat": seat})
            _void(queue, events)
            _finish_turn(state, events, True, bids, attacks, [], False, False, resistance)
            return
        elif number == MIDDLE:
            state["wall"] = (state["mages"][0] + state["mages"][1]) // 2
            events.append({"type": "middle", "wall": state["wall"]})
        elif number == RECYCLE:
            bid = bids[seat]
            low, high = recycle_bounds(state, seat, bid)
            if low == high == bid:  # nothing to choose
                events.append({"type": "recycle", "seat": seat, "bid": bid})
                continue
            state["resolution"] = _resolution(
                queue, bids, attacks, loser_wins, blaze, resistance, []
            )
            state["pending"] = {
                "seat": seat,
                "kind": "recycle",
                "options": {
                    "bid": bid,
                    "low": low,
                    "high": high,
                    "min_change": low - bid,
                    "max_change": high - bid,
                    "bids": list(bids),
                },
            }
            state["phase"] = "deciding"
            events.append({"type": "decision", "seat": seat, "kind": "recycle"})
            return
        elif number == BOOST:
            attacks[seat] += BOOST_ATTACK
            events.append({"type": "boost", "seat": seat, "attack": attacks[seat]})
        elif number == DOUBLE_DOSE:
            attacks[seat] *= 2
            events.append({"type": "double", "seat": seat, "attack": attacks[seat]})
        elif number == LOSER_WINS:
            loser_wins = True
        elif number == BLAZE:
            blaze = True
        elif number == RESISTANCE:
            resistance[seat] = True
    _finish_turn(state, events, False, bids, attacks, queue, loser_wins, blaze, resistance)


def _move_wall(state: State, toward: int, steps: int) -> tuple[int, bool]:
    """Move the wall ``steps`` slabs toward ``toward``'s mage; (slabs moved, reached)."""
    wall = state["wall"]
    if toward == 0:
        target = wall - steps
        reached = target <= state["mages"][0]
    else:
        target = wall + steps
        reached = target >= state["mages"][1]
    if target < 0:
        target = 0
    elif target > SLABS - 1:
        target = SLABS - 1
    state["wall"] = target
    return (wall - target if toward == 0 else target - wall), reached


def _finish_turn(
    state: State,
    events: list[Event],
    ended: bool,
    bids: list[int],
    attacks: list[int],
    late: list[_Entry],
    loser_wins: bool,
    blaze: bool,
    resistance: list[bool],
) -> None:
    """Attacks, movement, payment and the late spells (``late``: the queue's spells
    from Safe loss on); then the next turn or round. ``bids`` and ``attacks`` are final."""
    last = state["last"]
    last["final_bids"] = bids
    last["attacks"] = attacks
    round_over = ended
    if not ended:
        attack0, attack1 = attacks
        winner = 0 if attack0 > attack1 else 1 if attack1 > attack0 else None
        events.append({"type": "attack", "attacks": attacks, "winner": winner})
        toward: int | None = None
        moved = 0
        if winner is not None:
            toward, steps = 1 - winner, 1
            if loser_wins:
                toward = winner
                events.append({"type": "loser_wins"})
            if blaze:
                steps = 2
                events.append({"type": "blaze"})
            if resistance[toward]:
                events.append({"type": "resistance", "seat": toward})
                toward = None
            else:
                moved, round_over = _move_wall(state, toward, steps)
        events.append({"type": "move", "wall": state["wall"], "steps": moved, "toward": toward})

        mana = state["mana"]
        bid0, bid1 = bids
        safe0 = safe1 = False
        if late and moved:
            for entry in late:
                if entry[0] == SAFE_LOSS and toward == entry[2]:
                    if toward == 0:
                        if not safe0:
                            events.append({"type": "safe_loss", "seat": 0})
                        safe0 = True
                    else:
                        if not safe1:
                            events.append({"type": "safe_loss", "seat": 1})
                        safe1 = True
        if not safe0:
            mana[0] = left = mana[0] - bid0
            events.append({"type": "pay", "seat": 0, "amount": bid0, "mana": left})
        if not safe1:
            mana[1] = left = mana[1] - bid1
            events.append({"type": "pay", "seat": 1, "amount": bid1, "mana": left})
        for entry in late:
            spell = entry[0]
            if spell == REINFORCEMENT:
                seat = entry[2]
                mana[seat] = min(MAX_MANA, mana[seat] + REINFORCE_MANA)
                events.append({"type": "reinforce", "seat": seat, "mana": mana[seat]})
            elif spell == SUCTION:
                seat = entry[2]
                mana[seat] = min(MAX_MANA, mana[seat] + bids[1 - seat])
                events.append({"type": "suction", "seat": seat, "mana": mana[seat]})

        if not round_over and (mana[0] == 0 or mana[1] == 0):
            if mana[0] == mana[1]:
                events.append({"type": "out_of_mana", "seat": None, "push": 0})
            else:
                loser = 0 if mana[0] == 0 else 1
                push = mana[1 - loser]
                distance = abs(state["wall"] - state["mages"][loser])
                events.append({"type": "out_of_mana", "seat": loser, "push": push})
                moved, _reached = _move_wall(state, loser, min(push, distance))
                events.append(
                    {"type": "move", "wall": state["wall"], "steps": moved, "toward": loser}
                )
            round_over = True

    # (the resolution and the pending decision are None by now: see _apply_decide)
    if round_over:
        _end_round(state, events)
    else:
        state["turn"] += 1
        state["phase"] = "bidding"


def _end_round(state: State, events: list[Event]) -> None:
    broken = state["broken"] = state["broken"] + 1
    wall = state["wall"]
    left, right = wall - MAGE_GAP, wall + MAGE_GAP
    state["mages"] = [left, right]
    events.append(
        {
            "type": "round_end",
            "round": state["round"],
            "wall": wall,
            "mages": [left, right],
            "broken": broken,
        }
    )
    # _fallen, inline: a mage off the slabs left whole
    fallen0 = not broken <= left <= SLABS - 1 - broken
    fallen1 = not broken <= right <= SLABS - 1 - broken
    if fallen0 or fallen1:
        state["phase"] = "over"
        state["winner"] = None if fallen0 and fallen1 else 1 if fallen0 else 0
        state["draw"] = fallen0 and fallen1
        state["mutism"] = False
        events.append({"type": "game_over", "winner": state["winner"]})
        return
    state["mana"] = [MAX_MANA, MAX_MANA]
    state["mutism"] = False
    state["round"] += 1
    state["turn"] = 1
    state["phase"] = "bidding"
    if state["options"]["hands"] == "tracked":
        counts = _deal(state, DRAW_PER_ROUND)
        for seat in (0, 1):
            if counts[seat]:
                events.append({"type": "drew", "seat": seat, "count": counts[seat]})


# --------------------------------------------------------------------------
# Applying actions
# --------------------------------------------------------------------------


def _wrong_phase(state: Mapping[str, Any]) -> RuleError:
    phase = state["phase"]
    if phase == "ordering":
        return RuleError(_("Both mages must first choose the order of their spells."))
    if phase == "deciding":
        player = state["names"][state["pending"]["seat"]]
        return RuleError(_("Wait: %(player)s has a decision to make."), player=player)
    if phase == "bidding":
        return RuleError(_("This is the time to bid, not to do that."))
    return RuleError(_("The game is over."))


#: The "locked" event of each seat: the same dict in every result (events are read-only).
_LOCKED: tuple[Event, Event] = ({"type": "locked", "seat": 0}, {"type": "locked", "seat": 1})


def _apply_lock(state: State, action: Lock, seat: int) -> list[Event]:
    if state["phase"] != "bidding":
        raise _wrong_phase(state)
    locked = state["locked"]
    if locked[seat] is not None:
        raise RuleError(_("You have already locked in your bid this turn."))
    bid, spells, clone = action.bid, action.spells, action.clone
    mana = state["mana"][seat]
    if not 1 <= bid <= mana:
        raise RuleError(
            _("You bid %(bid)s but you have only %(mana)s mana: bid from 1 to %(mana)s."),
            bid=bid,
            mana=mana,
        )
    if not spells:
        pass
    elif state["options"]["hands"] == "tracked":
        hand = state["hands"][seat]
        for number in spells:
            if number not in hand:
                raise RuleError(_("Spell %(spell)s is not in your hand."), spell=number)
    else:
        spent = state["discards"][seat]
        for number in spells:
            if number != BLUFF and number in spent:
                raise RuleError(
                    _("You have already used spell %(spell)s in this duel."), spell=number
                )
    if clone is not None and clone not in clone_targets(state, seat):
        raise RuleError(
            _("Clone can only copy a spell your opponent played on the previous turn."),
        )
    other = locked[1 - seat]
    if other is None:
        mine = {"bid": bid, "spells": list(spells), "clone": clone}
        state["locked"] = [mine, None] if seat == 0 else [None, mine]
        return [_LOCKED[seat]]
    state["mana"] = list(state["mana"])  # _thaw(turn=False): _reveal replaces the rest
    if seat == 0:
        revealed = _reveal(
            state, bid, list(spells), clone, other["bid"], other["spells"], other["clone"]
        )
    else:
        revealed = _reveal(
            state, other["bid"], other["spells"], other["clone"], bid, list(spells), clone
        )
    return [_LOCKED[seat], *revealed]


def _apply_decide(state: State, action: Decide, seat: int) -> list[Event]:
    if state["phase"] != "deciding":
        raise RuleError(_("There is no decision to make now."))
    pending = state["pending"]
    if pending["seat"] != seat:
        raise RuleError(
            _("This decision belongs to %(player)s."), player=state["names"][pending["seat"]]
        )
    res = state["resolution"]
    queue = _loaded(res["queue"])
    bids, attacks = list(res["bids"]), list(res["attacks"])
    events: list[Event] = []
    if pending["kind"] == "recycle":
        if not isinstance(action.value, int):
            raise RuleError(_("Recycle needs a change of your bid, from -5 to +5."))
        options = pending["options"]
        new_bid = options["bid"] + action.value
        if not options["low"] <= new_bid <= options["high"]:
            raise RuleError(
                _("Your corrected bid must be between %(low)s and %(high)s."),
                low=options["low"],
                high=options["high"],
            )
        bids[seat] = new_bid
        attacks[seat] += action.value
        events.append({"type": "recycle", "seat": seat, "bid": new_bid})
    else:
        if not isinstance(action.value, tuple):
            raise RuleError(_("Choose which of the stolen spells to apply."))
        wanted = list(action.value)  # (a few numbers: lists, cheaper than Counters)
        stolen = _loaded(res["stolen"])
        available = [e[0] for e in stolen]
        for number in wanted:
            if wanted.count(number) > available.count(number):
                raise RuleError(_("You did not steal spell %(spell)s."), spell=number)
        kept: list[_Entry] = []
        dropped: list[_Entry] = []
        for spell, cloned, _owner, _stolen in stolen:
            if spell in wanted:
                wanted.remove(spell)
                kept.append((spell, cloned, seat, True))
            else:
                dropped.append((spell, cloned, seat, _stolen))
        events.append({"type": "kept", "seat": seat, "spells": [e[0] for e in kept]})
        _void(dropped, events)
        queue.extend(kept)
        queue.sort(key=_entry_key)
    state["pending"] = state["resolution"] = None  # _run stores a new one if it stops again
    loser_wins, blaze, resistance = res["loser_wins"], res["blaze"], list(res["resistance"])
    _run(state, events, queue, bids, attacks, loser_wins, blaze, resistance)
    state["last"]["steps"].extend(events)
    return events


def _apply_order(state: State, action: Order, seat: int) -> list[Event]:
    if state["phase"] != "ordering":
        raise RuleError(_("The spells can only be ordered before the duel starts."))
    if state["orders"][seat] is not None:
        raise RuleError(_("You have already chosen the order of your spells."))
    state["orders"][seat] = list(action.cards)
    events: list[Event] = [{"type": "ordered", "seat": seat}]
    if all(order is not None for order in state["orders"]):
        state["decks"] = [list(state["orders"][0]), list(state["orders"][1])]
        counts = _deal(state, FIRST_HAND)
        for s in (0, 1):
            events.append({"type": "drew", "seat": s, "count": counts[s]})
        state["orders"] = None
        state["phase"] = "bidding"
    return events


def _hidden(entries: list[Any], seat: int | None) -> list[Any]:
    """Per seat secrets as ``seat`` sees them: its own as is, the other's as ``True``
    (given) or ``None`` (not yet)."""
    first, second = entries
    return [
        first if seat == 0 else (None if first is None else True),
        second if seat == 1 else (None if second is None else True),
    ]


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class ShazammEngine:
    slug = "shazamm"
    min_seats = 2
    max_seats = 2
    seat_bound = True  # bids and hands are secret

    def parse_options(self, raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        return parse_options(raw, seats)

    def new_state(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        opts = parse_options(options, len(seats))
        rng = SeededRandom(seed)
        hands: list[list[int]] | None = None
        decks: list[list[int]] | None = None
        phase = "bidding"
        orders: list[Any] | None = None
        if opts["hands"] == "tracked":
            if opts["variant"] == "full_hand":
                hands = [list(CARDS), list(CARDS)]
                decks = [[], []]
            elif opts["variant"] == "chosen_order":
                hands = [[BLUFF], [BLUFF]]
                decks = [[], []]
                orders = [None, None]
                phase = "ordering"
            else:
                hands, decks = [], []
                for _seat in (0, 1):
                    deck = list(SPELLS)
                    rng.shuffle(deck)
                    hands.append(sorted([BLUFF, *deck[:FIRST_HAND]]))
                    decks.append(deck[FIRST_HAND:])
        return {
            "game": self.slug,
            "names": [str(name) for name in seats],
            "options": opts,
            "slabs": SLABS,
            "broken": 0,
            "wall": WALL_START,
            "mages": [WALL_START - MAGE_GAP, WALL_START + MAGE_GAP],
            "round": 1,
            "turn": 1,
            "mana": [MAX_MANA, MAX_MANA],
            "hands": hands,
            "decks": decks,
            "discards": [[], []],
            "phase": phase,
            "orders": orders,
            "locked": [None, None],
            "mutism": False,
            "previous": [[], []],
            "stolen": [[], []],
            "pending": None,
            "resolution": None,
            "last": None,
            "winner": None,
            "draw": False,
            "rng": rng.to_state(),
        }

    parse_action = staticmethod(parse_action)

    def apply(self, state: State, action: Any, seat: int | None = None) -> Result:
        if state["phase"] == "over":
            raise RuleError(_("The game is over."))
        lock = isinstance(action, Lock)
        if not lock and not isinstance(action, (Decide, Order)):
            raise InvalidInput(_("Unknown action."))
        if seat is None:
            raise RuleError(_("Only a seated player can do this."))
        if seat not in (0, 1):
            raise RuleError(_("There is no seat %(seat)s in this game."), seat=seat)
        # A shallow copy: each helper copies what it changes (see _thaw).
        new = state.copy()
        if lock:
            events = _apply_lock(new, action, seat)
        elif isinstance(action, Decide):
            _thaw(new)
            events = _apply_decide(new, action, seat)
        else:
            _thaw(new)
            events = _apply_order(new, action, seat)
        # Result(new, events), built as _quick_lock builds a lock
        result = _new(Result)
        fields = result.__dict__
        fields["state"] = new
        fields["events"] = events
        return result

    def owner(self, state: State, action: Any) -> int | None:
        """Actions carry no seat in their payload: the platform passes it to ``apply``."""
        return getattr(action, "seat", None)

    def view(self, state: State, seat: int | None) -> State:
        # Shares every part it does not hide with ``state`` (see the module doc).
        view = state.copy()
        view.pop("rng", None)
        hands = state["hands"]
        decks = state["decks"]
        first, second = state["locked"]
        # _hidden, inline, for the hands and the locks (the locks as they are, shared,
        # when nothing in them is hidden: the other entry is None)
        if seat == 0:
            if hands is not None:
                view["hands"] = [hands[0], len(hands[1])]
            if second is not None:
                view["locked"] = [first, True]
        elif seat == 1:
            if hands is not None:
                view["hands"] = [len(hands[0]), hands[1]]
            if first is not None:
                view["locked"] = [True, second]
        else:
            if hands is not None:
                view["hands"] = [len(hands[0]), len(hands[1])]
            if first is not None or second is not None:
                view["locked"] = [None if first is None else True, None if second is None else True]
        if decks is not None:
            view["decks"] = [len(decks[0]), len(decks[1])]
        orders = state.get("orders")
        if orders is not None:
            view["orders"] = _hidden(orders, seat)
        pending = state["pending"]
        if pending is not None and pending["seat"] != seat:
            view["pending"] = {**pending, "options": None}
        return view

    def waiting_for(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "bidding" or phase == "ordering":
            first, second = state["locked"] if phase == "bidding" else state["orders"]
            if first is None:
                return [0, 1] if second is None else [0]
            return [1] if second is None else []
        if phase == "deciding":
            return [state["pending"]["seat"]]
        return []

    def default_action(self, state: State, seat: int) -> dict[str, Any] | None:
        if seat not in self.waiting_for(state):
            return None
        phase = state["phase"]
        if phase == "ordering":
            return Order(SPELLS).to_payload()
        if phase == "bidding":
            return Lock(bid=1).to_payload()
        if state["pending"]["kind"] == "recycle":
            return Decide(0).to_payload()
        return Decide(()).to_payload()

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        if state["winner"] is None:
            return Outcome(places=[[0, 1]])
        winner = state["winner"]
        return Outcome(places=[[winner], [1 - winner]])


ENGINE: Engine = ShazammEngine()
