"""The Plastic Attack catalog and rules summary: the 13 special actions and the card
ranks they hang on, worked facts from the rulebook, and player-facing text that is
ours rather than the rulebook's."""

import pytest

from tests.support import catalog_data as checks
from tests.support.catalog_data import GameData, needs_seeds
from tests.support.seeds import copied_runs

DATA = GameData("plastic_attack")

KINDS = [
    ("special-action", "Special action", "Azione speciale"),
    ("rank", "Card rank", "Valore della carta"),
]

# slug, English name, Italian name (as in the Italian rulebook), in rulebook order
SPECIAL_ACTIONS = [
    ("deception", "Deception", "Inganno"),
    ("remedy", "Remedy", "Rimedio"),
    ("intimidation", "Intimidation", "Intimidazione"),
    ("knock-out", "Knock Out", "Knock Out"),
    ("luck", "Luck", "Fortuna"),
    ("master-plan", "Master Plan", "Piano Generale"),
    ("mind-control", "Mind Control", "Controllo della mente"),
    ("quick-action", "Quick Action", "Azione Rapida"),
    ("recovery", "Recovery", "Recupero"),
    ("sniper", "Sniper", "Cecchino"),
    ("shield", "Shield", "Scudo"),
    ("special-weapons", "Special Weapons", "Armi Speciali"),
    ("vulnerability", "Vulnerability", "Vulnerabilità"),
]

# slug, English name, Italian name, rank, value
RANKS = [
    ("two", "Two", "Due", "2", 2),
    ("three", "Three", "Tre", "3", 3),
    ("four", "Four", "Quattro", "4", 4),
    ("five", "Five", "Cinque", "5", 5),
    ("six", "Six", "Sei", "6", 6),
    ("seven", "Seven", "Sette", "7", 7),
    ("eight", "Eight", "Otto", "8", 8),
    ("nine", "Nine", "Nove", "9", 9),
    ("ten", "Ten", "Dieci", "10", 10),
    ("jack", "Jack", "Fante", "J", 11),
    ("queen", "Queen", "Regina", "Q", 12),
    ("king", "King", "Re", "K", 13),
    ("ace", "Ace", "Asso", "A", 14),
]
VALUE = {rank: value for _, _, _, rank, value in RANKS}

# A character card: three chosen actions on these bands, Recovery always on K-A.
CHOSEN_BANDS = [["7", "8"], ["9", "10"], ["J", "Q"]]
CHOSEN_RANKS = ["7", "8", "9", "10", "J", "Q"]

RULES_SECTIONS = ["goal", "setup", "turn", "battle", "scoring", "forgotten", "readings"]

catalog = DATA.catalog
rules = DATA.rules
cards = DATA.cards
card = DATA.card


# --- The catalog --------------------------------------------------------------------


def test_catalog_is_for_plastic_attack_with_its_two_kinds():
    checks.assert_kinds(catalog(), "plastic-attack", KINDS)


def test_every_card_has_a_declared_kind_and_a_unique_clean_slug():
    checks.assert_clean_unique_slugs(cards(), kinds=[slug for slug, _, _ in KINDS])


def test_slugs_come_from_the_english_names():
    checks.assert_slugs_from_english_names(cards())


def test_the_13_special_actions_in_both_languages():
    assert len(cards("special-action")) == 13
    assert [c["slug"] for c in cards("special-action")] == [row[0] for row in SPECIAL_ACTIONS]
    for slug, en, it in SPECIAL_ACTIONS:
        assert card(slug)["name"] == {"en": en, "it": it}


def test_recovery_always_sits_on_king_and_ace():
    recovery = card("recovery")
    assert recovery["ranks"] == ["K", "A"]
    assert recovery["rank_values"] == [13, 14]
    assert recovery["rank_bands"] == [["K", "A"]]
    assert recovery["rank_fixed"] is True
    assert recovery["also_choosable"] is True  # a card may carry more than one Recovery


def test_the_other_twelve_go_on_a_band_the_player_chooses():
    for c in cards("special-action"):
        if c["slug"] == "recovery":
            continue
        assert c["ranks"] == CHOSEN_RANKS, c["slug"]
        assert c["rank_values"] == [7, 8, 9, 10, 11, 12], c["slug"]
        assert c["rank_bands"] == CHOSEN_BANDS, c["slug"]
        assert c["rank_fixed"] is False, c["slug"]


