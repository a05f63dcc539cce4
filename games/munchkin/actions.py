"""Munchkin Bites! actions: typed, frozen values parsed from the JSON a phone posts.

Every action has a ``to_payload`` that gives its canonical JSON form (the form
stored in the session's action log and parsed again on replay). ``parse_action``
turns any payload into one of these or raises ``InvalidInput``; whether the rules
allow the action *now* is checked later, by ``apply``, with a ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.errors import InvalidInput
from games.engine.errors import gettext_noop as _
from games.engine.validate import as_bool, as_choice, as_int, as_list, require

__all__ = [
    "ACTION_TYPES",
    "MAX_SEATS",
    "MIN_SEATS",
    "PHASES",
    "RACES",
    "SEXES",
    "SIDES",
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
    "parse_action",
    "parse_options",
]

MIN_SEATS, MAX_SEATS = 3, 6
RACES: tuple[str, ...] = ("vampire", "werewolf", "changeling", "mummy")
SEXES: tuple[str, ...] = ("male", "female")
SIDES: tuple[str, ...] = ("players", "monsters")
PHASES: tuple[str, ...] = ("kick_door", "look_for_trouble", "loot_room", "charity")
RUN_MODES: tuple[str, ...] = ("roll", "escape", "caught")

MAX_NAME = 60
MAX_LEVEL_STEP = 9  # one tap or card moves a level by at most this much
MAX_GEAR_STEP = 30
MAX_MONSTER_LEVEL = 30  # printed level; enhancers come on top
MAX_ENHANCER = 10
MAX_BONUS = 20
MAX_ESCAPE_MODIFIER = 6
MAX_GOLD = 100_000
MAX_HELPER_LEVELS = 2
MAX_MONSTER_ID = 999
MAX_DISCARDS = 30


# --------------------------------------------------------------------------
# Turn and table
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class NextPhase:
    def to_payload(self) -> dict[str, Any]:
        return {"type": "next_phase"}


@dataclass(frozen=True)
class EndTurn:
    def to_payload(self) -> dict[str, Any]:
        return {"type": "end_turn"}


@dataclass(frozen=True)
class Roll:
    """A shared six-sided die roll, for anything the table needs a die for."""

    def to_payload(self) -> dict[str, Any]:
        return {"type": "roll"}


# --------------------------------------------------------------------------
# A player's row
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """Move ``seat``'s level by ``delta`` (a tap, a card, Bad Stuff).

    ``discard`` is an order of preference (power indices) used only if the loss
    forces powers out; the newest powers go after the listed ones.
    """

    seat: int
    delta: int
    discard: tuple[int, ...] = ()

    def to_payload(self) -> dict[str, Any]:
        return {
            "type": "level",
            "seat": self.seat,
            "delta": self.delta,
            "discard": list(self.discard),
        }


@dataclass(frozen=True)
class Gear:
    seat: int
    delta: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "gear", "seat": self.seat, "delta": self.delta}


@dataclass(frozen=True)
class Sex:
    seat: int
    sex: str

    def to_payload(self) -> dict[str, Any]:
        return {"type": "sex", "seat": self.seat, "sex": self.sex}


@dataclass(frozen=True)
class AddRace:
    seat: int
    race: str

    def to_payload(self) -> dict[str, Any]:
        return {"type": "add_race", "seat": self.seat, "race": self.race}


@dataclass(frozen=True)
class RemoveRace:
    seat: int
    race: str

    def to_payload(self) -> dict[str, Any]:
        return {"type": "remove_race", "seat": self.seat, "race": self.race}


@dataclass(frozen=True)
class HalfBreed:
    seat: int
    on: bool

    def to_payload(self) -> dict[str, Any]:
        return {"type": "half_breed", "seat": self.seat, "on": self.on}


@dataclass(frozen=True)
class AddPower:
    seat: int
    name: str
    rank: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "add_power", "seat": self.seat, "name": self.name, "rank": self.rank}


@dataclass(frozen=True)
class RemovePower:
    seat: int
    index: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "remove_power", "seat": self.seat, "index": self.index}


@dataclass(frozen=True)
class Sell:
    """Sell items worth ``gold`` pieces: one level per full 1000, no change."""

    seat: int
    gold: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "sell", "seat": self.seat, "gold": self.gold}


@dataclass(frozen=True)
class Die:
    """``seat``'s character dies (usually Bad Stuff)."""

    seat: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "die", "seat": self.seat}


# --------------------------------------------------------------------------
# Combat
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MonsterSpec:
    """A monster card entering a fight.

    ``levels``: levels its kill is worth (2 for the big ones). ``escape``: added to
    every run-away roll against it (negative for fast monsters).
    """

    name: str
    level: int
    levels: int = 1
    escape: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "level": self.level,
            "levels": self.levels,
            "escape": self.escape,
        }


@dataclass(frozen=True)
class Fight:
    """``seat`` starts a fight against one monster."""

    seat: int
    monster: MonsterSpec

    def to_payload(self) -> dict[str, Any]:
        return {"type": "fight", "seat": self.seat, "monster": self.monster.to_payload()}


