"""The Munchkin Bites! catalog and rules summary. The card list is not public, so the
catalog holds the rule concepts a player looks up (races, powers, item slots, monster
cards, the core rules), with the numbers as fields, Italian names as in the Italian
rulebook, and player-facing text that is ours rather than the rulebook's."""

import pytest

from tests.support import catalog_data as checks
from tests.support.catalog_data import GameData, needs_seeds
from tests.support.seeds import SEEDS_DIR, copied_runs, words

DATA = GameData("munchkin")
MUNCHKIN_SEED = SEEDS_DIR / "001_884a805d70d455c8.txt"

KINDS = [
    ("race", "Race", "Razza"),
    ("power", "Power", "Potere"),
    ("item", "Item", "Oggetto"),
    ("monster-card", "Monster card", "Carta mostro"),
    ("other-card", "Other card", "Altra carta"),
    ("rule", "Rule", "Regola"),
]

# kind, slug, English name, Italian name, in file order
CARDS = [
    ("race", "human", "Human", "Umano"),
    ("race", "vampire", "Vampire", "Vampiro"),
    ("race", "werewolf", "Werewolf", "Licantropo"),
    ("race", "changeling", "Changeling", "Changeling"),
    ("race", "mummy", "Mummy", "Mummia"),
    ("race", "half-breed", "Half-Breed", "Mezzosangue"),
    ("power", "power-ranks", "Power Ranks", "Ranghi dei Poteri"),
    ("power", "changeling-exception", "Changeling Exception", "Eccezione del Changeling"),
    ("power", "duplicate-powers", "Duplicate Powers", "Poteri doppi"),
    ("power", "discarding-for-powers", "Discarding for Powers", "Scartare per i Poteri"),
    ("item", "headgear", "Headgear", "Copricapo"),
    ("item", "armour", "Armour", "Armatura"),
    ("item", "footgear", "Footgear", "Calzature"),
    ("item", "one-hand-items", "One-Hand Items", "Oggetti a una mano"),
    ("item", "two-hand-items", "Two-Hand Items", "Oggetti a due mani"),
    ("item", "big-items", "Big Items", "Oggetti Grandi"),
    ("item", "one-shot-items", "One-Shot Items", "Oggetti a uso singolo"),
    ("item", "restricted-items", "Restricted Items", "Oggetti con restrizioni"),
    ("monster-card", "monster-enhancers", "Monster Enhancers", "Potenziamenti per Mostri"),
    ("monster-card", "evil-twin", "Evil Twin", "Gemello Malvagio"),
    ("monster-card", "wandering-monster", "Wandering Monster", "Mostro Errante"),
    ("monster-card", "bats", "Bats", "Pipistrelli"),
    ("other-card", "curses-and-traps", "Curses and Traps", "Trappole e Maledizioni"),
    ("other-card", "go-up-a-level", "Go Up a Level", "Avanzi di Livello"),
    ("other-card", "minions", "Minions", "Lacchè"),
    ("rule", "setup", "Setup", "Preparazione"),
    ("rule", "combat", "Combat", "Combattimento"),
    ("rule", "asking-for-help", "Asking for Help", "Chiedere aiuto"),
    ("rule", "run-away", "Run Away", "Fuga"),
    ("rule", "levels", "Levels", "Livelli"),
    ("rule", "selling-items", "Selling Items", "Vendere gli oggetti"),
    ("rule", "trading", "Trading", "Scambi"),
    ("rule", "death", "Death", "Morte"),
    ("rule", "charity", "Charity", "Carità"),
    ("rule", "winning", "Winning", "Vittoria"),
]

# Italian names of game terms, spelled as in the Italian rulebook. "Mummia" is left
# out: the rulebook only has the plural "Mumme" and the misprint "Mumma".
RULEBOOK_TERMS = [
    "vampire",
    "werewolf",
    "changeling",
    "half-breed",
    "headgear",
    "armour",
    "footgear",
    "big-items",
    "monster-enhancers",
    "evil-twin",
    "wandering-monster",
    "bats",
    "curses-and-traps",
    "go-up-a-level",
    "minions",
]

# The anchors the companion screens link their "?" buttons to.
REQUIRED_SECTIONS = [
    "turn",
    "combat",
    "run-away",
    "levels",
    "races",
    "powers",
    "death",
    "winning",
    "charity",
]

catalog = DATA.catalog
rules = DATA.rules
cards = DATA.cards
card = DATA.card
section_text = DATA.section_text


