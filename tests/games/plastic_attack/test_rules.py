"""Plastic Attack rules, worked through as a table would play them (seed 004), with
each reading of docs/rules/plastic_attack.md (A-PA…) checked where it matters."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.errors import InvalidInput, RuleError
from games.plastic_attack.cards import DECK, value_of
from games.plastic_attack.rules import ENGINE, army_of, waiting_for

ANNA, BRUNO, CARLA = 0, 1, 2


def act(state: dict[str, Any], seat: int | None, payload: dict[str, Any]) -> dict[str, Any]:
    return ENGINE.apply(state, ENGINE.parse_action(payload), seat).state


def events_of(state: dict[str, Any], seat: int | None, payload: dict[str, Any]) -> list[dict]:
    return ENGINE.apply(state, ENGINE.parse_action(payload), seat).events


def army(*characters: tuple[str, int, list[str]]) -> dict[str, Any]:
    return {
        "type": "army",
        "characters": [{"name": n, "power": p, "actions": a} for n, p, a in characters],
    }


# Anna: Tank (ids 0) and Winter Superhero (1); Bruno: Dragon (2) and Knight (3);
# Carla (three players): Robot (4) and Pirate (5).
ANNA_ARMY = army(
    ("Tank", 8, ["special-weapons", "sniper", "luck"]),
    ("Winter Superhero", 7, ["remedy", "deception", "shield"]),
)
BRUNO_ARMY = army(
    ("Dragon", 6, ["knock-out", "vulnerability", "mind-control"]),
    ("Knight", 5, ["intimidation", "master-plan", "quick-action"]),
)
CARLA_ARMY = army(
    ("Robot", 4, ["remedy", "remedy", "remedy"]),
    ("Pirate", 3, ["luck", "luck", "luck"]),
)


def table_game(players: int = 2, **options: Any) -> dict[str, Any]:
    """A table-mode game with its armies built and Anna to play first."""
    names = ["Anna", "Bruno", "Carla"][:players]
    state = ENGINE.new_state(names, {"hands": "table", **options}, seed=7)
    for seat, built in enumerate([ANNA_ARMY, BRUNO_ARMY, CARLA_ARMY][:players]):
        state = act(state, seat, built)
    return act(state, BRUNO, {"type": "first", "seat": ANNA})


def battle(
    state: dict[str, Any],
    attacker_char: int,
    defender: int,
    defender_char: int,
    cards: tuple[str, str],
) -> dict[str, Any]:
    attacker = state["current"]
    state = act(
        state, attacker, {"type": "declare", "character": attacker_char, "defender": defender}
    )
    state = act(state, defender, {"type": "defend", "character": defender_char})
    state = act(state, attacker, {"type": "card", "card": cards[0]})
    return act(state, defender, {"type": "card", "card": cards[1]})


def power(state: dict[str, Any], char: int) -> int:
    return state["characters"][char]["power"]


# ---------------------------------------------------------------- set-up


def test_an_army_spreads_15_power_points_1_to_10_each_over_2_to_5_figures():
    state = ENGINE.new_state(["Anna", "Bruno"], {}, seed=1)
    with pytest.raises(RuleError, match="15 Power points"):
        act(state, ANNA, army(("Tank", 10, ["luck"] * 3), ("Hero", 6, ["luck"] * 3)))
    with pytest.raises(InvalidInput):
        act(state, ANNA, army(("Tank", 11, ["luck"] * 3), ("Hero", 1, ["luck"] * 3)))
    with pytest.raises(InvalidInput, match="2 to 5"):
        act(state, ANNA, army(("Tank", 5, ["luck"] * 3)))
    with pytest.raises(InvalidInput):
        act(state, ANNA, army(("Tank", 5, ["luck", "luck"]), ("Hero", 5, ["luck"] * 3)))
    with pytest.raises(RuleError, match="different character"):
        act(state, ANNA, army(("Tank", 5, ["luck"] * 3), ("tank", 5, ["luck"] * 3)))
    # Unused points are lost (A-PA1); the same action may repeat (A-PA2).
    built = act(state, ANNA, army(("Tank", 5, ["luck"] * 3), ("Hero", 4, ["sniper"] * 3)))
    tank = built["characters"][0]
    assert tank["actions"] == {"7-8": "luck", "9-10": "luck", "J-Q": "luck", "K-A": "recovery"}
    assert waiting_for(built) == [BRUNO]
    with pytest.raises(RuleError, match="cannot change"):
        act(built, ANNA, ANNA_ARMY)


def test_with_the_tables_deck_the_table_says_who_drew_the_ace():
    state = ENGINE.new_state(["Anna", "Bruno"], {"hands": "table"}, seed=1)
    state = act(act(state, ANNA, ANNA_ARMY), BRUNO, BRUNO_ARMY)
    assert state["phase"] == "first"
    state = act(state, ANNA, {"type": "first", "seat": BRUNO})
    assert state["phase"] == "declare" and state["current"] == BRUNO


def test_the_apps_deck_deals_to_the_first_ace_then_three_cards_each_and_draws_to_four():
    state = ENGINE.new_state(["Anna", "Bruno", "Carla"], {"hands": "dealt"}, seed=3)
    for seat, built in enumerate([ANNA_ARMY, BRUNO_ARMY, CARLA_ARMY]):
        result = ENGINE.apply(state, ENGINE.parse_action(built), seat)
        state = result.state
    deal = next(e for e in result.events if e["kind"] == "ace_deal")
    # One open card at a time round the table from the first seat; the Ace's
    # receiver plays first (A-PA4).
    assert [seat for seat, _card in deal["cards"]] == [i % 3 for i in range(len(deal["cards"]))]
    assert deal["cards"][-1][1].startswith("A")
    assert not any(card.startswith("A") for _seat, card in deal["cards"][:-1])
    first = deal["seat"]
    assert state["current"] == first
    sizes = [len(hand) for hand in state["hands"]]
    assert sizes[first] == 4 and sorted(sizes) == [3, 3, 4]
    assert sum(sizes) + len(state["deck"]) == 52


# ---------------------------------------------------------------- battles


def test_ties_go_to_the_attacker_and_the_loser_drops_one_power():
    state = table_game()
    # Tank 8 + 5 = 13 against Dragon 6 + 7 = 13: a tie, the attacker wins.
    after = battle(state, 0, BRUNO, 2, ("5", "7"))
    assert power(after, 2) == 5
    assert after["last_battle"]["totals"] == [13, 13] and after["last_battle"]["won"]
    assert after["current"] == BRUNO  # a card under 7: no special action, turn over


def test_a_defender_with_the_higher_total_makes_the_attack_fail():
    state = table_game()
    after = battle(state, 1, BRUNO, 2, ("2", "K"))  # 7+2 = 9 against 6+13 = 19
    assert not after["last_battle"]["won"]
    assert power(after, 1) == 7 and power(after, 2) == 6  # the attacker loses nothing
    assert after["current"] == BRUNO


def test_a_character_below_1_is_captured_and_a_player_with_none_left_is_out():
    state = table_game()
    state["characters"][3]["power"] = 1  # Knight at 1
    state["characters"][2]["power"] = 1  # Dragon at 1
    after = battle(state, 0, BRUNO, 3, ("2", "2"))
    knight = after["characters"][3]
    assert knight["army"] is None and knight["captured_by"] == ANNA
    assert army_of(after, BRUNO) == [2]
    after["current"] = ANNA  # Anna again (as if Bruno's turn had passed)
    after["phase"] = "declare"
    over = battle(after, 0, BRUNO, 2, ("3", "2"))
    assert over["phase"] == "over" and over["winner"] == ANNA
    assert ENGINE.outcome(over).places == [[ANNA], [BRUNO]]


def test_the_fast_variant_captures_at_the_first_lost_battle():
    state = table_game(fast_capture=True)
    after = battle(state, 0, BRUNO, 2, ("4", "2"))
    assert after["characters"][2]["captured_by"] == ANNA


def test_only_the_players_of_the_battle_lay_a_card_and_each_lays_one():
    state = table_game(3)
    state = act(state, ANNA, {"type": "declare", "character": 0, "defender": BRUNO})
    with pytest.raises(RuleError, match="another player's move"):
        act(state, CARLA, {"type": "defend", "character": 4})
    state = act(state, BRUNO, {"type": "defend", "character": 2})
    with pytest.raises(RuleError, match="two players in the battle"):
        act(state, CARLA, {"type": "card", "card": "A"})
    state = act(state, ANNA, {"type": "card", "card": "9"})
    with pytest.raises(RuleError, match="already down"):
        act(state, ANNA, {"type": "card", "card": "A"})


def test_a_card_laid_face_down_is_seen_only_by_its_player_until_both_are_in():
    state = table_game()
    state = act(state, ANNA, {"type": "declare", "character": 0, "defender": BRUNO})
    state = act(state, BRUNO, {"type": "defend", "character": 2})
    state = act(state, ANNA, {"type": "card", "card": "Q"})
    assert ENGINE.view(state, ANNA)["battle"]["cards"] == ["Q", None]
    assert ENGINE.view(state, BRUNO)["battle"]["cards"] == [True, None]
    assert ENGINE.view(state, None)["battle"]["cards"] == [True, None]


# ---------------------------------------------------------------- special actions


def won_with(
    card: str, attacker_char: int = 0, defender_char: int = 2, **options: Any
) -> dict[str, Any]:
    """Anna wins a battle with ``card`` (Bruno plays a 2): at her special action."""
    state = table_game(**options)
    return battle(state, attacker_char, BRUNO, defender_char, (card, "2"))


def test_a_win_with_7_or_more_offers_the_action_of_that_band_and_the_attacker_may_pass():
    state = won_with("8")  # Tank's 7-8: Special Weapons
    assert state["phase"] == "special" and state["battle"]["special"] == "special-weapons"
    assert power(state, 2) == 5  # the loss came first (A-PA14)
    passed = act(state, ANNA, {"type": "special", "use": False})
    assert passed["current"] == BRUNO and passed["players"][ANNA]["weapons"] == 0


def test_special_weapons_add_5_to_the_next_attack_only():
    state = act(won_with("7"), ANNA, {"type": "special"})
    assert state["players"][ANNA]["weapons"] == 1
    state = battle(state, 2, ANNA, 0, ("2", "2"))  # Bruno attacks: no bonus for Anna
    assert state["last_battle"]["bonuses"] == [0, 0]
    state = battle(state, 0, BRUNO, 3, ("2", "6"))  # 8+2+5 = 15 against 5+6 = 11
    assert state["last_battle"]["totals"] == [15, 11] and state["last_battle"]["won"]
    assert state["players"][ANNA]["weapons"] == 0


def test_deception_adds_5_to_your_next_defence():
    state = won_with("9", attacker_char=1)  # Hero 9-10: Deception
    state = act(state, ANNA, {"type": "special"})
    state = battle(state, 2, ANNA, 1, ("K", "2"))  # Dragon 5+13 = 18; Hero 7+2+5 = 14
    assert state["last_battle"]["totals"] == [18, 14]
    assert state["players"][ANNA]["deception"] == 0


def test_intimidation_takes_5_from_the_defenders_next_defence_whoever_defends():
    # Bruno's Knight has Intimidation on 7-8 (A-PA7: it follows the player).
    state = table_game()
    state = battle(state, 1, BRUNO, 2, ("2", "K"))  # Anna fails; Bruno's turn
    state = battle(state, 3, ANNA, 0, ("8", "2"))  # Knight 5+8 = 13 beats Tank 8+2 = 10
    state = act(state, BRUNO, {"type": "special"})
    assert state["players"][ANNA]["intimidated"] == 1
    state = battle(state, 0, BRUNO, 3, ("2", "2"))  # Anna attacks: no penalty to her
    state = battle(state, 2, ANNA, 1, ("2", "4"))  # Anna's Hero defends: 7+4-5 = 6
    assert state["last_battle"]["totals"][1] == 6 and state["last_battle"]["bonuses"][1] == -5


def test_knock_out_skips_the_defenders_next_turn_as_attacker():
    state = table_game()
    state = battle(state, 1, BRUNO, 2, ("2", "K"))  # Bruno's turn now
    state = battle(state, 2, ANNA, 0, ("7", "2"))  # Dragon wins with a 7: Knock Out
    state = act(state, BRUNO, {"type": "special"})
    assert state["current"] == BRUNO  # Anna's turn was skipped
    assert state["players"][ANNA]["knocked_out"] == 0


def test_remedy_raises_power_by_2_never_above_10():
    state = won_with("7", attacker_char=1)  # Hero 7-8: Remedy
    state = act(state, ANNA, {"type": "special", "target": 0})  # Tank 8 → 10
    assert power(state, 0) == 10
    with pytest.raises(RuleError):
        act(won_with("7", attacker_char=1), ANNA, {"type": "special", "target": 2})


@pytest.mark.parametrize("against", ["current", "start"])
def test_luck_rolls_the_shared_die_against_the_current_or_the_starting_power(against):
    state = won_with("Q", luck=against)  # Tank J-Q: Luck
    state["characters"][1]["power"] = 3  # Hero now at 3, started at 7
    after = act(state, ANNA, {"type": "special", "target": 1})
    roll = after["die"]
    reference = 3 if against == "current" else 7
    assert power(after, 1) == (roll if roll > reference else 3)


def test_luck_rolls_the_same_on_replay_and_changes_with_the_seed():
    rolls = set()
    for seed in range(12):
        state = table_game()
        state["rng"]["seed"] = seed
        state = battle(state, 0, BRUNO, 2, ("Q", "2"))
        again = act(state, ANNA, {"type": "special", "target": 1})
        assert again == act(state, ANNA, {"type": "special", "target": 1})
        rolls.add(again["die"])
    assert len(rolls) > 3


def test_sniper_moves_the_loss_to_another_defender_and_can_capture_it():
    state = won_with("10")  # Tank 9-10: Sniper, chosen before the loss (A-PA13)
    assert state["phase"] == "special" and power(state, 2) == 6
    state["characters"][3]["power"] = 1
    after = act(state, ANNA, {"type": "special", "target": 3})
    assert power(after, 2) == 6  # the Dragon that fought loses nothing
    assert after["characters"][3]["captured_by"] == ANNA
    skipped = act(won_with("10"), ANNA, {"type": "special", "use": False})
    assert power(skipped, 2) == 5  # no Sniper: the normal loss


def test_shield_keeps_the_attack_card_by_a_figure_and_saves_its_next_lost_battle():
    state = won_with("J", attacker_char=1)  # Hero J-Q: Shield
    state = act(state, ANNA, {"type": "special", "target": 0})
    assert state["characters"][0]["shields"] == ["J"]
    state = battle(state, 2, ANNA, 0, ("A", "2"))  # Bruno beats the Tank
    assert power(state, 0) == 8 and state["characters"][0]["shields"] == []


def test_vulnerability_counts_only_the_card_in_the_figures_next_battle():
    state = table_game()
    state = battle(state, 1, BRUNO, 2, ("2", "K"))  # Bruno's turn
    state = battle(state, 2, ANNA, 0, ("9", "2"))  # Dragon 9-10: Vulnerability
    state = act(state, BRUNO, {"type": "special", "target": 0})
    assert state["characters"][0]["vulnerable"]
    state = battle(state, 0, BRUNO, 3, ("K", "2"))  # Tank counts 13 only, no Power
    assert state["last_battle"]["totals"][0] == 13
    assert not state["characters"][0]["vulnerable"]  # it stands up again


def test_vulnerability_on_a_captured_figure_goes_to_another_of_that_player():
    state = table_game()
    state = battle(state, 1, BRUNO, 2, ("2", "K"))
    state["characters"][0]["power"] = 1
    state = battle(state, 2, ANNA, 0, ("9", "2"))  # the Tank is captured
    with pytest.raises(RuleError):
        act(state, BRUNO, {"type": "special", "target": 0})
    state = act(state, BRUNO, {"type": "special", "target": 1})
    assert state["characters"][1]["vulnerable"]


def test_mind_control_turns_a_captured_figure_at_power_1_and_needs_one():
    state = table_game()
    state = battle(state, 1, BRUNO, 2, ("2", "K"))
    # Bruno's Dragon wins with a Queen: Mind Control, but Bruno holds no captive.
    no_captive = battle(state, 2, ANNA, 0, ("Q", "2"))
    assert no_captive["current"] == ANNA  # impossible: nothing to choose, turn over
    state["characters"][1]["power"] = 1
    state = battle(state, 2, ANNA, 1, ("2", "2"))  # Dragon captures the Hero
    state = battle(state, 0, BRUNO, 3, ("2", "K"))  # Anna fails
    state = battle(state, 2, ANNA, 0, ("Q", "2"))
    state = act(state, BRUNO, {"type": "special", "target": 1})
    hero = state["characters"][1]
    assert hero["army"] == BRUNO and hero["power"] == 1 and hero["captured_by"] is None


@pytest.mark.parametrize(("how", "expected"), [("start", 7), ("one", 1)])
def test_recovery_brings_back_a_lost_figure_with_a_new_power(how, expected):
    state = table_game(recovery_power=how)
    state["characters"][1]["power"] = 1
    state = battle(state, 1, BRUNO, 2, ("2", "K"))  # Bruno's turn
    state = battle(state, 2, ANNA, 1, ("2", "2"))  # Dragon captures the Hero
    assert state["characters"][1]["captured_by"] == BRUNO
    state = battle(state, 0, BRUNO, 3, ("K", "2"))  # Anna wins with a King: Recovery
    state = act(state, ANNA, {"type": "special", "target": 1})
    hero = state["characters"][1]
    assert hero["army"] == ANNA and hero["captured_by"] is None and hero["power"] == expected


def test_recovery_is_impossible_without_a_lost_figure():
    state = won_with("A")
    assert state["current"] == BRUNO  # nothing to recover: the turn passes at once


def test_quick_action_gives_an_extra_turn_then_play_goes_the_other_way():
    state = table_game(3)
    state = battle(state, 1, BRUNO, 2, ("2", "K"))  # Anna fails → Bruno
    state = battle(state, 3, CARLA, 4, ("Q", "2"))  # Knight J-Q: Quick Action
    state = act(state, BRUNO, {"type": "special"})
    assert state["current"] == BRUNO  # the extra turn
    state = battle(state, 3, CARLA, 4, ("2", "K"))  # it fails
    assert state["current"] == ANNA and state["direction"] == -1  # back towards Anna


def _dealt_game(seed: int = 4) -> dict[str, Any]:
    state = ENGINE.new_state(["Anna", "Bruno"], {"hands": "dealt"}, seed=seed)
    return act(act(state, ANNA, ANNA_ARMY), BRUNO, BRUNO_ARMY)


def rig(state: dict[str, Any], current: int, hands: list[list[str]]) -> dict[str, Any]:
    """The same game with these hands and ``current`` to declare; the rest of the
    deck stays the deck."""
    state["current"] = current
    state["hands"] = hands
    held = {card for hand in hands for card in hand}
    state["deck"] = [card for card in DECK if card not in held]
    state["discard"] = []
    return state


def test_master_plan_with_the_apps_deck():
    state = rig(_dealt_game(), BRUNO, [["2C", "5D"], ["10S", "2H", "3H", "4H"]])
    state = act(state, BRUNO, {"type": "declare", "character": 3, "defender": ANNA})
    state = act(state, ANNA, {"type": "defend", "character": 1})
    state = act(state, BRUNO, {"type": "card", "card": "10S"})  # Knight 9-10: Master Plan
    state = act(state, ANNA, {"type": "card", "card": "2C"})
    assert state["battle"]["special"] == "master-plan"
    state = act(state, BRUNO, {"type": "special", "players": [ANNA, BRUNO]})
    # Both drew exactly three, whatever they held; Anna then drew to four on her turn.
    assert len(state["hands"][BRUNO]) == 3
    assert state["current"] == ANNA and len(state["hands"][ANNA]) == 4
    assert_cards_conserved(state)


# ---------------------------------------------------------------- the app's deck


def assert_cards_conserved(state: dict[str, Any]) -> None:
    held = [c for hand in state["hands"] for c in hand]
    shields = [c for ch in state["characters"] for c in ch["shields"]]
    everything = state["deck"] + state["discard"] + held + shields + state["table"]
    assert sorted(everything) == sorted(DECK), "a card was lost or doubled"


def test_a_hand_only_plays_its_own_cards_and_the_others_see_only_sizes():
    state = _dealt_game()
    seat = state["current"]
    other = 1 - seat
    mine = army_of(state, seat)[0]
    state = act(state, seat, {"type": "declare", "character": mine, "defender": other})
    state = act(state, other, {"type": "defend", "character": army_of(state, other)[0]})
    missing = next(c for c in DECK if c not in state["hands"][seat])
    with pytest.raises(RuleError, match="not in your hand"):
        act(state, seat, {"type": "card", "card": missing})
    view = ENGINE.view(state, other)
    assert view["hands"][seat] is None and view["hands"][other] == state["hands"][other]
    assert view["hand_sizes"][seat] == len(state["hands"][seat])
    assert view["deck"] == len(state["deck"]) and view["rng"] is None
    spectator = ENGINE.view(state, None)
    assert spectator["hands"] == [None, None]


def test_when_the_timer_runs_out_the_lowest_card_is_laid():
    state = _dealt_game()
    seat = state["current"]
    other = 1 - seat
    state = act(
        state, seat, {"type": "declare", "character": army_of(state, seat)[0], "defender": other}
    )
    state = act(state, other, {"type": "defend", "character": army_of(state, other)[0]})
    payload = ENGINE.default_action(state, seat)
    assert payload["card"] == min(state["hands"][seat], key=value_of)


def test_the_discards_are_reshuffled_when_the_deck_runs_out():
    state = _dealt_game()
    seat = state["current"]
    # One card left in the deck; the rest, and two of the player's four, discarded.
    state["discard"] = state["deck"][:-1] + state["hands"][seat][2:]
    state["deck"] = state["deck"][-1:]
    state["hands"][seat] = state["hands"][seat][:2]
    assert_cards_conserved(state)
    other = 1 - seat
    state = act(
        state, seat, {"type": "declare", "character": army_of(state, seat)[0], "defender": other}
    )
    state = act(state, other, {"type": "defend", "character": army_of(state, other)[0]})
    state = act(state, seat, {"type": "card", "card": state["hands"][seat][0]})
    state = act(state, other, {"type": "card", "card": state["hands"][other][0]})
    if state["phase"] == "special":
        state = act(state, state["current"], {"type": "special", "use": False})
    assert_cards_conserved(state)
    assert len(state["hands"][state["current"]]) >= 4 or not state["deck"]


# ---------------------------------------------------------------- more decisions


def test_a_defender_with_an_empty_hand_draws_one_card_to_defend():  # A-PA6
    state = rig(_dealt_game(), ANNA, [["9S", "2H", "3H", "4H"], []])
    state = act(state, ANNA, {"type": "declare", "character": 0, "defender": BRUNO})
    state = act(state, BRUNO, {"type": "defend", "character": 2})
    assert len(state["hands"][BRUNO]) == 1
    assert_cards_conserved(state)


def test_two_pending_bonuses_add_up_and_are_used_together():  # A-PA8
    state = table_game()
    state["players"][ANNA]["weapons"] = 2
    state = battle(state, 0, BRUNO, 2, ("2", "2"))  # 8 + 2 + 10 against 6 + 2
    assert state["last_battle"]["totals"] == [20, 8]
    assert state["players"][ANNA]["weapons"] == 0


def test_two_knock_outs_skip_two_turns():  # A-PA17
    state = table_game()
    state["players"][BRUNO]["knocked_out"] = 2
    state = battle(state, 1, BRUNO, 2, ("2", "K"))  # Anna fails; Bruno is skipped
    assert state["current"] == ANNA and state["players"][BRUNO]["knocked_out"] == 1
    state = battle(state, 1, BRUNO, 2, ("2", "K"))
    assert state["current"] == ANNA and state["players"][BRUNO]["knocked_out"] == 0
    state = battle(state, 1, BRUNO, 2, ("2", "K"))
    assert state["current"] == BRUNO


def test_a_turned_figure_won_back_by_its_owner_rejoins_at_power_1():  # A-PA16
    state = table_game()
    hero = state["characters"][1]
    hero.update(army=BRUNO, captured_by=None, power=1, controlled=True)  # turned by Bruno
    state = battle(state, 0, BRUNO, 1, ("5", "2"))  # Anna's Tank beats her own Hero
    hero = state["characters"][1]
    assert hero["army"] == ANNA and hero["power"] == 1 and not hero["controlled"]


def test_in_the_fast_game_a_shield_saves_the_figure_from_capture():  # A-PA12
    state = table_game(fast_capture=True)
    state["characters"][2]["shields"] = ["J"]
    state = battle(state, 0, BRUNO, 2, ("5", "2"))
    dragon = state["characters"][2]
    assert dragon["army"] == BRUNO and dragon["power"] == 6 and dragon["shields"] == []


def test_an_attacker_with_no_card_to_play_and_none_to_draw_passes():  # A-PA22
    state = rig(_dealt_game(), ANNA, [[], ["2C", "5D", "6D"]])
    state["characters"][0]["shields"] = state["deck"]  # every other card kept as a Shield
    state["deck"], state["discard"] = [], []
    assert_cards_conserved(state)
    events = events_of(state, ANNA, {"type": "declare", "character": 0, "defender": BRUNO})
    assert any(e["kind"] == "no_cards" for e in events)
    after = act(state, ANNA, {"type": "declare", "character": 0, "defender": BRUNO})
    assert after["current"] == BRUNO


def test_a_combat_total_never_goes_below_zero():  # A-PA24
    state = table_game()
    state["characters"][2]["vulnerable"] = True
    state["players"][BRUNO]["intimidated"] = 1
    state = battle(state, 0, BRUNO, 2, ("2", "2"))  # Dragon: 2 + 0 − 5
    assert state["last_battle"]["totals"][1] == 0
