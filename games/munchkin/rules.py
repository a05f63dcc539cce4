"""Munchkin Bites! (Munchkin Morde!) as a table companion.

The table plays with the real cards; phones keep the numbers people argue about:
each character's level (1-10, and 10 only by a kill), gear bonus, sex, race(s) and
powers with their rank limit, the turn and its phases, the shared die, and the
current fight (fighter, helper, monsters with enhancers and Evil Twins, one-shot
bonuses, who is winning, the kill, and running away monster by monster). Card text
is applied by the players: the engine records Bad Stuff, it doesn't read it.

Pure Python: no Django, no I/O, no clock, no global randomness (the die is a
:class:`~games.engine.rng.SeededRandom` kept in ``state["rng"]``). ``apply`` never
mutates its input and the state is JSON-serialisable, so undo is a replay of the
log. Nothing is secret (``seat_bound`` is False): anyone at the table may tap any
row. Action payloads, the state, events and the decisions where the rulebook is
silent are described in ``docs/rules/munchkin.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.errors import InvalidInput, RuleError
from games.engine.errors import gettext_noop as _
from games.engine.protocol import Engine, Event, Outcome, Result, State
from games.engine.rng import SeededRandom
from games.engine.state import copy_state
from games.munchkin import combat
from games.munchkin.actions import (
    ACTION_TYPES,
    MAX_SEATS,
    MIN_SEATS,
    PHASES,
    RACES,
    SEXES,
    Action,
    AddMonster,
    AddPower,
    AddRace,
    Bonus,
    CancelCombat,
    Die,
    EndTurn,
    Enhance,
    EvilTwin,
    Fight,
    Gear,
    HalfBreed,
    Helper,
    Level,
    MonsterSpec,
    NextPhase,
    RemoveMonster,
    RemovePower,
    RemoveRace,
    Resolve,
    Roll,
    Run,
    RunBonus,
    Sell,
    Sex,
    parse_action,
    parse_options,
)
from games.munchkin.character import (
    GEAR_LIMIT,
    HAND_LIMIT,
    MAX_LEVEL,
    MIN_LEVEL,
    RACE_NAMES,
    SALE_PRICE,
    can_add_power,
    change_level,
    charity_recipients,
    charity_share,
    drop_excess_powers,
    label,
    new_player,
    player_at,
    power_total,
    strength,
)
from games.munchkin.combat import combat_totals, monster_level, pending_runs

__all__ = [
    "ACTION_TYPES",
    "ENGINE",
    "HAND_LIMIT",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "PHASES",
    "PHASE_REMINDERS",
    "RACES",
    "RACE_NAMES",
    "SALE_PRICE",
    "SEXES",
    "Action",
    "AddMonster",
    "AddPower",
    "AddRace",
    "Bonus",
    "CancelCombat",
    "Die",
    "EndTurn",
    "Enhance",
    "EvilTwin",
    "Fight",
    "Gear",
    "HalfBreed",
    "Helper",
    "Level",
    "MonsterSpec",
    "MunchkinEngine",
    "NextPhase",
    "RemoveMonster",
    "RemovePower",
    "RemoveRace",
    "Resolve",
    "Roll",
    "Run",
    "RunBonus",
    "Sell",
    "Sex",
    "can_add_power",
    "charity_recipients",
    "charity_share",
    "combat_totals",
    "monster_level",
    "parse_action",
    "parse_options",
    "pending_runs",
    "phase_reminder",
    "power_total",
    "sale_levels",
    "strength",
]

# One line per phase for the turn guide (the loot reminder depends on the fight).
PHASE_REMINDERS: dict[str, str] = {
    "kick_door": _(
        "Turn the top door card face up. A monster must be fought now; a curse "
        "strikes you at once; keep or play any other card."
    ),
    "look_for_trouble": _(
        "No monster behind the door? You may fight one from your hand, if you dare."
    ),
    "loot_room": _("No monster this turn: take one more door card, face down, into your hand."),
    "charity": _(
        "Over 5 cards in hand? Give the extra ones to the lowest-level player, "
        "or discard them if that is you."
    ),
}
_LOOT_AFTER: dict[str, str] = {
    "won": _("You killed it: draw its treasure, face up if someone helped you."),
    "fled": _("You ran away: no treasure and no extra door card this turn."),
}


def phase_reminder(state: Mapping[str, Any]) -> str:
    """The one-line reminder (a msgid) for the current phase of the turn."""
    turn = state["turn"]
    if turn["phase"] == "loot_room" and turn["met"] in _LOOT_AFTER:
        return _LOOT_AFTER[turn["met"]]
    return PHASE_REMINDERS[turn["phase"]]


def sale_levels(gold: int) -> int:
    """Levels bought by selling items worth ``gold``: one per full 1000, no change."""
    return gold // SALE_PRICE


# --------------------------------------------------------------------------
# Turn and table
# --------------------------------------------------------------------------


def _no_fight(state: State) -> None:
    if state["combat"] is not None:
        raise RuleError(_("Finish the fight first."))


def skips_looking_for_trouble(turn: Mapping[str, Any]) -> bool:
    """Whether the turn goes from the door straight to looting: its player met a
    monster behind the door (``met_in``; a turn kept from before it was recorded met
    its monster there). One met while looking for trouble skips nothing."""
    return turn["met"] is not None and turn.get("met_in", "kick_door") == "kick_door"


def _apply_next_phase(state: State) -> list[Event]:
    _no_fight(state)
    turn = state["turn"]
    phase = turn["phase"]
    if phase == "charity":
        raise RuleError(_("Charity is the last phase: end the turn."))
    following = PHASES[PHASES.index(phase) + 1]
    if following == "look_for_trouble" and skips_looking_for_trouble(turn):
        following = "loot_room"  # a monster was behind the door
    turn["phase"] = following
    return [{"type": "phase", "seat": turn["seat"], "phase": following}]


def _apply_end_turn(state: State) -> list[Event]:
    _no_fight(state)
    turn = state["turn"]
    seat = (turn["seat"] + 1) % len(state["players"])
    state["turn"] = {"seat": seat, "phase": PHASES[0], "number": turn["number"] + 1, "met": None}
    return [{"type": "turn", "seat": seat, "number": turn["number"] + 1}]


def _apply_roll(state: State, seat: int | None) -> list[Event]:
    value = combat.roll_die(state)
    state["last_roll"] = {"seat": seat, "value": value}
    return [{"type": "roll", "seat": seat, "value": value}]


# --------------------------------------------------------------------------
# A player's row
# --------------------------------------------------------------------------


def _apply_level(state: State, action: Level) -> list[Event]:
    player = player_at(state, action.seat)
    before = player["level"]
    target = before + action.delta
    if target >= MAX_LEVEL:
        raise RuleError(_("Level 10 can only be reached by killing a monster."))
    if target < MIN_LEVEL:
        if before == MIN_LEVEL:
            raise RuleError(_("%(player)s is already at level 1."), player=label(player))
        target = MIN_LEVEL  # a loss stops at level 1
    return change_level(state, action.seat, target, "adjust", action.discard)


def _apply_gear(state: State, action: Gear) -> list[Event]:
    player = player_at(state, action.seat)
    before = player["gear"]
    after = before + action.delta
    if abs(after) > GEAR_LIMIT:
        raise RuleError(
            _("A gear bonus must stay between -%(max)s and +%(max)s."),
            max=GEAR_LIMIT,
        )
    player["gear"] = after
    return [{"type": "gear", "seat": action.seat, "from": before, "to": after, "why": "adjust"}]


def _apply_sex(state: State, action: Sex) -> list[Event]:
    player = player_at(state, action.seat)
    before = player["sex"]
    if before == action.sex:
        raise RuleError(
            _("Nothing to change: %(player)s already has that sex."), player=label(player)
        )
    player["sex"] = action.sex
    return [{"type": "sex", "seat": action.seat, "from": before, "to": action.sex}]


def _apply_add_race(state: State, action: AddRace) -> list[Event]:
    player = player_at(state, action.seat)
    races = player["races"]
    if action.race in races:
        raise RuleError(
            _("%(player)s is already a %(race)s."),
            player=label(player),
            race=RACE_NAMES[action.race],
        )
    if len(races) >= (2 if player["half_breed"] else 1):
        if player["half_breed"]:
            raise RuleError(
                _("%(player)s already has two races: discard one first."), player=label(player)
            )
        raise RuleError(
            _("%(player)s already has a race: discard it first, or play Half-Breed."),
            player=label(player),
        )
    races.append(action.race)
    return [{"type": "race", "seat": action.seat, "op": "add", "race": action.race}]


def _apply_remove_race(state: State, action: RemoveRace) -> list[Event]:
    player = player_at(state, action.seat)
    if action.race not in player["races"]:
        raise RuleError(
            _("%(player)s is not a %(race)s."),
            player=label(player),
            race=RACE_NAMES[action.race],
        )
    player["races"].remove(action.race)
    events: list[Event] = [
        {"type": "race", "seat": action.seat, "op": "remove", "race": action.race}
    ]
    if not player["races"] and player["half_breed"]:
        player["half_breed"] = False
        events.append({"type": "half_breed", "seat": action.seat, "on": False})
    if action.race == "changeling":
        events.extend(drop_excess_powers(state, action.seat, "race_loss"))
    return events


def _apply_half_breed(state: State, action: HalfBreed) -> list[Event]:
    player = player_at(state, action.seat)
    if player["half_breed"] == action.on:
        if action.on:
            raise RuleError(_("%(player)s is already a Half-Breed."), player=label(player))
        raise RuleError(_("%(player)s is not a Half-Breed."), player=label(player))
    if action.on and not player["races"]:
        raise RuleError(
            _("Half-Breed needs a race already in play: %(player)s is human."),
            player=label(player),
        )
    if not action.on and len(player["races"]) > 1:
        raise RuleError(
            _("%(player)s has two races: discard one before losing Half-Breed."),
            player=label(player),
        )
    player["half_breed"] = action.on
    return [{"type": "half_breed", "seat": action.seat, "on": action.on}]


def _apply_add_power(state: State, action: AddPower) -> list[Event]:
    player = player_at(state, action.seat)
    if not can_add_power(player, action.rank):
        raise RuleError(
            _(
                "%(player)s cannot take a rank %(rank)s power: the ranks would add up to "
                "%(total)s, over level %(level)s."
            ),
            player=label(player),
            rank=action.rank,
            total=power_total(player) + action.rank,
            level=player["level"],
        )
    player["powers"].append({"name": action.name, "rank": action.rank})
    return [
        {
            "type": "power",
            "seat": action.seat,
            "op": "add",
            "name": action.name,
            "rank": action.rank,
            "why": "played",
        }
    ]


def _apply_remove_power(state: State, action: RemovePower) -> list[Event]:
    player = player_at(state, action.seat)
    if action.index >= len(player["powers"]):
        raise RuleError(
            _("%(player)s has no power number %(number)s."),
            player=label(player),
            number=action.index + 1,
        )
    power = player["powers"].pop(action.index)
    return [
        {
            "type": "power",
            "seat": action.seat,
            "op": "remove",
            "name": power["name"],
            "rank": power["rank"],
            "why": "discarded",
        }
    ]


def _apply_sell(state: State, action: Sell) -> list[Event]:
    player = player_at(state, action.seat)
    if state["combat"] is not None:
        raise RuleError(_("Nothing can be sold during a fight."))
    current = state["turn"]["seat"]
    if action.seat != current:
        raise RuleError(
            _("Items are sold on your own turn: it is %(player)s's turn."),
            player=label(state["players"][current]),
        )
    levels = sale_levels(action.gold)
    if levels == 0:
        raise RuleError(_("%(gold)s gold buys nothing: a level costs 1000 gold."), gold=action.gold)
    room = MAX_LEVEL - 1 - player["level"]
    if room <= 0:
        raise RuleError(
            _("%(player)s is at level 9: the last level only comes from a kill."),
            player=label(player),
        )
    if levels > room:
        raise RuleError(
            _(
                "Selling cannot reach level 10: %(player)s can buy at most %(levels)s "
                "level(s) now (%(gold)s gold)."
            ),
            player=label(player),
            levels=room,
            gold=room * SALE_PRICE,
        )
    events: list[Event] = [
        {
            "type": "sell",
            "seat": action.seat,
            "gold": action.gold,
            "levels": levels,
            "wasted": action.gold - levels * SALE_PRICE,
        }
    ]
    events.extend(change_level(state, action.seat, player["level"] + levels, "sell"))
    return events


def _apply_die(state: State, action: Die) -> list[Event]:
    player = player_at(state, action.seat)
    lost = player["gear"]
    player["gear"] = 0
    player["deaths"] += 1
    events: list[Event] = [{"type": "death", "seat": action.seat, "gear_lost": lost}]
    events.extend(combat.on_death(state, action.seat))
    return events


# --------------------------------------------------------------------------
# The end
# --------------------------------------------------------------------------


def _places(state: Mapping[str, Any]) -> list[list[int]]:
    """Winners first, then everybody else by level; equal levels share a place."""
    winners = list(state["winners"])
    rest = [s for s in range(len(state["players"])) if s not in winners]
    rest.sort(key=lambda s: -state["players"][s]["level"])
    places: list[list[int]] = [winners] if winners else []
    previous: int | None = None
    for seat in rest:
        level = state["players"][seat]["level"]
        if level == previous:
            places[-1].append(seat)
        else:
            places.append([seat])
        previous = level
    return places


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

_HANDLERS: dict[type, Any] = {
    Level: _apply_level,
    Gear: _apply_gear,
    Sex: _apply_sex,
    AddRace: _apply_add_race,
    RemoveRace: _apply_remove_race,
    HalfBreed: _apply_half_breed,
    AddPower: _apply_add_power,
    RemovePower: _apply_remove_power,
    Sell: _apply_sell,
    Die: _apply_die,
    Fight: combat.apply_fight,
    AddMonster: combat.apply_add_monster,
    EvilTwin: combat.apply_evil_twin,
    Enhance: combat.apply_enhance,
    RemoveMonster: combat.apply_remove_monster,
    Bonus: combat.apply_bonus,
    Helper: combat.apply_helper,
    Resolve: combat.apply_resolve,
    Run: combat.apply_run,
    RunBonus: combat.apply_run_bonus,
}

# Actions that change one seat's row, named in their ``seat`` field.
_SEATED = (
    Level,
    Gear,
    Sex,
    AddRace,
    RemoveRace,
    HalfBreed,
    AddPower,
    RemovePower,
    Sell,
    Die,
    Fight,
    Helper,
    Run,
    RunBonus,
)


class MunchkinEngine:
    slug = "munchkin"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    seat_bound = False  # nothing is secret: anyone at the table may tap

    def parse_options(self, raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        return parse_options(raw, seats)

    def new_state(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        opts = parse_options(options, len(seats))
        first = opts["first_player"]
        return {
            "game": self.slug,
            "players": [
                new_player(str(name), sex) for name, sex in zip(seats, opts["sexes"], strict=True)
            ],
            "turn": {"seat": first, "phase": PHASES[0], "number": 1, "met": None},
            "combat": None,
            "last_combat": None,
            "last_roll": None,
            "winners": [],
            "over": False,
            "rng": SeededRandom(seed).to_state(),
        }

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        return parse_action(payload)

    def apply(self, state: State, action: Any, seat: int | None = None) -> Result:
        """Apply ``action``, posted by ``seat`` (only recorded, on die rolls)."""
        if state["over"]:
            raise RuleError(_("The game is over."))
        new = copy_state(state)
        handler = _HANDLERS.get(type(action))
        if handler is not None:
            events = handler(new, action)
        elif isinstance(action, NextPhase):
            events = _apply_next_phase(new)
        elif isinstance(action, EndTurn):
            events = _apply_end_turn(new)
        elif isinstance(action, Roll):
            events = _apply_roll(new, seat)
        elif isinstance(action, CancelCombat):
            events = combat.apply_cancel(new)
        else:
            raise InvalidInput(_("Unknown action."))
        return Result(new, events)

    def owner(self, state: State, action: Any) -> int | None:
        """The seat whose row the action changes; ``None`` for table-wide actions
        (monsters, enhancers, bonuses, the die), which anyone may play."""
        if isinstance(action, _SEATED):
            return action.seat
        if isinstance(action, Resolve):
            fight = state["combat"]
            return None if fight is None else fight["fighter"]
        if isinstance(action, NextPhase | EndTurn):
            return int(state["turn"]["seat"])
        return None

    def view(self, state: State, seat: int | None) -> State:
        """Everything is public at this table; only the die's generator is left out."""
        return {k: copy_state(v) for k, v in state.items() if k != "rng"}

    def waiting_for(self, state: State) -> list[int]:
        """The companion never waits: the table plays at its own pace."""
        return []

    def default_action(self, state: State, seat: int) -> dict[str, Any] | None:
        return None

    def outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        scores = {seat: player["level"] for seat, player in enumerate(state["players"])}
        return Outcome(places=_places(state), scores=scores)


ENGINE: Engine = MunchkinEngine()
