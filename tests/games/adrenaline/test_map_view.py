"""The map on the phone: figures moved by a tap, sight said in words, and the
weapon helper saying whom the chosen effect can target, and why not."""

from __future__ import annotations

import pytest
from django.test import Client

from companion import services
from games.adrenaline import targeting
from games.adrenaline.views import REASONS
from tests.conftest import phone
from tests.support.forms import hits_by_target

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db, catalogs):
    # The small board: blue room on top (0-0 … 0-2), red room in the middle row
    # (1-0 … 1-2), yellow room on the right (1-3, 2-3), white room below (2-1, 2-2).
    session = services.create_session(
        game="adrenaline",
        seat_names=["Anna", "Bruno", "Carla"],
        options={"characters": ["dozer", "banshee", "violet"], "board": "small"},
        host_token="host",
    )
    services.claim_seat(session, 0, "anna")
    return session


def move(code: str, player: str, square: str, key: str):
    return phone("anna").post(
        f"/s/{code}/act",
        {"type": "move", "player": player, "square": square, "key": key},
        HTTP_HX_REQUEST="true",
    )


def test_a_tap_on_a_square_moves_the_chosen_figure_and_the_history_says_so(table):
    assert move(table.code, "banshee", "1-1", "m-1").status_code == 200
    page = phone("anna").get(f"/s/{table.code}/").content.decode()
    assert 'aria-label="Move here: red room 1-1: Bruno"' in page
    assert "Bruno moves to the red room (1-1)." in page


def test_the_map_says_whom_the_player_on_turn_sees(table):
    move(table.code, "dozer", "1-0", "m-1")  # Anna (on turn), red room
    move(table.code, "banshee", "1-2", "m-2")  # Bruno, red room too
    move(table.code, "violet", "2-2", "m-3")  # Carla, white room: no door from 1-0
    page = phone("anna").get(f"/s/{table.code}/").content.decode()
    assert "Anna sees:" in page and "<strong>Bruno</strong> (2 moves)" in page
    assert "Out of sight: Carla (3 moves)" in page


def test_the_weapon_helper_marks_whom_the_effect_cannot_target(table):
    move(table.code, "dozer", "1-0", "m-1")
    move(table.code, "banshee", "1-2", "m-2")
    move(table.code, "violet", "2-2", "m-3")
    body = (
        Client()
        .get(f"/s/{table.code}/adrenaline/shot", {"weapon": "lock-rifle", "_pick[]": ["violet"]})
        .content.decode()
    )
    assert "✓ 2 moves away" in body  # Bruno, in sight
    assert "✗ out of sight" in body  # Carla
    assert "cannot be hit by this effect" in body  # and she was picked: the table decides
    # The table can still record it: the hit is in the form.
    assert hits_by_target(body) == {"violet": (2, 1)}


def test_heatseeker_wants_the_players_you_cannot_see(table):
    move(table.code, "dozer", "1-0", "m-1")
    move(table.code, "banshee", "1-2", "m-2")
    move(table.code, "violet", "2-2", "m-3")
    body = Client().get(f"/s/{table.code}/adrenaline/shot", {"weapon": "heatseeker"}).content
    text = body.decode()
    assert "✗ in sight (this weapon needs a target you cannot see)" in text
    assert "✓ 3 moves away" in text


def test_a_square_off_the_board_or_a_table_without_the_map_is_refused(table, make_session):
    response = move(table.code, "banshee", "0-3", "m-1")
    assert response.status_code == 409 and "not on this map" in response.content.decode()
    plain = make_session()
    services.claim_seat(plain, 0, "anna")
    response = move(plain.code, "dozer", "1-0", "m-2")
    assert response.status_code == 409 and "without the map" in response.content.decode()
    assert 'id="map"' not in phone("anna").get(f"/s/{plain.code}/").content.decode()


def test_every_reason_the_engine_gives_has_words():
    assert set(REASONS) == set(targeting.Reason)


