"""Whom (and where) each weapon effect can hit, on a board with players on it (pure).

One ``EffectRule`` per effect of the 21 weapons (``RULES``), built from a few small
conditions ("visible", "exactly 1 move away", "seen by the previous target"...). The
questions a screen asks, all about one ``Shot`` (board, positions, shooter, and what
earlier effects of the same shot already chose):

* ``rule(weapon, effect)``: what the effect picks (players, an area, or nothing but a
  move), whether it aims at a square, a room or a direction first, how many targets;
* ``legal_aims(shot, weapon, effect)``: the squares / rooms / directions it may aim at;
* ``target_options(shot, weapon, effect, aim)``: every other player, each with
  ``Verdict(ok, reason)``; without an aim, "ok" means "some legal aim reaches them";
* ``check_targets(shot, weapon, effect, targets, aim)``: the problems of a whole
  choice (empty when it is legal), e.g. two Shockwave targets on one square;
* ``struck(shot, weapon, effect, targets, aim)``: who the effect then hits, with the
  band that says which of the card's damage numbers applies (Barbecue: 0 first square,
  1 second; Hellion: 0 the target, 1 the others on its square);
* ``destinations(shot, weapon, effect, player, aim)``: where a move the effect makes
  may end (the shooter's own move, or the target's).

Positions are those at the moment the effect resolves. The shooter's square can be
overridden (``Shot.shooter_square``) to ask "after gliding there, whom can I hit?".
The reason codes (``Reason``) are listed, with their meaning, in
``docs/rules/adrenaline_map.md``; the web side words them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum

from games.adrenaline.arena import Board, Direction, Square

#: What an effect aims at before (or instead of) picking players.
Aim = Square | Direction | str  # a square, a cardinal direction, or a room's colour


class Reason(StrEnum):
    """Why a player can't be targeted, or why a choice of targets is not legal."""

    # One player at a time (target_options and check_targets).
    NOT_ON_BOARD = "not_on_board"  # the player has no square (not spawned yet, or dead)
    NOT_VISIBLE = "not_visible"  # the shooter can't see them
    VISIBLE = "visible"  # Heatseeker: the shooter can see them
    TOO_CLOSE = "too_close"  # Whisper: fewer than 2 moves away
    TOO_FAR = "too_far"  # Tractor Beam punisher: more than 2 moves away
    ON_YOUR_SQUARE = "on_your_square"  # the effect can't hit the shooter's own square
    NOT_ON_YOUR_SQUARE = "not_on_your_square"  # the effect only hits the shooter's square
    NOT_EXACTLY_ONE_AWAY = "not_exactly_one_away"  # 2 or more moves away
    NOT_IN_LINE = "not_in_line"  # not in the (any) direction the weapon fires along
    SAME_ROOM = "same_room"  # Furnace: in the shooter's own room
    NOT_IN_ROOM = "not_in_room"  # Furnace: not in the room aimed at
    NOT_ON_SQUARE = "not_on_square"  # not on the square aimed at
    NOT_NEAR_VORTEX = "not_near_vortex"  # more than 1 move from the (any legal) vortex
    CANNOT_MOVE_INTO_SIGHT = "cannot_move_into_sight"  # Tractor Beam: no visible square within 2
    NO_PREVIOUS_TARGET = "no_previous_target"  # the effect builds on an earlier one not chosen
    NOT_SEEN_BY_PREVIOUS = "not_seen_by_previous"  # T.H.O.R.: the previous target can't see them
    NOT_BASIC_TARGET = "not_basic_target"  # must be a target of the basic effect
    ALREADY_TARGETED = "already_targeted"  # an earlier effect of this shot already took them
    NOT_ON_TARGET_SQUARE = "not_on_target_square"  # Rocket warhead: not on the target's square
    # A whole choice (check_targets only).
    UNKNOWN_PLAYER = "unknown_player"  # not a player of this game
    SHOOTER = "shooter"  # the shooter can't target themselves
    DUPLICATE_TARGET = "duplicate_target"  # the same player twice
    NO_TARGET = "no_target"  # the effect needs at least one target
    TOO_MANY_TARGETS = "too_many_targets"  # more than the effect allows
    SAME_SQUARE = "same_square"  # one target per square (Shockwave, Flamethrower, Power Glove)
    NO_SHARED_AIM = "no_shared_aim"  # each is fine, but no one direction/square covers all
    ONE_OLD_AND_ONE_NEW = "one_old_and_one_new"  # Machine Gun tripod: at most one of each
    ILLEGAL_AIM = "illegal_aim"  # the square/room/direction is not one the effect may aim at


