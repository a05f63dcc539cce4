"""Scoring a board, the kill-shot track, double kills."""

from __future__ import annotations

from typing import Any

import pytest

from games.adrenaline.rules import ENGINE, board_values, frenzy_actions, points_breakdown
from games.adrenaline.scoring import killshot_ranking, rank_board
from games.engine.errors import RuleError
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


def test_first_blood_goes_to_the_first_token_owner() -> None:
    state = hit(start(), "dozer", "violet", 1)  # turn 1
    state = hit(state, "banshee", "violet", 5)  # turn 2
    state = hit(state, "banshee", "violet", 5)  # turn 5: 11th token
    (score,) = score_events(act(state, {"type": "end_turn"}).events)
    # Banshee 10 tokens, Dozer 1: Dozer still drew first blood.
    assert awards_of(score) == [
        ("dozer", 1, "first_blood"),
        ("banshee", 8, "board"),
        ("dozer", 6, "board"),
    ]


def test_board_scores_8_6_4_with_ties_to_the_earlier_first_token() -> None:
    state = start(4)
    state = hit(state, "dozer", "sprog", 2)
    state = hit(state, "banshee", "sprog", 3)
    state = hit(state, "violet", "sprog", 3)
    state = hit(state, "dozer", "sprog", 3)
    # Dozer 5 tokens; Banshee 3 and Violet 3, but Banshee hit first.
    (score,) = score_events(act(state, {"type": "end_turn"}).events)
    assert awards_of(score) == [
        ("dozer", 1, "first_blood"),
        ("dozer", 8, "board"),
        ("banshee", 6, "board"),
        ("violet", 4, "board"),
    ]
    assert score["killer"] == "dozer" and score["skull"] and not score["overkill"]
    assert points(act(state, {"type": "end_turn"}).state) == {
        "dozer": 9,
        "banshee": 6,
        "violet": 4,
        "sprog": 0,
    }


def test_killer_loses_a_tie_for_most_damage_to_an_earlier_shooter() -> None:
    state = hit(start(), "banshee", "violet", 6)  # turn 2
    state = hit(state, "dozer", "violet", 6)  # turn 4: 11th and 12th tokens
    result = act(state, {"type": "end_turn"})
    (score,) = score_events(result.events)
    assert score["killer"] == "dozer" and score["overkill"]
    assert awards_of(score) == [
        ("banshee", 1, "first_blood"),
        ("banshee", 8, "board"),
        ("dozer", 6, "board"),
    ]


def test_kill_puts_one_track_token_and_a_skull_on_the_victim() -> None:
    state = kill(start(), "dozer", "banshee")
    assert state["killshot"] == [{"killer": "dozer", "tokens": 1}]
    banshee = player(state, "banshee")
    assert banshee["skulls"] == 1 and banshee["damage"] == []
    assert board_values(banshee) == [6, 4, 2, 1, 1]
    assert player(state, "dozer")["marks"] == {}


def test_overkill_puts_two_track_tokens_and_a_revenge_mark_at_scoring() -> None:
    state = hit(start(), "dozer", "banshee", 12)
    assert player(state, "dozer")["marks"] == {}  # not yet: at scoring
    result = act(state, {"type": "end_turn"})
    assert result.state["killshot"] == [{"killer": "dozer", "tokens": 2}]
    assert player(result.state, "dozer")["marks"] == {"banshee": 1}
    revenge = [e for e in result.events if e["type"] == "revenge_mark"]
    assert revenge == [{"type": "revenge_mark", "from": "banshee", "to": "dozer", "lost": False}]


def test_revenge_mark_is_lost_when_the_killer_already_has_three() -> None:
    state = hit(start(), "banshee", "dozer", marks=3)  # turn 2
    state = hit(state, "dozer", "banshee", 12)  # turn 4
    # Dozer already carries 3 marks from Banshee.
    result = act(state, {"type": "end_turn"})
    assert player(result.state, "dozer")["marks"] == {"banshee": 3}
    (revenge,) = [e for e in result.events if e["type"] == "revenge_mark"]
    assert revenge["lost"] is True


def test_marks_stay_on_a_board_after_its_death() -> None:
    state = hit(start(), "dozer", "banshee", marks=2)  # turn 1
    state = hit(state, "banshee", "violet", marks=1)  # turn 2
    state = kill(state, "violet", "banshee")  # turn 3
    # Dozer's marks on Banshee and Banshee's marks on Violet both survive.
    assert player(state, "banshee")["marks"] == {"dozer": 2}
    assert player(state, "violet")["marks"] == {"banshee": 1}


