"""The Adrenaline boards: squares, rooms, doors, moves, distance and sight (pure).

A board is a 3 × 4 grid with a few squares missing. Squares of one room are open to
each other; two rooms touch only through a door; every other side is a wall. So a
board is fully given by its rooms and its doors (``BOARDS`` below), and the borders
are derived from them. ``games/adrenaline/data/maps.json`` is the same four boards
as data (with the borders written out) for the web side; a test keeps it equal to
``Board.as_data()``.

The rules (weapons manual, seed 000, "Cosa puoi vedere?"):

* a move crosses an open side or a door, never a wall; the **distance** between two
  squares is the fewest moves between them;
* you **see** every square of your own room and, if your square has a door, every
  square of the room beyond that door. Nothing else blocks sight (players don't).

``docs/rules/adrenaline_map.md`` explains these and the readings we had to choose.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, cached_property
from typing import Any

ROWS = 3
COLUMNS = 4


@dataclass(frozen=True, order=True)
class Square:
    """One square of the grid; row 0 is the top row, column 0 the left column."""

    row: int
    col: int

    @classmethod
    def of(cls, pair: Any) -> Square:
        """``Square.of([1, 2])`` (the form the data files and the web side use)."""
        row, col = pair
        return cls(int(row), int(col))

    @classmethod
    def parse(cls, text: str) -> Square:
        """``Square.parse("1-2")``, the inverse of ``str(square)`` (ValueError if malformed)."""
        row, sep, col = text.partition("-")
        if not (sep and row.isdigit() and col.isdigit()):
            raise ValueError(f"{text!r} is not a square (expected row-column, like 1-2)")
        return cls(int(row), int(col))

    def as_pair(self) -> list[int]:
        return [self.row, self.col]

    def __str__(self) -> str:
        return f"{self.row}-{self.col}"


class Direction(Enum):
    """The four cardinal directions; the value is the step in (rows, columns)."""

    NORTH = (-1, 0)
    EAST = (0, 1)
    SOUTH = (1, 0)
    WEST = (0, -1)

    @property
    def letter(self) -> str:
        return self.name[0]

    @classmethod
    def parse(cls, text: str) -> Direction:
        """``Direction.parse("N")`` (or ``"north"``); ValueError otherwise."""
        for direction in cls:
            if text.upper() in (direction.letter, direction.name):
                return direction
        raise ValueError(f"{text!r} is not a direction (N, E, S or W)")

    def step(self, square: Square) -> Square:
        row, col = self.value
        return Square(square.row + row, square.col + col)


class Side(Enum):
    """What lies between a square and its neighbour in one direction."""

    WALL = "#"  # a wall or the edge of the board
    DOOR = "D"
    OPEN = "o"  # the next square is in the same room


#: The room colours, by the letter the boards are drawn with.
ROOM_COLOURS: dict[str, str] = {
    "R": "red",
    "B": "blue",
    "Y": "yellow",
    "G": "green",
    "W": "white",
    "P": "purple",
}


@dataclass(frozen=True, eq=False)
class Board:
    """One of the four boards. Rooms are named by colour (``"red"``, ``"blue"``...)."""

    id: str
    number: int
    name: Mapping[str, str]
    #: The players the board suits (an inclusive range), or None when nobody says.
    players: tuple[int, int] | None
    room_of: Mapping[Square, str]
    doors: frozenset[frozenset[Square]]
    spawn_points: Mapping[str, Square]
    _distances: dict[Square, dict[Square, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for pair in self.doors:
            a, b = sorted(pair)
            if self.room_of.get(a) is None or self.room_of.get(b) is None:
                raise ValueError(f"board {self.id}: door {a}/{b} is off the board")
            if self.room_of[a] == self.room_of[b]:
                raise ValueError(f"board {self.id}: door {a}/{b} inside one room")
            if abs(a.row - b.row) + abs(a.col - b.col) != 1:
                raise ValueError(f"board {self.id}: door {a}/{b} joins squares that don't touch")
        for colour, square in self.spawn_points.items():
            if square not in self.room_of:
                raise ValueError(f"board {self.id}: {colour} spawn point is off the board")
        for start in self.squares:
            self._distances[start] = self._walk(start)
        if any(len(row) != len(self.squares) for row in self._distances.values()):
            raise ValueError(f"board {self.id}: some squares can't be reached")

    # --- Geometry ---------------------------------------------------------------

    @cached_property
    def squares(self) -> tuple[Square, ...]:
        """Every square, in reading order (top row first, left to right)."""
        return tuple(sorted(self.room_of))

    @cached_property
    def rooms(self) -> dict[str, frozenset[Square]]:
        """Each room's squares, by room colour."""
        found: dict[str, set[Square]] = {}
        for square, room in self.room_of.items():
            found.setdefault(room, set()).add(square)
        return {room: frozenset(squares) for room, squares in sorted(found.items())}

    def side(self, square: Square, direction: Direction) -> Side:
        """What is on ``square``'s side facing ``direction``."""
        other = direction.step(square)
        if square not in self.room_of or other not in self.room_of:
            return Side.WALL
        if self.room_of[square] == self.room_of[other]:
            return Side.OPEN
        if frozenset((square, other)) in self.doors:
            return Side.DOOR
        return Side.WALL

    def neighbours(self, square: Square) -> frozenset[Square]:
        """The squares one move away: through an open side or a door, never a wall."""
        return frozenset(
            direction.step(square)
            for direction in Direction
            if self.side(square, direction) is not Side.WALL
        )

    def distance(self, a: Square, b: Square) -> int:
        """The fewest moves from ``a`` to ``b`` (doors count as ordinary moves)."""
        self._check(a)
        self._check(b)
        return self._distances[a][b]

    def within(self, square: Square, low: int, high: int) -> frozenset[Square]:
        """Every square whose distance from ``square`` is between ``low`` and ``high``."""
        self._check(square)
        return frozenset(s for s, d in self._distances[square].items() if low <= d <= high)

    def squares_in_direction(
        self, start: Square, direction: Direction, *, through_walls: bool
    ) -> tuple[Square, ...]:
        """The squares beyond ``start`` in ``direction``, nearest first (``start`` left out).

        Without ``through_walls`` the line stops at the first wall (it goes through
        open sides and doors, like a move); with it, the line runs to the board's edge.
        """
        self._check(start)
        line: list[Square] = []
        square = start
        while True:
            if not through_walls and self.side(square, direction) is Side.WALL:
                break
            square = direction.step(square)
            if not (0 <= square.row < ROWS and 0 <= square.col < COLUMNS):
                break
            if square in self.room_of:
                line.append(square)
        return tuple(line)

    # --- Sight ------------------------------------------------------------------

    def door_rooms(self, square: Square) -> frozenset[str]:
        """The rooms beyond the doors of ``square`` (empty when it has no door)."""
        self._check(square)
        return frozenset(
            self.room_of[direction.step(square)]
            for direction in Direction
            if self.side(square, direction) is Side.DOOR
        )

    def visible_rooms(self, square: Square) -> frozenset[str]:
        """Your own room and every room beyond a door of your square."""
        return self.door_rooms(square) | {self.room_of[square]}

    def visible_squares(self, square: Square) -> frozenset[Square]:
        return frozenset(s for room in self.visible_rooms(square) for s in self.rooms[room])

    def can_see(self, viewer: Square, seen: Square) -> bool:
        """Whether a player on ``viewer`` sees a player on ``seen``."""
        self._check(seen)
        return self.room_of[seen] in self.visible_rooms(viewer)

    # --- Data -------------------------------------------------------------------

    def as_data(self) -> dict[str, Any]:
        """The board as ``data/maps.json`` writes it."""
        letters = {colour: letter for letter, colour in ROOM_COLOURS.items()}
        rooms, borders = [], []
        for row in range(ROWS):
            room_row, border_row = "", []
            for col in range(COLUMNS):
                square = Square(row, col)
                if square in self.room_of:
                    room_row += letters[self.room_of[square]]
                    border_row.append("".join(self.side(square, d).value for d in Direction))
                else:
                    room_row += "."
                    border_row.append("----")
            rooms.append(room_row)
            borders.append(border_row)
        return {
            "id": self.id,
            "number": self.number,
            "name": dict(self.name),
            "players": list(self.players) if self.players else None,
            "rooms": rooms,
            "room_colours": {
                letters[room]: room for room in sorted(self.rooms, key=lambda r: letters[r])
            },
            "borders_NESW": borders,
            "doors": [[a.as_pair(), b.as_pair()] for a, b in sorted(sorted(d) for d in self.doors)],
            "spawn_points": {colour: s.as_pair() for colour, s in self.spawn_points.items()},
        }

    def _check(self, square: Square) -> None:
        if square not in self.room_of:
            raise ValueError(f"{square} is not a square of board {self.id}")

    def _walk(self, start: Square) -> dict[Square, int]:
        found = {start: 0}
        queue = deque([start])
        while queue:
            square = queue.popleft()
            for nxt in self.neighbours(square):
                if nxt not in found:
                    found[nxt] = found[square] + 1
                    queue.append(nxt)
        return found

    def __iter__(self) -> Iterator[Square]:
        return iter(self.squares)


