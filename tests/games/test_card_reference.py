"""The card reference: the loader, search, filters, card pages, rules pages and the
language a phone sees them in."""

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from games.catalog_loader import catalog_files, load_all
from games.models import Card, CardType
from games.reference import GAMES, rules_of
from games.text_fold import fold

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def documents() -> dict[str, dict]:
    docs = [json.loads(path.read_text(encoding="utf-8")) for path in catalog_files()]
    return {doc["game"]: doc for doc in docs}


def snapshot() -> list[tuple]:
    cards = Card.objects.order_by("game", "slug").values_list()
    kinds = CardType.objects.order_by("game", "slug").values_list()
    return [tuple(row[1:]) for row in cards] + [tuple(row[1:]) for row in kinds]


def names(response) -> list[str]:
    """The card names listed in a results page, in order."""
    html = response.content.decode()
    return [part.split("</span>")[0] for part in html.split('<span class="card-name">')[1:]]


# --- Loader ---------------------------------------------------------------------


def test_loading_twice_leaves_the_same_rows():
    load_all()
    first = snapshot()
    ids = sorted(Card.objects.values_list("id", flat=True))
    load_all()
    assert snapshot() == first
    assert sorted(Card.objects.values_list("id", flat=True)) == ids


def test_every_card_and_card_type_of_every_data_file_is_loaded(catalogs):
    for game, doc in documents().items():
        slugs = {card["slug"] for card in doc["cards"]}
        assert set(Card.objects.filter(game=game).values_list("slug", flat=True)) == slugs
        kinds = [kind["slug"] for kind in doc["kinds"]]
        assert list(CardType.objects.filter(game=game).values_list("slug", flat=True)) == kinds


def test_a_card_edited_in_the_admin_is_put_back_by_the_loader(catalogs):
    Card.objects.filter(game="adrenaline", slug="lock-rifle").update(name_en="Oops")
    load_all()
    assert Card.objects.get(game="adrenaline", slug="lock-rifle").name_en == "Lock Rifle"


def test_a_card_gone_from_its_file_is_removed(catalogs):
    Card.objects.create(
        game="shazamm", kind="spell", slug="old-spell", name_en="Old", name_it="Vecchio"
    )
    load_all()
    assert not Card.objects.filter(slug="old-spell").exists()


def test_filter_columns_come_from_the_structured_data(catalogs):
    rifle = Card.objects.get(game="adrenaline", slug="lock-rifle")
    assert (rifle.colours, rifle.cost, rifle.damage) == ("blue", 2, 2)
    whisper = Card.objects.get(game="adrenaline", slug="whisper")
    assert (whisper.colours, whisper.cost, whisper.damage) == ("blue yellow", 3, 3)
    assert Card.objects.get(game="shazamm", slug="bluff").priority == 0
    assert Card.objects.get(game="shazamm", slug="suction").priority == 14
    assert Card.objects.get(game="adrenaline", slug="newton").cost is None


# --- Search ---------------------------------------------------------------------


def test_text_folding_ignores_case_accents_and_punctuation():
    assert fold("L'Attacco PIÙ forte!") == "l attacco piu forte"


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("lock rifle", "Lock Rifle"),  # English name
        ("DISTRUTTORE", "Lock Rifle"),  # Italian name, any case
        ("mutismo", "Mutism"),
        ("fine del round", "End of round"),
        ("lanciafiamme", "Flamethrower"),
    ],
)
def test_search_finds_a_card_by_either_name(client, catalogs, q, expected):
    response = client.get("/cards/", {"q": q})
    assert response.status_code == 200
    assert names(response)[0] == expected


def test_search_ignores_accents(client, catalogs):
    accented = next(
        card for card in Card.objects.all() if fold(card.name_it) != card.name_it.lower()
    )
    plain = fold(accented.name_it)
    assert accented.name_en in names(client.get("/cards/", {"q": plain}))


