"""The Adrenaline boards: the data, moves and distance, and sight (weapons manual, seed 000,
"Cosa puoi vedere?"), with worked examples on each of the four boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.adrenaline.arena import (
    BOARD_IDS,
    Board,
    Direction,
    Side,
    Square,
    load_board,
)

REPO = Path(__file__).resolve().parents[3]
MAPS = REPO / "games" / "adrenaline" / "data" / "maps.json"
#: The team's reference facts, when this checkout sits next to the shared folder.
FACTS = [
    base / "shared" / "reference" / "adrenaline_facts.json"
    for base in (REPO.parent, REPO.parent.parent)
]


def sq(row: int, col: int) -> Square:
    return Square(row, col)


def maps_data() -> list[dict]:
    return json.loads(MAPS.read_text(encoding="utf-8"))["boards"]


# --- The data ---------------------------------------------------------------------------


def test_there_are_four_boards_numbered_one_to_four():
    assert BOARD_IDS == ("small", "medium-a", "large", "medium-b")
    assert [load_board(b).number for b in BOARD_IDS] == [1, 2, 3, 4]
    assert [len(load_board(b).squares) for b in BOARD_IDS] == [10, 11, 12, 11]


def test_maps_json_is_the_engines_boards():
    """The web side reads maps.json; the engine its own table: they must be the same boards."""
    assert maps_data() == [load_board(b).as_data() for b in BOARD_IDS]


@pytest.mark.parametrize("data", maps_data(), ids=lambda d: d["id"])
def test_every_border_is_the_same_from_both_sides(data):
    """A door on one side of a border is a door on the other; same for walls and open sides."""
    opposite = {"N": "S", "E": "W", "S": "N", "W": "E"}
    for row, borders in enumerate(data["borders_NESW"]):
        for col, sides in enumerate(borders):
            if sides == "----":
                continue
            for letter, side in zip("NESW", sides, strict=True):
                direction = next(d for d in Direction if d.letter == letter)
                other = direction.step(sq(row, col))
                if not (0 <= other.row < 3 and 0 <= other.col < 4):
                    assert side == "#", (row, col, letter)
                    continue
                back = data["borders_NESW"][other.row][other.col]
                mirrored = "#" if back == "----" else back["NESW".index(opposite[letter])]
                assert side == mirrored, (data["id"], row, col, letter)


@pytest.mark.parametrize("data", maps_data(), ids=lambda d: d["id"])
def test_doors_join_rooms_and_open_sides_stay_inside_one(data):
    rooms = data["rooms"]
    doors = {frozenset(map(tuple, pair)) for pair in data["doors"]}
    for row, borders in enumerate(data["borders_NESW"]):
        for col, sides in enumerate(borders):
            for letter, side in zip("NESW", sides, strict=True):
                if side not in "Do":
                    continue
                direction = next(d for d in Direction if d.letter == letter)
                other = direction.step(sq(row, col))
                same_room = rooms[row][col] == rooms[other.row][other.col]
                assert same_room == (side == "o"), (data["id"], row, col, letter)
                if side == "D":
                    assert frozenset({(row, col), (other.row, other.col)}) in doors


def test_each_colour_has_its_spawn_point_in_the_room_of_that_colour():
    for board_id in BOARD_IDS:
        board = load_board(board_id)
        for colour, square in board.spawn_points.items():
            assert board.room_of[square] == colour, (board_id, colour)


@pytest.mark.skipif(not any(f.exists() for f in FACTS), reason="team facts file not found")
def test_our_boards_match_the_team_reference_and_its_borders_agree():
    facts_file = next(f for f in FACTS if f.exists())
    facts = json.loads(facts_file.read_text(encoding="utf-8"))["maps"]["configurations"]
    opposite = {0: 2, 1: 3, 2: 0, 3: 1}
    steps = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    for config, ours in zip(facts, maps_data(), strict=True):
        assert config["rooms"] == ours["rooms"]
        assert config["borders_NESW"] == ours["borders_NESW"]
        assert sorted(config["doors"]) == sorted(ours["doors"])
        assert {k.lower(): v for k, v in config["spawnpoints"].items()} == ours["spawn_points"]
        borders = config["borders_NESW"]
        for row in range(3):
            for col in range(4):
                for i, (dr, dc) in enumerate(steps):
                    r, c = row + dr, col + dc
                    if borders[row][col] == "----" or not (0 <= r < 3 and 0 <= c < 4):
                        continue
                    if borders[r][c] != "----":
                        assert borders[row][col][i] == borders[r][c][opposite[i]]


def test_boards_are_built_once():
    assert load_board("large") is load_board("large")


def test_an_unknown_board_is_refused_with_the_known_names():
    with pytest.raises(ValueError, match="small, medium-a, large, medium-b"):
        load_board("huge")


def test_a_square_off_the_board_is_refused():
    with pytest.raises(ValueError, match="not a square of board small"):
        load_board("small").distance(sq(0, 0), sq(0, 3))


def test_a_board_whose_door_joins_one_room_is_refused():
    with pytest.raises(ValueError, match="inside one room"):
        Board(
            id="bad",
            number=9,
            name={},
            players=None,
            room_of={sq(0, 0): "red", sq(0, 1): "red"},
            doors=frozenset({frozenset({sq(0, 0), sq(0, 1)})}),
            spawn_points={},
        )


# --- Worked examples, board by board -------------------------------------------------------
#
# small     BBB.   doors: (0,0)|(1,0)  (0,2)|(1,2)  (1,1)|(2,1)  (1,2)|(1,3)  (2,2)|(2,3)
#           RRRY
#           .WWY
# medium-a  BBBG   doors: (0,0)|(1,0)  (0,2)|(0,3)  (0,2)|(1,2)  (0,3)|(1,3)  (1,1)|(2,1)
#           RRYY          (2,1)|(2,2)
#           .WYY
# large     RBBG   doors: (0,0)|(0,1)  (0,1)|(1,1)  (0,2)|(0,3)  (0,2)|(1,2)  (0,3)|(1,3)
#           RPYY          (1,0)|(2,0)  (1,1)|(2,1)  (2,1)|(2,2)
#           WWYY
# medium-b  RBB.   doors: (0,0)|(0,1)  (0,1)|(1,1)  (0,2)|(1,2)  (1,0)|(2,0)  (1,1)|(2,1)
#           RPPY          (1,2)|(1,3)  (2,2)|(2,3)
#           WWWY

SIGHT = {
    "small": [
        # (viewer, seen, sees?, what the example shows)
        ((0, 0), (0, 2), True, "same room, the far end"),
        ((0, 0), (1, 1), True, "through the door of the viewer's square"),
        ((0, 1), (1, 1), False, "no door on the viewer's square: the wall hides the next room"),
        ((0, 1), (1, 2), False, "another square of the room has the door, not the viewer's"),
        ((1, 2), (0, 1), True, "the door square sees the whole room beyond..."),
        ((0, 1), (1, 2), False, "...but that room's square without the door doesn't see back"),
        ((0, 0), (2, 3), False, "two doors away"),
        ((1, 2), (2, 3), True, "a door square with two doors sees both rooms"),
        ((1, 2), (2, 2), False, "a wall between two touching squares"),
    ],
    "medium-a": [
        ((1, 2), (2, 3), True, "same room, diagonally"),
        ((0, 2), (0, 3), True, "through a door (to the green room)"),
        ((0, 2), (2, 2), True, "through the other door of the same square (to yellow)"),
        ((0, 1), (1, 1), False, "no door on the viewer's square"),
        ((1, 0), (0, 3), False, "two doors away"),
        ((1, 1), (1, 2), False, "a wall between two touching squares"),
        ((2, 1), (1, 0), True, "the white square's door to red"),
    ],
    "large": [
        ((0, 0), (1, 0), True, "same room"),
        ((1, 1), (0, 2), True, "the one-square purple room sees blue through its north door"),
        ((1, 1), (2, 0), True, "and white through its south door"),
        ((1, 1), (1, 0), False, "but not red: a wall"),
        ((2, 3), (2, 1), False, "no door on the viewer's square (the door is on (2,2))"),
        ((2, 2), (2, 1), True, "from the door square"),
        ((0, 0), (0, 3), False, "two doors away"),
    ],
    "medium-b": [
        ((1, 1), (1, 2), True, "same room"),
        ((1, 2), (2, 3), True, "through the east door"),
        ((1, 2), (0, 1), True, "through the north door"),
        ((2, 0), (1, 1), False, "the room has a door to purple, but not on the viewer's square"),
        ((2, 1), (1, 1), True, "from the square that has it"),
        ((2, 0), (0, 1), False, "two doors away"),
        ((1, 0), (1, 1), False, "a wall between two touching squares"),
    ],
}

DISTANCES = {
    "small": [
        ((0, 0), (0, 2), 2, "within a room"),
        ((0, 2), (1, 3), 2, "two doors in a row, each one move"),
        ((0, 1), (1, 1), 3, "touching squares with a wall: around through the doors"),
        ((0, 0), (2, 3), 5, "across the board"),
    ],
    "medium-a": [
        ((1, 1), (1, 2), 3, "a wall: round through white"),
        ((0, 2), (0, 3), 1, "through a door"),
        ((1, 0), (2, 3), 4, "red to the far yellow square"),
    ],
    "large": [
        ((1, 0), (1, 1), 3, "a wall between red and purple"),
        ((0, 1), (2, 1), 2, "through purple's two doors"),
        ((0, 0), (2, 3), 5, "corner to corner"),
    ],
    "medium-b": [
        ((1, 0), (1, 1), 3, "a wall between red and purple"),
        ((2, 0), (2, 3), 3, "along white and through its door"),
        ((0, 0), (1, 3), 4, "through two doors"),
    ],
}


@pytest.mark.parametrize(
    ("board_id", "viewer", "seen", "expected", "why"),
    [(b, *case) for b, cases in SIGHT.items() for case in cases],
)
def test_sight_worked_examples(board_id, viewer, seen, expected, why):
    assert load_board(board_id).can_see(sq(*viewer), sq(*seen)) is expected, why


@pytest.mark.parametrize(
    ("board_id", "start", "end", "expected", "why"),
    [(b, *case) for b, cases in DISTANCES.items() for case in cases],
)
def test_distance_worked_examples(board_id, start, end, expected, why):
    assert load_board(board_id).distance(sq(*start), sq(*end)) == expected, why


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_walls_block_moves_and_doors_do_not(board_id):
    board = load_board(board_id)
    for square in board:
        for direction in Direction:
            other = direction.step(square)
            side = board.side(square, direction)
            assert (other in board.neighbours(square)) == (side is not Side.WALL)
            if side is Side.WALL and other in board.room_of:
                assert board.distance(square, other) > 1


def test_sight_is_not_always_mutual():
    """The manual's Banshee: seen from a door square, she sees nobody from hers."""
    board = load_board("small")
    assert board.can_see(sq(1, 2), sq(0, 1))
    assert not board.can_see(sq(0, 1), sq(1, 2))


