"""Kablamo through the web, as the table's phones use it: set-up, loading, the reveal
forms, the resolution order, assigning and applying a bullet, delayed effects, a
high-velocity bullet from the hand, the box's list, and bad input refused."""

from __future__ import annotations

import itertools

import pytest

from companion.models import GameSession
from tests.conftest import phone

pytestmark = pytest.mark.django_db
KEYS = itertools.count()


def post(client, session, fields: dict, status: int = 200) -> str:
    response = client.post(
        f"/s/{session.code}/act", {"key": f"k{next(KEYS)}", **fields}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == status, response.content.decode()[:600]
    return response.content.decode()


@pytest.fixture
def table(catalogs):
    anna = phone("anna")
    response = anna.post("/new/kablamo/", {"name_0": "Anna", "name_1": "Bruno", "name_2": "Carla"})
    assert response.status_code == 302, response.content.decode()[:500]
    code = response["Location"].rstrip("/").rsplit("/", 1)[1]
    session = GameSession.objects.get(code=code)
    bruno = phone("bruno")
    bruno.post(f"/s/{code}/seats/1/claim", HTTP_HX_REQUEST="true")
    return session, anna, bruno


def page(client, session) -> str:
    return client.get(f"/s/{session.code}/").content.decode()


def speed_load_and_everyone_loaded(anna, session) -> None:
    """Anna adds the box's Speed Load (printed 12) to the list; the three players load."""
    post(
        anna,
        session,
        {"type": "add_bullet", "name": "Speed Load", "number": "12", "kind": "action"},
    )
    for seat in range(3):
        post(anna, session, {"type": "loaded", "seat": str(seat)})


def test_a_turn_at_the_table_from_loading_to_the_next_turn(table):
    session, anna, bruno = table
    assert "has loaded" in page(anna, session)
    speed_load_and_everyone_loaded(anna, session)
    assert "Cylinders turned" in page(bruno, session)
    post(bruno, session, {"type": "rotate"})
    shown = page(anna, session)
    for revolver in range(3):
        assert f'id="reveal-{revolver}"' in shown and "This bullet" in shown
    post(
        anna,
        session,
        {
            "type": "reveal",
            "revolver": "0",
            "result": "bullet",
            "bullet": "speed-load",
            "number": "",
        },
    )
    post(
        bruno,
        session,
        {"type": "reveal", "revolver": "1", "result": "click", "bullet": "speed-load"},
    )
    post(
        anna,
        session,
        {"type": "reveal", "revolver": "2", "result": "kablamo", "bullet": "speed-load"},
    )
    shown = page(bruno, session)
    order = shown[shown.index("data-order") : shown.index("</ol>", shown.index("data-order"))]
    # Live bullets first (the Click, then Carla's Kablamo in seat order), then Speed Load.
    assert order.index("Click") < order.index("Kablamo") < order.index("Speed Load (12)")
    # The last reveal (revolver 3's) completes the order: each live bullet says
    # its own revolver, so the Click is not read as the third revolver's.
    assert "Revolver 3: Kablamo! Carla is out." in shown
    assert "Revolver 2: Click: Bruno carries on." in shown
    # An extra shot is entered while a bullet still resolves: the phones say when.
    assert "Say so before the bullet that makes it is done" in shown
    assert "Anna assigns Speed Load (12) to:" in shown
    post(anna, session, {"type": "assign", "target": "1"})
    assert "Bruno applies Speed Load (12):" in page(bruno, session)
    post(bruno, session, {"type": "settle", "outcome": "done"})
    shown = page(anna, session)
    assert "Everyone has drawn" in shown
    # Replace: each player draws one per chamber their revolver fired this turn.
    assert "Anna draws 1 bullet" in shown and "Bruno draws 1 bullet" in shown
    post(anna, session, {"type": "next"})
    post(anna, session, {"type": "next"})
    session.refresh_from_db()
    assert session.state["turn"] == 2 and session.state["phase"] == "rotate"


def test_lights_out_and_a_delayed_effect_show_who_holds_what(table):
    session, anna, bruno = table
    for seat in range(3):
        post(anna, session, {"type": "loaded", "seat": str(seat)})
    post(bruno, session, {"type": "play", "seat": "1", "bullet": "lights-out", "other": "0"})
    shown = page(anna, session)
    assert "Bruno plays Lights Out on Anna." in shown
    assert "Revolver 1</strong> · held by Bruno" in shown


def test_a_waiting_effects_done_button_says_which_effect_it_clears(table):
    """Screen readers: with several effects waiting, each "done" button names its
    bullet and where it waits."""
    session, anna, bruno = table
    speed_load_and_everyone_loaded(anna, session)
    post(bruno, session, {"type": "rotate"})
    reveals = [("0", "bullet"), ("1", "click"), ("2", "click")]
    for revolver, result in reveals:
        post(
            anna,
            session,
            {"type": "reveal", "revolver": revolver, "result": result, "bullet": "speed-load"},
        )
    post(anna, session, {"type": "assign", "target": "1"})
    post(bruno, session, {"type": "settle", "outcome": "delayed", "place": "player"})
    shown = page(anna, session)
    assert 'aria-label="Speed Load in front of Bruno: done"' in shown, shown[-3000:]


def test_bad_input_is_refused_and_changes_nothing(table):
    session, anna, _bruno = table
    before = GameSession.objects.get(pk=session.pk).version
    post(anna, session, {"type": "rotate"}, 409)  # not loaded yet
    post(anna, session, {"type": "reveal", "revolver": "9", "result": "click"}, 400)
    post(anna, session, {"type": "add_bullet", "name": "", "number": "3", "kind": "action"}, 400)
    post(anna, session, {"type": "play", "seat": "0", "bullet": "speed-load"}, 409)
    assert GameSession.objects.get(pk=session.pk).version == before


@pytest.mark.django_db(transaction=True)
def test_undo_takes_back_a_mistaken_reveal(catalogs):
    from companion import services

    session = services.create_session(
        game="kablamo", seat_names=["Anna", "Bruno"], options={}, host_token="anna"
    )
    services.claim_seat(session, 0, "anna")
    for seat in (0, 1):
        services.submit_action(
            session, {"type": "loaded", "seat": seat}, token="anna", key=f"l{seat}"
        )
    services.submit_action(session, {"type": "rotate"}, token="anna", key="r")
    applied = services.submit_action(
        session, {"type": "reveal", "revolver": 1, "result": "kablamo"}, token="anna", key="k"
    )
    services.undo(session, token="anna", key="u", expected=applied.action.version)
    session.refresh_from_db()
    assert session.state["phase"] == "reveal" and session.state["shot"] == {}
    assert all(p["alive"] for p in session.state["players"])


def test_a_set_up_mistake_shows_the_same_form_with_the_reason(catalogs):
    response = phone("anna").post("/new/kablamo/", {"name_0": "Anna", "variant": "hardcore"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "needs 2 to 5 players" in page
    assert 'name="name_1"' in page and "data-restore-values" in page  # not a dead end
