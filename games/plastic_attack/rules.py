"""Plastic Attack: action figures, a poker deck, and battles decided by card + Power.

One engine, two ways to play (``options["hands"]``):

* ``"table"``: the table has the real figures and a real deck. Phones keep the
  armies (names, Power, the special actions on each band), say whose turn it is,
  take the two battle ranks each player laid face down, decide the battle with
  every pending modifier, and do the bookkeeping of the special action.
* ``"dealt"``: the app deals a 52-card deck without jokers: the Ace deal for the
  first player, hands of 3, drawing up to 4 at the start of a turn, reshuffling
  the discards. Each phone sees its own hand and the others' hand sizes only, and
  both battle cards are chosen secretly and revealed together.

Pure Python: no Django, no I/O, no clock, no global randomness (shuffles and the
d10 come from a :class:`~games.engine.rng.SeededRandom` kept in ``state["rng"]``,
which ``view`` never shows). ``apply`` never mutates its input. Every point where
the rulebook is silent or garbled, and what this engine does there, is in
``docs/rules/plastic_attack.md`` (decisions A-PA1 … A-PA24).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.actions import Payload
from games.engine.errors import InvalidInput, RuleError
from games.engine.errors import gettext_noop as _
from games.engine.protocol import Engine, Event, Outcome, Result, State
from games.engine.rng import SeededRandom
from games.engine.state import copy_state
from games.engine.validate import as_bool, as_choice, as_int, as_list, as_text, require
from games.plastic_attack.cards import (
    BANDS,
    DECK,
    RANKS,
    RECOVERY,
    SPECIALS,
    band_of,
    value_of,
)

MIN_SEATS, MAX_SEATS = 2, 6
MIN_ARMY, MAX_ARMY = 2, 5
BUDGET = 15  # Power points per player (A-PA1)
MIN_POWER, MAX_POWER = 1, 10
HAND_SIZE, TURN_HAND = 3, 4  # dealt at the start; drawn up to on a turn
QUICK_DRAW = 4  # Quick Action's extra turn starts with four new cards (A-PA10)
MASTER_PLAN_HAND = 3
MODIFIER = 5  # Deception, Special Weapons, Intimidation
MAX_NAME = 40

HANDS = ("table", "dealt")
LUCK = ("current", "start")  # Luck against the Power now, or the starting Power (A-PA9)
RECOVERY_POWER = ("roll", "start", "one")  # a recovered figure's new Power (A-PA11)

#: Special actions that need one of your own characters in the army as target.
_OWN_TARGET = {"remedy", "luck", "shield"}
PHASES = ("setup", "first", "declare", "defend", "cards", "special", "over")
#: Events that say what a battle did (kept with it in ``last_battle["effects"]``).
EFFECTS = frozenset(
    {
        "power_lost",
        "shield_used",
        "captured",
        "won_back",
        "out",
        "winner",
        "special",
        "special_skipped",
        "special_impossible",
    }
)


# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Army:
    """A seat's army: 2-5 characters, each with a name, its Power (15 points in all,
    1-10 each) and the special actions on the 7-8, 9-10 and J-Q bands."""

    characters: tuple[tuple[str, int, tuple[str, str, str]], ...]

    def to_payload(self) -> dict[str, Any]:
        return {
            "type": "army",
            "characters": [
                {"name": name, "power": power, "actions": list(actions)}
                for name, power, actions in self.characters
            ],
        }


@dataclass(frozen=True)
class First(Payload):
    """The table's own deck: who drew the Ace."""

    action_type = "first"

    seat: int


@dataclass(frozen=True)
class Declare(Payload):
    action_type = "declare"

    character: int
    defender: int


@dataclass(frozen=True)
class Defend(Payload):
    action_type = "defend"

    character: int


@dataclass(frozen=True)
class Card(Payload):
    """The battle card a player lays face down: a card of the hand ("QH"), or the
    rank of a card of the table's own deck ("Q")."""

    action_type = "card"

    card: str


@dataclass(frozen=True)
class Special(Payload):
    """The attacker's special action after a win (or ``use=False``: none)."""

    action_type = "special"

    use: bool
    target: int | None = None
    players: tuple[int, ...] = field(default_factory=tuple)


Action = Army | First | Declare | Defend | Card | Special
ACTION_TYPES = ("army", "first", "declare", "defend", "card", "special")


