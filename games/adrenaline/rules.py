"""Adrenaline (Adrenalina) as a table companion: damage, marks, scoring, frenzy.

The table plays the board game with the real map, figures and cards; phones post
what happened (who shot whom, cubes and power-ups gained or spent, weapons picked
up or reloaded, the end of a turn) and this module does the bookkeeping: damage
and mark tokens, kills and overkills, board values and skulls, the kill-shot
track, final frenzy and final scoring.

Pure Python: no Django, no I/O, no clock, no global randomness. ``apply`` never
mutates its input. Scoring lives in :mod:`games.adrenaline.scoring`. Decisions
where the rulebook is silent are listed in ``docs/rules/adrenaline.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.adrenaline.arena import BOARD_IDS, Board, Direction, Square, load_board
from games.adrenaline.scoring import (
    FRENZY_VALUES,
    NORMAL_VALUES,
    board_values,
    killshot_ranking,
    rank_board,
    value_at,
)
from games.engine.errors import InvalidInput, RuleError
from games.engine.errors import gettext_noop as _
from games.engine.protocol import Engine, Event, Outcome, Result, State
from games.engine.state import copy_state
from games.engine.validate import as_bool, as_choice, as_int, as_list, require

__all__ = [
    "CHARACTERS",
    "CHARACTER_NAMES",
    "COLOURS",
    "ENGINE",
    "FRENZY_VALUES",
    "NORMAL_VALUES",
    "WEAPONS",
    "WEAPON_NAMES",
    "Action",
    "Adjust",
    "AdrenalineEngine",
    "EndTurn",
    "Hit",
    "Scope",
    "Shot",
    "Tagback",
    "WeaponAction",
    "adrenaline_level",
    "board_values",
    "frenzy_actions",
    "is_dead",
    "pickup_cost",
    "points_breakdown",
]

# --------------------------------------------------------------------------
# Rules data (embedded: the engine reads no files)
# --------------------------------------------------------------------------

CHARACTERS: tuple[str, ...] = ("dstructor", "banshee", "dozer", "violet", "sprog")
CHARACTER_NAMES: dict[str, str] = {
    "dstructor": "D-struct-OR",
    "banshee": "Banshee",
    "dozer": "Dozer",
    "violet": "Violet",
    "sprog": "Sprog",
}
COLOURS: tuple[str, ...] = ("red", "blue", "yellow")

MAX_DAMAGE = 12
KILL_AT = 11
MAX_MARKS = 3  # from each other player
MAX_CUBES = 3  # per colour
MAX_WEAPONS = 3
MAX_POWERUPS = 3
MAX_HITS = 4
MAX_EFFECTS = 4
MAX_EFFECT_LENGTH = 40
MIN_SKULLS, MAX_SKULLS, DEFAULT_SKULLS = 5, 8, 8
MIN_SEATS, MAX_SEATS = 3, 5

# Reload cost of each weapon; picking one up costs the same minus the first cube.
WEAPONS: dict[str, tuple[str, ...]] = {
    "lock-rifle": ("blue", "blue"),
    "machine-gun": ("blue", "red"),
    "thor": ("blue", "red"),
    "plasma-gun": ("blue", "yellow"),
    "whisper": ("blue", "blue", "yellow"),
    "electroscythe": ("blue",),
    "tractor-beam": ("blue",),
    "vortex-cannon": ("red", "blue"),
    "furnace": ("red", "blue"),
    "heatseeker": ("red", "red", "yellow"),
    "hellion": ("red", "yellow"),
    "flamethrower": ("red",),
    "grenade-launcher": ("red",),
    "rocket-launcher": ("red", "red"),
    "railgun": ("yellow", "yellow", "blue"),
    "cyberblade": ("yellow", "red"),
    "zx-2": ("yellow", "red"),
    "shotgun": ("yellow", "yellow"),
    "power-glove": ("yellow", "blue"),
    "shockwave": ("yellow",),
    "sledgehammer": ("yellow",),
}
#: What each effect of a weapon costs on top of the shot (its card; the catalog
#: ``games/adrenaline/data/catalog.json`` says the same, and a test keeps them so).
EFFECT_COSTS: dict[str, dict[str, tuple[str, ...]]] = {
    "lock-rifle": {"basic": (), "second-lock": ("red",)},
    "machine-gun": {"basic": (), "focus-shot": ("yellow",), "turret-tripod": ("blue",)},
    "thor": {"basic": (), "chain-reaction": ("blue",), "high-voltage": ("blue",)},
    "plasma-gun": {"basic": (), "phase-glide": (), "charged-shot": ("blue",)},
    "whisper": {"basic": ()},
    "electroscythe": {"basic": (), "reaper": ("blue", "red")},
    "tractor-beam": {"basic": (), "punisher": ("red", "yellow")},
    "vortex-cannon": {"basic": (), "black-hole": ("red",)},
    "furnace": {"basic": (), "cozy-fire": ()},
    "heatseeker": {"basic": ()},
    "hellion": {"basic": (), "nano-tracer": ("red",)},
    "flamethrower": {"basic": (), "barbecue": ("yellow", "yellow")},
    "grenade-launcher": {"basic": (), "extra-grenade": ("red",)},
    "rocket-launcher": {"basic": (), "rocket-jump": ("blue",), "fragmenting-warhead": ("yellow",)},
    "railgun": {"basic": (), "piercing": ()},
    "cyberblade": {"basic": (), "shadowstep": (), "slice-and-dice": ("yellow",)},
    "zx-2": {"basic": (), "scanner": ()},
    "shotgun": {"basic": (), "long-barrel": ()},
    "power-glove": {"basic": (), "rocket-fist": ("blue",)},
    "shockwave": {"basic": (), "tsunami": ("yellow",)},
    "sledgehammer": {"basic": (), "pulverize": ("red",)},
}

WEAPON_NAMES: dict[str, str] = {
    "lock-rifle": "Lock Rifle",
    "machine-gun": "Machine Gun",
    "thor": "T.H.O.R.",
    "plasma-gun": "Plasma Gun",
    "whisper": "Whisper",
    "electroscythe": "Electroscythe",
    "tractor-beam": "Tractor Beam",
    "vortex-cannon": "Vortex Cannon",
    "furnace": "Furnace",
    "heatseeker": "Heatseeker",
    "hellion": "Hellion",
    "flamethrower": "Flamethrower",
    "grenade-launcher": "Grenade Launcher",
    "rocket-launcher": "Rocket Launcher",
    "railgun": "Railgun",
    "cyberblade": "Cyberblade",
    "zx-2": "ZX-2",
    "shotgun": "Shotgun",
    "power-glove": "Power Glove",
    "shockwave": "Shockwave",
    "sledgehammer": "Sledgehammer",
}

ADJUST_FIELDS: tuple[str, ...] = ("red", "blue", "yellow", "powerups")
#: The four kinds of power-up. A power-up a table did not say the kind (or colour)
#: of is held as ``None``: it may be played as any kind (a table that counts only).
POWERUP_KINDS: tuple[str, ...] = ("scope", "newton", "tagback", "teleporter")
POWERUP_OPS: tuple[str, ...] = ("draw", "discard")
MAX_SCOPES = 3
WEAPON_OPS: tuple[str, ...] = ("pickup", "reload", "drop", "unload")
ACTION_TYPES: tuple[str, ...] = (
    "shot",
    "tagback",
    "adjust",
    "weapon",
    "move",
    "powerup",
    "end_turn",
)

# One msgid per field, so that every sentence translates as a whole.
_TOO_MANY: dict[str, str] = {
    "red": _("%(player)s already has 3 red cubes."),
    "blue": _("%(player)s already has 3 blue cubes."),
    "yellow": _("%(player)s already has 3 yellow cubes."),
    "powerups": _("%(player)s already has 3 power-ups."),
}
_TOO_FEW: dict[str, str] = {
    "red": _("Not enough red cubes: %(player)s has %(count)s."),
    "blue": _("Not enough blue cubes: %(player)s has %(count)s."),
    "yellow": _("Not enough yellow cubes: %(player)s has %(count)s."),
    "powerups": _("Not enough power-ups: %(player)s has %(count)s."),
}
_NO_CUBE: dict[str, str] = {
    "red": _("%(player)s has no red cube to pay for the Targeting Scope."),
    "blue": _("%(player)s has no blue cube to pay for the Targeting Scope."),
    "yellow": _("%(player)s has no yellow cube to pay for the Targeting Scope."),
}


def pickup_cost(weapon: str) -> tuple[str, ...]:
    """What picking ``weapon`` up costs: its reload cost minus the first cube."""
    return WEAPONS[weapon][1:]


# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    target: str
    damage: int = 0
    marks: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {"target": self.target, "damage": self.damage, "marks": self.marks}


@dataclass(frozen=True)
class Scope:
    """A Targeting Scope: +1 damage to ``target``, paid with a ``colour`` cube; the
    card played is a Targeting Scope of ``card`` colour (None: whichever is held)."""

    target: str
    colour: str
    card: str | None = None

    def to_payload(self) -> dict[str, Any]:
        payload = {"target": self.target, "colour": self.colour}
        if self.card:
            payload["card"] = self.card
        return payload


@dataclass(frozen=True)
class Shot:
    shooter: str
    hits: tuple[Hit, ...]
    weapon: str | None = None
    effects: tuple[str, ...] = ()
    scopes: tuple[Scope, ...] = ()
    #: Pick ``weapon`` up (paying for it) just before firing it: one tap in the helper.
    pickup: bool = False
    #: Figures the shot's effects move (Tractor Beam, Rocket Launcher…), after it hits.
    moves: tuple[tuple[str, Square], ...] = ()

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "type": "shot",
            "shooter": self.shooter,
            "hits": [hit.to_payload() for hit in self.hits],
            "weapon": self.weapon,
            "effects": list(self.effects),
            "scopes": [scope.to_payload() for scope in self.scopes],
        }
        if self.pickup:
            payload["pickup"] = True
        if self.moves:
            payload["moves"] = [{"player": p, "square": str(sq)} for p, sq in self.moves]
        return payload


@dataclass(frozen=True)
class Tagback:
    """A Tagback Grenade: ``source`` (payload "from") gives ``target`` 1 mark."""

    source: str
    target: str

    def to_payload(self) -> dict[str, Any]:
        return {"type": "tagback", "from": self.source, "to": self.target}


@dataclass(frozen=True)
class Adjust:
    player: str
    field: str
    delta: int

    def to_payload(self) -> dict[str, Any]:
        return {
            "type": "adjust",
            "player": self.player,
            "field": self.field,
            "delta": self.delta,
        }


@dataclass(frozen=True)
class WeaponAction:
    player: str
    op: str
    weapon: str
    pay: bool = True

    def to_payload(self) -> dict[str, Any]:
        return {
            "type": "weapon",
            "player": self.player,
            "op": self.op,
            "weapon": self.weapon,
            "pay": self.pay,
        }


@dataclass(frozen=True)
class Move:
    """A figure put on a square of the map (``square`` None: taken off it). With
    ``powerup`` ("newton" or "teleporter"), the player on turn plays that power-up
    (of ``card`` colour, if said) to make the move, and its rule is checked."""

    player: str
    square: Square | None
    powerup: str | None = None
    card: str | None = None

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "type": "move",
            "player": self.player,
            "square": str(self.square) if self.square else "",
        }
        if self.powerup:
            payload["powerup"] = self.powerup
        if self.card:
            payload["card"] = self.card
        return payload


@dataclass(frozen=True)
class PowerUp:
    """A power-up drawn into a hand or discarded from it (``kind``/``colour`` None:
    not said)."""

    player: str
    op: str
    kind: str | None = None
    colour: str | None = None

    def to_payload(self) -> dict[str, Any]:
        return {
            "type": "powerup",
            "player": self.player,
            "op": self.op,
            "kind": self.kind or "",
            "colour": self.colour or "",
        }


@dataclass(frozen=True)
class EndTurn:
    def to_payload(self) -> dict[str, Any]:
        return {"type": "end_turn"}


Action = Shot | Tagback | Adjust | WeaponAction | Move | PowerUp | EndTurn


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------


def _mapping(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(_("“%(field)s” must be an object."), field=field)
    return value


def _character(value: Any, field: str) -> str:
    return as_choice(value, field, CHARACTERS)


def _optional_int(payload: Mapping[str, Any], key: str, field: str, high: int) -> int:
    value = payload.get(key)
    if value is None or value == "":
        return 0
    return as_int(value, field, 0, high)


def _parse_hit(raw: Any, index: int) -> Hit:
    field = f"hits[{index}]"
    hit = _mapping(raw, field)
    return Hit(
        target=_character(require(hit, "target"), f"{field}.target"),
        damage=_optional_int(hit, "damage", f"{field}.damage", MAX_DAMAGE),
        marks=_optional_int(hit, "marks", f"{field}.marks", MAX_MARKS),
    )


def _parse_shot(payload: Mapping[str, Any]) -> Shot:
    shooter = _character(require(payload, "shooter"), "shooter")
    raw_hits = as_list(require(payload, "hits"), "hits", MAX_HITS)
    hits = tuple(_parse_hit(raw, i) for i, raw in enumerate(raw_hits))
    if not hits:
        raise InvalidInput(_("A shot needs at least one target."))
    targets = [hit.target for hit in hits]
    if len(set(targets)) != len(targets):
        raise InvalidInput(_("Each target can appear only once in a shot."))
    if shooter in targets:
        raise InvalidInput(_("Players cannot shoot themselves."))
    if not any(hit.damage or hit.marks for hit in hits):
        raise InvalidInput(_("A shot must deal at least 1 damage or 1 mark."))

    weapon_raw = payload.get("weapon")
    weapon = None if weapon_raw in (None, "") else as_choice(weapon_raw, "weapon", WEAPONS)

    effects: list[str] = []
    for i, effect in enumerate(as_list(payload.get("effects"), "effects", MAX_EFFECTS)):
        if not isinstance(effect, str) or len(effect) > MAX_EFFECT_LENGTH:
            raise InvalidInput(
                _("“%(field)s” must be a text of at most %(max)s characters."),
                field=f"effects[{i}]",
                max=MAX_EFFECT_LENGTH,
            )
        effects.append(effect)

    raw_scopes = as_list(payload.get("scopes"), "scopes", MAX_SCOPES)
    if payload.get("scope") is not None:  # one scope, as older payloads say it
        raw_scopes = [payload["scope"], *raw_scopes][:MAX_SCOPES]
    scopes = tuple(_parse_scope(raw, i) for i, raw in enumerate(raw_scopes))
    pickup = as_bool(payload.get("pickup", False), "pickup")
    if pickup and weapon is None:
        raise InvalidInput(_("Choose the weapon to pick up."))
    moves = []
    for i, raw in enumerate(as_list(payload.get("moves"), "moves", MAX_SEATS)):
        entry = _mapping(raw, f"moves[{i}]")
        if entry.get("square") in (None, ""):
            continue  # "don't move them": the form's empty choice
        move = _parse_move({"player": entry.get("player"), "square": entry["square"]})
        if move.square is not None:
            moves.append((move.player, move.square))
    return Shot(shooter, hits, weapon, tuple(effects), scopes, pickup, tuple(moves))


def _optional_choice(value: Any, field: str, choices: Sequence[str]) -> str | None:
    return None if value in (None, "") else as_choice(value, field, choices)


def _parse_scope(raw: Any, index: int) -> Scope:
    field = f"scopes[{index}]"
    scope = _mapping(raw, field)
    return Scope(
        target=_character(require(scope, "target"), f"{field}.target"),
        colour=as_choice(require(scope, "colour"), f"{field}.colour", COLOURS),
        card=_optional_choice(scope.get("card"), f"{field}.card", COLOURS),
    )


def _parse_powerup(payload: Mapping[str, Any]) -> PowerUp:
    return PowerUp(
        player=_character(require(payload, "player"), "player"),
        op=as_choice(require(payload, "op"), "op", POWERUP_OPS),
        kind=_optional_choice(payload.get("kind"), "kind", POWERUP_KINDS),
        colour=_optional_choice(payload.get("colour"), "colour", COLOURS),
    )


def _parse_tagback(payload: Mapping[str, Any]) -> Tagback:
    source = _character(require(payload, "from"), "from")
    target = _character(require(payload, "to"), "to")
    if source == target:
        raise InvalidInput(_("A Tagback Grenade must mark another player."))
    return Tagback(source, target)


def _parse_adjust(payload: Mapping[str, Any]) -> Adjust:
    player = _character(require(payload, "player"), "player")
    field = as_choice(require(payload, "field"), "field", ADJUST_FIELDS)
    delta = as_int(require(payload, "delta"), "delta", -3, 3)
    if delta == 0:
        raise InvalidInput(_("“%(field)s” must not be zero."), field="delta")
    return Adjust(player, field, delta)


def _parse_weapon(payload: Mapping[str, Any]) -> WeaponAction:
    player = _character(require(payload, "player"), "player")
    op = as_choice(require(payload, "op"), "op", WEAPON_OPS)
    weapon = as_choice(require(payload, "weapon"), "weapon", WEAPONS)
    pay = as_bool(payload.get("pay", True), "pay")
    return WeaponAction(player, op, weapon, pay)


def _parse_move(payload: Mapping[str, Any]) -> Move:
    player = _character(require(payload, "player"), "player")
    powerup = _optional_choice(payload.get("powerup"), "powerup", ("newton", "teleporter"))
    card = _optional_choice(payload.get("card"), "card", COLOURS)
    raw = payload.get("square")
    if raw in (None, ""):
        if powerup:
            raise InvalidInput(_("A power-up moves a figure to a square: choose one."))
        return Move(player, None)
    if not isinstance(raw, str) or len(raw) > 5:
        raise InvalidInput(_("“%(field)s” is not a square of the map."), field="square")
    try:
        return Move(player, Square.parse(raw), powerup, card)
    except ValueError:
        raise InvalidInput(_("“%(field)s” is not a square of the map."), field="square") from None


def parse_action(payload: Mapping[str, Any]) -> Action:
    """Turn a client's JSON payload into a typed action (``InvalidInput`` if bad)."""
    payload = _mapping(payload, "action")
    kind = as_choice(require(payload, "type"), "type", ACTION_TYPES)
    if kind == "shot":
        return _parse_shot(payload)
    if kind == "tagback":
        return _parse_tagback(payload)
    if kind == "adjust":
        return _parse_adjust(payload)
    if kind == "weapon":
        return _parse_weapon(payload)
    if kind == "move":
        return _parse_move(payload)
    if kind == "powerup":
        return _parse_powerup(payload)
    return EndTurn()


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    """Validate set-up options: characters per seat, skulls, first player."""
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidInput(_("“%(field)s” must be a whole number."), field="seats")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidInput(
            _("Adrenaline is played by %(low)s to %(high)s players."),
            low=MIN_SEATS,
            high=MAX_SEATS,
        )
    raw = _mapping(raw if raw is not None else {}, "options")
    characters_raw = as_list(require(raw, "characters"), "characters", MAX_SEATS)
    characters = [_character(value, f"characters[{i}]") for i, value in enumerate(characters_raw)]
    if len(characters) != seats:
        raise InvalidInput(
            _("Choose exactly one character for each of the %(count)s players."),
            count=seats,
        )
    if len(set(characters)) != len(characters):
        raise InvalidInput(_("Each player needs a different character."))
    skulls_raw = raw.get("skulls")
    skulls = (
        DEFAULT_SKULLS
        if skulls_raw in (None, "")
        else as_int(skulls_raw, "skulls", MIN_SKULLS, MAX_SKULLS)
    )
    first_raw = raw.get("first_player")
    first_player = 0 if first_raw in (None, "") else as_int(first_raw, "first_player", 0, seats - 1)
    board_raw = raw.get("board")
    board = None if board_raw in (None, "") else as_choice(board_raw, "board", BOARD_IDS)
    return {
        "characters": characters,
        "skulls": skulls,
        "first_player": first_player,
        "board": board,
    }