def test_search_finds_a_word_of_the_effect_text(client, catalogs):
    marks = names(client.get("/cards/", {"q": "mark"}))
    assert "Lock Rifle" in marks  # its effect gives a mark; the name does not say so
    assert "Lock Rifle" in names(client.get("/cards/", {"q": "marchio"}))


def test_every_word_must_match(client, catalogs):
    assert names(client.get("/cards/", {"q": "lock zzzz"})) == []
    assert "No card matches" in client.get("/cards/", {"q": "zzzz"}).content.decode()


def test_name_matches_come_before_text_matches(client, catalogs):
    found = names(client.get("/cards/", {"q": "grenade"}))
    assert set(found[:2]) == {"Grenade Launcher", "Tagback Grenade"}
    assert all("grenade" not in name.lower() for name in found[2:])


# --- Filters --------------------------------------------------------------------


def test_filters_combine(client, catalogs):
    weapons = [c for c in documents()["adrenaline"]["cards"] if c["kind"] == "weapon"]
    expected = {
        c["name"]["en"]
        for c in weapons
        if "yellow" in c["reload_cost"] and len(c["reload_cost"]) == 2
    }
    response = client.get("/cards/", {"game": "adrenaline", "colour": "yellow", "cost": "2"})
    assert set(names(response)) == expected and len(expected) >= 3
    hard = client.get(
        "/cards/", {"game": "adrenaline", "colour": "yellow", "cost": "2", "damage": "3"}
    )
    assert set(names(hard)) == {
        c["name"]["en"] for c in weapons if c["name"]["en"] in expected and max(_damage(c)) >= 3
    }


def _damage(card: dict) -> list[int]:
    values = []
    for effect in card["effects"]:
        damage = effect["damage"]
        values += damage if isinstance(damage, list) else [damage]
    return values