def parse_action(payload: Mapping[str, Any]) -> Action:
    if not isinstance(payload, Mapping):
        raise InvalidInput(_("The action must be an object."))
    kind = as_choice(require(payload, "type"), "type", ACTION_TYPES)
    if kind == "army":
        rows = as_list(payload.get("characters"), "characters", MAX_ARMY)
        characters: list[tuple[str, int, tuple[str, str, str]]] = []
        for index, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise InvalidInput(_("“%(field)s” must be an object."), field="characters")
            if not row.get("name") and row.get("power") in (None, "") and not row.get("actions"):
                continue  # an empty row of the army form
            number = len(characters) + 1  # as the player counts the figures
            if not isinstance(row.get("name"), str) or not row["name"].strip():
                raise InvalidInput(_("Figure %(n)s needs a name."), n=number)
            if row.get("power") in (None, ""):
                raise InvalidInput(
                    _("Figure %(n)s needs a Power from %(low)s to %(high)s."),
                    n=number,
                    low=MIN_POWER,
                    high=MAX_POWER,
                )
            actions = as_list(row.get("actions"), f"characters.{index}.actions", 3)
            if len(actions) != 3:
                raise InvalidInput(
                    _("Figure %(n)s needs a special action on each of 7-8, 9-10 and J-Q."),
                    n=number,
                )
            characters.append(
                (
                    as_text(row.get("name"), f"characters.{index}.name", MAX_NAME),
                    as_int(row["power"], f"characters.{index}.power", MIN_POWER, MAX_POWER),
                    (
                        as_choice(actions[0], f"characters.{index}.actions", SPECIALS),
                        as_choice(actions[1], f"characters.{index}.actions", SPECIALS),
                        as_choice(actions[2], f"characters.{index}.actions", SPECIALS),
                    ),
                )
            )
        if not MIN_ARMY <= len(characters) <= MAX_ARMY:
            raise InvalidInput(
                _("An army has %(low)s to %(high)s characters."), low=MIN_ARMY, high=MAX_ARMY
            )
        return Army(tuple(characters))
    if kind == "first":
        return First(as_int(require(payload, "seat"), "seat", 0, MAX_SEATS - 1))
    if kind == "declare":
        return Declare(
            as_int(require(payload, "character"), "character", 0, MAX_SEATS * MAX_ARMY - 1),
            as_int(require(payload, "defender"), "defender", 0, MAX_SEATS - 1),
        )
    if kind == "defend":
        return Defend(
            as_int(require(payload, "character"), "character", 0, MAX_SEATS * MAX_ARMY - 1)
        )
    if kind == "card":
        card = require(payload, "card")
        if not isinstance(card, str) or (card not in DECK and card not in RANKS):
            raise InvalidInput(_("“%(field)s” is not a valid choice."), field="card")
        return Card(card)
    use = as_bool(payload.get("use", True), "use")
    target = payload.get("target")
    players = as_list(payload.get("players"), "players", MAX_SEATS)
    return Special(
        use,
        None if target in (None, "") else as_int(target, "target", 0, MAX_SEATS * MAX_ARMY - 1),
        tuple(sorted({as_int(p, "players", 0, MAX_SEATS - 1) for p in players})),
    )


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidInput(
            _("Plastic Attack is for %(low)s to %(high)s players."), low=MIN_SEATS, high=MAX_SEATS
        )
    raw = raw or {}
    if not isinstance(raw, Mapping):
        raise InvalidInput(_("“%(field)s” must be an object."), field="options")
    return {
        "hands": as_choice(raw.get("hands") or "table", "hands", HANDS),
        "fast_capture": as_bool(raw.get("fast_capture", False), "fast_capture"),
        "luck": as_choice(raw.get("luck") or "current", "luck", LUCK),
        "recovery_power": as_choice(
            raw.get("recovery_power") or "roll", "recovery_power", RECOVERY_POWER
        ),
    }


# --------------------------------------------------------------------------
# Helpers (also used by the bot and the presenter, on views)
# --------------------------------------------------------------------------


def dealt(state: Mapping[str, Any]) -> bool:
    return state["options"]["hands"] == "dealt"


