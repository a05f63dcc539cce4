"""Final frenzy, final scoring and the winner."""

from __future__ import annotations

from typing import Any

import pytest

from games.adrenaline.rules import ENGINE, board_values, frenzy_actions
from games.engine.protocol import Result

CAST = ("dozer", "banshee", "violet", "sprog", "dstructor")


def start(n: int = 3, skulls: int = 5, first: int = 0) -> dict[str, Any]:
    chars = list(CAST[:n])
    options = ENGINE.parse_options(
        {"characters": chars, "skulls": skulls, "first_player": first}, n
    )
    return ENGINE.new_state([c.title() for c in chars], options, seed=0)


def act(state: dict[str, Any], payload: dict[str, Any]) -> Result:
    return ENGINE.apply(state, ENGINE.parse_action(payload))


def player(state: dict[str, Any], character: str) -> dict[str, Any]:
    return next(p for p in state["players"] if p["character"] == character)


def end_turn(state: dict[str, Any]) -> dict[str, Any]:
    return act(state, {"type": "end_turn"}).state


def turn_of(state: dict[str, Any], character: str) -> dict[str, Any]:
    while state["players"][state["current"]]["character"] != character:
        state = end_turn(state)
    return state


def shot(
    state: dict[str, Any], shooter: str, target: str, damage: int = 0, marks: int = 0
) -> Result:
    state = turn_of(state, shooter)
    hits = [{"target": target, "damage": damage, "marks": marks}]
    return act(state, {"type": "shot", "shooter": shooter, "hits": hits})


def hit(
    state: dict[str, Any], shooter: str, target: str, damage: int = 0, marks: int = 0
) -> dict[str, Any]:
    return shot(state, shooter, target, damage, marks).state


def kill(state: dict[str, Any], killer: str, *victims: str, damage: int = 11) -> dict[str, Any]:
    """In ``killer``'s turn, deal ``damage`` to each victim, then end the turn."""
    state = turn_of(state, killer)
    hits = [{"target": v, "damage": damage} for v in victims]
    state = act(state, {"type": "shot", "shooter": killer, "hits": hits}).state
    return end_turn(state)


def points(state: dict[str, Any]) -> dict[str, int]:
    return {p["character"]: p["points"] for p in state["players"]}


def score_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "score"]


def awards_of(event: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(a["to"], a["points"], a["reason"]) for a in event["awards"]]


def test_last_skull_starts_frenzy_and_the_game_plays_out_with_final_scoring() -> None:
    state = kill(start(), "dozer", "banshee")  # turn 1
    state = kill(state, "banshee", "violet")  # turn 2
    state = kill(state, "violet", "dozer")  # turn 3
    state = kill(state, "dozer", "banshee")  # turn 4
    assert points(state) == {"dozer": 16, "banshee": 9, "violet": 9}
    # Turn 5: Banshee wounds Dozer and takes the last skull from Violet.
    state = act(
        state,
        {
            "type": "shot",
            "shooter": "banshee",
            "hits": [
                {"target": "dozer", "damage": 2},
                {"target": "violet", "damage": 11},
            ],
        },
    ).state
    result = act(state, {"type": "end_turn"})
    state = result.state
    assert state["frenzy"] == {"triggered_by": 1, "order": [2, 0, 1], "two_actions": [2]}
    (frenzy,) = [e for e in result.events if e["type"] == "frenzy"]
    # Undamaged boards (Banshee's, and Violet's just cleared) flip now.
    assert frenzy["flipped"] == ["banshee", "violet"]
    assert not player(state, "dozer")["frenzy"]
    assert result.events[-1] == {
        "type": "turn",
        "player": "violet",
        "turn": 6,
        "frenzy_actions": 2,
    }

    # Turn 6: Violet kills Dozer, whose board is still on its normal side.
    state = hit(state, "violet", "dozer", 9)
    result = act(state, {"type": "end_turn"})
    (score,) = score_events(result.events)
    assert awards_of(score) == [
        ("banshee", 1, "first_blood"),
        ("violet", 6, "board"),
        ("banshee", 4, "board"),
    ]
    assert score["skull"] is False
    assert {"type": "flip", "player": "dozer"} in result.events
    state = result.state
    assert player(state, "dozer")["frenzy"] and player(state, "dozer")["skulls"] == 1
    assert board_values(player(state, "dozer")) == [2, 1, 1, 1]
    assert result.events[-1]["frenzy_actions"] == 1

    # Turn 7: Dozer kills Violet on her frenzy side: 2 points, no first blood.
    state = hit(state, "dozer", "violet", 11)
    result = act(state, {"type": "end_turn"})
    (score,) = score_events(result.events)
    assert awards_of(score) == [("dozer", 2, "board")]
    state = result.state
    assert [k["killer"] for k in state["killshot"]] == [
        "dozer",
        "banshee",
        "violet",
        "dozer",
        "banshee",
        "violet",
        "dozer",
    ]

    # Turn 8: Banshee's final turn ends the game.
    state = hit(state, "banshee", "violet", 3)
    result = act(state, {"type": "end_turn"})
    state = result.state
    assert state["over"] and state["turn"] == 8
    (final,) = score_events(result.events)
    assert final["final"] and final["killer"] is None and not final["skull"]
    assert awards_of(final) == [("banshee", 2, "board")]
    (track,) = [e for e in result.events if e["type"] == "killshot_score"]
    # Dozer 3 tokens; Banshee and Violet 2 each, Banshee's came first.
    assert [(a["to"], a["points"]) for a in track["awards"]] == [
        ("dozer", 8),
        ("banshee", 6),
        ("violet", 4),
    ]
    assert points(state) == {"dozer": 26, "banshee": 29, "violet": 19}
    assert result.events[-1] == {
        "type": "game_over",
        "places": [["banshee"], ["dozer"], ["violet"]],
        "points": {"dozer": 26, "banshee": 29, "violet": 19},
    }
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.places == [[1], [0], [2]]
    assert outcome.scores == {0: 26, 1: 29, 2: 19}


