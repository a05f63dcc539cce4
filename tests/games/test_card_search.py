"""Card search with typos (games/card_search.py) and filters that follow the game.

These run on whichever database the suite runs on: SQLite (RapidFuzz) by default,
PostgreSQL (pg_trgm) with DATABASE_URL, as CI does; the same queries must find the
same cards on both.
"""

from __future__ import annotations

import pytest
from django.db import connection

from games.card_search import find
from games.models import Card
from games.reference import facets_of
from tests.games.test_card_reference import names

pytestmark = pytest.mark.django_db


def found(q: str, **filters: str) -> tuple[list[str], bool]:
    result = find(Card.objects.filter(**filters), q)
    return [card.name_en for card in result.cards], result.close


# --- Typos ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("distrutore", ["Lock Rifle"]),  # Distruttore, one t missing
        ("lokc rifle", ["Lock Rifle"]),  # two letters swapped
        ("rifle lokc", ["Lock Rifle"]),
        ("flamethrowr", ["Flamethrower"]),
        ("lanciafiame", ["Flamethrower"]),  # its Italian name
        ("mitragliatrce", ["Machine Gun"]),
        ("tractr beam", ["Tractor Beam"]),
        ("sledgehamer", ["Sledgehammer"]),
        ("teletrasprto", ["Teleporter"]),
        ("mutsmo", ["Mutism"]),
        ("sucton", ["Suction"]),
        ("kablammo", ["Kablamo"]),
        ("licantrpo", ["Werewolf"]),
        ("armatrua", ["Armour"]),
        ("knokc out", ["Knock Out"]),
        ("cecchnio", ["Sniper"]),
        ("fucile a ponpa", ["Shotgun"]),
        ("shotgn", ["Shotgun", "One-Shot Items"]),  # the closer one first
    ],
)
def test_a_typo_finds_the_card_by_either_name(catalogs, q, expected):
    assert found(q) == (expected, True)


def test_accents_are_ignored_both_ways(catalogs):
    plain = found("alta velocita")  # the card says Velocità
    assert plain == found("ALTA VELOCITÀ")
    assert plain[0][0] == "High-Velocity Bullet" and not plain[1]
    assert found("distrùttóre") == (["Lock Rifle"], False)  # accents the card has not
    assert found("velocitá bulet") == (["High-Velocity Bullet"], True)  # accent and typo


def test_a_typo_in_a_word_of_the_text_finds_the_cards_that_say_it(catalogs):
    exact, _ = found("damage")
    assert found("dammage") == (exact, True) and len(exact) > 10


def test_nothing_close_finds_nothing(catalogs):
    assert found("xyzzy") == ([], False)
    assert found("distrutore granade") == ([], False)  # every word must be close


def test_three_letters_are_never_a_close_match(catalogs):
    assert found("lkc") == ([], False)


def test_close_matches_only_when_nothing_matches_exactly(catalogs):
    cards, close = found("rifle")
    assert (cards, close) == (["Lock Rifle"], False)


def test_close_matches_keep_the_filters(catalogs):
    assert found("distrutore", game="shazamm") == ([], False)
    assert found("distrutore", game="adrenaline", kind="weapon") == (["Lock Rifle"], True)


# --- Ranking of exact matches -------------------------------------------------------


def test_names_that_start_with_the_words_come_first_then_names_then_text(catalogs):
    cards, close = found("gun")
    assert not close
    assert cards[:2] == ["Machine Gun", "Plasma Gun"]  # a word of the name starts with it
    assert set(cards[2:4]) == {"Railgun", "Shotgun"}  # inside a word of the name
    assert all("gun" not in name.lower() for name in cards[4:])  # only the text says it


def test_an_empty_search_lists_the_catalog_in_order(catalogs):
    cards, close = found("")
    assert len(cards) == Card.objects.count() and not close
    assert cards[:2] == ["Targeting Scope", "Newton"]  # Adrenaline's power-ups first


# --- The page -------------------------------------------------------------------------


def test_the_page_says_when_it_shows_close_matches(client, catalogs):
    html = client.get("/cards/", {"q": "distrutore"}).content.decode()
    assert "Showing close matches for “distrutore”." in html
    assert names(client.get("/cards/", {"q": "distrutore"})) == ["Lock Rifle"]
    exact = client.get("/cards/", {"q": "distruttore"}).content.decode()
    assert "Showing close matches" not in exact


def test_the_italian_page_says_it_in_italian(client, catalogs):
    html = client.get(
        "/cards/", {"q": "lokc rifle"}, headers={"Accept-Language": "it"}
    ).content.decode()
    assert "Risultati simili a “lokc rifle”." in html and "Distruttore" in html