def levels_bought(gold: int) -> int:
    """Levels a sale buys: whole thousands only, no change given."""
    return gold // card("selling-items")["gold_per_level"]


# --- The catalog --------------------------------------------------------------------


def test_catalog_is_for_munchkin_with_its_kinds():
    checks.assert_kinds(catalog(), "munchkin", KINDS)


def test_every_card_has_a_declared_kind_and_a_unique_clean_slug():
    checks.assert_clean_unique_slugs(cards(), kinds=[slug for slug, _, _ in KINDS])


def test_slugs_come_from_the_english_names():
    checks.assert_slugs_from_english_names(cards())


def test_every_card_is_there_with_its_kind_and_names():
    assert [(c["kind"], c["slug"]) for c in cards()] == [(k, s) for k, s, _, _ in CARDS]
    for _kind, slug, en, it in CARDS:
        assert card(slug)["name"] == {"en": en, "it": it}


def test_the_four_races_and_the_human_default():
    assert {c["slug"] for c in cards("race")} == {
        "human",
        "vampire",
        "werewolf",
        "changeling",
        "mummy",
        "half-breed",
    }
    assert card("human")["races_max"] == 1
    assert card("half-breed")["races_max"] == 2
    assert card("changeling")["keeps_powers_when_level_drops"] is True
    assert card("werewolf")["benefits_when_helping"] is True


def test_no_card_uses_the_reference_filter_fields():
    # `colour`, `reload_cost`, `damage`, `priority` and `number` feed the Adrenaline
    # and Shazamm! filters (games/catalog_loader.facets); a Munchkin rule is none of those.
    for c in cards():
        assert not {"colour", "reload_cost", "damage", "priority", "number"} & set(c), c["slug"]


# --- Worked numbers -------------------------------------------------------------------


def test_levels_run_from_1_to_10_and_10_needs_a_kill():
    levels = card("levels")
    assert (levels["min_level"], levels["start_level"], levels["max_level"]) == (1, 1, 10)
    assert card("winning")["target_level"] == levels["max_level"]
    assert card("winning")["shared_win"] is True
    assert card("go-up-a-level")["levels"] == 1
    assert card("go-up-a-level")["can_reach_max_level"] is False
    assert card("vampire")["max_level_by_stealing"] == levels["max_level"] - 1


def test_selling_gives_a_level_per_1000_gold_and_no_change():
    selling = card("selling-items")
    assert selling["gold_per_level"] == 1000
    assert selling["gives_change"] is False
    assert selling["max_level_by_selling"] == card("levels")["max_level"] - 1
    for example in selling["examples"]:
        assert example["levels"] == levels_bought(example["gold"]), example
    assert {"gold": 1100, "levels": 1} in selling["examples"]  # no change for the 100
    assert {"gold": 2000, "levels": 2} in selling["examples"]


def test_running_away_needs_5_or_more_on_a_six_sided_die():
    run = card("run-away")
    assert (run["die_min"], run["die_sides"]) == (5, 6)
    assert card("setup")["die_sides"] == run["die_sides"]
    escapes = [face for face in range(1, run["die_sides"] + 1) if face >= run["die_min"]]
    assert escapes == [5, 6]
    assert "5 or 6" in run["text"]["en"]
    assert "5 o 6" in run["text"]["it"]


def test_power_ranks_are_1_to_3_and_add_up_to_at_most_the_level():
    ranks = card("power-ranks")
    assert ranks["power_ranks"] == [1, 2, 3]
    assert ranks["starting_rank"] == 1
    for example in ranks["examples"]:
        assert set(example["ranks"]) <= set(ranks["power_ranks"]), example
        assert example["allowed"] is (sum(example["ranks"]) <= example["level"]), example


def test_the_changeling_example_breaks_the_rank_rule_and_regains_at_the_old_level():
    exception = card("changeling-exception")
    level, total, after = (
        exception["example_level"],
        exception["example_rank_total"],
        exception["example_level_after"],
    )
    assert total <= level  # legal before the drop
    assert total > after  # anyone else would have to discard
    assert exception["example_regain_level"] == level == 7
    assert after == level - 1


def test_item_slots_and_sizes():
    for slug in ("headgear", "armour", "footgear"):
        assert card(slug)["slots"] == 1, slug
    one, two = card("one-hand-items"), card("two-hand-items")
    assert (one["hands"], one["max_in_use"]) == (1, 2)
    assert (two["hands"], two["max_in_use"]) == (2, 1)
    assert one["hands"] * one["max_in_use"] == two["hands"] * two["max_in_use"]  # two hands
    assert card("big-items")["max_big"] == 1
    assert card("one-shot-items")["uses"] == 1