class Pick(StrEnum):
    """What the player chooses for an effect."""

    PLAYERS = "players"  # up to max_targets players
    AREA = "area"  # nobody: everyone the effect (and its aim) covers is hit
    NONE = "none"  # nobody: the effect only moves the shooter


class AimKind(StrEnum):
    SQUARE = "square"
    ROOM = "room"
    DIRECTION = "direction"


class Mover(Enum):
    """Who an effect's move moves."""

    SHOOTER = "shooter"
    TARGET = "target"


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: Reason | None = None


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a choice: about a player, or (``player=None``) the aim or the set."""

    player: str | None
    reason: Reason


@dataclass(frozen=True, eq=False)
class Shot:
    """The situation an effect is judged in.

    ``chosen`` holds the targets already chosen for earlier effects of the same shot,
    by effect slug (``{"basic": ("anna",)}``); ``aims`` the aims of earlier effects
    (the Vortex Cannon's black hole reuses the basic effect's vortex).
    ``shooter_square`` overrides the shooter's square (after a move the shot allows).
    """

    board: Board
    positions: Mapping[str, Square | None]
    shooter: str
    shooter_square: Square | None = None
    chosen: Mapping[str, Sequence[str]] = field(default_factory=dict)
    aims: Mapping[str, Aim] = field(default_factory=dict)

    @property
    def origin(self) -> Square:
        """The shooter's square (or the override)."""
        square = self.shooter_square or self.positions.get(self.shooter)
        if square is None:
            raise ValueError(f"the shooter {self.shooter!r} is not on the board")
        return square

    def others(self) -> list[str]:
        return [player for player in self.positions if player != self.shooter]

    def targets_of(self, effect: str) -> tuple[str, ...]:
        return tuple(self.chosen.get(effect, ()))

    def moved_to(self, square: Square) -> Shot:
        """The same shot with the shooter on ``square``."""
        return replace(self, shooter_square=square)


Condition = Callable[[Shot, str, Square, Aim | None], Reason | None]
AimsFunction = Callable[[Shot], tuple[Aim, ...]]
Destinations = Callable[[Shot, Square | None, Aim | None], frozenset[Square]]
Bands = Callable[[Shot, Sequence[str], Aim | None], dict[str, int]]


@dataclass(frozen=True)
class EffectRule:
    """How one effect chooses its targets, aims and moves."""

    pick: Pick
    conditions: tuple[Condition, ...] = ()
    max_targets: int | None = 1  # None: no limit (every player the area covers)
    min_targets: int = 1
    aim: AimKind | None = None
    aims: AimsFunction | None = None
    one_per_square: bool = False
    tripod: bool = False
    mover: Mover | None = None
    #: Whether the mover may end on their starting square (a move of 0).
    may_stay: bool = False
    move: Destinations | None = None
    bands: Bands | None = None


# --- Conditions -------------------------------------------------------------------------