def test_lines_stop_at_walls_unless_they_go_through_them():
    board = load_board("small")
    # From (1,2): north through the door to (0,2), then the board's edge.
    assert board.squares_in_direction(sq(1, 2), Direction.NORTH, through_walls=False) == (sq(0, 2),)
    # South is a wall: a move (or a flame) stops; a railgun shot goes on.
    assert board.squares_in_direction(sq(1, 2), Direction.SOUTH, through_walls=False) == ()
    assert board.squares_in_direction(sq(1, 2), Direction.SOUTH, through_walls=True) == (sq(2, 2),)
    # From (0,1) south: a wall, then red (1,1), then white (2,1) by the door.
    assert board.squares_in_direction(sq(0, 1), Direction.SOUTH, through_walls=True) == (
        sq(1, 1),
        sq(2, 1),
    )
    # West along red: open sides, two squares, the start left out.
    assert board.squares_in_direction(sq(1, 2), Direction.WEST, through_walls=False) == (
        sq(1, 1),
        sq(1, 0),
    )


def test_rooms_and_door_rooms():
    board = load_board("large")
    assert board.rooms["purple"] == frozenset({sq(1, 1)})
    assert board.door_rooms(sq(1, 1)) == {"blue", "white"}
    assert board.door_rooms(sq(2, 3)) == frozenset()
    assert board.visible_rooms(sq(0, 2)) == {"blue", "green", "yellow"}