@dataclass(frozen=True)
class AddMonster:
    """Another monster joins the fight (``wandering``: by a Wandering Monster card)."""

    monster: MonsterSpec
    wandering: bool = True

    def to_payload(self) -> dict[str, Any]:
        return {
            "type": "add_monster",
            "monster": self.monster.to_payload(),
            "wandering": self.wandering,
        }


@dataclass(frozen=True)
class EvilTwin:
    """An Evil Twin: a copy of monster ``monster`` (an id), enhancers included."""

    monster: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "evil_twin", "monster": self.monster}


@dataclass(frozen=True)
class Enhance:
    """A monster enhancer (+ or -) on monster ``monster``, shared with its twins."""

    monster: int
    value: int
    name: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"type": "enhance", "monster": self.monster, "value": self.value, "name": self.name}


@dataclass(frozen=True)
class RemoveMonster:
    """A card takes monster ``monster`` out of the fight: nobody gains its levels."""

    monster: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "remove_monster", "monster": self.monster}


@dataclass(frozen=True)
class Bonus:
    """A one-shot bonus for this fight on one side (``players`` or ``monsters``)."""

    side: str
    value: int
    name: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"type": "bonus", "side": self.side, "value": self.value, "name": self.name}


@dataclass(frozen=True)
class Helper:
    """``seat`` helps the fighter (``None``: nobody helps any more)."""

    seat: int | None

    def to_payload(self) -> dict[str, Any]:
        return {"type": "helper", "seat": self.seat}


@dataclass(frozen=True)
class Resolve:
    """End the fighting: a kill if the players are strictly ahead, else run away.

    ``helper_levels``: levels a card gives the helper for the kill (normally 0).
    """

    helper_levels: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {"type": "resolve", "helper_levels": self.helper_levels}


@dataclass(frozen=True)
class Run:
    """``seat`` runs from ``monster`` (``None``: every monster not yet settled).

    ``mode``: ``roll`` the die, ``escape`` without rolling (a Lackey, a card), or
    ``caught`` without rolling (a monster nobody escapes).
    """

    seat: int
    monster: int | None = None
    mode: str = "roll"

    def to_payload(self) -> dict[str, Any]:
        return {"type": "run", "seat": self.seat, "monster": self.monster, "mode": self.mode}


@dataclass(frozen=True)
class RunBonus:
    """Change ``seat``'s modifier to every run-away roll in this fight."""

    seat: int
    delta: int

    def to_payload(self) -> dict[str, Any]:
        return {"type": "run_bonus", "seat": self.seat, "delta": self.delta}


@dataclass(frozen=True)
class CancelCombat:
    """Call the fight off: nobody gains or loses anything."""

    def to_payload(self) -> dict[str, Any]:
        return {"type": "cancel_combat"}


Action = (
    NextPhase
    | EndTurn
    | Roll
    | Level
    | Gear
    | Sex
    | AddRace
    | RemoveRace
    | HalfBreed
    | AddPower
    | RemovePower
    | Sell
    | Die
    | Fight
    | AddMonster
    | EvilTwin
    | Enhance
    | RemoveMonster
    | Bonus
    | Helper
    | Resolve
    | Run
    | RunBonus
    | CancelCombat
)


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------


