"""Munchkin's set-up names its players as typed and seats this phone as Adrenaline's
does; the last fight says "ran from" only of a player who got away."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from companion.models import GameSession
from tests.games.munchkin.test_munchkin_views import Phone, state_of, table

# ---------------------------------------------------------------- set-up


@pytest.mark.django_db
def test_every_name_box_has_a_visible_label():
    body = Client().get("/new/munchkin/").content.decode()
    for index in range(6):
        label = re.search(rf'<label for="name_{index}"( class="[^"]*")?>([^<]*)</label>', body)
        assert label, f"name_{index} has no label of its own"
        assert label.group(1) is None, "the label is hidden from sight"
        assert label.group(2).strip() == f"Player {index + 1}"


@pytest.mark.django_db
def test_the_player_choices_follow_the_name_boxes_and_this_phone_starts_as_nobody():
    body = Client().get("/new/munchkin/").content.decode()
    for select in ("first", "host_seat"):
        options = re.search(rf'<select id="{select}".*?</select>', body, re.S)
        assert options
        for index in range(6):
            assert f'value="{index}" data-name-from="name_{index}"' in options.group(0)
    host = re.search(r'<select id="host_seat".*?</select>', body, re.S)
    assert host and "selected" not in host.group(0)  # the first choice: nobody
    assert '<option value="">nobody (just host)</option>' in host.group(0)
    # The same rule as Adrenaline's set-up: nothing chosen there either.
    adrenaline = Client().get("/new/adrenaline/").content.decode()
    seat = re.search(r'<select id="host_seat".*?</select>', adrenaline, re.S)
    assert seat and "selected" not in seat.group(0)


@pytest.mark.django_db
def test_a_table_set_up_without_a_seat_for_this_phone_leaves_every_seat_free():
    client = Client()
    response = client.post(
        "/new/munchkin/",
        {"name_0": "Anna", "name_1": "Bruno", "name_2": "Carla", "first": "0", "host_seat": ""},
    )
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert not any(seat.holder for seat in session.seats.all())


# ---------------------------------------------------------------- the last fight


def lost_fight(monsters: tuple[str, ...]) -> Phone:
    """Anna (level 1) loses to ``monsters`` (level 9 each) and must run from each."""
    session = table(seed=3)
    anna = Phone(session)
    anna.tap("data-fight", **{"monster__name": monsters[0], "monster__level": "9"})
    for name in monsters[1:]:
        anna.tap("data-addmonster", **{"monster__name": name, "monster__level": "9"})
    anna.tap("data-resolve")
    assert state_of(session)["combat"]["stage"] == "running"
    return anna


@pytest.mark.django_db
def test_a_fighter_who_was_caught_did_not_run_from_the_monster():
    anna = lost_fight(("Big Bat",))
    html = anna.tap("data-run-caught", "0-1")
    assert state_of(anna.session)["last_combat"]["result"] == "fled"
    assert "Last fight: Anna could not get away from Big Bat." in html
    assert "ran from" not in html
    assert "Bad Stuff to apply:" in html and "<strong>Anna</strong> (Big Bat)" in html
    assert "Anna cannot get away from monster Big Bat." in html  # the history agrees


@pytest.mark.django_db
def test_a_fighter_who_got_away_ran_from_the_monster():
    anna = lost_fight(("Big Bat",))
    html = anna.tap("data-run-escape", "0-1")
    assert "Last fight: Anna ran from Big Bat." in html
    assert "Bad Stuff to apply:" not in html


@pytest.mark.django_db
def test_a_fighter_caught_by_one_monster_of_two_is_told_which():
    anna = lost_fight(("Big Bat", "Ghoul"))
    anna.tap("data-run-escape", "0-1")
    html = anna.tap("data-run-caught", "0-2")
    assert "Last fight: Anna got away from Big Bat but was caught by Ghoul." in html
    assert "<strong>Anna</strong> (Ghoul)" in html