def test_a_newton_played_from_the_map_moves_a_figure_and_spends_the_card(table):
    move(table.code, "dozer", "1-0", "m-1")
    move(table.code, "banshee", "1-1", "m-2")
    phone("anna").post(
        f"/s/{table.code}/act",
        {"type": "powerup", "player": "dozer", "op": "draw", "kind": "newton", "key": "p-1"},
        HTTP_HX_REQUEST="true",
    )
    page = phone("anna").get(f"/s/{table.code}/").content.decode()
    assert "Newton (another figure, 1 or 2 squares in a line)" in page
    response = phone("anna").post(
        f"/s/{table.code}/act",
        {"type": "move", "player": "banshee", "square": "1-3", "powerup": "newton", "key": "m-3"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    page = phone("anna").get(f"/s/{table.code}/").content.decode()
    assert "Anna plays a power-up: Newton." in page
    assert "Bruno moves to the yellow room (1-3)." in page
    assert "Newton (another figure" not in page  # no Newton left to play


def test_the_shot_helper_offers_one_scope_row_per_scope_held_and_records_both(table):
    for key, colour in (("p-1", "red"), ("p-2", "blue")):
        phone("anna").post(
            f"/s/{table.code}/act",
            {"type": "powerup", "player": "dozer", "op": "draw", "kind": "scope",
             "colour": colour, "key": key},
            HTTP_HX_REQUEST="true",
        )  # fmt: skip
    body = Client().get(f"/s/{table.code}/adrenaline/shot", {"_pick[]": ["banshee"]}).content
    text = body.decode()
    assert 'name="scopes.0.target"' in text and 'name="scopes.1.target"' in text
    assert 'name="scopes.2.target"' not in text
    response = phone("anna").post(
        f"/s/{table.code}/act",
        {
            "type": "shot",
            "shooter": "dozer",
            "hits.0.target": "banshee",
            "hits.0.damage": "1",
            "scopes.0.target": "banshee",
            "scopes.0.colour": "red",
            "scopes.1.target": "banshee",
            "scopes.1.colour": "blue",
            "key": "s-1",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert len(table.state["players"][1]["damage"]) == 3
    assert table.state["players"][0]["powerups"] == []


def test_hellion_by_the_map_damages_its_target_and_marks_the_others_on_its_square(table):
    move(table.code, "dozer", "1-0", "m-1")
    move(table.code, "banshee", "1-2", "m-2")
    move(table.code, "violet", "1-2", "m-3")
    body = (
        Client()
        .get(f"/s/{table.code}/adrenaline/shot", {"weapon": "hellion", "_pick[]": ["banshee"]})
        .content.decode()
    )
    # Carla (Violet) stands on Bruno's square: she is added, with the mark only.
    assert hits_by_target(body) == {"banshee": (1, 1), "violet": (0, 1)}


def test_barbecue_by_the_map_gives_2_on_the_first_square_and_1_on_the_second(table):
    move(table.code, "dozer", "1-0", "m-1")
    move(table.code, "banshee", "1-1", "m-2")
    move(table.code, "violet", "1-1", "m-3")  # both on the first square
    body = (
        Client()
        .get(
            f"/s/{table.code}/adrenaline/shot",
            {"weapon": "flamethrower", "effects[]": ["barbecue"], "_pick[]": ["banshee"]},
        )
        .content.decode()
    )
    assert hits_by_target(body) == {"banshee": (2, 0), "violet": (2, 0)}


def test_the_helper_offers_the_squares_a_tractor_beam_may_pull_to_and_records_it(table):
    move(table.code, "dozer", "1-0", "m-1")
    move(table.code, "banshee", "1-2", "m-2")
    body = (
        Client()
        .get(f"/s/{table.code}/adrenaline/shot", {"weapon": "tractor-beam", "_pick[]": ["banshee"]})
        .content.decode()
    )
    assert "Then move Bruno to" in body
    assert '<option value="1-1">red room 1-1</option>' in body
    response = phone("anna").post(
        f"/s/{table.code}/act",
        {
            "type": "shot",
            "shooter": "dozer",
            "weapon": "tractor-beam",
            "effects[]": ["basic"],
            "hits.0.target": "banshee",
            "hits.0.damage": "1",
            "moves.0.player": "banshee",
            "moves.0.square": "1-1",
            "key": "s-1",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    page = phone("anna").get(f"/s/{table.code}/").content.decode()
    assert "Bruno moves to the red room (1-1)." in page