def visible(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    return None if shot.board.can_see(shot.origin, square) else Reason.NOT_VISIBLE


def unseen(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    return Reason.VISIBLE if shot.board.can_see(shot.origin, square) else None


def at_least(moves: int) -> Condition:
    def condition(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
        distance = shot.board.distance(shot.origin, square)
        if distance >= moves:
            return None
        return Reason.ON_YOUR_SQUARE if moves == 1 else Reason.TOO_CLOSE

    return condition


def at_most(moves: int) -> Condition:
    def condition(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
        return None if shot.board.distance(shot.origin, square) <= moves else Reason.TOO_FAR

    return condition


def exactly_one(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    distance = shot.board.distance(shot.origin, square)
    if distance == 1:
        return None
    return Reason.ON_YOUR_SQUARE if distance == 0 else Reason.NOT_EXACTLY_ONE_AWAY


def on_your_square(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    return None if square == shot.origin else Reason.NOT_ON_YOUR_SQUARE


def off_your_square(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    return Reason.ON_YOUR_SQUARE if square == shot.origin else None


def not_target_of(*effects: str) -> Condition:
    """A different player from the targets of ``effects`` (earlier in the shot)."""

    def condition(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
        taken = {p for effect in effects for p in shot.targets_of(effect)}
        return Reason.ALREADY_TARGETED if player in taken else None

    return condition


def target_of(effect: str) -> Condition:
    """One of the targets ``effect`` already hit."""

    def condition(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
        earlier = shot.targets_of(effect)
        if not earlier:
            return Reason.NO_PREVIOUS_TARGET
        return None if player in earlier else Reason.NOT_BASIC_TARGET

    return condition


def seen_by_target_of(effect: str) -> Condition:
    """T.H.O.R.: someone the target of ``effect`` can see (the shooter need not)."""

    def condition(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
        earlier = shot.targets_of(effect)
        where = shot.positions.get(earlier[0]) if earlier else None
        if where is None:
            return Reason.NO_PREVIOUS_TARGET
        return None if shot.board.can_see(where, square) else Reason.NOT_SEEN_BY_PREVIOUS

    return condition


def in_line(*, through_walls: bool, reach: int | None, own_square: bool) -> Condition:
    """On a square along the aimed direction (``reach`` squares at most)."""

    def condition(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
        if not isinstance(aim, Direction):
            return Reason.NOT_IN_LINE
        if own_square and square == shot.origin:
            return None
        line = shot.board.squares_in_direction(shot.origin, aim, through_walls=through_walls)
        return None if square in line[:reach] else Reason.NOT_IN_LINE

    return condition


def on_aimed_square(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    return None if square == aim else Reason.NOT_ON_SQUARE


def near_vortex(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    if not isinstance(aim, Square) or shot.board.distance(square, aim) > 1:
        return Reason.NOT_NEAR_VORTEX
    return None


def not_your_room(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    board = shot.board
    return Reason.SAME_ROOM if board.room_of[square] == board.room_of[shot.origin] else None


def in_aimed_room(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    return None if shot.board.room_of[square] == aim else Reason.NOT_IN_ROOM


def movable_into_sight(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    return None if _tractor_squares(shot, square, aim) else Reason.CANNOT_MOVE_INTO_SIGHT


def on_target_start(effect: str) -> Condition:
    """Rocket Launcher's warhead: on the square the basic target stood on (them included)."""

    def condition(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
        earlier = shot.targets_of(effect)
        where = shot.positions.get(earlier[0]) if earlier else None
        if where is None:
            return Reason.NO_PREVIOUS_TARGET
        return None if square == where else Reason.NOT_ON_TARGET_SQUARE

    return condition


def tripod_target(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    """Machine Gun's tripod: a basic target the focus shot left alone, or a new visible one."""
    if player in shot.targets_of("basic"):
        return Reason.ALREADY_TARGETED if player in shot.targets_of("focus-shot") else None
    return visible(shot, player, square, aim)


def not_tripod_extra(shot: Shot, player: str, square: Square, aim: Aim | None) -> Reason | None:
    """Machine Gun's focus shot: not the basic target the tripod already gave its extra to."""
    extra = set(shot.targets_of("turret-tripod")) & set(shot.targets_of("basic"))
    return Reason.ALREADY_TARGETED if player in extra else None


# --- Aims -------------------------------------------------------------------------------


def every_direction(shot: Shot) -> tuple[Aim, ...]:
    return tuple(Direction)


def walkable_directions(shot: Shot) -> tuple[Aim, ...]:
    """Directions with at least one square before a wall (a move could go that way)."""
    board, origin = shot.board, shot.origin
    return tuple(d for d in Direction if board.squares_in_direction(origin, d, through_walls=False))


def visible_squares(shot: Shot) -> tuple[Aim, ...]:
    return tuple(sorted(shot.board.visible_squares(shot.origin)))


def visible_other_squares(shot: Shot) -> tuple[Aim, ...]:
    """Squares you can see, your own left out (at least 1 move away)."""
    return tuple(s for s in sorted(shot.board.visible_squares(shot.origin)) if s != shot.origin)


def vortex_squares(shot: Shot) -> tuple[Aim, ...]:
    """The black hole opens on the basic effect's vortex (any legal one if not known)."""
    vortex = shot.aims.get("basic")
    return (vortex,) if isinstance(vortex, Square) else visible_other_squares(shot)


def adjacent_squares(shot: Shot) -> tuple[Aim, ...]:
    return tuple(sorted(shot.board.within(shot.origin, 1, 1)))


def other_visible_rooms(shot: Shot) -> tuple[Aim, ...]:
    """Rooms you can see other than your own: those beyond the doors of your square."""
    return tuple(sorted(shot.board.door_rooms(shot.origin)))


# --- Moves ------------------------------------------------------------------------------


def _tractor_squares(shot: Shot, start: Square, aim: Aim | None) -> frozenset[Square]:
    board = shot.board
    return frozenset(s for s in board.within(start, 0, 2) if board.can_see(shot.origin, s))


def shooter_moves(low: int, high: int) -> Destinations:
    def move(shot: Shot, start: Square | None, aim: Aim | None) -> frozenset[Square]:
        return shot.board.within(shot.origin, low, high)

    return move


def target_steps(shot: Shot, start: Square | None, aim: Aim | None) -> frozenset[Square]:
    assert start is not None
    return shot.board.neighbours(start)


def tractor_move(shot: Shot, start: Square | None, aim: Aim | None) -> frozenset[Square]:
    assert start is not None
    return _tractor_squares(shot, start, aim)


def onto_shooter(shot: Shot, start: Square | None, aim: Aim | None) -> frozenset[Square]:
    return frozenset({shot.origin})


def into_vortex(shot: Shot, start: Square | None, aim: Aim | None) -> frozenset[Square]:
    assert start is not None
    vortices = [aim] if isinstance(aim, Square) else vortex_squares(shot)
    return frozenset(
        v for v in vortices if isinstance(v, Square) and shot.board.distance(start, v) <= 1
    )


def straight_push(shot: Shot, start: Square | None, aim: Aim | None) -> frozenset[Square]:
    """Sledgehammer: 0, 1 or 2 squares one way, through doors but not walls."""
    assert start is not None
    board = shot.board
    ends = {start}
    for direction in Direction:
        ends.update(board.squares_in_direction(start, direction, through_walls=False)[:2])
    return frozenset(ends)


def flight(shot: Shot, start: Square | None, aim: Aim | None) -> frozenset[Square]:
    """Power Glove's rocket fist: 1 or 2 squares in the aimed direction (legal moves)."""
    board, origin = shot.board, shot.origin
    directions = [aim] if isinstance(aim, Direction) else list(Direction)
    return frozenset(
        s
        for d in directions
        if isinstance(d, Direction)
        for s in board.squares_in_direction(origin, d, through_walls=False)[:2]
    )


# --- Bands (which damage number of the card applies) -------------------------------------


def hellion_bands(shot: Shot, targets: Sequence[str], aim: Aim | None) -> dict[str, int]:
    """The target (band 0: damage and marks), then everyone else on its square (band 1)."""
    if not targets:
        return {}
    main = targets[0]
    where = shot.positions[main]
    bands = {main: 0}
    for player in shot.others():
        if player != main and shot.positions.get(player) == where:
            bands[player] = 1
    return bands


def line_bands(shot: Shot, targets: Sequence[str], aim: Aim | None) -> dict[str, int]:
    """Barbecue: band 0 on the first square of the line, band 1 on the second."""
    if not isinstance(aim, Direction):
        raise ValueError("Barbecue needs a direction")
    line = shot.board.squares_in_direction(shot.origin, aim, through_walls=False)[:2]
    return {
        player: line.index(square)
        for player in shot.others()
        if (square := shot.positions.get(player)) in line and square is not None
    }


# --- The 21 weapons ---------------------------------------------------------------------

_LINE_NO_WALLS = in_line(through_walls=False, reach=2, own_square=False)
_RAIL = in_line(through_walls=True, reach=None, own_square=True)


def _players(*conditions: Condition, **options: object) -> EffectRule:
    return EffectRule(Pick.PLAYERS, conditions, **options)  # type: ignore[arg-type]


def _area(*conditions: Condition, **options: object) -> EffectRule:
    return EffectRule(Pick.AREA, conditions, max_targets=None, min_targets=0, **options)  # type: ignore[arg-type]


def _own_move(low: int, high: int) -> EffectRule:
    return EffectRule(
        Pick.NONE, max_targets=0, min_targets=0, mover=Mover.SHOOTER, move=shooter_moves(low, high)
    )


_HELLION = _players(
    visible,
    at_least(1),
    on_aimed_square,
    aim=AimKind.SQUARE,
    aims=visible_other_squares,
    bands=hellion_bands,
)
_FIST_LINE = in_line(through_walls=False, reach=2, own_square=False)

RULES: dict[str, dict[str, EffectRule]] = {
    "lock-rifle": {
        "basic": _players(visible),
        "second-lock": _players(not_target_of("basic"), visible),
    },
    "machine-gun": {
        "basic": _players(visible, max_targets=2),
        "focus-shot": _players(target_of("basic"), not_tripod_extra),
        "turret-tripod": _players(tripod_target, max_targets=2, tripod=True),
    },
    "thor": {
        "basic": _players(visible),
        "chain-reaction": _players(not_target_of("basic"), seen_by_target_of("basic")),
        "high-voltage": _players(
            not_target_of("basic", "chain-reaction"), seen_by_target_of("chain-reaction")
        ),
    },
    "plasma-gun": {
        "basic": _players(visible),
        "phase-glide": _own_move(1, 2),
        "charged-shot": _players(target_of("basic")),
    },
    "whisper": {"basic": _players(visible, at_least(2))},
    "electroscythe": {"basic": _area(on_your_square), "reaper": _area(on_your_square)},
    "tractor-beam": {
        "basic": _players(movable_into_sight, mover=Mover.TARGET, may_stay=True, move=tractor_move),
        "punisher": _players(at_most(2), mover=Mover.TARGET, may_stay=True, move=onto_shooter),
    },
    "vortex-cannon": {
        "basic": _players(
            near_vortex,
            aim=AimKind.SQUARE,
            aims=visible_other_squares,
            mover=Mover.TARGET,
            may_stay=True,
            move=into_vortex,
        ),
        "black-hole": _players(
            not_target_of("basic"),
            near_vortex,
            max_targets=2,
            aim=AimKind.SQUARE,
            aims=vortex_squares,
            mover=Mover.TARGET,
            may_stay=True,
            move=into_vortex,
        ),
    },
    "furnace": {
        "basic": _area(
            not_your_room, visible, in_aimed_room, aim=AimKind.ROOM, aims=other_visible_rooms
        ),
        "cozy-fire": _area(exactly_one, on_aimed_square, aim=AimKind.SQUARE, aims=adjacent_squares),
    },
    "heatseeker": {"basic": _players(unseen)},
    "hellion": {"basic": _HELLION, "nano-tracer": _HELLION},
    "flamethrower": {
        "basic": _players(
            off_your_square,
            _LINE_NO_WALLS,
            max_targets=2,
            aim=AimKind.DIRECTION,
            aims=walkable_directions,
            one_per_square=True,
        ),
        "barbecue": _area(
            off_your_square,
            _LINE_NO_WALLS,
            aim=AimKind.DIRECTION,
            aims=walkable_directions,
            bands=line_bands,
        ),
    },
    "grenade-launcher": {
        "basic": _players(visible, mover=Mover.TARGET, move=target_steps),
        "extra-grenade": _area(visible, on_aimed_square, aim=AimKind.SQUARE, aims=visible_squares),
    },
    "rocket-launcher": {
        "basic": _players(visible, at_least(1), mover=Mover.TARGET, move=target_steps),
        "rocket-jump": _own_move(1, 2),
        "fragmenting-warhead": _area(on_target_start("basic")),
    },
    "railgun": {
        "basic": _players(_RAIL, aim=AimKind.DIRECTION, aims=every_direction),
        "piercing": _players(_RAIL, max_targets=2, aim=AimKind.DIRECTION, aims=every_direction),
    },
    "cyberblade": {
        "basic": _players(on_your_square),
        "shadowstep": _own_move(1, 1),
        "slice-and-dice": _players(on_your_square, not_target_of("basic")),
    },
    "zx-2": {"basic": _players(visible), "scanner": _players(visible, max_targets=3)},
    "shotgun": {
        "basic": _players(on_your_square, mover=Mover.TARGET, move=target_steps),
        "long-barrel": _players(exactly_one),
    },
    "power-glove": {
        "basic": _players(exactly_one, mover=Mover.SHOOTER, move=shooter_moves(1, 1)),
        "rocket-fist": _players(
            off_your_square,
            _FIST_LINE,
            max_targets=2,
            min_targets=0,
            aim=AimKind.DIRECTION,
            aims=walkable_directions,
            one_per_square=True,
            mover=Mover.SHOOTER,
            move=flight,
        ),
    },
    "shockwave": {
        "basic": _players(exactly_one, max_targets=3, one_per_square=True),
        "tsunami": _area(exactly_one),
    },
    "sledgehammer": {
        "basic": _players(on_your_square),
        "pulverize": _players(
            on_your_square, mover=Mover.TARGET, may_stay=True, move=straight_push
        ),
    },
}


# --- The questions ----------------------------------------------------------------------


def rule(weapon: str, effect: str) -> EffectRule:
    """The targeting rule of one effect; ValueError names an unknown weapon or effect."""
    try:
        effects = RULES[weapon]
    except KeyError:
        raise ValueError(f"unknown weapon {weapon!r}") from None
    try:
        return effects[effect]
    except KeyError:
        raise ValueError(f"{weapon} has no effect {effect!r}") from None


def legal_aims(shot: Shot, weapon: str, effect: str) -> tuple[Aim, ...]:
    """The squares, rooms (by colour) or directions the effect may aim at (empty: no aim)."""
    found = rule(weapon, effect)
    return found.aims(shot) if found.aims else ()


def parse_aim(shot: Shot, weapon: str, effect: str, text: str) -> Aim:
    """An aim as a form posts it ("1-2", "N", "yellow"), checked against the legal aims.
    ValueError, with the reason in words, for anything else."""
    found = rule(weapon, effect)
    if found.aim is None:
        raise ValueError(f"{weapon} {effect} doesn't aim at anything")
    aim: Aim
    if found.aim is AimKind.SQUARE:
        aim = Square.parse(text)
    elif found.aim is AimKind.DIRECTION:
        aim = Direction.parse(text)
    else:
        aim = text
    if aim not in legal_aims(shot, weapon, effect):
        raise ValueError(f"{weapon} {effect} can't aim at {text!r} from here")
    return aim


def _judge(found: EffectRule, shot: Shot, player: str, aim: Aim | None) -> Verdict:
    square = shot.positions.get(player)
    if square is None:
        return Verdict(False, Reason.NOT_ON_BOARD)
    aims: Sequence[Aim | None] = [aim]
    if found.aim is not None and aim is None:
        aims = list(found.aims(shot)) if found.aims else []
        aims = aims or [None]
    first: Reason | None = None
    for candidate in aims:
        reason = next(
            (r for c in found.conditions if (r := c(shot, player, square, candidate))), None
        )
        if reason is None:
            return Verdict(True)
        first = first or reason
    return Verdict(False, first)


def target_options(
    shot: Shot, weapon: str, effect: str, aim: Aim | None = None
) -> dict[str, Verdict]:
    """Every player but the shooter, with whether this effect can target (or, for an
    area effect, hits) them. Without an aim, an aiming effect counts any legal aim.
    An effect that only moves the shooter targets nobody: the answer is empty."""
    found = rule(weapon, effect)
    if found.pick is Pick.NONE:
        return {}
    return {player: _judge(found, shot, player, aim) for player in shot.others()}


def _aim_problem(found: EffectRule, shot: Shot, aim: Aim | None) -> bool:
    if aim is None:
        return False
    return found.aims is None or aim not in found.aims(shot)


def check_targets(
    shot: Shot, weapon: str, effect: str, targets: Sequence[str], aim: Aim | None = None
) -> list[Problem]:
    """Everything wrong with choosing ``targets`` (and ``aim``) for this effect; [] if legal."""
    found = rule(weapon, effect)
    problems: list[Problem] = []
    seen: set[str] = set()
    for player in targets:
        if player == shot.shooter:
            problems.append(Problem(player, Reason.SHOOTER))
        elif player not in shot.positions:
            problems.append(Problem(player, Reason.UNKNOWN_PLAYER))
        elif player in seen:
            problems.append(Problem(player, Reason.DUPLICATE_TARGET))
        seen.add(player)
    if problems:
        return problems
    if _aim_problem(found, shot, aim):
        return [Problem(None, Reason.ILLEGAL_AIM)]
    if found.max_targets is not None and len(targets) > found.max_targets:
        problems.append(Problem(None, Reason.TOO_MANY_TARGETS))
    if found.pick is Pick.PLAYERS and len(targets) < found.min_targets:
        problems.append(Problem(None, Reason.NO_TARGET))
    for player in targets:
        verdict = _judge(found, shot, player, aim)
        if not verdict.ok and verdict.reason is not None:
            problems.append(Problem(player, verdict.reason))
    if problems:
        return problems
    if found.one_per_square:
        squares = [shot.positions[p] for p in targets]
        if len(set(squares)) < len(squares):
            problems.append(Problem(None, Reason.SAME_SQUARE))
    if found.tripod:
        basic = set(shot.targets_of("basic"))
        old = [p for p in targets if p in basic]
        if len(old) > 1 or len(targets) - len(old) > 1:
            problems.append(Problem(None, Reason.ONE_OLD_AND_ONE_NEW))
    if found.aim is not None and aim is None and len(targets) > 1 and found.aims:
        if not any(
            all(_judge(found, shot, p, candidate).ok for p in targets)
            for candidate in found.aims(shot)
        ):
            problems.append(Problem(None, Reason.NO_SHARED_AIM))
    return problems


def struck(
    shot: Shot, weapon: str, effect: str, targets: Sequence[str] = (), aim: Aim | None = None
) -> dict[str, int]:
    """Who the effect hits, each with the band of the card's damage list that applies
    (0 unless the card lists two numbers). Picked effects hit their (checked) targets;
    area effects hit everyone their aim covers, and need a legal aim (ValueError if not)."""
    found = rule(weapon, effect)
    if found.pick is Pick.NONE:
        return {}
    if found.pick is Pick.AREA:
        if found.aim is not None and aim is None:
            raise ValueError(f"{weapon} {effect} needs a {found.aim} to aim at")
        if _aim_problem(found, shot, aim):
            shown = aim.letter if isinstance(aim, Direction) else str(aim)
            raise ValueError(f"{weapon} {effect} can't aim at {shown!r} from here")
        hit = [p for p, v in target_options(shot, weapon, effect, aim).items() if v.ok]
        return found.bands(shot, hit, aim) if found.bands else dict.fromkeys(hit, 0)
    if found.bands:
        return found.bands(shot, targets, aim)
    return dict.fromkeys(targets, 0)


def destinations(
    shot: Shot, weapon: str, effect: str, player: str | None = None, aim: Aim | None = None
) -> frozenset[Square]:
    """Where this effect's move may end: the shooter's move (``player`` ignored) or the
    move of target ``player``. Empty when the effect moves nobody. The starting square
    is included only when the card allows a move of 0 (``rule(...).may_stay``); a move
    the card makes optional ("you may move them") is skipped by not moving at all."""
    found = rule(weapon, effect)
    if found.move is None or found.mover is None:
        return frozenset()
    start: Square | None = shot.origin
    if found.mover is Mover.TARGET:
        if player is None or shot.positions.get(player) is None:
            raise ValueError(f"{weapon} {effect} moves its target: say which player")
        start = shot.positions[player]
    ends = found.move(shot, start, aim)
    if not found.may_stay and start is not None:
        ends = ends - {start}
    return ends
