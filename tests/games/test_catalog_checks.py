"""The shared card-data checks in tests/support/catalog_data.py pass a sound
mini-catalog and fail each way a broken one can go wrong, so a game's test that
calls them cannot pass by accident."""

import copy

import pytest

from tests.support.catalog_data import (
    assert_clean_unique_slugs,
    assert_kinds,
    assert_not_copied,
    assert_rules_summary_complete,
    assert_slugs_from_english_names,
    assert_texts_fit,
    assert_texts_in_both_languages,
    needs_seeds,
    rules_texts,
)

KINDS = [("spell", "Spell", "Incantesimo")]


def mini_catalog() -> dict:
    return {
        "game": "mini",
        "kinds": [{"slug": "spell", "name": {"en": "Spell", "it": "Incantesimo"}}],
        "cards": [
            {
                "slug": "big-splash",
                "kind": "spell",
                "name": {"en": "Big Splash!", "it": "Grande spruzzo"},
                "text": {"en": "Soak everyone.", "it": "Bagna tutti."},
                "notes": {"en": ["Towels help."], "it": ["Gli asciugamani aiutano."]},
            },
            {
                "slug": "dry",
                "kind": "spell",
                "name": {"en": "Dry", "it": "Asciutto"},
                "text": {"en": "Nothing happens.", "it": "Non succede nulla."},
                "notes": {"en": [], "it": []},
            },
        ],
    }


def mini_rules() -> dict:
    points = {"en": ["One.", "Two.", "Three."], "it": ["Uno.", "Due.", "Tre."]}
    return {
        "game": "mini",
        "title": {"en": "Mini rules", "it": "Regole mini"},
        "sections": [
            {"slug": "goal", "title": {"en": "Goal", "it": "Scopo"}, "points": points},
            {"slug": "turn", "title": {"en": "Turn", "it": "Turno"}, "points": points},
        ],
    }


def test_a_sound_mini_catalog_passes_every_check():
    catalog, rules = mini_catalog(), mini_rules()
    assert_kinds(catalog, "mini", KINDS)
    assert_clean_unique_slugs(catalog["cards"], kinds=["spell"])
    assert_slugs_from_english_names(catalog["cards"])
    assert_texts_in_both_languages(catalog["cards"])
    assert_texts_fit(rules_texts(rules), limit=20)
    assert_rules_summary_complete(rules, "mini", sections=["goal", "turn"], required=["turn"])


def test_kinds_fail_for_another_game_or_a_missing_italian_name():
    catalog = mini_catalog()
    with pytest.raises(AssertionError):
        assert_kinds(catalog, "other", KINDS)
    catalog["kinds"][0]["name"]["it"] = "Spell"
    with pytest.raises(AssertionError):
        assert_kinds(catalog, "mini", KINDS)


@pytest.mark.parametrize(
    "change",
    [
        lambda cards: cards[1].update(slug="big-splash"),  # duplicate
        lambda cards: cards[1].update(slug="Dry"),  # not lower case
        lambda cards: cards[1].update(slug="dry--"),  # stray dashes
        lambda cards: cards[1].update(kind="monster"),  # undeclared kind
    ],
    ids=["duplicate", "upper-case", "dashes", "undeclared-kind"],
)
def test_slug_check_fails_on_a_broken_card(change):
    cards = mini_catalog()["cards"]
    change(cards)
    with pytest.raises(AssertionError):
        assert_clean_unique_slugs(cards, kinds=["spell"])


def test_slug_must_come_from_the_english_name():
    cards = mini_catalog()["cards"]
    cards[0]["name"]["en"] = "Small Splash"
    with pytest.raises(AssertionError, match="big-splash"):
        assert_slugs_from_english_names(cards)


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c["text"].update(it="  "),  # blank Italian text
        lambda c: c["name"].update(en=""),  # no English name
        lambda c: c["notes"]["it"].append("In più."),  # one note more in Italian
        lambda c: c["notes"].update(en=[" "], it=["Vuota."]),  # blank English note
    ],
    ids=["blank-text", "blank-name", "note-count", "blank-note"],
)
def test_text_check_fails_on_a_card_missing_a_language(change):
    cards = mini_catalog()["cards"]
    change(cards[0])
    with pytest.raises(AssertionError, match="big-splash"):
        assert_texts_in_both_languages(cards)


def test_notes_can_be_required():
    cards = mini_catalog()["cards"]
    with pytest.raises(AssertionError, match="dry"):
        assert_texts_in_both_languages(cards, notes_required=True)


def test_a_text_too_long_for_a_phone_fails():
    with pytest.raises(AssertionError, match="dry"):
        assert_texts_fit(["short", "x" * 11], limit=10, where="dry")


def broken_rules(change) -> dict:
    rules = copy.deepcopy(mini_rules())
    change(rules)
    return rules


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(game="other"),
        lambda r: r["title"].update(it=""),
        lambda r: r["sections"][1].update(slug="goal"),  # duplicate section
        lambda r: r["sections"][1].update(slug="Turn"),  # not a clean slug
        lambda r: r["sections"][1]["title"].update(en=" "),
        lambda r: r["sections"][1].update(points={"en": ["1.", "2.", "3."], "it": ["1."] * 4}),
        lambda r: r["sections"][1].update(points={"en": ["1.", "2."], "it": ["1.", "2."]}),
        lambda r: r["sections"][1].update(points={"en": ["1.", "2.", ""], "it": ["1."] * 3}),
    ],
    ids=[
        "game",
        "title",
        "duplicate",
        "unclean",
        "section-title",
        "uneven-points",
        "too-few-points",
        "blank-point",
    ],
)
def test_rules_check_fails_on_a_broken_summary(change):
    with pytest.raises(AssertionError):
        assert_rules_summary_complete(broken_rules(change), "mini")


def test_rules_check_fails_on_missing_or_reordered_sections():
    with pytest.raises(AssertionError, match="setup"):
        assert_rules_summary_complete(mini_rules(), "mini", required=["turn", "setup"])
    with pytest.raises(AssertionError):
        assert_rules_summary_complete(mini_rules(), "mini", sections=["turn", "goal"])
    with pytest.raises(AssertionError):
        assert_rules_summary_complete(mini_rules(), "mini", points=(4, 8))


@needs_seeds
def test_not_copied_fails_on_a_rulebook_line():
    line = "Il giocatore che difende perde il suo turno successivo come attaccante."
    assert_not_copied(["Our own words about defending."])
    with pytest.raises(AssertionError, match="giocatore che difende"):
        assert_not_copied([line])