def army_of(state: Mapping[str, Any], seat: int) -> list[int]:
    """The characters fighting in ``seat``'s army, by id."""
    return [c["id"] for c in state["characters"] if c["army"] == seat]


def captives_of(state: Mapping[str, Any], seat: int) -> list[int]:
    """Figures ``seat`` has captured and holds set aside."""
    return [c["id"] for c in state["characters"] if c["captured_by"] == seat]


def lost_by(state: Mapping[str, Any], seat: int) -> list[int]:
    """``seat``'s own figures another player holds captured (Recovery's targets)."""
    return [
        c["id"]
        for c in state["characters"]
        if c["owner"] == seat and c["captured_by"] is not None and c["captured_by"] != seat
    ]


def alive(state: Mapping[str, Any]) -> list[int]:
    return [seat for seat, p in enumerate(state["players"]) if not p["out"]]


def special_targets(state: Mapping[str, Any], action: str) -> list[int] | None:
    """The characters the pending ``action`` may target (None: it takes none).
    An empty list means it cannot be used now."""
    battle = state["battle"]
    attacker, defender = battle["attacker"], battle["defender"]
    if action in _OWN_TARGET:
        return army_of(state, attacker)
    if action == "mind-control":
        return captives_of(state, attacker)
    if action == RECOVERY:
        return lost_by(state, attacker)
    if action == "sniper":
        return [c for c in army_of(state, defender) if c != battle["defender_character"]]
    if action == "vulnerability":
        fought = state["characters"][battle["defender_character"]]
        if fought["army"] == defender:
            return [fought["id"]]
        return army_of(state, defender)  # captured: another figure of that player
    return None


def waiting_for(state: Mapping[str, Any]) -> list[int]:
    """Seats whose move the game waits for."""
    phase = state["phase"]
    if phase == "setup":
        return [s for s, p in enumerate(state["players"]) if not p["ready"]]
    if phase in ("declare", "special"):
        return [state["current"]]
    battle = state["battle"]
    if phase == "defend":
        return [battle["defender"]]
    if phase == "cards":
        pairs = ((battle["attacker"], battle["cards"][0]), (battle["defender"], battle["cards"][1]))
        return [seat for seat, card in pairs if card is None]
    return []