def _mapping(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(_("“%(field)s” must be an object."), field=field)
    return value


def _seat(payload: Mapping[str, Any], key: str = "seat") -> int:
    return as_int(require(payload, key), key, 0, MAX_SEATS - 1)


def _nonzero(payload: Mapping[str, Any], key: str, limit: int) -> int:
    value = as_int(require(payload, key), key, -limit, limit)
    if value == 0:
        raise InvalidInput(_("“%(field)s” must not be zero."), field=key)
    return value


def _text(value: Any, field: str, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidInput(_("“%(field)s” must be a text."), field=field)
    value = " ".join(value.split())
    if required and not value:
        raise InvalidInput(_("The field “%(field)s” is missing."), field=field)
    if len(value) > MAX_NAME:
        raise InvalidInput(
            _("“%(field)s” must be a text of at most %(max)s characters."),
            field=field,
            max=MAX_NAME,
        )
    return value


def _optional(payload: Mapping[str, Any], key: str, default: Any) -> Any:
    value = payload.get(key)
    return default if value is None or value == "" else value


def _monster_id(payload: Mapping[str, Any]) -> int:
    return as_int(require(payload, "monster"), "monster", 1, MAX_MONSTER_ID)


def _monster_spec(raw: Any) -> MonsterSpec:
    spec = _mapping(raw, "monster")
    return MonsterSpec(
        name=_text(spec.get("name"), "monster.name", required=False),
        level=as_int(require(spec, "level"), "monster.level", 1, MAX_MONSTER_LEVEL),
        levels=as_int(_optional(spec, "levels", 1), "monster.levels", 1, 2),
        escape=as_int(
            _optional(spec, "escape", 0),
            "monster.escape",
            -MAX_ESCAPE_MODIFIER,
            MAX_ESCAPE_MODIFIER,
        ),
    )


def _discards(value: Any) -> tuple[int, ...]:
    items = as_list(value, "discard", MAX_DISCARDS)
    indices = tuple(as_int(item, "discard", 0, MAX_DISCARDS - 1) for item in items)
    if len(set(indices)) != len(indices):
        raise InvalidInput(_("Each power can be listed only once."))
    return indices


def _parse_level(p: Mapping[str, Any]) -> Level:
    return Level(_seat(p), _nonzero(p, "delta", MAX_LEVEL_STEP), _discards(p.get("discard")))


def _parse_run(p: Mapping[str, Any]) -> Run:
    raw = p.get("monster")
    monster = None if raw is None or raw == "" else as_int(raw, "monster", 1, MAX_MONSTER_ID)
    mode = as_choice(_optional(p, "mode", "roll"), "mode", RUN_MODES)
    return Run(_seat(p), monster, mode)


def _parse_helper(p: Mapping[str, Any]) -> Helper:
    raw = p.get("seat")
    return Helper(None if raw is None or raw == "" else _seat(p))


_PARSERS: dict[str, Any] = {
    "next_phase": lambda p: NextPhase(),
    "end_turn": lambda p: EndTurn(),
    "roll": lambda p: Roll(),
    "level": _parse_level,
    "gear": lambda p: Gear(_seat(p), _nonzero(p, "delta", MAX_GEAR_STEP)),
    "sex": lambda p: Sex(_seat(p), as_choice(require(p, "sex"), "sex", SEXES)),
    "add_race": lambda p: AddRace(_seat(p), as_choice(require(p, "race"), "race", RACES)),
    "remove_race": lambda p: RemoveRace(_seat(p), as_choice(require(p, "race"), "race", RACES)),
    "half_breed": lambda p: HalfBreed(_seat(p), as_bool(_optional(p, "on", True), "on")),
    "add_power": lambda p: AddPower(
        _seat(p),
        _text(p.get("name"), "name", required=True),
        as_int(require(p, "rank"), "rank", 1, 3),
    ),
    "remove_power": lambda p: RemovePower(
        _seat(p), as_int(require(p, "index"), "index", 0, MAX_DISCARDS - 1)
    ),
    "sell": lambda p: Sell(_seat(p), as_int(require(p, "gold"), "gold", 1, MAX_GOLD)),
    "die": lambda p: Die(_seat(p)),
    "fight": lambda p: Fight(_seat(p), _monster_spec(require(p, "monster"))),
    "add_monster": lambda p: AddMonster(
        _monster_spec(require(p, "monster")), as_bool(_optional(p, "wandering", True), "wandering")
    ),
    "evil_twin": lambda p: EvilTwin(_monster_id(p)),
    "enhance": lambda p: Enhance(
        _monster_id(p),
        _nonzero(p, "value", MAX_ENHANCER),
        _text(p.get("name"), "name", required=False),
    ),
    "remove_monster": lambda p: RemoveMonster(_monster_id(p)),
    "bonus": lambda p: Bonus(
        as_choice(require(p, "side"), "side", SIDES),
        _nonzero(p, "value", MAX_BONUS),
        _text(p.get("name"), "name", required=False),
    ),
    "helper": _parse_helper,
    "resolve": lambda p: Resolve(
        as_int(_optional(p, "helper_levels", 0), "helper_levels", 0, MAX_HELPER_LEVELS)
    ),
    "run": _parse_run,
    "run_bonus": lambda p: RunBonus(_seat(p), _nonzero(p, "delta", MAX_ESCAPE_MODIFIER)),
    "cancel_combat": lambda p: CancelCombat(),
}
ACTION_TYPES: tuple[str, ...] = tuple(_PARSERS)


def parse_action(payload: Mapping[str, Any]) -> Action:
    """Turn a client's JSON payload into a typed action (``InvalidInput`` if bad)."""
    payload = _mapping(payload, "action")
    kind = as_choice(require(payload, "type"), "type", ACTION_TYPES)
    try:
        return _PARSERS[kind](payload)
    except OverflowError:  # an infinite number (JSON "Infinity") is not a whole number
        raise InvalidInput(_("A number in this request is out of range.")) from None


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    """Validate set-up options: ``first_player`` (a seat) and ``sexes`` (one per seat).

    ``sexes`` is optional: a character's starting sex is its player's, and a seat
    left out (or ``null``) starts with none recorded until the table sets it.
    """
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidInput(_("“%(field)s” must be a whole number."), field="seats")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidInput(
            _("Munchkin Bites! is played by %(low)s to %(high)s players."),
            low=MIN_SEATS,
            high=MAX_SEATS,
        )
    raw = _mapping(raw if raw is not None else {}, "options")
    first = as_int(_optional(raw, "first_player", 0), "first_player", 0, seats - 1)
    sexes_raw = as_list(raw.get("sexes"), "sexes", seats)
    sexes: list[str | None] = [
        None if value in (None, "") else as_choice(value, f"sexes[{i}]", SEXES)
        for i, value in enumerate(sexes_raw)
    ]
    sexes.extend([None] * (seats - len(sexes)))
    return {"first_player": first, "sexes": sexes}
