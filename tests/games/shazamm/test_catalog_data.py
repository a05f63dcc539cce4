"""The Shazamm! card catalog: the 15-card deck, worked facts from the rulebook and
its errata, and player-facing text that is ours rather than the rulebook's."""

import pytest

from tests.support import catalog_data as checks
from tests.support.catalog_data import LANGUAGES, GameData, needs_seeds
from tests.support.seeds import copied_runs

DATA = GameData("shazamm")
catalog = DATA.catalog
cards = DATA.cards
card = DATA.card

MANA_CAP = 50
MAX_TEXT_CHARS = 160  # one or two sentences on a phone screen

NAMES = [
    ("bluff", "Bluff", "Carta falsa"),
    ("mutism", "Mutism", "Mutismo"),
    ("clone", "Clone", "Clone"),
    ("larceny", "Larceny", "Furto"),
    ("end-of-round", "End of round", "Fine del round"),
    ("middle", "Middle", "Nel mezzo"),
    ("recycle", "Recycle", "Riciclare"),
    ("boost-attack", "Boost attack", "Potenziamento dell'attacco"),
    ("double-dose", "Double dose", "Dosaggio doppio"),
    ("loser-wins", "Loser wins", "Vince il perdente"),
    ("blaze", "Blaze", "Inferno"),
    ("resistance", "Resistance", "Resistenza"),
    ("safe-loss", "Safe loss", "Perdente salvo"),
    ("reinforcement", "Reinforcement", "Aumento della riserva"),
    ("suction", "Suction", "Aspirazione"),
]


def effect(slug: str) -> dict:
    return card(slug)["effect"]


def all_notes(lang: str) -> str:
    return " ".join(n for c in cards() for n in c["notes"][lang]).lower()


# --- The deck -----------------------------------------------------------------


def test_catalog_is_for_shazamm():
    assert catalog()["game"] == "shazamm"


def test_there_are_15_spells_numbered_0_to_14_in_order():
    assert len(cards()) == 15
    assert [c["number"] for c in cards()] == list(range(15))
    assert all(c["kind"] == "spell" for c in cards())


def test_slugs_follow_priority_order_and_are_unique():
    slugs = [c["slug"] for c in cards()]
    assert slugs == [slug for slug, _, _ in NAMES]
    checks.assert_clean_unique_slugs(cards())


def test_names_match_the_english_list_and_the_italian_rulebook():
    for c, (slug, en, it) in zip(cards(), NAMES, strict=True):
        assert c["name"] == {"en": en, "it": it}, slug


def test_every_card_has_text_in_both_languages():
    checks.assert_texts_in_both_languages(cards())


def test_notes_come_in_both_languages():
    for c in cards():
        assert len(c["notes"]["en"]) == len(c["notes"]["it"]), c["slug"]
        for lang in LANGUAGES:
            assert all(n.strip() for n in c["notes"][lang]), (c["slug"], lang)


def test_texts_and_notes_fit_a_phone_screen():
    checks.assert_card_texts_fit(DATA, MAX_TEXT_CHARS)


def test_every_card_has_structured_effect_facts():
    for c in cards():
        assert isinstance(c["effect"], dict) and c["effect"], c["slug"]


# --- Worked facts from the rulebook ------------------------------------------------


def test_bluff_does_nothing_and_is_never_discarded():
    assert effect("bluff") == {"no_effect": True, "never_discarded": True}


def test_mutism_lasts_the_whole_round():
    assert effect("mutism")["lasts"] == "round"
    assert effect("mutism")["cancels_spells"] is True


def test_clone_takes_an_opponent_spell_from_the_previous_turn():
    assert effect("clone")["copies"] == "opponent_spell"
    assert effect("clone")["from"] == "previous_turn"


def test_end_of_round_ends_the_round_and_leaves_the_wall():
    assert effect("end-of-round")["ends_round"] is True
    assert effect("end-of-round")["wall_stays"] is True


def test_recycle_corrects_the_bid_by_up_to_5_but_never_below_1():
    assert effect("recycle") == {"bid_correction": 5, "min_bid": 1}


def test_boost_attack_adds_7():
    assert effect("boost-attack") == {"attack_add": 7}


def test_double_dose_doubles():
    assert effect("double-dose") == {"attack_multiply": 2}


def test_loser_wins_and_blaze_act_only_if_the_wall_moves():
    assert effect("loser-wins") == {"reverse": True, "only_if_moving": True}
    assert effect("blaze") == {"wall_steps": 2, "only_if_moving": True}


def test_safe_loss_is_judged_on_the_final_movement():
    assert effect("safe-loss")["judged_on"] == "final_movement"


def test_reinforcement_adds_13_capped_at_50():
    assert effect("reinforcement") == {"mana_add": 13, "mana_cap": MANA_CAP}


def test_suction_adds_the_opponents_bid_capped_at_50():
    assert effect("suction") == {"mana_add": "opponent_bid", "mana_cap": MANA_CAP}


def test_mana_cap_is_the_same_everywhere():
    caps = {c["effect"]["mana_cap"] for c in cards() if "mana_cap" in c["effect"]}
    assert caps == {MANA_CAP}


# --- Clarifications a table needs ------------------------------------------------


def test_notes_cover_the_table_clarifications():
    en = all_notes("en")
    assert "cancel out" in en  # identical spells cancel
    assert "never drop below 1" in en  # Recycle
    assert "2 slabs" in " ".join(card("loser-wins")["notes"]["en"])  # Loser wins + Blaze
    assert "final movement" in " ".join(card("safe-loss")["notes"]["en"])
    assert "cancelled" in " ".join(card("clone")["notes"]["en"])
    assert "end of the round" in " ".join(card("mutism")["notes"]["en"])
    assert "both mages pay" in en  # a tie
    assert "50" in " ".join(card("reinforcement")["notes"]["en"])


# --- Our own words ----------------------------------------------------------------


@needs_seeds
@pytest.mark.parametrize("slug", [slug for slug, _, _ in NAMES])
def test_card_text_is_not_copied_from_the_rulebooks(slug):
    checks.assert_not_copied(DATA.player_texts(card(slug)))


@needs_seeds
def test_copy_checker_spots_a_line_of_the_shazamm_rulebook():
    line = "La forza dell'attacco del mago è raddoppiata. Paga sempre la somma puntata."
    assert copied_runs(line) == ["la forza dell attacco del mago e raddoppiata"]


@needs_seeds
def test_copy_checker_passes_our_own_words():
    assert copied_runs(card("double-dose")["text"]["it"]) == []
