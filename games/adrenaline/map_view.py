"""The map on the phone as plain values (pure): the board drawn as SVG, the figures
on it, who sees whom, and whom the chosen weapon effect can target, with the
engine's reason codes. The words are the presenter's (``views.py``).

The geometry and the rules are the pure engine's (``arena``, ``targeting``); this
module only turns them into plain values for the templates (a live fragment is
keyed by its values, so they are tuples and strings).
"""

from __future__ import annotations

from typing import Any

from games.adrenaline import arena, targeting
from games.adrenaline.arena import Direction, Side, Square
from games.adrenaline.rules import positions
from games.adrenaline.targeting import Reason

CELL = 100  # SVG units per square
DOOR = (35, 65)  # the gap of a door along a side, in SVG units
FIGURE_SPOTS = ((28, 30), (72, 30), (28, 72), (72, 72), (50, 51))


def _walls(board: arena.Board, square: Square) -> list[tuple[str, int, int, int, int]]:
    """The lines of one square's sides: ("wall"|"open", x1, y1, x2, y2)."""
    x, y = square.col * CELL, square.row * CELL
    corners = {
        Direction.NORTH: (x, y, x + CELL, y),
        Direction.EAST: (x + CELL, y, x + CELL, y + CELL),
        Direction.SOUTH: (x, y + CELL, x + CELL, y + CELL),
        Direction.WEST: (x, y, x, y + CELL),
    }
    lines = []
    for direction, (x1, y1, x2, y2) in corners.items():
        side = board.side(square, direction)
        if side is Side.OPEN:
            lines.append(("open", x1, y1, x2, y2))
        elif side is Side.WALL:
            lines.append(("wall", x1, y1, x2, y2))
        else:  # a door: the wall with a gap in its middle
            dx, dy = (x2 - x1) / CELL, (y2 - y1) / CELL
            a, b = DOOR
            lines.append(("wall", x1, y1, int(x1 + dx * a), int(y1 + dy * a)))
            lines.append(("wall", int(x1 + dx * b), int(y1 + dy * b), x2, y2))
    return lines


def map_context(
    view: dict[str, Any],
    labels: dict[str, str],
    colours: dict[str, str],
    chosen: str | None = None,
) -> dict[str, Any] | None:
    """The map fragment's values: squares, walls, figures, and the current player's
    sight. ``labels`` and ``colours`` name each character as the table sees it."""
    if not view.get("board"):
        return None
    board = arena.load_board(view["board"])
    where = positions(view)
    current = view["players"][view["current"]]["character"]
    mover = chosen if chosen in where else current
    cells: list[dict[str, Any] | None] = []
    for row in range(arena.ROWS):
        for col in range(arena.COLUMNS):
            square = Square(row, col)
            if square not in board.room_of:
                cells.append(None)
                continue
            here = [c for c, s in where.items() if s == square]
            room = board.room_of[square]
            cells.append(
                {
                    "id": str(square),
                    "room": room,
                    "names": tuple(labels[c] for c in here),
                    "x": col * CELL,
                    "y": row * CELL,
                    "figures": tuple(
                        (colours[c], labels[c], square.col * CELL + dx, square.row * CELL + dy)
                        for c, (dx, dy) in zip(here, FIGURE_SPOTS, strict=False)
                    ),
                    "spawn": any(s == square for s in board.spawn_points.values()),
                }
            )
    lines = tuple(line for square in board.squares for line in _walls(board, square))
    held = {card["kind"] for card in view["players"][view["current"]]["powerups"]}
    by_powerup = tuple(kind for kind in ("newton", "teleporter") if held & {kind, None})
    return {
        "board": board.id,
        "cells": tuple(cells),
        "lines": lines,
        "movers": tuple((c, labels[c], colours[c], c == mover) for c in where),
        "sight": sight(board, where, current, labels),
        "off_map": tuple(labels[c] for c, s in where.items() if s is None),
        "by_powerup": by_powerup,
        "current": labels[current],
    }