def test_monster_cards_and_minions():
    assert card("evil-twin")["monsters_added"] == 1
    assert card("wandering-monster")["monsters_added"] == 1
    assert card("minions")["max_in_play"] == 1
    assert card("duplicate-powers")["stacks"] is False


def test_setup_combat_help_death_and_charity_numbers():
    setup = card("setup")
    assert (setup["players_min"], setup["players_max"]) == (3, 6)
    assert setup["cards_per_deck"] == 2
    assert setup["tokens_per_player"] == card("levels")["max_level"]
    combat = card("combat")
    assert (combat["levels"], combat["levels_max"], combat["tie_kills"]) == (1, 2, False)
    assert card("asking-for-help")["helpers_max"] == 1
    assert card("asking-for-help")["helper_gains_levels"] is False
    assert card("death")["cards_per_deck_on_return"] == setup["cards_per_deck"]
    assert card("death")["keeps"] == ["races", "powers", "level"]
    assert card("charity")["hand_limit"] == 5


def test_every_card_has_text_and_matching_notes_in_both_languages():
    checks.assert_texts_in_both_languages(cards(), notes_required=True)


def test_texts_and_notes_fit_a_phone_screen():
    checks.assert_card_texts_fit(DATA)


def test_texts_state_the_numbers_in_the_fields():
    assert "1000" in card("selling-items")["text"]["en"]
    assert "1000" in card("selling-items")["text"]["it"]
    assert "1100" in " ".join(card("selling-items")["notes"]["en"])
    assert "Rank 1, 2 or 3" in card("power-ranks")["text"]["en"]
    assert "Rango 1, 2 o 3" in card("power-ranks")["text"]["it"]
    assert "at most 5 cards" in card("charity")["text"]["en"]
    assert "level 10" in " ".join(card("go-up-a-level")["notes"]["en"])
    assert "level 7" in " ".join(card("changeling-exception")["notes"]["en"])


# --- The rules summary --------------------------------------------------------------


def test_rules_summary_has_every_section_in_both_languages():
    checks.assert_rules_summary_complete(
        rules(), "munchkin", required=REQUIRED_SECTIONS, points=(3, 8)
    )


def test_rules_points_fit_a_phone_screen():
    checks.assert_texts_fit(DATA.rules_texts())


def test_the_turn_has_its_four_phases_in_order():
    text = section_text("turn")
    phases = ["Kick open the door", "Look for trouble", "Loot the room", "Charity"]
    assert [text.find(p) for p in phases] == sorted(text.find(p) for p in phases)
    assert all(p in text for p in phases)
    text_it = section_text("turn", "it")
    assert all(p in text_it for p in ["Apri la porta", "Cerca guai", "Svuota la stanza"])


def test_rules_summary_agrees_with_the_catalog():
    assert "5 or 6" in section_text("run-away")
    assert "1000 gold" in section_text("levels")
    assert "1100 gold is still one level" in section_text("levels")
    assert "from 1 to 10" in section_text("levels")
    assert "at most 5 cards" in section_text("charity")
    assert "Rank 1, 2 or 3" in section_text("powers")
    assert "2 cards from each deck" in section_text("death")
    for race in cards("race"):
        if race["slug"] not in ("human", "half-breed"):
            assert race["name"]["en"] in section_text("races"), race["slug"]
            assert race["name"]["it"] in section_text("races", "it"), race["slug"]


# --- Our own words ---------------------------------------------------------------------


@needs_seeds
def test_italian_names_are_the_rulebook_terms():
    rulebook = " ".join(words(MUNCHKIN_SEED.read_text(encoding="utf-8")))
    for slug in RULEBOOK_TERMS:
        assert " ".join(words(card(slug)["name"]["it"])) in rulebook, slug


@needs_seeds
@pytest.mark.parametrize("slug", [row[1] for row in CARDS])
def test_card_text_is_not_copied_from_the_rulebooks(slug):
    checks.assert_not_copied(DATA.player_texts(card(slug)))


@needs_seeds
def test_rules_summary_is_not_copied_from_the_rulebooks():
    checks.assert_not_copied(DATA.rules_texts())


@needs_seeds
def test_copy_checker_spots_a_line_of_the_munchkin_rulebook():
    line = "Tira un dado, riesci a fuggire soltanto con un 5 o più."
    assert copied_runs(line) == ["tira un dado riesci a fuggire soltanto con un 5 o piu"]