def legal_actions(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every payload ``seat`` may post now (for bots, tests and the random player).
    Army set-up offers a few armies, not all of them."""
    phase = state["phase"]
    if phase == "setup":
        if state["players"][seat]["ready"]:
            return []
        return [
            {
                "type": "army",
                "characters": [
                    {"name": f"Figure {n + 1}", "power": power, "actions": list(actions)}
                    for n, (power, actions) in enumerate(army)
                ],
            }
            for army in _SAMPLE_ARMIES
        ]
    if phase == "first":
        return [{"type": "first", "seat": s} for s in alive(state)]
    if phase == "over" or seat not in waiting_for(state):
        return []
    battle = state["battle"]
    if phase == "declare":
        return [
            {"type": "declare", "character": c, "defender": d}
            for c in army_of(state, seat)
            for d in alive(state)
            if d != seat
        ]
    if phase == "defend":
        return [{"type": "defend", "character": c} for c in army_of(state, seat)]
    if phase == "cards":
        if dealt(state):
            return [{"type": "card", "card": card} for card in sorted(set(state["hands"][seat]))]
        return [{"type": "card", "card": rank} for rank in RANKS]
    action = battle["special"]
    out: list[dict[str, Any]] = [{"type": "special", "use": False}]
    targets = special_targets(state, action)
    if targets is None and action == "master-plan":
        others = [s for s in alive(state)]
        out.extend({"type": "special", "players": [s]} for s in others)
        out.append({"type": "special", "players": others})
    elif targets is None:
        out.append({"type": "special", "use": True})
    else:
        out.extend({"type": "special", "target": t} for t in targets)
    return out


_SAMPLE_ARMIES = (
    ((8, ("special-weapons", "sniper", "luck")), (7, ("remedy", "deception", "shield"))),
    (
        (5, ("knock-out", "vulnerability", "mind-control")),
        (4, ("intimidation", "master-plan", "quick-action")),
        (3, ("recovery", "remedy", "sniper")),
        (3, ("deception", "luck", "shield")),
    ),
)


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class PlasticAttackEngine:
    slug = "plastic-attack"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    #: Each seat plays for itself: armies are built on their own phones, the
    #: battle cards are secret until both are in, and hands are dealt.
    seat_bound = True

    def parse_options(self, raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        return parse_options(raw, seats)

    def new_state(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        opts = parse_options(options, len(seats))
        return {
            "options": opts,
            "phase": "setup",
            "players": [
                {
                    "name": name,
                    "out": False,
                    "ready": False,
                    "deception": 0,
                    "weapons": 0,
                    "intimidated": 0,
                    "knocked_out": 0,
                    "place": None,
                }
                for name in seats
            ],
            "characters": [],
            "current": 0,
            "direction": 1,
            "turn": 0,
            "extra_turns": 0,
            "reversals": 0,
            "battle": None,
            "last_battle": None,
            "skipped": [],  # players whose turn was just skipped (Knock Out)
            "die": None,
            "winner": None,
            "deck": [],
            "discard": [],
            "table": [],  # battle cards laid and not yet discarded (or kept as a Shield)
            "hands": [[] for _ in seats] if opts["hands"] == "dealt" else None,
            "rng": SeededRandom(seed).to_state(),
        }

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        return parse_action(payload)

    def owner(self, state: State, action: Any) -> int | None:
        battle = state.get("battle") or {}
        if isinstance(action, Declare | Special):
            return state["current"]
        if isinstance(action, Defend):
            return battle.get("defender")
        return None  # armies and cards: whoever posts them (checked in apply)

    def waiting_for(self, state: State) -> list[int]:
        return waiting_for(state)

    def default_action(self, state: State, seat: int) -> dict[str, Any] | None:
        """What a seat whose time ran out plays: the weakest choice that keeps the
        game moving (documented in docs/rules/plastic_attack.md)."""
        phase = state["phase"]
        if seat not in self.waiting_for(state):
            return None
        chars = state["characters"]
        if phase == "declare":
            strongest = max(army_of(state, seat), key=lambda c: chars[c]["power"])
            target = _next_alive(state, seat)
            return {"type": "declare", "character": strongest, "defender": target}
        if phase == "defend":
            strongest = max(army_of(state, seat), key=lambda c: chars[c]["power"])
            return {"type": "defend", "character": strongest}
        if phase == "cards" and dealt(state):
            hand = state["hands"][seat]
            return {"type": "card", "card": min(hand, key=value_of)} if hand else None
        if phase == "special":
            return {"type": "special", "use": False}
        return None

    def view(self, state: State, seat: int | None) -> State:
        shown = dict(state)
        shown["rng"] = None  # the shuffles to come are nobody's business
        battle = state["battle"]
        if battle is not None and None in battle["cards"]:
            # Face down until both are in: a player sees only their own.
            own = {battle["attacker"]: 0, battle["defender"]: 1}.get(seat)
            shown["battle"] = dict(battle)
            shown["battle"]["cards"] = [
                card if (card is None or index == own) else True
                for index, card in enumerate(battle["cards"])
            ]
        if dealt(state):
            shown["deck"] = len(state["deck"])
            shown["table"] = len(state["table"])
            shown["hand_sizes"] = [len(hand) for hand in state["hands"]]
            shown["hands"] = [
                list(hand) if index == seat else None for index, hand in enumerate(state["hands"])
            ]
        return shown

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        ranked: dict[int, list[int]] = {}
        for seat, player in enumerate(state["players"]):
            ranked.setdefault(player["place"] or 1, []).append(seat)
        return Outcome([ranked[place] for place in sorted(ranked)])

    # ------------------------------------------------------------ apply

    def apply(self, state: State, action: Any, seat: int | None = None) -> Result:
        if state["phase"] == "over":
            raise RuleError(_("The game is over."))
        s = copy_state(state)
        events: list[Event] = []
        if isinstance(action, Army):
            self._army(s, action, seat, events)
        elif isinstance(action, First):
            self._first(s, action, seat, events)
        elif isinstance(action, Declare):
            self._declare(s, action, seat, events)
        elif isinstance(action, Defend):
            self._defend(s, action, seat, events)
        elif isinstance(action, Card):
            self._card(s, action, seat, events)
        else:
            self._special(s, action, seat, events)
        if isinstance(action, Card | Special) and s["last_battle"] is not None:
            # What the battle did, for the table to read where the battle is shown.
            s["last_battle"]["effects"].extend(e for e in events if e["kind"] in EFFECTS)
        return Result(s, events)

    # -- set-up

    def _army(self, s: State, action: Army, seat: int | None, events: list[Event]) -> None:
        if s["phase"] != "setup":
            raise RuleError(_("The armies are already on the table."))
        if seat is None:
            raise RuleError(_("Take a seat to build your army."))
        if s["players"][seat]["ready"]:
            raise RuleError(_("Your army is ready; it cannot change now."))
        total = sum(power for _name, power, _actions in action.characters)
        if total > BUDGET:
            raise RuleError(
                _("An army has %(budget)s Power points in all; this one uses %(total)s."),
                budget=BUDGET,
                total=total,
            )
        seen: set[str] = set()
        for name, _power, _actions in action.characters:
            if name.casefold() in seen:
                raise RuleError(
                    _("Two figures are called “%(name)s”: each figure is a different character."),
                    name=name,
                )
            seen.add(name.casefold())
        for name, power, actions in action.characters:
            s["characters"].append(
                {
                    "id": len(s["characters"]),
                    "name": name,
                    "owner": seat,
                    "army": seat,
                    "captured_by": None,
                    "power": power,
                    "start_power": power,
                    "actions": dict(zip(BANDS, (*actions, RECOVERY), strict=True)),
                    "vulnerable": False,
                    "shields": [],
                    "controlled": False,
                }
            )
        s["players"][seat]["ready"] = True
        events.append(
            {
                "kind": "army",
                "seat": seat,
                "characters": [[n, p] for n, p, _a in action.characters],
                "unused": BUDGET - total,
            }
        )
        if all(p["ready"] for p in s["players"]):
            if dealt(s):
                self._deal(s, events)
            else:
                s["phase"] = "first"

    def _first(self, s: State, action: First, seat: int | None, events: list[Event]) -> None:
        if s["phase"] != "first":
            raise RuleError(_("The first player is already known."))
        if action.seat >= len(s["players"]):
            raise InvalidInput(_("There is no seat %(seat)s."), seat=action.seat)
        events.append({"kind": "first", "seat": action.seat})
        self._start_turn(s, action.seat, events)

    def _deal(self, s: State, events: list[Event]) -> None:
        """The app's own deck: one open card at a time round the table until an Ace
        (from the first seat, A-PA4), then a fresh shuffle and three cards each."""
        rng = SeededRandom.from_state(s["rng"])
        deck = list(DECK)
        rng.shuffle(deck)
        shown: list[list[Any]] = []
        first = None
        seat = 0
        for card in deck:
            shown.append([seat, card])
            if card.startswith("A"):
                first = seat
                break
            seat = (seat + 1) % len(s["players"])
        deck = list(DECK)
        rng.shuffle(deck)
        for _round in range(HAND_SIZE):
            for hand in s["hands"]:
                hand.append(deck.pop())
        s["deck"], s["discard"] = deck, []
        s["rng"] = rng.to_state()
        assert first is not None  # four Aces in 52 cards
        events.append({"kind": "ace_deal", "cards": shown, "seat": first})
        self._start_turn(s, first, events)

    # -- turns

    def _start_turn(self, s: State, seat: int, events: list[Event], *, extra: bool = False) -> None:
        """``seat`` plays, unless Knocked Out (the skip is used up; next player)."""
        s["skipped"] = []
        for _guard in range(len(s["players"]) * 8):
            player = s["players"][seat]
            if player["knocked_out"] and not extra:
                player["knocked_out"] -= 1
                s["skipped"].append(seat)
                events.append({"kind": "skipped", "seat": seat})
                seat = _next_alive(s, seat)
                continue
            break
        self._clear_table(s)
        s["current"] = seat
        s["turn"] += 1
        s["phase"] = "declare"
        s["battle"] = None
        if dealt(s):
            hand = s["hands"][seat]
            want = QUICK_DRAW if extra else max(0, TURN_HAND - len(hand))
            drawn = self._draw(s, seat, want)
            events.append({"kind": "turn", "seat": seat, "drew": drawn, "extra": extra})
        else:
            events.append({"kind": "turn", "seat": seat, "extra": extra})

    def _draw(self, s: State, seat: int, count: int) -> int:
        """Draw ``count`` cards (reshuffling the discards when the deck runs out;
        fewer if both are empty, A-PA22). Returns how many were drawn."""
        drawn = 0
        for _n in range(count):
            if not s["deck"]:
                if not s["discard"]:
                    break
                rng = SeededRandom.from_state(s["rng"])
                s["deck"], s["discard"] = s["discard"], []
                rng.shuffle(s["deck"])
                s["rng"] = rng.to_state()
            s["hands"][seat].append(s["deck"].pop())
            drawn += 1
        return drawn

    def _end_turn(self, s: State, events: list[Event]) -> None:
        seat = s["current"]
        if s["phase"] == "over":
            return
        if s["extra_turns"] and not s["players"][seat]["out"]:
            s["extra_turns"] -= 1
            s["reversals"] += 1
            self._start_turn(s, seat, events, extra=True)
            return
        if s["reversals"]:
            if s["reversals"] % 2:
                s["direction"] = -s["direction"]
                events.append({"kind": "reversed", "direction": s["direction"]})
            s["reversals"] = 0
        self._start_turn(s, _next_alive(s, seat), events)

    # -- the battle

    def _declare(self, s: State, action: Declare, seat: int | None, events: list[Event]) -> None:
        self._require(s, "declare", seat, s["current"])
        if action.character not in army_of(s, s["current"]):
            raise RuleError(_("Attack with a character of your own army."))
        if action.defender == s["current"] or action.defender not in alive(s):
            raise RuleError(_("Attack another player who is still in the game."))
        if dealt(s) and not s["hands"][s["current"]]:
            # No card to fight with, and none to draw (A-PA22): the turn passes.
            events.append({"kind": "no_cards", "seat": s["current"]})
            self._end_turn(s, events)
            return
        s["battle"] = {
            "attacker": s["current"],
            "attacker_character": action.character,
            "defender": action.defender,
            "defender_character": None,
            "cards": [None, None],
            "special": None,
            "band": None,
        }
        s["phase"] = "defend"
        events.append(
            {
                "kind": "declare",
                "seat": s["current"],
                "character": action.character,
                "defender": action.defender,
            }
        )

    def _defend(self, s: State, action: Defend, seat: int | None, events: list[Event]) -> None:
        battle = s["battle"]
        self._require(s, "defend", seat, battle and battle["defender"])
        if action.character not in army_of(s, battle["defender"]):
            raise RuleError(_("Defend with a character of your own army."))
        battle["defender_character"] = action.character
        s["phase"] = "cards"
        events.append({"kind": "defend", "seat": seat, "character": action.character})
        if dealt(s) and not s["hands"][battle["defender"]]:
            # An empty hand defends with a card drawn now (A-PA6).
            if self._draw(s, battle["defender"], 1):
                events.append({"kind": "drew_to_defend", "seat": battle["defender"]})

    def _card(self, s: State, action: Card, seat: int | None, events: list[Event]) -> None:
        battle = s["battle"]
        if s["phase"] != "cards" or battle is None:
            raise RuleError(_("No battle is waiting for cards now."))
        if seat not in (battle["attacker"], battle["defender"]):
            raise RuleError(_("Only the two players in the battle lay a card."))
        index = 0 if seat == battle["attacker"] else 1
        if battle["cards"][index] is not None:
            raise RuleError(_("Your card is already down."))
        if dealt(s):
            if action.card not in s["hands"][seat]:
                raise RuleError(_("That card is not in your hand."))
            s["hands"][seat].remove(action.card)
            s["table"].append(action.card)
        elif action.card not in RANKS:
            raise InvalidInput(_("“%(field)s” is not a valid choice."), field="card")
        battle["cards"][index] = action.card
        if None in battle["cards"]:
            events.append({"kind": "card_down", "seat": seat})
        else:
            self._reveal(s, events)  # the battle's own event says what was laid

    def _reveal(self, s: State, events: list[Event]) -> None:
        battle = s["battle"]
        chars = s["characters"]
        attacker, defender = s["players"][battle["attacker"]], s["players"][battle["defender"]]
        a_char, d_char = chars[battle["attacker_character"]], chars[battle["defender_character"]]
        a_card, d_card = battle["cards"]
        a_bonus = MODIFIER * attacker["weapons"]
        d_bonus = MODIFIER * (defender["deception"] - defender["intimidated"])
        a_power = 0 if a_char["vulnerable"] else a_char["power"]
        d_power = 0 if d_char["vulnerable"] else d_char["power"]
        a_total = max(0, value_of(a_card) + a_power + a_bonus)  # never below 0 (A-PA24)
        d_total = max(0, value_of(d_card) + d_power + d_bonus)
        # Pending modifiers and Vulnerability are used up by this battle (A-PA8, A-PA19).
        attacker["weapons"] = 0
        defender["deception"] = defender["intimidated"] = 0
        a_char["vulnerable"] = d_char["vulnerable"] = False
        won = a_total >= d_total
        result = {
            "kind": "battle",
            "attacker": battle["attacker"],
            "defender": battle["defender"],
            "attacker_character": a_char["id"],
            "defender_character": d_char["id"],
            "cards": [a_card, d_card],
            "totals": [a_total, d_total],
            "bonuses": [a_bonus, d_bonus],
            "vulnerable": [a_power == 0 and a_char["power"] > 0, d_power == 0],
            "won": won,
        }
        events.append(result)
        s["last_battle"] = {**result, "effects": []}
        if dealt(s):
            s["table"].remove(d_card)
            s["discard"].append(d_card)
        if not won:
            self._end_turn(s, events)
            return
        band = band_of(a_card)
        special = a_char["actions"][band] if band else None
        battle["band"], battle["special"] = band, special
        if special == "sniper" and special_targets(s, "sniper"):
            s["phase"] = "special"  # Sniper replaces the loss: chosen first (A-PA13)
            return
        self._lose(s, d_char["id"], events, battled=True)
        if s["phase"] == "over":
            self._clear_table(s)
            return
        if special is not None and special_targets(s, special) != []:
            s["phase"] = "special"
            return
        if special is not None:
            events.append({"kind": "special_impossible", "special": special})
        self._end_turn(s, events)

    @staticmethod
    def _clear_table(s: State) -> None:
        """The battle's cards go face up on the discard pile (A Shield's stays out)."""
        s["discard"].extend(s["table"])
        s["table"] = []

    def _lose(self, s: State, char_id: int, events: list[Event], *, battled: bool) -> None:
        """A defending character loses the battle (or is the Sniper's target)."""
        char = s["characters"][char_id]
        attacker = s["battle"]["attacker"]
        if battled and char["shields"]:
            shield = char["shields"].pop()
            if dealt(s):
                s["discard"].append(shield)
            events.append({"kind": "shield_used", "character": char_id, "card": shield})
            return
        char["power"] -= 1
        captured = char["power"] < MIN_POWER or (battled and s["options"]["fast_capture"])
        if not captured:
            events.append({"kind": "power_lost", "character": char_id, "power": char["power"]})
            return
        self._capture(s, char_id, attacker, events)

    def _capture(self, s: State, char_id: int, by: int, events: list[Event]) -> None:
        char = s["characters"][char_id]
        loser = char["army"]
        if dealt(s):
            s["discard"].extend(char["shields"])
        char["shields"] = []
        char["vulnerable"] = False
        if char["owner"] == by:
            # A figure won back from the player who turned it (Mind Control): it
            # rejoins its own army at Power 1 (A-PA16).
            char.update(army=by, captured_by=None, power=MIN_POWER, controlled=False)
            events.append({"kind": "won_back", "character": char_id, "seat": by})
        else:
            char.update(army=None, captured_by=by, power=0, controlled=False)
            events.append({"kind": "captured", "character": char_id, "by": by})
        if loser is not None and not army_of(s, loser):
            self._out(s, loser, events)

    def _out(self, s: State, seat: int, events: list[Event]) -> None:
        player = s["players"][seat]
        player["out"] = True
        player["place"] = len(alive(s)) + 1
        events.append({"kind": "out", "seat": seat})
        if dealt(s):
            s["discard"].extend(s["hands"][seat])
            s["hands"][seat] = []
        left = alive(s)
        if len(left) == 1:
            s["players"][left[0]]["place"] = 1
            s["winner"] = left[0]
            s["phase"] = "over"
            events.append({"kind": "winner", "seat": left[0]})

    # -- special actions

    def _special(self, s: State, action: Special, seat: int | None, events: list[Event]) -> None:
        self._require(s, "special", seat, s["current"])
        battle = s["battle"]
        special = battle["special"]
        attacker, defender = battle["attacker"], battle["defender"]
        if not action.use:
            events.append({"kind": "special_skipped", "special": special})
            if special == "sniper":
                self._lose(s, battle["defender_character"], events, battled=True)
            return self._after_special(s, events)
        targets = special_targets(s, special)
        if targets is not None:
            if action.target is None or action.target not in targets:
                raise RuleError(_("Choose one of the characters this special action can target."))
        elif action.target is not None:
            raise RuleError(_("This special action takes no character."))
        chars = s["characters"]
        event: Event = {"kind": "special", "special": special, "seat": attacker}
        if special == "deception":
            s["players"][attacker]["deception"] += 1
        elif special == "special-weapons":
            s["players"][attacker]["weapons"] += 1
        elif special == "intimidation":
            s["players"][defender]["intimidated"] += 1
        elif special == "knock-out":
            s["players"][defender]["knocked_out"] += 1
        elif special == "remedy":
            target = chars[action.target]
            target["power"] = min(MAX_POWER, target["power"] + 2)
            event.update(target=target["id"], power=target["power"])
        elif special == "luck":
            target = chars[action.target]
            rng = SeededRandom.from_state(s["rng"])
            roll = rng.randint(1, 10)
            s["rng"], s["die"] = rng.to_state(), roll
            reference = (
                target["power"] if s["options"]["luck"] == "current" else target["start_power"]
            )
            improved = roll > reference
            if improved:
                target["power"] = roll
            event.update(target=target["id"], roll=roll, power=target["power"], improved=improved)
        elif special == "master-plan":
            players = [p for p in action.players if p in alive(s)]
            if not players:
                raise RuleError(_("Choose at least one player to draw a new hand."))
            if dealt(s):
                for p in players:
                    s["discard"].extend(s["hands"][p])
                    s["hands"][p] = []
                    self._draw(s, p, MASTER_PLAN_HAND)
            event.update(players=players)
        elif special == "mind-control":
            target = chars[action.target]
            target.update(army=attacker, captured_by=None, power=MIN_POWER, controlled=True)
            event.update(target=target["id"])
        elif special == "quick-action":
            s["extra_turns"] += 1
        elif special == RECOVERY:
            target = chars[action.target]
            how = s["options"]["recovery_power"]
            if how == "roll":
                rng = SeededRandom.from_state(s["rng"])
                power = rng.randint(MIN_POWER, MAX_POWER)
                s["rng"], s["die"] = rng.to_state(), power
            elif how == "start":
                power = target["start_power"]
            else:
                power = MIN_POWER
            target.update(army=attacker, captured_by=None, power=power)
            event.update(target=target["id"], power=power)
        elif special == "sniper":
            event.update(target=action.target)
            events.append(event)
            assert action.target is not None  # checked against the targets above
            self._lose(s, action.target, events, battled=False)
            return self._after_special(s, events)
        elif special == "shield":
            target = chars[action.target]
            card = battle["cards"][0]
            target["shields"].append(card)
            if dealt(s):
                s["table"].remove(card)  # kept by the character, not discarded
            event.update(target=target["id"], card=card)
        elif special == "vulnerability":
            chars[action.target]["vulnerable"] = True
            event.update(target=action.target)
        events.append(event)
        return self._after_special(s, events)

    def _after_special(self, s: State, events: list[Event]) -> None:
        if s["phase"] == "over":
            self._clear_table(s)
        else:
            self._end_turn(s, events)

    # -- checks

    @staticmethod
    def _require(s: State, phase: str, seat: int | None, expected: int | None) -> None:
        if s["phase"] != phase:
            raise RuleError(_("That is not what the game is waiting for now."))
        if seat is None or seat != expected:
            raise RuleError(_("It is another player's move."))


def _next_alive(s: Mapping[str, Any], seat: int) -> int:
    """The next player still in the game, in the current direction."""
    count = len(s["players"])
    step = s["direction"]
    nxt = seat
    for _n in range(count):
        nxt = (nxt + step) % count
        if not s["players"][nxt]["out"]:
            return nxt
    return seat


ENGINE: Engine = PlasticAttackEngine()
