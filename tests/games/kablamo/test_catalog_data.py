"""The Kablamo card catalog and rules summary: the bullet types, every bullet the
rulebook names, worked facts from it, and player-facing text that is ours rather
than the rulebook's."""

import pytest

from tests.support import catalog_data as checks
from tests.support.catalog_data import GameData, needs_seeds
from tests.support.seeds import copied_runs

DATA = GameData("kablamo")

KINDS = [
    ("bullet-type", "Bullet type", "Tipo di proiettile"),
    ("bullet", "Bullet", "Proiettile"),
]

# slug, English name, Italian name, colour, copies in the box, variants
BULLET_TYPES = [
    ("live-bullet", "Live Bullet", "Proiettile Pieno", "yellow", 20, 2),
    ("action-bullet", "Action Bullet", "Proiettile Azione", "white", 67, 13),
    ("high-velocity-bullet", "High-Velocity Bullet", "Proiettile ad Alta Velocità", "red", 13, 13),
]

# slug, name (the Italian rulebook keeps the English names), bullet type,
# whether the rulebook says the type, whether it describes the effect
BULLETS = [
    ("kablamo", "Kablamo", "live-bullet", True, True),
    ("click", "Click", "live-bullet", True, True),
    ("test-of-honor", "Test of Honor", "action-bullet", False, True),
    ("speed-load", "Speed Load", "action-bullet", False, True),
    ("stockpiling", "Stockpiling", "action-bullet", False, True),
    ("sleight-of-hand", "Sleight of Hand", "action-bullet", False, True),
    ("triple-action", "Triple Action", "action-bullet", False, True),
    ("cylinder-malfunction", "Cylinder Malfunction", "action-bullet", False, True),
    ("trigger-malfunction", "Trigger Malfunction", "action-bullet", False, False),
    ("trigger-happy", "Trigger Happy", "action-bullet", False, False),
    (
        "marquis-of-queensbury-rules",
        "Marquis of Queensbury Rules",
        "high-velocity-bullet",
        True,
        True,
    ),
    ("lights-out", "Lights Out", "high-velocity-bullet", True, True),
]

RULES_SECTIONS = [
    "goal",
    "setup",
    "turn",
    "effects",
    "scoring",
    "forgotten",
    "variants",
    "readings",
]

catalog = DATA.catalog
rules = DATA.rules
cards = DATA.cards
card = DATA.card


# --- The catalog --------------------------------------------------------------------


def test_catalog_is_for_kablamo_with_its_two_kinds():
    checks.assert_kinds(catalog(), "kablamo", KINDS)


def test_every_card_has_a_declared_kind_and_a_unique_clean_slug():
    checks.assert_clean_unique_slugs(cards(), kinds=[slug for slug, _, _ in KINDS])


def test_slugs_come_from_the_english_names():
    checks.assert_slugs_from_english_names(cards())


def test_the_three_bullet_types_in_both_languages():
    assert [c["slug"] for c in cards("bullet-type")] == [row[0] for row in BULLET_TYPES]
    for slug, en, it, colour, copies, variants in BULLET_TYPES:
        c = card(slug)
        assert c["name"] == {"en": en, "it": it}
        assert c["bullet_colour"] == colour
        assert c["copies"] == copies
        assert c["variants"] == variants


def test_the_box_holds_100_bullets():
    assert sum(c["copies"] for c in cards("bullet-type")) == 100


def test_only_live_bullets_resolve_first_go_back_to_the_bag_and_cannot_be_assigned():
    live = card("live-bullet")
    assert live["resolves_first"] is True
    assert live["assignable"] is False
    assert live["after_use"] == "ammo_bag"
    for slug in ("action-bullet", "high-velocity-bullet"):
        assert card(slug)["resolves_first"] is False
        assert card(slug)["assignable"] is True
        assert card(slug)["after_use"] == "discard_pile"


def test_only_high_velocity_bullets_are_played_from_the_hand():
    playable = {c["slug"] for c in cards("bullet-type") if c["playable_from_hand"]}
    assert playable == {"high-velocity-bullet"}