def test_a_board_with_two_skulls_scores_4_2_1_1() -> None:
    state = kill(start(5, skulls=8), "dozer", "dstructor")
    state = kill(state, "dozer", "dstructor")
    assert player(state, "dstructor")["skulls"] == 2
    assert board_values(player(state, "dstructor")) == [4, 2, 1, 1]
    state = hit(state, "banshee", "dstructor", 4)
    state = hit(state, "violet", "dstructor", 3)
    state = hit(state, "sprog", "dstructor", 2)
    state = hit(state, "dozer", "dstructor", 2)
    (score,) = score_events(act(state, {"type": "end_turn"}).events)
    assert awards_of(score) == [
        ("banshee", 1, "first_blood"),
        ("banshee", 4, "board"),
        ("violet", 2, "board"),
        ("sprog", 1, "board"),
        ("dozer", 1, "board"),
    ]


def test_scorers_past_the_printed_values_get_one_point_each() -> None:
    state = start(5, skulls=8)
    for _ in range(6):
        state = kill(state, "dozer", "dstructor")
    assert player(state, "dstructor")["skulls"] == 6
    assert board_values(player(state, "dstructor")) == []
    state = hit(state, "banshee", "dstructor", 2)
    state = hit(state, "violet", "dstructor", 4)
    state = hit(state, "sprog", "dstructor", 3)
    state = hit(state, "dozer", "dstructor", 2)
    (score,) = score_events(act(state, {"type": "end_turn"}).events)
    assert awards_of(score) == [
        ("banshee", 1, "first_blood"),
        ("violet", 1, "board"),
        ("sprog", 1, "board"),
        ("banshee", 1, "board"),
        ("dozer", 1, "board"),
    ]


def test_double_kill_scores_one_point_and_boards_score_in_seat_order() -> None:
    state = start(4)
    state = hit(state, "violet", "banshee", 1)  # turn 3
    state = turn_of(state, "sprog")  # turn 4
    result = act(
        state,
        {
            "type": "shot",
            "shooter": "sprog",
            "hits": [
                {"target": "banshee", "damage": 10},
                {"target": "dozer", "damage": 11},
            ],
        },
    )
    result = act(result.state, {"type": "end_turn"})
    scores = score_events(result.events)
    # From the current player (Sprog, seat 3) on: Dozer (0) before Banshee (1).
    assert [s["board"] for s in scores] == ["dozer", "banshee"]
    assert awards_of(scores[1]) == [
        ("violet", 1, "first_blood"),
        ("sprog", 8, "board"),
        ("violet", 6, "board"),
    ]
    assert {"type": "double_kill", "player": "sprog"} in result.events
    assert points_breakdown(result.state)["sprog"] == {
        "first_blood": 1,
        "board": 16,
        "double_kill": 1,
        "killshot_track": 0,
    }
    assert points(result.state)["sprog"] == 18


def test_when_one_skull_is_left_the_first_board_scored_takes_it() -> None:
    state = start(4, skulls=5)
    for victim in ("banshee", "violet", "sprog", "banshee"):
        state = kill(state, "dozer", victim)
    assert len(state["killshot"]) == 4
    state = turn_of(state, "dozer")
    state = act(
        state,
        {
            "type": "shot",
            "shooter": "dozer",
            "hits": [{"target": "sprog", "damage": 11}, {"target": "violet", "damage": 11}],
        },
    ).state
    scores = score_events(act(state, {"type": "end_turn"}).events)
    assert [(s["board"], s["skull"]) for s in scores] == [
        ("violet", True),
        ("sprog", False),
    ]


def test_kill_shot_track_ranks_by_tokens_then_earlier_token() -> None:
    track = [
        {"killer": "violet", "tokens": 1},
        {"killer": "dozer", "tokens": 2},
        {"killer": "banshee", "tokens": 1},
        {"killer": "banshee", "tokens": 1},
        {"killer": "violet", "tokens": 1},
    ]
    # Everybody has 2 tokens: the order of the first token decides.
    assert killshot_ranking(track) == ["violet", "dozer", "banshee"]


def test_rank_board_breaks_ties_by_first_token() -> None:
    damage = ["violet", "dozer", "dozer", "violet", "banshee", "banshee", "banshee"]
    assert rank_board(damage) == ["banshee", "violet", "dozer"]


def test_frenzy_actions_is_none_before_frenzy() -> None:
    assert frenzy_actions(start(), 0) is None


def test_after_the_game_is_over_every_action_is_refused() -> None:
    state = start(3, skulls=5)
    # One kill per turn: frenzy after 5 turns, then 3 final turns.
    for _ in range(8):
        shooter = state["players"][state["current"]]["character"]
        victim = state["players"][(state["current"] + 1) % 3]["character"]
        state = kill(state, shooter, victim)
    assert state["over"]
    for payload in (
        {"type": "end_turn"},
        {"type": "adjust", "player": "dozer", "field": "red", "delta": -1},
    ):
        with pytest.raises(RuleError) as error:
            act(state, payload)
        assert error.value.message == "The game is over."