# --- The four boards ----------------------------------------------------------------
#
# Rooms: one letter per square ("." = no square), rows top to bottom; doors: pairs of
# touching squares in different rooms. From the team's reference
# (``adrenaline_facts.json``, "maps", three independent implementations that agree).
# "players" is the range one of those implementations suggests; the rulebook we have
# (seed 000) shows no board at all.

_SPAWN_POINTS = {"red": (1, 0), "blue": (0, 2), "yellow": (2, 3)}

BOARDS: dict[str, dict[str, Any]] = {
    "small": {
        "number": 1,
        "name": {"en": "Small (10 squares)", "it": "Piccola (10 quadrati)"},
        "players": (3, 4),
        "rooms": ("BBB.", "RRRY", ".WWY"),
        "doors": (((0, 0), (1, 0)), ((0, 2), (1, 2)), ((1, 1), (2, 1)), ((1, 2), (1, 3)),
                  ((2, 2), (2, 3))),
    },
    "medium-a": {
        "number": 2,
        "name": {"en": "Medium A (11 squares)", "it": "Media A (11 quadrati)"},
        "players": (3, 5),
        "rooms": ("BBBG", "RRYY", ".WYY"),
        "doors": (((0, 0), (1, 0)), ((0, 2), (0, 3)), ((0, 2), (1, 2)), ((0, 3), (1, 3)),
                  ((1, 1), (2, 1)), ((2, 1), (2, 2))),
    },
    "large": {
        "number": 3,
        "name": {"en": "Large (12 squares)", "it": "Grande (12 quadrati)"},
        "players": (4, 5),
        "rooms": ("RBBG", "RPYY", "WWYY"),
        "doors": (((0, 0), (0, 1)), ((0, 1), (1, 1)), ((0, 2), (0, 3)), ((0, 2), (1, 2)),
                  ((0, 3), (1, 3)), ((1, 0), (2, 0)), ((1, 1), (2, 1)), ((2, 1), (2, 2))),
    },
    "medium-b": {
        "number": 4,
        "name": {"en": "Medium B (11 squares)", "it": "Media B (11 quadrati)"},
        "players": (3, 5),
        "rooms": ("RBB.", "RPPY", "WWWY"),
        "doors": (((0, 0), (0, 1)), ((0, 1), (1, 1)), ((0, 2), (1, 2)), ((1, 0), (2, 0)),
                  ((1, 1), (2, 1)), ((1, 2), (1, 3)), ((2, 2), (2, 3))),
    },
}  # fmt: skip

#: Board ids, in the order the boards are numbered.
BOARD_IDS: tuple[str, ...] = tuple(BOARDS)


@cache
def load_board(board_id: str) -> Board:
    """The board called ``board_id`` (built once, then shared: boards are immutable)."""
    try:
        spec = BOARDS[board_id]
    except KeyError:
        raise ValueError(
            f"unknown board {board_id!r}; the boards are {', '.join(BOARD_IDS)}"
        ) from None
    room_of = {
        Square(row, col): ROOM_COLOURS[letter]
        for row, line in enumerate(spec["rooms"])
        for col, letter in enumerate(line)
        if letter != "."
    }
    return Board(
        id=board_id,
        number=spec["number"],
        name=spec["name"],
        players=spec["players"],
        room_of=room_of,
        doors=frozenset(frozenset((Square.of(a), Square.of(b))) for a, b in spec["doors"]),
        spawn_points={colour: Square.of(pair) for colour, pair in _SPAWN_POINTS.items()},
    )