def test_every_named_bullet_is_there_with_its_type():
    assert [c["slug"] for c in cards("bullet")] == [row[0] for row in BULLETS]
    types = {c["slug"] for c in cards("bullet-type")}
    for slug, name, bullet_type, stated, known in BULLETS:
        c = card(slug)
        assert c["name"] == {"en": name, "it": name}
        assert c["bullet_type"] == bullet_type in types
        assert c["bullet_type_stated"] is stated
        assert c["effect_known"] is known


def test_high_velocity_bullets_can_be_played_from_the_hand():
    for c in cards("bullet"):
        if c["bullet_type"] == "high-velocity-bullet":
            assert c["playable_from_hand"] is True, c["slug"]


def test_unknown_effects_say_so_in_both_languages():
    unknown = [c for c in cards("bullet") if not c["effect_known"]]
    assert {c["slug"] for c in unknown} == {"trigger-malfunction", "trigger-happy"}
    for c in unknown:
        assert "not described in the rules we have" in c["text"]["en"]
        assert "non ne descrivono l'effetto" in c["text"]["it"]


def test_bullets_have_no_damage_or_known_priority_number():
    for c in cards("bullet"):
        assert c["damage"] is None, c["slug"]
        assert c["priority"] is None, c["slug"]


def test_worked_numbers_from_the_rulebook():
    assert card("kablamo")["eliminates"] is True
    assert card("click")["eliminates"] is False
    assert card("speed-load")["bullets_loaded"] == 6
    assert card("stockpiling")["bullets_loaded"] == 1
    assert card("stockpiling")["bullets_to_reserve"] == 1
    assert card("triple-action")["bullets_moved"] == 3
    assert card("triple-action")["min_revolvers"] == 2
    assert card("sleight-of-hand")["swaps"] == 1
    assert card("lights-out")["players"] == 2
    assert card("marquis-of-queensbury-rules")["lasts"] == "rest_of_turn"


def test_delayed_effects_and_what_they_stick_to():
    delayed = {c["slug"]: c["targets"] for c in cards("bullet") if c.get("delayed")}
    assert delayed == {
        "cylinder-malfunction": "revolver",
        "trigger-malfunction": "revolver",
        "trigger-happy": "player",
    }
    assert card("cylinder-malfunction")["stacks"] is True


def test_no_card_uses_the_ammo_colour_field():
    # `colour` feeds the Adrenaline ammo filter; bullet colours live in `bullet_colour`.
    assert all("colour" not in c for c in cards())


def test_every_card_has_text_and_matching_notes_in_both_languages():
    checks.assert_texts_in_both_languages(cards())


def test_texts_and_notes_fit_a_phone_screen():
    checks.assert_card_texts_fit(DATA)


def test_notes_cover_the_table_clarifications():
    def en(slug):
        return " ".join(card(slug)["notes"]["en"])

    assert "ammo bag" in en("live-bullet")
    assert "safe position" in en("test-of-honor")
    assert "draw the six new bullets first" in en("speed-load").lower()
    assert "active bullet" in en("stockpiling")
    assert "misfires" in en("sleight-of-hand")
    assert "empty chambers" in en("triple-action")
    assert "live bullets resolve first" in en("marquis-of-queensbury-rules")
    assert "new owner" in en("lights-out")


# --- The rules summary --------------------------------------------------------------


def test_rules_summary_has_every_section_in_both_languages():
    checks.assert_rules_summary_complete(rules(), "kablamo", sections=RULES_SECTIONS, points=(3, 8))


def test_rules_points_fit_a_phone_screen():
    checks.assert_texts_fit(DATA.rules_texts())


# --- Our own words ---------------------------------------------------------------------


@needs_seeds
@pytest.mark.parametrize("slug", [row[0] for row in BULLET_TYPES + BULLETS])
def test_card_text_is_not_copied_from_the_rulebooks(slug):
    checks.assert_not_copied(DATA.player_texts(card(slug)))


@needs_seeds
def test_rules_summary_is_not_copied_from_the_rulebooks():
    checks.assert_not_copied(DATA.rules_texts())


@needs_seeds
def test_copy_checker_spots_a_line_of_the_kablamo_rulebook():
    line = "Il giocatore rimasto in vita quando tutti gli altri sono stati eliminati vince."
    assert copied_runs(line) == [
        "il giocatore rimasto in vita quando tutti gli altri sono stati eliminati"
    ]
