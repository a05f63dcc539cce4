"""The story at the end of a game, told from the log's events."""

from __future__ import annotations

from games.munchkin.views import PRESENTER as MUNCHKIN
from games.shazamm.views import PRESENTER as SHAZAMM


def test_munchkin_counts_levels_gained_fights_and_deaths():
    state = {"players": [{}, {}, {}]}
    log = [
        [{"type": "fight", "seat": 0}],
        [
            {"type": "combat_won", "fighter": 0, "helper": None},
            {"type": "level", "seat": 0, "from": 1, "to": 3, "why": "kill"},
        ],
        [{"type": "combat_lost", "fighter": 1, "helper": None}],
        [{"type": "death", "seat": 1, "gear_lost": 2}],
        [{"type": "level", "seat": 2, "from": 1, "to": 2, "why": "sell"}],
        [{"type": "level", "seat": 0, "from": 3, "to": 2, "why": "curse"}],
    ]
    story = MUNCHKIN.story(log, state, ["Anna", "Bruno", "Carla"])
    rows = dict(story.rows)
    assert rows == {"Anna": (2, 1, 0, 0), "Bruno": (0, 0, 1, 1), "Carla": (1, 0, 0, 0)}
    # The levels over the game: one point per change, everyone's level at each.
    series = {name: values for name, _colour, values in story.series}
    assert series == {"Anna": (1, 3, 3, 2), "Bruno": (1, 1, 1, 1), "Carla": (1, 1, 2, 2)}


def test_shazamm_counts_rounds_spells_and_mana_and_follows_the_wall():
    log = [
        [
            {"type": "reveal", "bids": [10, 7], "spells": [[3], [5, 9]], "clones": [None, None]},
            {"type": "move", "wall": 10, "steps": 1, "toward": 1},
        ],
        [
            {"type": "reveal", "bids": [40, 43], "spells": [[], [1]], "clones": [None, None]},
            {"type": "move", "wall": 9, "steps": 1, "toward": 0},
            {"type": "round_end", "round": 1, "wall": 9, "mages": [6, 12], "broken": 1},
        ],
    ]
    story = SHAZAMM.story(log, {}, ["Anna", "Bruno"])
    assert dict(story.rows) == {"Anna": (1, 1, 50), "Bruno": (1, 3, 50)}
    assert story.series[0][2] == (10, 9)