# --------------------------------------------------------------------------
# State helpers (pure, used by templates too)
# --------------------------------------------------------------------------


def is_dead(player: Mapping[str, Any]) -> bool:
    """Whether this board has taken a killing shot (11 or more damage)."""
    return len(player["damage"]) >= KILL_AT


def adrenaline_level(player: Mapping[str, Any]) -> int:
    """0, 1 (3+ damage: better grab) or 2 (6+ damage: also better shoot)."""
    damage = len(player["damage"])
    if damage >= 6:
        return 2
    if damage >= 3:
        return 1
    return 0


def frenzy_actions(state: Mapping[str, Any], seat: int) -> int | None:
    """Actions ``seat`` takes in its final-frenzy turn: 2, 1, or None (no frenzy)."""
    frenzy = state.get("frenzy")
    if not frenzy:
        return None
    return 2 if seat in frenzy["two_actions"] else 1


def points_breakdown(state: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Points per character per reason, from the list of awards."""
    reasons = ("first_blood", "board", "double_kill", "killshot_track")
    result = {p["character"]: dict.fromkeys(reasons, 0) for p in state["players"]}
    for award in state["awards"]:
        result[award["to"]][award["reason"]] += award["points"]
    return result


def _seat_of(state: Mapping[str, Any], character: str) -> int | None:
    for seat, player in enumerate(state["players"]):
        if player["character"] == character:
            return seat
    return None


def _player(state: State, character: str) -> dict[str, Any]:
    seat = _seat_of(state, character)
    if seat is None:
        raise RuleError(
            _("%(character)s is not in this game."),
            character=CHARACTER_NAMES[character],
        )
    return state["players"][seat]


def _board(state: State, character: str) -> dict[str, Any]:
    """The seated player with this character (the engine only stores seated ones)."""
    return next(p for p in state["players"] if p["character"] == character)


def _label(player: Mapping[str, Any]) -> str:
    return player["name"] or CHARACTER_NAMES[player["character"]]


def _missing(ammo: Mapping[str, int], cost: Sequence[str]) -> dict[str, int]:
    return {c: max(0, cost.count(c) - ammo[c]) for c in COLOURS if cost.count(c)}


def _add_marks(target: dict[str, Any], source: str, count: int) -> tuple[int, int]:
    """Give ``target`` up to ``count`` marks from ``source``: (placed, lost)."""
    have = target["marks"].get(source, 0)
    placed = min(count, MAX_MARKS - have)
    if placed:
        target["marks"][source] = have + placed
    return placed, count - placed


def _add_damage(target: dict[str, Any], source: str, count: int) -> tuple[int, int]:
    """Put up to ``count`` of ``source``'s tokens on ``target``: (placed, lost)."""
    placed = max(0, min(count, MAX_DAMAGE - len(target["damage"])))
    target["damage"].extend([source] * placed)
    return placed, count - placed


# --------------------------------------------------------------------------
# Applying actions
# --------------------------------------------------------------------------


def _fire(state: State, shooter: dict[str, Any], action: Shot) -> list[Event]:
    """The weapon of a shot: picked up first if asked, then unloaded and its
    effects paid for. A weapon the app does not know the shooter holds (a table
    that does not track weapons) is named in the history and nothing is charged."""
    assert action.weapon is not None
    name = WEAPON_NAMES[action.weapon]
    costs = EFFECT_COSTS[action.weapon]
    unknown = [effect for effect in action.effects if effect not in costs]
    if unknown:
        raise RuleError(
            _("The %(weapon)s has no effect “%(effect)s”."), weapon=name, effect=unknown[0]
        )
    events: list[Event] = []
    if action.pickup:
        events.extend(_apply_weapon(state, WeaponAction(action.shooter, "pickup", action.weapon)))
    held = next((w for w in shooter["weapons"] if w["slug"] == action.weapon), None)
    if held is None:
        for other in state["players"]:
            if any(w["slug"] == action.weapon for w in other["weapons"]):
                raise RuleError(
                    _("%(player)s holds the %(weapon)s: there is only one."),
                    player=_label(other),
                    weapon=name,
                )
        return [
            {
                "type": "weapon_used",
                "shooter": action.shooter,
                "weapon": action.weapon,
                "effects": list(action.effects),
                "paid": [],
                "untracked": True,
            }
        ]
    if not held["loaded"]:
        raise RuleError(
            _("%(player)s's %(weapon)s is not loaded."), player=_label(shooter), weapon=name
        )
    # Optional effects and alternative modes cost cubes, as the card says.
    paid = _pay_cost(
        shooter,
        [cube for effect in dict.fromkeys(action.effects) for cube in costs[effect]],
        name,
        _("%(player)s is missing %(missing)s to pay for the %(weapon)s's effects."),
    )
    held["loaded"] = False
    events.append(
        {
            "type": "weapon_used",
            "shooter": action.shooter,
            "weapon": action.weapon,
            "effects": list(action.effects),
            "paid": paid,
        }
    )
    return events


def _apply_shot(state: State, action: Shot) -> list[Event]:
    shooter = _player(state, action.shooter)
    targets = {hit.target: _player(state, hit.target) for hit in action.hits}
    current = state["players"][state["current"]]
    if shooter is not current:
        raise RuleError(
            _("It is %(player)s's turn: only they can shoot now."),
            player=_label(current),
        )
    events: list[Event] = []

    if action.weapon is not None:
        events.extend(_fire(state, shooter, action))

    extra: dict[str, int] = {}
    for scope in action.scopes:
        if not any(h.target == scope.target and h.damage > 0 for h in action.hits):
            raise RuleError(_("The Targeting Scope must go on a player who takes damage."))
        if _take_powerup(shooter, "scope", scope.card) is None:
            raise RuleError(
                _("%(player)s has no Targeting Scope to play."),
                player=_label(shooter),
            )
        if shooter["ammo"][scope.colour] < 1:
            raise RuleError(_NO_CUBE[scope.colour], player=_label(shooter))
        shooter["ammo"][scope.colour] -= 1
        extra[scope.target] = extra.get(scope.target, 0) + 1
        events.append(
            {
                "type": "scope",
                "shooter": action.shooter,
                "target": scope.target,
                "colour": scope.colour,
            }
        )

    for hit in action.hits:
        target = targets[hit.target]
        before = len(target["damage"])
        placed = lost = converted = 0
        if hit.damage > 0:
            direct = hit.damage + extra.get(hit.target, 0)
            placed, lost = _add_damage(target, action.shooter, direct)
            converted = target["marks"].pop(action.shooter, 0)
            more, more_lost = _add_damage(target, action.shooter, converted)
            placed, lost = placed + more, lost + more_lost
            if hit.target not in state["damaged_this_turn"]:
                state["damaged_this_turn"].append(hit.target)
        marks, marks_lost = _add_marks(target, action.shooter, hit.marks)
        after = len(target["damage"])
        killed = before < KILL_AT <= after
        if killed:
            state["killed_this_turn"].append(hit.target)
        events.append(
            {
                "type": "damage",
                "shooter": action.shooter,
                "target": hit.target,
                "damage": placed,
                "converted": converted,
                "lost": lost,
                "marks": marks,
                "marks_lost": marks_lost,
                "killed": killed,
                "overkill": before < MAX_DAMAGE <= after,
            }
        )
    for player, square in action.moves:
        events.extend(_apply_move(state, Move(player, square)))
    return events


def _apply_tagback(state: State, action: Tagback) -> list[Event]:
    source = _player(state, action.source)
    target = _player(state, action.target)
    current = state["players"][state["current"]]
    if target is not current:
        raise RuleError(
            _("A Tagback Grenade can only mark %(player)s, whose turn it is."),
            player=_label(current),
        )
    if action.source not in state["damaged_this_turn"]:
        raise RuleError(
            _("%(player)s has not been damaged by %(shooter)s this turn."),
            player=_label(source),
            shooter=_label(target),
        )
    where = positions(state)
    seer, seen = where[action.source], where[action.target]
    if state.get("board") and seer is not None and seen is not None:
        if not load_board(state["board"]).can_see(seer, seen):
            raise RuleError(
                _("%(player)s cannot see %(shooter)s: a Tagback Grenade needs sight."),
                player=_label(source),
                shooter=_label(target),
            )
    if _take_powerup(source, "tagback") is None:
        raise RuleError(
            _("%(player)s has no Tagback Grenade to play."),
            player=_label(source),
        )
    _placed, lost = _add_marks(target, action.source, 1)
    return [
        {
            "type": "tagback",
            "from": action.source,
            "to": action.target,
            "marks_lost": lost,
        }
    ]


def _apply_adjust(state: State, action: Adjust) -> list[Event]:
    player = _player(state, action.player)
    if action.field == "powerups":
        have, top = len(player["powerups"]), MAX_POWERUPS
    else:
        have, top = player["ammo"][action.field], MAX_CUBES
    value = have + action.delta
    if value > top:
        raise RuleError(_TOO_MANY[action.field], player=_label(player), count=have)
    if value < 0:
        raise RuleError(_TOO_FEW[action.field], player=_label(player), count=have)
    if action.field == "powerups":
        # A table that counts only: one of no kind in, one (of no kind first) out.
        for _step in range(action.delta):
            player["powerups"].append({"kind": None, "colour": None})
        for _step in range(-action.delta):
            _take_powerup(player, None)
    else:
        player["ammo"][action.field] = value
    return [
        {
            "type": "adjust",
            "player": action.player,
            "field": action.field,
            "delta": action.delta,
            "value": value,
        }
    ]


def _apply_weapon(state: State, action: WeaponAction) -> list[Event]:
    player = _player(state, action.player)
    name = WEAPON_NAMES[action.weapon]
    held = next((w for w in player["weapons"] if w["slug"] == action.weapon), None)
    paid: list[str] = []
    if action.op == "pickup":
        if held is not None:
            raise RuleError(
                _("%(player)s already holds the %(weapon)s."),
                player=_label(player),
                weapon=name,
            )
        for other in state["players"]:
            if any(w["slug"] == action.weapon for w in other["weapons"]):
                raise RuleError(
                    _("%(player)s holds the %(weapon)s: there is only one."),
                    player=_label(other),
                    weapon=name,
                )
        if len(player["weapons"]) >= MAX_WEAPONS:
            raise RuleError(
                _("%(player)s already has 3 weapons: drop one first."),
                player=_label(player),
            )
        if action.pay:
            paid = _pay_cost(
                player,
                pickup_cost(action.weapon),
                name,
                _("%(player)s is missing %(missing)s to pick up the %(weapon)s."),
            )
        player["weapons"].append({"slug": action.weapon, "loaded": True})
    else:
        if held is None:
            raise RuleError(
                _("%(player)s does not hold the %(weapon)s."),
                player=_label(player),
                weapon=name,
            )
        if action.op == "reload":
            if held["loaded"]:
                raise RuleError(
                    _("%(player)s's %(weapon)s is already loaded."),
                    player=_label(player),
                    weapon=name,
                )
            if action.pay:
                paid = _pay_cost(
                    player,
                    WEAPONS[action.weapon],
                    name,
                    _("%(player)s is missing %(missing)s to reload the %(weapon)s."),
                )
            held["loaded"] = True
        elif action.op == "unload":
            if not held["loaded"]:
                raise RuleError(
                    _("%(player)s's %(weapon)s is not loaded."),
                    player=_label(player),
                    weapon=name,
                )
            held["loaded"] = False
        else:  # drop
            player["weapons"].remove(held)
    return [
        {
            "type": "weapon",
            "player": action.player,
            "op": action.op,
            "weapon": action.weapon,
            "paid": paid,
        }
    ]


def _take_powerup(
    player: dict[str, Any], kind: str | None, colour: str | None = None
) -> dict[str, Any] | None:
    """Take from the hand a power-up of ``kind`` (of ``colour``, if said), else one
    of no known kind, which may be played as anything; None if there is none.
    ``kind`` None: any card (one of no known kind first)."""
    hand = player["powerups"]

    def matches(card: dict[str, Any]) -> bool:
        return (kind is None or card["kind"] == kind) and colour in (None, card["colour"])

    order = [c for c in hand if c["kind"] is None] if kind is None else []
    order += [c for c in hand if kind is not None and matches(c)]
    order += [c for c in hand if c["kind"] is None and colour in (None, c["colour"])]
    order += [c for c in hand if kind is None]
    if not order:
        return None
    hand.remove(order[0])
    return order[0]


def _apply_powerup(state: State, action: PowerUp) -> list[Event]:
    player = _player(state, action.player)
    card = {"kind": action.kind, "colour": action.colour}
    if action.op == "draw":
        if len(player["powerups"]) >= MAX_POWERUPS:
            raise RuleError(_TOO_MANY["powerups"], player=_label(player), count=MAX_POWERUPS)
        player["powerups"].append(card)
    else:
        taken = _take_powerup(player, action.kind, action.colour)
        if taken is None:
            raise RuleError(
                _("%(player)s holds no such power-up."),
                player=_label(player),
            )
        card = taken
    return [{"type": "powerup", "player": action.player, "op": action.op, **card}]


def _check_powerup_move(state: State, action: Move, board: Board, start: Square | None) -> Event:
    """The rule of the power-up that makes ``action`` (and the card it spends)."""
    assert action.square is not None and action.powerup is not None
    current = state["players"][state["current"]]
    user = current["character"]
    if action.powerup == "teleporter" and action.player != user:
        raise RuleError(
            _("A Teleporter moves only the figure of its player, %(player)s."),
            player=_label(current),
        )
    if action.powerup == "newton":
        if action.player == user:
            raise RuleError(_("Newton moves another player's figure, not your own."))
        reach = (
            {
                s
                for d in Direction
                for s in board.squares_in_direction(start, d, through_walls=False)[:2]
            }
            if start is not None
            else set()
        )
        if action.square not in reach:
            raise RuleError(
                _("Newton moves a figure 1 or 2 squares in one direction, not through walls.")
            )
    card = _take_powerup(current, action.powerup, action.card)
    if card is None:
        raise RuleError(
            _("%(player)s has no such power-up to play."),
            player=_label(current),
        )
    return {"type": "powerup", "player": user, "op": "play", **card}


def _apply_move(state: State, action: Move) -> list[Event]:
    player = _player(state, action.player)
    if state.get("board") is None:
        raise RuleError(_("This table plays without the map: there is nowhere to move."))
    board = load_board(state["board"])
    square = action.square
    if square is not None and square not in board.room_of:
        raise RuleError(_("That square is not on this map."))
    before = player.get("square")
    events: list[Event] = []
    if action.powerup is not None:
        events.append(
            _check_powerup_move(state, action, board, Square.of(before) if before else None)
        )
    player["square"] = square.as_pair() if square is not None else None
    events.append(
        {
            "type": "move",
            "player": action.player,
            "from": before,
            "to": player["square"],
        }
    )
    return events


def upgraded(state: State) -> State:
    """A state saved before power-ups had kinds (a count) or figures had squares, in
    today's shape, in place: ``n`` power-ups become ``n`` of no known kind."""
    for player in state["players"]:
        if isinstance(player["powerups"], int):
            player["powerups"] = [{"kind": None, "colour": None} for _ in range(player["powerups"])]
        player.setdefault("square", None)
    state.setdefault("board", None)
    return state


def positions(state: Mapping[str, Any]) -> dict[str, Square | None]:
    """Where each figure stands on the map (None: not on it)."""
    return {
        p["character"]: Square.of(p["square"]) if p.get("square") else None
        for p in state["players"]
    }


def _pay_cost(player: dict[str, Any], cost: Sequence[str], weapon: str, message: str) -> list[str]:
    """Take ``cost`` from the player's cubes, or say which cubes are missing."""
    missing = {c: n for c, n in _missing(player["ammo"], cost).items() if n}
    if missing:
        raise RuleError(
            message,
            player=_label(player),
            weapon=weapon,
            missing=", ".join(f"{n} {c}" for c, n in missing.items()),
            red=missing.get("red", 0),
            blue=missing.get("blue", 0),
            yellow=missing.get("yellow", 0),
        )
    for colour in cost:
        player["ammo"][colour] -= 1
    return list(cost)


# --------------------------------------------------------------------------
# Scoring and the end of a turn
# --------------------------------------------------------------------------


def _award(state: State, to: str, points: int, reason: str, board: str | None) -> dict[str, Any]:
    _board(state, to)["points"] += points
    state["awards"].append({"to": to, "points": points, "reason": reason, "board": board})
    return {"to": to, "points": points, "reason": reason}


def _score_board(state: State, seat: int, final: bool) -> tuple[list[Event], str | None]:
    """Score one board; on a kill (not ``final``) also track, skull, clear, flip."""
    victim = state["players"][seat]
    character = victim["character"]
    damage = victim["damage"]
    awards: list[dict[str, Any]] = []
    if not victim["frenzy"] and damage:
        awards.append(_award(state, damage[0], 1, "first_blood", character))
    values = board_values(victim)
    for rank, shooter in enumerate(rank_board(damage)):
        awards.append(_award(state, shooter, value_at(values, rank), "board", character))

    killer: str | None = None
    overkill = skull = False
    events: list[Event] = []
    if not final:
        killer = damage[KILL_AT - 1]
        overkill = len(damage) >= MAX_DAMAGE
        skull = len(state["killshot"]) < state["skulls"]
        state["killshot"].append({"killer": killer, "tokens": 2 if overkill else 1})
        if skull:
            victim["skulls"] += 1
    events.append(
        {
            "type": "score",
            "board": character,
            "killer": killer,
            "overkill": overkill,
            "skull": skull,
            "final": final,
            "awards": awards,
        }
    )
    if final:
        return events, None
    if overkill and killer is not None:  # overkill is only counted on a kill
        _placed, lost = _add_marks(_board(state, killer), character, 1)
        events.append(
            {
                "type": "revenge_mark",
                "from": character,
                "to": killer,
                "lost": bool(lost),
            }
        )
    victim["damage"] = []
    if state["frenzy"] is not None and not victim["frenzy"]:
        victim["frenzy"] = True
        events.append({"type": "flip", "player": character})
    return events, killer


def _seats_from(state: State, start: int) -> list[int]:
    n = len(state["players"])
    return [(start + i) % n for i in range(n)]


def _start_frenzy(state: State) -> Event:
    n = len(state["players"])
    current = state["current"]
    order = [(current + 1 + i) % n for i in range(n)]
    first = order.index(state["first_player"])
    flipped = []
    for player in state["players"]:
        if not player["damage"] and not player["frenzy"]:
            player["frenzy"] = True
            flipped.append(player["character"])
    state["frenzy"] = {
        "triggered_by": current,
        "order": order,
        "two_actions": order[:first],
    }
    return {
        "type": "frenzy",
        "triggered_by": state["players"][current]["character"],
        "flipped": flipped,
    }


def _final_scoring(state: State) -> list[Event]:
    events: list[Event] = []
    for seat in _seats_from(state, state["current"]):
        if state["players"][seat]["damage"]:
            board_events, _killer = _score_board(state, seat, final=True)
            events.extend(board_events)
    awards = [
        _award(state, killer, value_at(NORMAL_VALUES, rank), "killshot_track", None)
        for rank, killer in enumerate(killshot_ranking(state["killshot"]))
    ]
    events.append({"type": "killshot_score", "awards": awards})
    state["over"] = True
    characters = [p["character"] for p in state["players"]]
    events.append(
        {
            "type": "game_over",
            "places": [[characters[s] for s in place] for place in _places(state)],
            "points": {p["character"]: p["points"] for p in state["players"]},
        }
    )
    return events


def _apply_end_turn(state: State) -> list[Event]:
    events: list[Event] = []
    frenzy_was_on = state["frenzy"] is not None
    kills: dict[str, int] = {}
    for seat in _seats_from(state, state["current"]):
        if is_dead(state["players"][seat]):
            board_events, killer = _score_board(state, seat, final=False)
            events.extend(board_events)
            if killer is not None:
                kills[killer] = kills.get(killer, 0) + 1
    for killer, count in kills.items():
        if count >= 2:
            _award(state, killer, 1, "double_kill", None)
            events.append({"type": "double_kill", "player": killer})
    state["killed_this_turn"] = []
    state["damaged_this_turn"] = []

    if not frenzy_was_on and len(state["killshot"]) >= state["skulls"]:
        events.append(_start_frenzy(state))
    elif frenzy_was_on and state["current"] == state["frenzy"]["order"][-1]:
        events.extend(_final_scoring(state))
        return events

    n = len(state["players"])
    state["current"] = (state["current"] + 1) % n
    state["turn"] += 1
    events.append(
        {
            "type": "turn",
            "player": state["players"][state["current"]]["character"],
            "turn": state["turn"],
            "frenzy_actions": frenzy_actions(state, state["current"]),
        }
    )
    return events


def _places(state: Mapping[str, Any]) -> list[list[int]]:
    """Seats by points, ties to more kill-shot track points, then shared."""
    breakdown = points_breakdown(state)
    keys = []
    for seat, player in enumerate(state["players"]):
        track = breakdown[player["character"]]["killshot_track"]
        keys.append(((player["points"], track), seat))
    keys.sort(key=lambda item: (-item[0][0], -item[0][1], item[1]))
    places: list[list[int]] = []
    previous: tuple[int, int] | None = None
    for key, seat in keys:
        if key == previous:
            places[-1].append(seat)
        else:
            places.append([seat])
        previous = key
    return places


def _outcome(state: Mapping[str, Any]) -> Outcome | None:
    if not state["over"]:
        return None
    scores = {seat: player["points"] for seat, player in enumerate(state["players"])}
    return Outcome(places=_places(state), scores=scores)


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class AdrenalineEngine:
    slug = "adrenaline"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    seat_bound = False  # nothing is secret: anyone at the table may tap

    def parse_options(self, raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        return parse_options(raw, seats)

    def new_state(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        opts = parse_options(options, len(seats))
        players = [
            {
                "character": character,
                "name": str(name),
                "damage": [],
                "marks": {},
                "skulls": 0,
                "frenzy": False,
                "ammo": {colour: 1 for colour in COLOURS},
                "weapons": [],
                "powerups": [],
                "points": 0,
                "square": None,
            }
            for name, character in zip(seats, opts["characters"], strict=True)
        ]
        return {
            "game": self.slug,
            "board": opts["board"],
            "players": players,
            "skulls": opts["skulls"],
            "killshot": [],
            "first_player": opts["first_player"],
            "current": opts["first_player"],
            "turn": 1,
            "killed_this_turn": [],
            "damaged_this_turn": [],
            "frenzy": None,
            "over": False,
            "awards": [],
        }

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        return parse_action(payload)

    def apply(self, state: State, action: Any, seat: int | None = None) -> Result:
        if state["over"]:
            raise RuleError(_("The game is over."))
        new = upgraded(copy_state(state))
        if isinstance(action, Shot):
            events = _apply_shot(new, action)
        elif isinstance(action, Tagback):
            events = _apply_tagback(new, action)
        elif isinstance(action, Adjust):
            events = _apply_adjust(new, action)
        elif isinstance(action, WeaponAction):
            events = _apply_weapon(new, action)
        elif isinstance(action, Move):
            events = _apply_move(new, action)
        elif isinstance(action, PowerUp):
            events = _apply_powerup(new, action)
        elif isinstance(action, EndTurn):
            events = _apply_end_turn(new)
        else:
            raise InvalidInput(_("Unknown action."))
        return Result(new, events)

    def owner(self, state: State, action: Any) -> int | None:
        if isinstance(action, Shot):
            return _seat_of(state, action.shooter)
        if isinstance(action, Tagback):
            return _seat_of(state, action.source)
        if isinstance(action, Move) and action.powerup is not None:
            return int(state["current"])  # the player on turn plays the power-up
        if isinstance(action, Adjust | WeaponAction | Move | PowerUp):
            return _seat_of(state, action.player)
        if isinstance(action, EndTurn):
            return int(state["current"])
        return None

    def view(self, state: State, seat: int | None) -> State:
        return upgraded(copy_state(state))

    def waiting_for(self, state: State) -> list[int]:
        """The companion never waits: the table plays at its own pace."""
        return []

    def default_action(self, state: State, seat: int) -> dict[str, Any] | None:
        return None

    def outcome(self, state: State) -> Outcome | None:
        return _outcome(state)


ENGINE: Engine = AdrenalineEngine()