def test_rank_values_match_the_ranks():
    for c in cards("special-action"):
        assert c["rank_values"] == [VALUE[r] for r in c["ranks"]], c["slug"]


def test_worked_numbers_from_the_rulebook():
    assert card("deception")["combat_modifier"] == 5
    assert card("deception")["applies_to"] == "your_next_defence"
    assert card("special-weapons")["combat_modifier"] == 5
    assert card("special-weapons")["applies_to"] == "your_next_attack"
    assert card("intimidation")["combat_modifier"] == -5
    assert card("intimidation")["applies_to"] == "opponent_next_defence"
    assert card("remedy")["power_gain"] == 2
    assert card("remedy")["power_max"] == 10
    assert card("knock-out")["turns_lost"] == 1
    assert card("luck")["die_sides"] == 10
    assert card("master-plan")["new_hand_size"] == 3
    assert card("mind-control")["power_set"] == 1
    assert card("quick-action")["cards_drawn"] == 4
    assert card("quick-action")["reverses_direction"] is True
    assert card("sniper")["power_loss"] == 1
    assert card("shield")["blocks_power_losses"] == 1
    assert card("vulnerability")["lasts_battles"] == 1


def test_the_13_ranks_with_their_values():
    assert [c["slug"] for c in cards("rank")] == [row[0] for row in RANKS]
    for slug, en, it, rank, value in RANKS:
        c = card(slug)
        assert c["name"] == {"en": en, "it": it}
        assert (c["rank"], c["value"]) == (rank, value)


def test_face_cards_and_ace_are_worth_11_to_14():
    faces = {card(s)["rank"]: card(s)["value"] for s in ("jack", "queen", "king", "ace")}
    assert faces == {"J": 11, "Q": 12, "K": 13, "A": 14}


def test_only_7_and_up_set_off_a_special_action():
    for c in cards("rank"):
        assert c["triggers_special_action"] is (c["value"] >= 7), c["slug"]
        if c["value"] < 7:
            assert c["special_action_ranks"] == [], c["slug"]
        else:
            assert c["rank"] in c["special_action_ranks"], c["slug"]


def test_every_special_action_hangs_on_ranks_that_exist():
    ranks = {c["rank"] for c in cards("rank")}
    for c in cards("special-action"):
        assert set(c["ranks"]) <= ranks, c["slug"]


def test_every_card_has_text_and_matching_notes_in_both_languages():
    checks.assert_texts_in_both_languages(cards())


def test_texts_and_notes_fit_a_phone_screen():
    checks.assert_card_texts_fit(DATA)


def test_notes_cover_the_table_clarifications():
    def en(slug):
        return " ".join(card(slug)["notes"]["en"])

    assert "never above 10" in en("remedy")
    assert "agree on it before the game" in en("recovery")
    assert "direction" in card("quick-action")["text"]["en"]
    assert "your right" in en("quick-action")
    assert "no mind control" in en("mind-control").lower()
    assert "another figure" in en("vulnerability")
    assert "first turn" in en("ace")


# --- The rules summary --------------------------------------------------------------


def test_rules_summary_has_every_section_in_both_languages():
    checks.assert_rules_summary_complete(
        rules(), "plastic-attack", sections=RULES_SECTIONS, points=(3, 8)
    )


def test_rules_give_the_card_values_and_the_15_power_points():
    points = {s["slug"]: " ".join(s["points"]["en"]) for s in rules()["sections"]}
    assert "Jack 11, Queen 12, King 13, Ace 14" in points["turn"]
    assert "15 Power points" in points["setup"]
    assert "attacker wins ties" in points["battle"]


def test_rules_points_fit_a_phone_screen():
    checks.assert_texts_fit(DATA.rules_texts())


# --- Our own words ---------------------------------------------------------------------


@needs_seeds
@pytest.mark.parametrize("slug", [row[0] for row in SPECIAL_ACTIONS + RANKS])
def test_card_text_is_not_copied_from_the_rulebooks(slug):
    checks.assert_not_copied(DATA.player_texts(card(slug)))


@needs_seeds
def test_rules_summary_is_not_copied_from_the_rulebooks():
    checks.assert_not_copied(DATA.rules_texts())


@needs_seeds
def test_copy_checker_spots_a_line_of_the_plastic_attack_rulebook():
    line = "Il giocatore che difende perde il suo turno successivo come attaccante."
    assert copied_runs(line) == [
        "il giocatore che difende perde il suo turno successivo come attaccante"
    ]
