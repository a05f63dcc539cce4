"""The Shazamm! rules summary (games/shazamm/data/rules.json): the sections the board's
"?" links point to, in both languages, the numbers the engine and the spell cards play
by, and player-facing text that is ours rather than the rulebook's."""

import re
from pathlib import Path

from games.shazamm.rules import DRAW_PER_ROUND, FIRST_HAND, MAGE_GAP, MAX_MANA, MAX_ROUNDS, SLABS
from games.shazamm.spells import BOOST_ATTACK
from tests.support import catalog_data as checks
from tests.support.catalog_data import LANGUAGES, GameData, needs_seeds
from tests.support.seeds import copied_runs

ROOT = Path(__file__).resolve().parents[3]
DATA = GameData("shazamm")
rules = DATA.rules
text = DATA.section_text

# Linked from pieces/shazamm/board.html; they must exist.
LINKED_SECTIONS = ["wall", "mana", "bids", "spells"]
REQUIRED_SECTIONS = [*LINKED_SECTIONS, "goal", "setup", "priority", "round", "bridge"]


def spells() -> dict[str, dict]:
    return {c["slug"]: c for c in DATA.cards()}


def test_every_section_in_both_languages_with_the_same_number_of_points():
    checks.assert_rules_summary_complete(
        rules(), "shazamm", required=REQUIRED_SECTIONS, points=(3, 8)
    )


def test_every_section_the_board_links_to_exists():
    board = (ROOT / "pieces/shazamm/board.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'rules_help\("shazamm", "([a-z-]+)"\)', board))
    assert linked == set(LINKED_SECTIONS)
    assert linked <= {s["slug"] for s in rules()["sections"]}


def test_points_fit_a_phone_screen():
    checks.assert_texts_fit(DATA.rules_texts())


def test_setup_numbers_match_the_engine():
    setup = text("setup")
    assert f"{SLABS} slabs" in setup
    assert f"{MAGE_GAP} slabs from the wall, with {MAGE_GAP - 1} empty slabs" in setup
    assert f"start at {MAX_MANA}" in setup
    assert f"draws {FIRST_HAND}" in setup
    assert f"{SLABS} lastre" in text("setup", "it")


def test_bids_are_1_to_your_mana_and_move_the_wall_one_slab():
    bids = text("bids")
    assert "at least 1, at most the mana they have left" in bids
    assert "1 slab toward the other mage" in bids
    assert "Both mages pay their bids" in bids
    assert "tie" in bids  # says the rulebook is silent and what we do


def test_wall_section_names_the_spells_that_move_it():
    for slug in ("blaze", "loser-wins", "resistance", "middle"):
        for lang in LANGUAGES:
            assert spells()[slug]["name"][lang] in text("wall", lang), (slug, lang)
    assert spells()["blaze"]["effect"]["wall_steps"] == 2
    assert "Blaze moves it 2 slabs" in text("wall")


def test_mana_cap_and_running_out():
    mana = text("mana")
    assert f"{MAX_MANA} mana" in mana
    assert f"never goes above {MAX_MANA}" in mana
    for slug in ("reinforcement", "suction"):
        assert spells()[slug]["effect"]["mana_cap"] == MAX_MANA
        for lang in LANGUAGES:
            assert spells()[slug]["name"][lang] in text("mana", lang), (slug, lang)
    assert spells()["safe-loss"]["name"]["en"] in mana
    assert "1 slab toward them per mana point" in mana


def test_spells_section_counts_and_draws():
    numbered = sorted(c["number"] for c in spells().values() if c["number"] > 0)
    assert numbered == list(range(1, 15))
    assert f"{len(numbered)} spells numbered 1 to {max(numbered)}" in text("spells")
    assert f"draws {DRAW_PER_ROUND} more spells" in text("spells")
    assert spells()["mutism"]["name"]["en"] in text("spells")


def test_priority_example_is_worked_out_right():
    boost, double = spells()["boost-attack"], spells()["double-dose"]
    assert boost["effect"]["attack_add"] == BOOST_ATTACK == 7
    assert double["effect"]["attack_multiply"] == 2
    bid = 10
    attack = (bid + boost["effect"]["attack_add"]) * double["effect"]["attack_multiply"]
    for lang in LANGUAGES:
        priority = text("priority", lang)
        assert f"{boost['name'][lang]} ({boost['number']})" in priority
        assert f"{double['name'][lang]} ({double['number']})" in priority
        assert f"(10 + 7) x 2 = {attack}" in priority
    end = spells()["end-of-round"]
    assert f"{end['name']['en']} ({end['number']})" in text("priority")


def test_round_end_resets_mana_and_draws():
    end = text("round")
    assert f"{MAGE_GAP} slabs from it" in end
    assert f"go back to {MAX_MANA}" in end
    assert f"draws {DRAW_PER_ROUND} spells" in end


def test_the_bridge_holds_at_most_seven_rounds():
    assert MAX_ROUNDS == 7
    need = 2 * MAGE_GAP + 1  # two mages and the wall between them
    assert SLABS - 2 * (MAX_ROUNDS - 1) >= need > SLABS - 2 * MAX_ROUNDS
    assert f"{MAX_ROUNDS} rounds at most" in text("bridge")
    assert f"{SLABS} slabs" in text("bridge")


@needs_seeds
def test_rules_summary_is_not_copied_from_the_rulebooks():
    checks.assert_not_copied(DATA.rules_texts())


@needs_seeds
def test_copy_checker_spots_a_line_of_the_shazamm_rulebook():
    line = "Il mago riprende sempre questa carta in mano: la Carta Falsa non viene mai scartata."
    assert copied_runs(line) == [
        "il mago riprende sempre questa carta in mano la carta falsa non viene mai scartata"
    ]
