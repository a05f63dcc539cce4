"""Munchkin Bites! at a real table: a fight set up on one phone adds up, live, on another.

Every test drives Debian Chromium against a real daphne process (see conftest.py).
Two phones are two browser contexts, so each has its own cookie and its own seat.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import apart, new_session, no_horizontal_scroll, sit, wait_live

pytestmark = [pytest.mark.e2e]


def create_table(page: Page) -> str:
    """Phone ``page`` sets up Anna, Bruno and Carla (Anna first) and sits as Anna."""
    return new_session(page, "munchkin", ["Anna", "Bruno", "Carla"], sit_as_anna)


def sit_as_anna(page: Page) -> None:
    page.select_option("#sex_0", "female")
    page.select_option("#host_seat", label="Anna")  # the name typed, not "Player 1"


def join_and_sit(page: Page, code: str, name: str) -> None:
    page.goto(f"/j/{code}/")
    wait_live(page)
    sit(page, f"Sit as {name}")
    expect(page.locator("[data-level-up='1']")).to_be_visible()


def totals(page: Page, players: int, monsters: int) -> None:
    expect(page.locator("[data-total=players]")).to_have_text(str(players))
    expect(page.locator("[data-total=monsters]")).to_have_text(str(monsters))


def test_a_fight_set_up_on_one_phone_adds_up_live_on_the_other(phone_a, phone_b):
    code = create_table(phone_a)
    join_and_sit(phone_b, code, "Bruno")
    navigations: list[str] = []
    phone_b.on("framenavigated", lambda frame: navigations.append(frame.url))

    # Anna kicks open the door: a level 3 Zombie.
    start = phone_a.locator("#mk-start")
    expect(start).to_have_attribute("open", "")
    start.get_by_label("Monster", exact=True).fill("Zombie")
    start.get_by_label("Monster level").fill("3")
    start.get_by_role("button", name="Fight!").click()

    totals(phone_b, 1, 3)
    expect(phone_b.locator("[data-winning]")).to_have_text("Monsters winning by 2")
    expect(phone_b.locator("#mk-fight")).to_contain_text("#1 Zombie")
    # Anna is playing and fighting: two badges on her card, not run together.
    badges = phone_b.locator(".mk-player-head .mk-badges").first.locator(".badge")
    expect(badges).to_have_count(2)
    apart(badges)

    # Bruno's phone asks Bruno to help, and the totals move on Anna's phone.
    phone_b.select_option("#mk-helper", label="Bruno")
    phone_b.locator("[data-set-helper]").click()
    totals(phone_a, 2, 3)
    expect(phone_a.locator("[data-winning]")).to_have_text("Monsters winning by 1")

    # Anna throws in a +2 potion: the players lead, on Bruno's phone too.
    phone_a.select_option("#mk-bonus", "2")
    phone_a.fill("#mk-bonus-name", "Potion")
    phone_a.locator("[data-bonus=players]").click()
    totals(phone_b, 4, 3)
    expect(phone_b.locator("[data-winning]")).to_have_text("Players winning by 1")

    # Someone plays an enhancer on the Zombie: the monsters are ahead again.
    phone_b.select_option("#mk-enh-1", "5")
    phone_b.locator("[data-enhance='1']").click()
    totals(phone_a, 4, 8)
    expect(phone_a.locator("[data-winning]")).to_have_text("Monsters winning by 4")
    expect(phone_a.locator("#history")).to_contain_text("Monster 1 gets an enhancer: +5.")

    # A tie goes to the monsters.
    phone_a.select_option("#mk-bonus", "4")
    phone_a.locator("[data-bonus=players]").click()
    totals(phone_b, 8, 8)
    expect(phone_b.locator("[data-winning]")).to_have_text(
        "Monsters winning: a tie goes to the monsters"
    )

    assert navigations == [], "phone B reloaded instead of updating live"
    no_horizontal_scroll(phone_a)
    no_horizontal_scroll(phone_b)


def test_a_level_tapped_on_one_phone_shows_on_the_other_and_undo_takes_it_back(phone_a, phone_b):
    code = create_table(phone_a)
    join_and_sit(phone_b, code, "Bruno")
    phone_a.locator("[data-level-up='1']").click()
    expect(phone_b.locator("[data-level='1']")).to_have_text("2")
    expect(phone_b.locator("[data-strength='1']")).to_have_text("2")
    phone_b.locator("[data-undo]").click()
    expect(phone_a.locator("[data-level='1']")).to_have_text("1")
    expect(phone_a.locator("#history")).to_contain_text("Undid action #1.")


def test_a_refused_tap_shows_why_and_the_next_good_tap_clears_it(phone_a, phone_b):
    code = create_table(phone_a)
    join_and_sit(phone_b, code, "Bruno")
    phone_a.locator("[data-level-down='2']").click()  # Carla is at level 1 already
    expect(phone_a.locator("#messages .error")).to_contain_text("already at level 1")
    expect(phone_b.locator("#messages .error")).to_have_count(0)  # only the tapper sees it
    phone_a.locator("[data-level-up='2']").click()
    expect(phone_b.locator("[data-level='2']")).to_have_text("2")
    expect(phone_a.locator("[data-level='2']")).to_have_text("2")
    expect(phone_a.locator("#messages .error")).to_have_count(0)
    # The live badge is part of the page, not laid over the cards.
    badge = phone_a.locator("#connection").bounding_box()
    seats = phone_a.locator("#seats").bounding_box()
    assert badge and seats and badge["y"] + badge["height"] <= seats["y"]
