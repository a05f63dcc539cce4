"""The pages and POST endpoints as a phone uses them, including bad input."""

from __future__ import annotations

import pytest
from django.test import Client

from companion.models import GameSession
from tests.conftest import change_players, phone
from tests.support.forms import hits_by_target

pytestmark = pytest.mark.django_db


def post_shot(client, code, *, htmx=True, key="k", **fields):
    data = {
        "type": "shot",
        "shooter": "dstructor",
        "hits.0.target": "dozer",
        "hits.0.damage": "1",
        "hits.0.marks": "0",
        "key": key,
    }
    data.update(fields)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/s/{code}/act", data, **headers)


def dozer_damage(session) -> int:
    session.refresh_from_db()
    return len(session.state["players"][2]["damage"])


def test_creating_a_session_from_the_form_seats_the_creator():
    client = Client()
    response = client.post(
        "/new/adrenaline/",
        {
            "play_banshee": "on",
            "play_dozer": "on",
            "play_sprog": "on",
            "name_banshee": "Anna",
            "skulls": "6",
            "first": "dozer",
            "host_seat": "sprog",
            "edit_policy": "table",
        },
    )
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert response["Location"] == f"/s/{session.code}/"
    assert [s.name for s in session.seats.all()] == ["Anna", "Dozer", "Sprog"]
    assert session.state["skulls"] == 6 and session.state["current"] == 1
    page = client.get(response["Location"]).content.decode()
    assert "Leave seat" in page and session.code in page


def test_creating_with_two_players_says_why_and_creates_nothing():
    response = Client().post("/new/adrenaline/", {"play_banshee": "on", "play_dozer": "on"})
    assert response.status_code == 400
    assert "3 to 5 players" in response.content.decode()
    assert not GameSession.objects.exists()


def test_a_tap_returns_fresh_fragments_and_a_plain_post_redirects(make_session, host_phone):
    session = make_session()
    response = post_shot(host_phone, session.code, key="a")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="board"' in body and 'hx-swap-oob="true"' in body
    assert 'data-damage="1"' in body
    response = post_shot(host_phone, session.code, htmx=False, key="b")
    assert response.status_code == 302 and response["Location"] == f"/s/{session.code}/"
    assert dozer_damage(session) == 2


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"hits.0.damage": "13"}, 400, "between 0 and 12"),
        ({"hits.0.damage": "-1"}, 400, "between 0 and 12"),
        ({"hits.0.damage": "lots"}, 400, "whole number"),
        ({"hits.0.target": "pikachu"}, 400, ""),
        ({"hits.0.target": "sprog"}, 409, "not in this game"),
        ({"shooter": "banshee"}, 409, "turn"),
        ({"type": "teleport-everyone"}, 400, ""),
        ({"hits.99.target": "dozer"}, 400, "not understood"),
        ({"a.b.c.d": "1"}, 400, "not understood"),
        ({"key": ""}, 400, "one-time key"),
    ],
)
def test_bad_input_gets_a_clear_4xx_message_in_the_page_and_changes_nothing(
    make_session, host_phone, fields, status, message
):
    session = make_session()
    response = post_shot(host_phone, session.code, **fields)
    assert response.status_code == status
    body = response.content.decode()
    assert 'id="messages"' in body and 'class="error"' in body
    assert message in body
    assert response["HX-Retarget"] == "#messages"
    assert dozer_damage(session) == 0
    assert session.version == 0


