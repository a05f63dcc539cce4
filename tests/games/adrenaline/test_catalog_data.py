"""The Adrenaline card catalog: counts, worked facts from the weapons manual, and
player-facing text that is ours rather than the rulebook's."""

import pytest

from tests.support import catalog_data as checks
from tests.support.catalog_data import LANGUAGES, GameData, needs_seeds
from tests.support.seeds import copied_runs

DATA = GameData("adrenaline")
catalog = DATA.catalog
card = DATA.card

AMMO = {"red", "blue", "yellow"}


def weapons() -> list[dict]:
    return DATA.cards("weapon")


def powerups() -> list[dict]:
    return DATA.cards("powerup")


def effect(weapon: str, slug: str) -> dict:
    return next(e for e in card(weapon)["effects"] if e["slug"] == slug)


# --- The deck -----------------------------------------------------------------


def test_catalog_is_for_adrenaline():
    assert catalog()["game"] == "adrenaline"


def test_there_are_21_weapons_and_4_power_up_types():
    assert len(weapons()) == 21
    assert [p["slug"] for p in powerups()] == [
        "targeting-scope",
        "newton",
        "tagback-grenade",
        "teleporter",
    ]


def test_card_slugs_are_unique():
    checks.assert_clean_unique_slugs(catalog()["cards"])


def test_power_up_deck_has_24_cards():
    assert all(p["copies"] == 6 for p in powerups())
    assert sum(p["copies"] for p in powerups()) == 24


def test_every_card_is_named_in_english_and_italian():
    for c in catalog()["cards"]:
        for lang in LANGUAGES:
            assert c["name"][lang].strip(), (c["slug"], lang)
        assert not c["name"]["it"].isupper() or c["slug"] == "zx-2", c["slug"]


def test_every_weapon_has_effects_with_text_in_both_languages():
    for w in weapons():
        assert w["effects"], w["slug"]
        slugs = [e["slug"] for e in w["effects"]]
        assert len(slugs) == len(set(slugs)), w["slug"]
        for e in w["effects"]:
            for lang in LANGUAGES:
                assert e["name"][lang].strip(), (w["slug"], e["slug"], lang)
                assert e["text"][lang].strip(), (w["slug"], e["slug"], lang)


def test_every_power_up_has_timing_and_text_in_both_languages():
    for p in powerups():
        for lang in LANGUAGES:
            assert p["timing"][lang].strip(), (p["slug"], lang)
            assert p["text"][lang].strip(), (p["slug"], lang)


def test_notes_come_in_both_languages():
    for c in catalog()["cards"]:
        assert len(c["notes"]["en"]) == len(c["notes"]["it"]), c["slug"]


# --- Ammo -----------------------------------------------------------------------


def test_colours_are_only_red_blue_yellow():
    for w in weapons():
        assert w["colour"] in AMMO, w["slug"]
        assert set(w["reload_cost"]) <= AMMO, w["slug"]
        for e in w["effects"]:
            assert set(e["extra_cost"]) <= AMMO, (w["slug"], e["slug"])


def test_first_reload_cube_is_prepaid_and_matches_card_colour():
    for w in weapons():
        assert w["reload_cost"][0] == w["colour"], w["slug"]
        assert w["pickup_cost"] == w["reload_cost"][1:], w["slug"]


# --- Card structure -------------------------------------------------------------


def test_effect_kinds_follow_card_structure():
    for w in weapons():
        kinds = [e["kind"] for e in w["effects"]]
        if w["structure"] == "single":
            assert kinds == ["basic"], w["slug"]
        elif w["structure"] == "alternative_modes":
            assert kinds == ["mode", "mode"], w["slug"]
            assert w["effects"][0]["slug"] == "basic", w["slug"]
        else:
            assert w["structure"] == "basic_optional", w["slug"]
            assert kinds[0] == "basic" and set(kinds[1:]) == {"optional"}, w["slug"]


def test_requirements_point_at_an_earlier_effect_of_the_same_weapon():
    for w in weapons():
        seen = []
        for e in w["effects"]:
            assert e["requires"] is None or e["requires"] in seen, (w["slug"], e)
            seen.append(e["slug"])


def test_damage_marks_and_targets_are_sensible_numbers():
    for w in weapons():
        for e in w["effects"]:
            damage = e["damage"] if isinstance(e["damage"], list) else [e["damage"]]
            assert all(isinstance(d, int) and 0 <= d <= 3 for d in damage), e
            assert isinstance(e["marks"], int) and 0 <= e["marks"] <= 2, e
            assert e["max_targets"] is None or 0 <= e["max_targets"] <= 3, e