# --- Filters follow the game --------------------------------------------------------


def test_each_game_offers_the_filters_its_cards_have(catalogs):
    assert facets_of("") == ["colour", "cost", "damage", "priority"]
    assert facets_of("adrenaline") == ["colour", "cost", "damage"]
    assert facets_of("shazamm") == ["priority"]
    assert facets_of("munchkin") == []


def test_choosing_a_game_drops_the_filters_of_another_game(client, catalogs):
    params = {"q": "b", "game": "shazamm", "kind": "weapon", "colour": "red", "cost": "2"}
    response = client.get("/cards/", {**params, "priority": "0"})
    assert response.status_code == 302  # the address says what the page shows
    assert response["Location"] == "/cards/?q=b&game=shazamm&priority=0"
    assert names(client.get(response["Location"])) == ["Bluff"]


def test_choosing_a_game_as_you_type_drops_them_in_the_form_and_the_address(client, catalogs):
    response = client.get(
        "/cards/",
        {"game": "shazamm", "kind": "powerup", "colour": "red"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Push-Url"] == "/cards/?game=shazamm"
    assert len(names(response)) == 15  # every spell, not "0 cards"
    assert 'id="more-filters" class="filters" hx-swap-oob="true"' in html
    assert 'name="priority"' in html and 'name="colour"' not in html
    assert '<option value="powerup"' not in html  # the type menu lists spells only


def test_filters_that_apply_stay_and_the_address_leaves_out_empty_fields(client, catalogs):
    params = {"q": "", "game": "adrenaline", "kind": "weapon", "colour": "red", "cost": "2"}
    response = client.get("/cards/", {**params, "damage": ""}, headers={"HX-Request": "true"})
    assert response["HX-Push-Url"] == "/cards/?game=adrenaline&kind=weapon&colour=red&cost=2"
    assert '<option value="red" selected>' in response.content.decode()


def test_a_game_without_more_filters_says_so(client, catalogs):
    html = client.get("/cards/", {"game": "munchkin"}).content.decode()
    assert "Munchkin Bites! cards have no other filters." in html
    assert 'name="colour"' not in html


# --- A way out of "0 cards" -----------------------------------------------------------


def test_no_result_with_filters_offers_to_clear_them_and_keep_the_words(client, catalogs):
    html = client.get("/cards/", {"q": "rifle", "game": "shazamm"}).content.decode()
    assert "0 cards" in html
    assert '<a class="button secondary" href="/cards/?q=rifle">' in html
    assert "Clear the filters, keep “rifle”" in html
    assert names(client.get("/cards/?q=rifle")) == ["Lock Rifle"]


def test_no_result_from_filters_alone_offers_to_clear_them(client, catalogs):
    html = client.get(
        "/cards/", {"game": "adrenaline", "colour": "yellow", "cost": "1", "damage": "4"}
    ).content.decode()
    assert "0 cards" in html and "Clear the filters" in html and 'href="/cards/"' in html


def test_no_result_from_words_alone_offers_every_card(client, catalogs):
    html = client.get("/cards/", {"q": "xyzzy"}).content.decode()
    assert "Show every card" in html and "Clear the filters" not in html


# --- "More filters" -------------------------------------------------------------------


def test_more_filters_opens_by_itself_when_one_of_them_is_set(client, catalogs):
    closed = client.get("/cards/").content.decode()
    opened = client.get("/cards/", {"game": "shazamm", "priority": "3"}).content.decode()
    assert '<details class="more-filters">' in closed
    assert '<details class="more-filters" open>' in opened


# --- PostgreSQL's own trigram search --------------------------------------------------


@pytest.mark.services
def test_postgresql_matches_with_pg_trgm(catalogs):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/x")
    from games.card_search import TRIGRAM_CUTOFF, TRIGRAM_WORD_FLOOR, closeness

    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'pg_trgm'")
        assert cursor.fetchone() is not None
        cursor.execute(
            "SELECT id, strict_word_similarity('lokc rifle', names) FROM games_card"
            " WHERE strict_word_similarity('lokc rifle', names) >= %s"
            " AND word_similarity('lokc', names) >= %s AND word_similarity('rifle', names) >= %s",
            [TRIGRAM_CUTOFF["names"], TRIGRAM_WORD_FLOOR, TRIGRAM_WORD_FLOOR],
        )
        expected = dict(cursor.fetchall())
    scores = closeness(Card.objects.all(), ["lokc", "rifle"], "names")
    assert scores == pytest.approx(expected) and len(scores) == 1