@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "“counter” is not a valid choice."), ("it", "“contatore” non è una scelta valida.")],
)
def test_a_cube_row_for_no_such_counter_names_the_field_in_words(
    make_session, host_phone, language, message
):
    session = make_session()
    host_phone.cookies["django_language"] = language
    fields = {"type": "adjust", "player": "dozer", "field": "plutonium", "delta": "1"}
    response = host_phone.post(
        f"/s/{session.code}/act", {**fields, "key": "k"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    session.refresh_from_db()
    assert session.version == 0


def test_a_13th_damage_token_is_lost_not_stored(make_session, host_phone):
    session = make_session()
    post_shot(host_phone, session.code, key="a", **{"hits.0.damage": "12"})
    post_shot(host_phone, session.code, key="b", **{"hits.0.damage": "1"})
    assert dozer_damage(session) == 12


def test_an_oversized_post_is_refused(make_session, host_phone):
    session = make_session()
    response = post_shot(host_phone, session.code, filler="x" * 40_000)
    assert response.status_code == 400
    assert dozer_damage(session) == 0


def test_a_wrong_code_is_a_404_with_a_message():
    response = Client().get("/join/", {"code": "QQQQQ"})
    assert response.status_code == 404
    assert response.content.decode().count("No session has the code") == 1  # said once
    page = Client().get("/s/QQQQQ/")
    assert page.status_code == 404
    assert page.content.decode().count("No session has the code") == 1  # not in the banner too
    italian = Client().get("/s/QQQQQ/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert italian.count("Nessuna sessione ha il codice") == 1
    assert Client().post("/s/QQQQQ/act", {"type": "end_turn", "key": "x"}).status_code == 404


def test_a_phone_cannot_take_a_seat_someone_holds(make_session):
    session = make_session()
    phone("a").post(f"/s/{session.code}/seats/0/claim")
    response = phone("b").post(f"/s/{session.code}/seats/0/claim", HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    # The seat as the table shows it: by its player's name, not a number.
    assert "The seat “D-struct-OR” is already taken." in response.content.decode()
    italian = phone("c").post(
        f"/s/{session.code}/seats/0/claim", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert italian.status_code == 409
    assert "Il posto “D-struct-OR” è già occupato." in italian.content.decode()
    assert session.seats.get(index=0).holder == "a"


def test_a_phone_that_sits_down_or_leaves_its_seat_loads_its_table_again(make_session):
    # The page puts a phone's own board first and marks it; a live frame only
    # replaces pieces where they are, so the phone that sat down reloads.
    session = make_session()
    bruno = phone("bruno")
    seats = f"/s/{session.code}/seats"
    sat = bruno.post(f"{seats}/1/claim", HTTP_HX_REQUEST="true", HTTP_X_SEGNALINO_LIVE="1")
    assert sat.status_code == 204 and sat.content == b""  # nothing rendered for a reload
    assert sat["HX-Refresh"] == "true"
    refused = phone("carla").post(f"{seats}/1/claim", HTTP_HX_REQUEST="true")
    assert refused.status_code == 409
    assert not refused.has_header("HX-Refresh")
    assert session.seats.get(index=1).holder == "bruno"
    # Without htmx the phone is sent back to its table, as before.
    assert phone("carla").post(f"{seats}/2/claim").status_code == 302
    # The host freeing another phone's seat stays where it is; a player leaving
    # their own seat reloads.
    host = phone("host")
    freed = host.post(f"{seats}/2/free", HTTP_HX_REQUEST="true")
    assert freed.status_code == 200
    assert not freed.has_header("HX-Refresh")
    assert 'id="seats"' in freed.content.decode()  # the host's fragments, as before
    left = bruno.post(f"{seats}/1/free", HTTP_HX_REQUEST="true")
    assert left.status_code == 204
    assert left["HX-Refresh"] == "true"
    assert session.seats.get(index=1).holder == ""


def test_a_phone_without_a_seat_is_told_to_sit_first(make_session):
    session = make_session()
    response = post_shot(Client(), session.code)
    assert response.status_code == 403
    assert "Take a seat" in response.content.decode()
    assert dozer_damage(session) == 0


def test_the_same_phone_gets_its_seat_back_after_a_reload(make_session):
    session = make_session()
    client = phone("a")
    client.post(f"/s/{session.code}/seats/1/claim")
    page = client.get(f"/s/{session.code}/").content.decode()
    assert "Leave seat" in page


def test_a_tables_socket_says_which_seat_its_page_was_made_for(make_session):
    # So the socket can tell the phone to load the page again once that changes.
    session = make_session()
    seated = phone("a")
    seated.post(f"/s/{session.code}/seats/1/claim")
    assert f'ws-connect="/ws/s/{session.code}/?lang=en&amp;seat=1"' in (
        seated.get(f"/s/{session.code}/").content.decode()
    )
    assert f'ws-connect="/ws/s/{session.code}/?lang=en&amp;seat=-"' in (
        phone("b").get(f"/s/{session.code}/").content.decode()
    )
    watching = Client().get(f"/w/{session.spectator_key}/").content.decode()
    assert f'ws-connect="/ws/w/{session.spectator_key}/?lang=en&amp;seat=-"' in watching


def test_the_watch_link_is_read_only(make_session):
    session = make_session()
    page = Client().get(f"/w/{session.spectator_key}/").content.decode()
    assert "You are watching" in page
    assert "data-hit=" not in page and "Sit as" not in page
    assert Client().get("/w/wrong-key/").status_code == 404


def test_the_qr_code_is_an_svg_of_the_join_link(make_session):
    session = make_session()
    response = Client().get(f"/s/{session.code}/qr.svg")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg") and b"xmlns" in response.content


def test_the_shot_helper_prefills_damage_and_marks_from_the_weapon(make_session, catalogs):
    session = make_session()
    response = Client().get(
        f"/s/{session.code}/adrenaline/shot",
        {"shooter": "dstructor", "weapon": "lock-rifle", "_pick[]": ["dozer"]},
    )
    assert response.status_code == 200
    # Lock Rifle basic effect: 2 damage and 1 mark on the picked target; the
    # target left unpicked is not sent at all.
    assert hits_by_target(response.content.decode()) == {"dozer": (2, 1)}


def test_the_host_can_end_the_session_and_then_nothing_changes(make_session, host_phone):
    session = make_session()
    host_phone.post(f"/s/{session.code}/host", {"end": "1"})
    response = post_shot(host_phone, session.code)
    assert response.status_code == 409
    assert "has ended" in response.content.decode()
    assert phone("x").post(f"/s/{session.code}/host", {"end": "1"}).status_code in (403, 302)


def test_the_second_lock_of_the_lock_rifle_marks_a_different_player(make_session, catalogs):
    session = make_session(characters=("dstructor", "banshee", "dozer", "violet"))
    body = (
        Client()
        .get(
            f"/s/{session.code}/adrenaline/shot",
            {
                "shooter": "dstructor",
                "weapon": "lock-rifle",
                "effects[]": ["basic", "second-lock"],
                "_pick[]": ["banshee", "dozer"],
            },
        )
        .content.decode()
    )
    # Banshee (first picked): 2 damage + 1 mark; Dozer: only the second lock's mark.
    assert hits_by_target(body) == {"banshee": (2, 1), "dozer": (0, 1)}


def test_target_rows_left_at_zero_do_not_appear_in_the_history(make_session, host_phone):
    session = make_session()
    post_shot(
        host_phone,
        session.code,
        **{"hits.1.target": "banshee", "hits.1.damage": "0", "hits.1.marks": "0"},
    )
    page = host_phone.get(f"/s/{session.code}/").content.decode()
    assert "D-struct-OR hits Dozer: 1 damage." in page
    assert "hits Banshee" not in page


def test_a_phone_with_a_live_socket_gets_a_short_acknowledgement(make_session, host_phone):
    session = make_session()
    response = host_phone.post(
        f"/s/{session.code}/act",
        {
            "type": "shot",
            "shooter": "dstructor",
            "hits.0.target": "dozer",
            "hits.0.damage": "1",
            "key": "live-1",
        },
        HTTP_HX_REQUEST="true",
        HTTP_X_SEGNALINO_LIVE="1",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="board"' not in body  # the board comes on the socket
    assert 'id="ack" hidden data-version="1"' in body and 'id="messages"' in body
    assert dozer_damage(session) == 1


def test_the_adrenaline_shot_helper_refuses_another_game(db):
    from companion import services

    duel = services.create_session(
        game="shazamm", seat_names=["A", "B"], options={}, host_token="h", mode="online"
    )
    response = Client().get(f"/s/{duel.code}/adrenaline/shot")
    assert response.status_code == 404
    assert "not a game of Adrenaline" in response.content.decode()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_post_without_its_csrf_token_is_refused_with_our_message(make_session, htmx):
    session = make_session()
    client = Client(enforce_csrf_checks=True)
    response = post_shot(client, session.code, htmx=htmx)
    assert response.status_code == 403
    body = response.content.decode()
    assert "This page is out of date" in body and "CSRF verification failed" not in body
    if htmx:
        assert response["HX-Retarget"] == "#messages"
    assert dozer_damage(session) == 0


def test_an_overlong_one_time_key_is_refused_as_malformed(make_session):
    session = make_session()
    response = post_shot(phone("host"), session.code, key="k" * 5000)
    assert response.status_code == 400
    assert "missing or malformed" in response.content.decode()
    assert dozer_damage(session) == 0


def test_the_turn_bar_names_the_player_whose_turn_it_is_as_the_boards_do(db):
    """A table names its seats ("Anna" plays D-struct-OR): the turn bar says Anna is
    playing, as her board does, not the character's name."""
    from companion import services

    session = services.create_session(
        game="adrenaline",
        seat_names=["Anna", "Bruno", "Carla"],
        options={"characters": ["dstructor", "banshee", "dozer"], "skulls": 5},
        host_token="host",
    )
    turnbar = Client().get(f"/s/{session.code}/").content.decode().split('id="board"')[1]
    turnbar = turnbar.split("</section>")[0]
    assert "<strong>Anna</strong> is playing" in turnbar
    assert "D-struct-OR" not in turnbar
    # In Italian without a preposition to agree with the name ("tocca ad Anna").
    italian = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/s/{session.code}/").content.decode()
    assert "Turno 1: gioca <strong>Anna</strong>" in italian


def test_a_damaged_player_holding_a_tagback_grenade_is_offered_to_throw_it(
    make_session, host_phone
):
    """Banshee holds a Tagback Grenade and D-struct-OR hits her: the turn bar offers
    her throw, naming the two players as their boards do, and tapping it marks
    D-struct-OR."""
    session = make_session()
    session.seats.filter(index=0).update(name="Anna")  # D-struct-OR
    session.seats.filter(index=1).update(name="Bea <3")  # Banshee
    act = f"/s/{session.code}/act"
    headers = {"HTTP_HX_REQUEST": "true"}
    drawn = {"type": "powerup", "player": "banshee", "op": "draw", "kind": "tagback"}
    assert (
        host_phone.post(act, {**drawn, "colour": "red", "key": "d"}, **headers).status_code == 200
    )
    assert (
        post_shot(host_phone, session.code, key="s", **{"hits.0.target": "banshee"}).status_code
        == 200
    )

    page = host_phone.get(f"/s/{session.code}/").content.decode()
    assert "Bea &lt;3: Tagback Grenade on Anna?" in page
    offer = page.split('name="type" value="tagback"')[1].split("</form>")[0]
    assert 'name="from" value="banshee"' in offer and 'name="to" value="dstructor"' in offer

    thrown = {"type": "tagback", "from": "banshee", "to": "dstructor", "key": "t"}
    assert host_phone.post(act, thrown, **headers).status_code == 200
    session.refresh_from_db()
    assert session.state["players"][0]["marks"] == {"banshee": 1}


# Committed rows: the handler serves the page from a thread and connection of its own.
@pytest.mark.django_db(transaction=True)
def test_opening_a_table_leaves_nothing_for_the_garbage_collector(make_session):
    """A phone opening its table leaves no reference cycle behind: not the request,
    not a template context, none of the table's rows (each HTTP request used to
    leave some 600 objects that only a full collection frees, and a full
    collection pauses every phone of the process). Asked through the server's
    handler as uvicorn asks: the body, then, once the page is sent, the client
    gone. (The test client keeps what it renders for the test to look at.)"""
    import gc

    from asgiref.sync import async_to_sync

    from config.handler import ASGIHandler
    from tests.support.asgi import get

    session = make_session()
    cookie = f"sessionid={phone('host').cookies['sessionid'].value}".encode()
    handler = ASGIHandler()

    async def page() -> str:
        status, html = await get(handler, f"/s/{session.code}/", cookie)
        assert status == 200
        return html

    assert 'id="player-dozer"' in async_to_sync(page)()  # templates compiled
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        assert 'id="player-dozer"' in async_to_sync(page)()
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    held = {"ASGIRequest", "Task", "RequestContext", "ContextDict", "GameSession", "Seat"}
    assert not left & held


def test_a_boards_weapon_buttons_name_its_player_and_are_applied(make_session, host_phone):
    # Each button on a player's weapon (unload, reload, drop) is a form of its own:
    # it must say whose weapon it is, or the tap is refused (a name the template no
    # longer finds renders empty, silently).
    import re

    session = make_session()

    def dozer_holds_a_rifle(player):
        if player["character"] == "dozer":
            player["weapons"] = [{"slug": "lock-rifle", "loaded": True}]

    change_players(session, dozer_holds_a_rifle)
    host_phone.post(f"/s/{session.code}/seats/0/claim")
    page = host_phone.get(f"/s/{session.code}/").content.decode()
    forms = [
        dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
        for form in re.findall(r"<form[^>]*>.*?</form>", page, flags=re.S)
        if 'name="type" value="weapon"' in form and 'name="op" value="pickup"' not in form
    ]
    assert {(f["player"], f["op"], f["weapon"]) for f in forms} >= {
        ("dozer", "unload", "lock-rifle"),
        ("dozer", "drop", "lock-rifle"),
    }
    (drop,) = [f for f in forms if f["op"] == "drop"]
    answer = host_phone.post(
        f"/s/{session.code}/act", {**drop, "key": "drop-1"}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200, answer.content[:300]
    stored = GameSession.objects.get(pk=session.pk)
    (dozer,) = [p for p in stored.state["players"] if p["character"] == "dozer"]
    assert dozer["weapons"] == []


@pytest.mark.parametrize(
    ("language", "free", "full"),
    [
        ("en", "Pick your seat below", "Every seat is taken: you can follow the game from here."),
        ("it", "Scegli il tuo posto qui sotto", "Tutti i posti sono occupati"),
    ],
)
def test_a_phone_at_a_full_table_is_told_every_seat_is_taken_not_to_pick_one(
    make_session, language, free, full
):
    session = make_session()
    newcomer = phone("new")
    page = newcomer.get(f"/s/{session.code}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert free in page and full not in page
    phone("a").post(f"/s/{session.code}/seats/0/claim")
    phone("b").post(f"/s/{session.code}/seats/1/claim")
    phone("c").post(f"/s/{session.code}/seats/2/claim")
    page = newcomer.get(f"/s/{session.code}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert full in page and free not in page