# --- Worked facts from the weapons manual ----------------------------------------


def test_lock_rifle_gives_2_damage_and_1_mark_and_reloads_with_two_blue():
    basic = effect("lock-rifle", "basic")
    assert (basic["damage"], basic["marks"], basic["max_targets"]) == (2, 1, 1)
    assert card("lock-rifle")["reload_cost"] == ["blue", "blue"]
    assert effect("lock-rifle", "second-lock")["extra_cost"] == ["red"]


def test_whisper_gives_3_damage_and_1_mark():
    w = card("whisper")
    assert w["structure"] == "single"
    assert (w["effects"][0]["damage"], w["effects"][0]["marks"]) == (3, 1)
    assert w["reload_cost"] == ["blue", "blue", "yellow"]


def test_electroscythe_reaper_mode_costs_blue_and_red_and_hits_the_whole_square():
    reaper = effect("electroscythe", "reaper")
    assert reaper["extra_cost"] == ["blue", "red"]
    assert reaper["damage"] == 2
    assert reaper["max_targets"] is None


def test_thor_high_voltage_only_after_chain_reaction():
    assert effect("thor", "chain-reaction")["requires"] == "basic"
    high_voltage = effect("thor", "high-voltage")
    assert high_voltage["requires"] == "chain-reaction"
    assert high_voltage["damage"] == 2


def test_power_glove_modes():
    basic = effect("power-glove", "basic")
    assert (basic["damage"], basic["marks"]) == (1, 2)
    rocket_fist = effect("power-glove", "rocket-fist")
    assert rocket_fist["extra_cost"] == ["blue"]
    assert (rocket_fist["damage"], rocket_fist["max_targets"]) == (2, 2)


def test_sledgehammer_pulverize_costs_red_and_deals_3():
    assert effect("sledgehammer", "basic")["damage"] == 2
    pulverize = effect("sledgehammer", "pulverize")
    assert (pulverize["damage"], pulverize["extra_cost"]) == (3, ["red"])
    assert card("sledgehammer")["reload_cost"] == ["yellow"]


def test_railgun_reload_cost_and_modes():
    assert card("railgun")["reload_cost"] == ["yellow", "yellow", "blue"]
    assert card("railgun")["pickup_cost"] == ["yellow", "blue"]
    assert effect("railgun", "basic")["damage"] == 3
    piercing = effect("railgun", "piercing")
    assert (piercing["damage"], piercing["max_targets"]) == (2, 2)


def test_zx2_scanner_marks_up_to_three_players():
    basic = effect("zx-2", "basic")
    assert (basic["damage"], basic["marks"]) == (1, 2)
    scanner = effect("zx-2", "scanner")
    assert (scanner["damage"], scanner["marks"], scanner["max_targets"]) == (0, 1, 3)


def test_flamethrower_barbecue_hits_first_square_harder():
    assert effect("flamethrower", "barbecue")["damage"] == [2, 1]
    assert effect("flamethrower", "barbecue")["extra_cost"] == ["yellow", "yellow"]


def test_heatseeker_deals_3_and_costs_red_red_yellow():
    h = card("heatseeker")
    assert h["reload_cost"] == ["red", "red", "yellow"]
    assert h["effects"][0]["damage"] == 3


# --- Our own words ----------------------------------------------------------------


@needs_seeds
@pytest.mark.parametrize("slug", [c["slug"] for c in catalog()["cards"]])
def test_card_text_is_not_copied_from_the_rulebooks(slug):
    checks.assert_not_copied(DATA.player_texts(card(slug)))


@needs_seeds
def test_copy_checker_spots_a_line_of_the_weapons_manual():
    line = "Dai 3 danni e 1 marchio a 1 bersaglio che puoi vedere."
    assert copied_runs(line) == ["dai 3 danni e 1 marchio a 1 bersaglio che puoi vedere"]


@needs_seeds
def test_copy_checker_ignores_case_accents_and_punctuation():
    line = "MODALITA BASE -- dai 1 danno a ogni altro giocatore presente, nel quadrato!"
    assert copied_runs(line)


@needs_seeds
def test_copy_checker_passes_our_own_words():
    assert copied_runs(card("whisper")["effects"][0]["text"]["it"]) == []