# --- Properties -------------------------------------------------------------------------


@st.composite
def board_and_squares(draw: st.DrawFn, count: int) -> tuple:
    board = load_board(draw(st.sampled_from(BOARD_IDS)))
    return (board, *(draw(st.sampled_from(board.squares)) for _ in range(count)))


@given(board_and_squares(3))
def test_distance_is_a_metric(case):
    board, a, b, c = case
    assert board.distance(a, a) == 0
    assert board.distance(a, b) == board.distance(b, a)
    assert board.distance(a, c) <= board.distance(a, b) + board.distance(b, c)
    assert (board.distance(a, b) == 1) == (b in board.neighbours(a))


@given(board_and_squares(2))
def test_sight_within_a_room_is_mutual_and_always_there(case):
    board, a, b = case
    if board.room_of[a] == board.room_of[b]:
        assert board.can_see(a, b) and board.can_see(b, a)


@given(board_and_squares(2))
def test_one_move_away_is_always_in_sight(case):
    """A neighbour is in your room or beyond a door of your own square."""
    board, a, b = case
    if board.distance(a, b) <= 1:
        assert board.can_see(a, b)


def test_squares_and_directions_read_back_from_text():
    assert Square.parse(str(sq(1, 2))) == sq(1, 2)
    assert Direction.parse("n") is Direction.NORTH
    assert Direction.parse("west") is Direction.WEST
    for text in ("12", "a-b", "-1-2", ""):
        with pytest.raises(ValueError, match="not a square"):
            Square.parse(text)
    with pytest.raises(ValueError, match="not a direction"):
        Direction.parse("up")