def sight(
    board: arena.Board, where: dict[str, Square | None], who: str, labels: dict[str, str]
) -> dict[str, Any] | None:
    """Whom ``who`` sees (with the moves to reach them) and whom not."""
    origin = where.get(who)
    if origin is None:
        return None
    seen: list[tuple[str, int]] = []
    hidden: list[tuple[str, int]] = []
    for other, square in where.items():
        if other == who or square is None:
            continue
        moves = board.distance(origin, square)
        entry = (labels[other], moves)
        (seen if board.can_see(origin, square) else hidden).append(entry)
    return {"who": labels[who], "seen": tuple(seen), "hidden": tuple(hidden)}


def target_notes(
    view: dict[str, Any], shooter: str, weapon: str | None, effects: list[str]
) -> dict[str, tuple[Reason | None, int | None]]:
    """Per other player: (why the first chosen effect that picks players may not
    target them, or None if it may; the moves to them). Empty when there is no map,
    or the shooter is off it. Without a weapon, only sight is judged."""
    if not view.get("board"):
        return {}
    board = arena.load_board(view["board"])
    where = positions(view)
    origin = where.get(shooter)
    if origin is None:
        return {}

    def moves(other: str) -> int | None:
        square = where[other]
        return None if square is None else board.distance(origin, square)

    if weapon is None:
        return {
            other: (
                Reason.NOT_ON_BOARD
                if square is None
                else None
                if board.can_see(origin, square)
                else Reason.NOT_VISIBLE,
                moves(other),
            )
            for other, square in where.items()
            if other != shooter
        }
    shot = targeting.Shot(board=board, positions=where, shooter=shooter)
    for effect in effects:
        if targeting.rule(weapon, effect).pick is targeting.Pick.NONE:
            continue  # a move of the shooter's only
        return {
            other: (None if verdict.ok else verdict.reason, moves(other))
            for other, verdict in targeting.target_options(shot, weapon, effect).items()
        }
    return {}


def bands(
    view: dict[str, Any], shooter: str, weapon: str, effect: str, picked: list[str]
) -> dict[str, int] | None:
    """Who an effect with two damage numbers hits, and which number each takes, by
    the map (Hellion: the target, then everyone else on its square; Barbecue: the
    first square, then the second, in the direction of the players picked). None
    when the map cannot say: no map, a figure off it, or no aim covers the picks."""
    if not view.get("board") or not picked:
        return None
    found = targeting.rule(weapon, effect)
    if found.bands is None:
        return None
    where = positions(view)
    if where.get(shooter) is None or any(where.get(p) is None for p in picked):
        return None
    shot = targeting.Shot(board=arena.load_board(view["board"]), positions=where, shooter=shooter)
    try:
        if found.pick is targeting.Pick.AREA and found.aim is not None:
            for aim in targeting.legal_aims(shot, weapon, effect):
                hit = targeting.struck(shot, weapon, effect, (), aim)
                if set(picked) <= set(hit):
                    return hit
            return None
        main = picked[: found.max_targets] if found.max_targets else picked
        return targeting.struck(shot, weapon, effect, main)
    except ValueError:
        return None


def move_choices(
    view: dict[str, Any],
    shooter: str,
    weapon: str,
    effects: list[str],
    picked: list[str],
    labels: dict[str, str],
) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
    """The moves the chosen effects make, by the map: (player, name, the squares they
    may end on with their rooms), for the shooter's own move or each picked target's.
    Empty without a map."""
    if not view.get("board"):
        return []
    where = positions(view)
    if where.get(shooter) is None:
        return []
    board = arena.load_board(view["board"])
    shot = targeting.Shot(board=board, positions=where, shooter=shooter)
    found: dict[str, set[Square]] = {}
    for effect in effects:
        rule = targeting.rule(weapon, effect)
        if rule.mover is None:
            continue
        movers = [shooter] if rule.mover is targeting.Mover.SHOOTER else picked
        for player in movers:
            try:
                ends = targeting.destinations(shot, weapon, effect, player)
            except ValueError:
                continue  # a figure off the map, or an aim the map cannot guess
            found.setdefault(player, set()).update(ends)
    return [
        (
            player,
            labels[player],
            tuple((str(sq), board.room_of[sq]) for sq in sorted(ends)),
        )
        for player, ends in found.items()
        if ends
    ]