def test_final_scoring_counts_damaged_normal_boards_without_track_or_skull() -> None:
    state = kill(start(), "dozer", "banshee", "violet")  # turn 1: double kill
    state = kill(state, "banshee", "violet", "dozer")  # turn 2: double kill
    assert points(state) == {"dozer": 19, "banshee": 17, "violet": 0}
    state = act(
        state,
        {
            "type": "shot",
            "shooter": "violet",
            "hits": [
                {"target": "banshee", "damage": 4},
                {"target": "dozer", "damage": 11},
            ],
        },
    ).state
    state = end_turn(state)  # turn 3: last skull, frenzy
    assert state["frenzy"] == {"triggered_by": 2, "order": [0, 1, 2], "two_actions": []}
    assert not player(state, "banshee")["frenzy"]
    state = hit(state, "dozer", "banshee", 2)  # turn 4
    state = end_turn(end_turn(state))  # turns 4 and 5
    result = act(state, {"type": "end_turn"})  # turn 6 ends the game
    state = result.state
    assert state["over"]
    (final,) = score_events(result.events)
    assert final["board"] == "banshee" and final["final"]
    assert awards_of(final) == [
        ("violet", 1, "first_blood"),
        ("violet", 6, "board"),
        ("dozer", 4, "board"),
    ]
    assert len(state["killshot"]) == 5
    assert player(state, "banshee")["skulls"] == 1
    # Track: Dozer 2 and Banshee 2 (Dozer first), Violet 1.
    assert points(state) == {"dozer": 31, "banshee": 23, "violet": 18}


def test_frenzy_board_scores_2_1_1_1_without_first_blood() -> None:
    state = kill(start(5), "dozer", "banshee", "violet", "sprog", "dstructor")
    state = kill(state, "banshee", "dozer")  # last skull: everybody flips
    assert state["frenzy"]["two_actions"] == [2, 3, 4]
    assert all(p["frenzy"] for p in state["players"])
    state = hit(state, "violet", "dozer", 2)
    state = hit(state, "sprog", "dozer", 3)
    state = hit(state, "dstructor", "dozer", 3)
    state = hit(state, "banshee", "dozer", 3)
    result = act(state, {"type": "end_turn"})
    score = score_events(result.events)[0]
    assert awards_of(score) == [
        ("sprog", 2, "board"),
        ("dstructor", 1, "board"),
        ("banshee", 1, "board"),
        ("violet", 1, "board"),
    ]
    assert score["killer"] == "banshee" and not score["skull"]
    assert result.state["over"]


@pytest.mark.parametrize(
    ("trigger", "order", "two_actions"),
    [
        (2, [3, 4, 0, 1, 2], [3, 4]),
        (4, [0, 1, 2, 3, 4], []),
        (0, [1, 2, 3, 4, 0], [1, 2, 3, 4]),
    ],
)
def test_frenzy_gives_two_actions_to_players_before_the_first_player(
    trigger: int, order: list[int], two_actions: list[int]
) -> None:
    state = start(5)
    if trigger == 2:
        state = kill(state, "dozer", "sprog", "dstructor")
        state = kill(state, "banshee", "sprog", "dstructor")
        state = kill(state, "violet", "sprog")
    else:
        state = kill(state, "dozer", "banshee", "violet", "sprog", "dstructor")
        state = kill(state, CAST[trigger], "banshee")
    assert state["frenzy"]["triggered_by"] == trigger
    assert state["frenzy"]["order"] == order
    assert state["frenzy"]["two_actions"] == two_actions
    assert [frenzy_actions(state, seat) for seat in range(5)] == [
        2 if seat in two_actions else 1 for seat in range(5)
    ]
    # Everybody, the trigger included, gets exactly one final turn.
    seen = []
    while not state["over"]:
        seen.append(state["current"])
        state = end_turn(state)
    assert seen == order


def test_frenzy_order_when_the_first_player_is_not_seat_zero() -> None:
    state = start(4, first=2)
    state = kill(state, "violet", "dozer", "banshee", "sprog")  # seat 2
    state = kill(state, "sprog", "dozer", "banshee")  # seat 3 takes the 5th
    assert state["frenzy"] == {"triggered_by": 3, "order": [0, 1, 2, 3], "two_actions": [0, 1]}


def _finished(awards: list[tuple[str, int, str]]) -> dict[str, Any]:
    state = start(3)
    for to, amount, reason in awards:
        player(state, to)["points"] += amount
        state["awards"].append({"to": to, "points": amount, "reason": reason, "board": None})
    state["over"] = True
    return state


def test_winner_tie_break_is_points_from_the_kill_shot_track() -> None:
    state = _finished(
        [
            ("dozer", 12, "board"),
            ("banshee", 4, "board"),
            ("banshee", 8, "killshot_track"),
            ("violet", 6, "killshot_track"),
            ("violet", 6, "board"),
        ]
    )
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    # All on 12: Banshee 8 from the track, Violet 6, Dozer 0.
    assert outcome.places == [[1], [2], [0]]
    assert outcome.winners == [1]


def test_players_still_tied_share_the_place() -> None:
    state = _finished([("dozer", 9, "board"), ("banshee", 9, "board"), ("violet", 5, "board")])
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.places == [[0, 1], [2]]
    assert outcome.winners == [0, 1]


def test_outcome_is_none_while_the_game_is_running() -> None:
    assert ENGINE.outcome(start()) is None