def test_filter_by_game_type_and_priority(client, catalogs):
    assert names(client.get("/cards/", {"game": "shazamm", "priority": "0"})) == ["Bluff"]
    powerups = names(client.get("/cards/", {"game": "adrenaline", "kind": "powerup"}))
    assert powerups == ["Targeting Scope", "Newton", "Tagback Grenade", "Teleporter"]
    assert names(client.get("/cards/", {"q": "rifle", "game": "shazamm"})) == []


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"cost": "two"}, "must be a whole number"),
        ({"damage": "-1"}, "between 0 and 99"),
        ({"priority": "100000"}, "between 0 and 99"),
        ({"game": "chess"}, "There is no game called"),
        ({"kind": "wand"}, "There is no card type"),
        ({"colour": "green"}, "no ammo colour"),
        ({"q": "x" * 101}, "at most 100 characters"),
    ],
)
def test_bad_filters_get_a_clear_400(client, catalogs, params, message):
    response = client.get("/cards/", params)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_bad_filter_from_htmx_goes_to_the_message_area(client, catalogs):
    response = client.get("/cards/", {"cost": "x"}, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#messages"


def test_as_you_type_gets_only_the_results_and_the_matching_types(client, catalogs):
    response = client.get(
        "/cards/", {"q": "rifle", "game": "adrenaline"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'id="results"' in html
    assert 'id="kind" name="kind" hx-swap-oob="true"' in html
    assert "Power-up" in html and "Spell" not in html  # types of the chosen game only
    assert "HX-Request" in response["Vary"]


def test_a_search_is_a_shareable_url_that_works_without_javascript(client, catalogs):
    response = client.get("/cards/?q=rifle&game=adrenaline")
    html = response.content.decode()
    assert '<form class="card-search" action="/cards/" method="get"' in html
    assert 'value="rifle"' in html and '<option value="adrenaline" selected>' in html
    assert names(response) == ["Lock Rifle"]


# --- Card pages -----------------------------------------------------------------


def test_card_page_lays_out_costs_effects_and_notes(client, catalogs):
    response = client.get("/cards/adrenaline/lock-rifle/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Lock Rifle</h1>" in html
    assert "Reload cost" in html and html.count('class="cube-blue">blue<') >= 2
    assert "Basic effect" in html and "Second lock" in html
    assert "Extra cost:" in html and 'class="cube-red">red<' in html
    assert "different player" in html  # the note a player needs at the table


def test_alternative_modes_are_labelled(client, catalogs):
    html = client.get("/cards/adrenaline/flamethrower/").content.decode()
    assert html.count("Alternative mode") == 2


def test_spell_page_shows_its_priority(client, catalogs):
    html = client.get("/cards/shazamm/mutism/").content.decode()
    assert "Mutism" in html and "priority 1" in html


def test_every_card_has_a_page(client, catalogs):
    for card in Card.objects.all():
        response = client.get(f"/cards/{card.game}/{card.slug}/")
        assert response.status_code == 200, (card.game, card.slug)
        assert card.name_en in response.content.decode()


def test_unknown_card_is_a_404_with_a_message(client, catalogs):
    response = client.get("/cards/adrenaline/banana/")
    assert response.status_code == 404
    assert "There is no card “banana” here." in response.content.decode()


# --- Languages ------------------------------------------------------------------


def test_the_browser_language_is_used_on_a_first_visit(client, catalogs):
    html = client.get(
        "/cards/adrenaline/lock-rifle/", headers={"Accept-Language": "it-IT,it;q=0.9"}
    ).content.decode()
    assert "<h1>Distruttore</h1>" in html and 'lang="it"' in html
    assert "Effetto base" in html


def test_the_language_switch_changes_names_and_text(client, catalogs):
    english = client.get("/cards/shazamm/mutism/").content.decode()
    response = client.post("/i18n/setlang/", {"language": "it", "next": "/cards/shazamm/mutism/"})
    assert response.status_code == 302 and response["Location"] == "/cards/shazamm/mutism/"
    italian = client.get("/cards/shazamm/mutism/").content.decode()
    assert "<h1>Mutism</h1>" in english and "<h1>Mutismo</h1>" in italian
    card = Card.objects.get(game="shazamm", slug="mutism")
    assert card.text_it in italian and card.text_en not in italian


def test_every_page_has_the_language_switch_and_the_cards_link(client, catalogs):
    for url in ["/", "/cards/", "/cards/adrenaline/lock-rifle/"]:
        html = client.get(url).content.decode()
        assert 'action="/i18n/setlang/"' in html and 'href="/cards/"' in html


# --- Rules pages ----------------------------------------------------------------


def rules_games() -> list[str]:
    return [game for game in GAMES if rules_of(game)]


@pytest.mark.parametrize("game", rules_games())
def test_rules_pages_have_every_section_with_an_anchor(client, game):
    html = client.get(f"/rules/{game}/").content.decode()
    for section in rules_of(game)["sections"]:
        assert f'id="{section["slug"]}"' in html
        assert section["title"]["en"] in html
        assert section["points"]["en"][0] in html


def test_unknown_rules_page_is_a_404(client, catalogs):
    response = client.get("/rules/chess/")
    assert response.status_code == 404
    assert "There is no rules page" in response.content.decode()


# --- Admin ----------------------------------------------------------------------


def test_admin_lists_and_searches_cards(client, catalogs):
    admin = User.objects.create_superuser("admin", "a@example.com", "pw")
    client.force_login(admin)
    response = client.get("/admin/games/card/", {"q": "Distruttore"})
    assert response.status_code == 200
    assert "Lock Rifle" in response.content.decode()
    assert client.get("/admin/games/cardtype/").status_code == 200


def test_a_result_also_gives_the_name_printed_in_the_other_language(client, catalogs):
    body = client.get("/cards/", {"q": "distrut"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Lock Rifle" in body and '<span class="muted" lang="it">(Distruttore)</span>' in body
