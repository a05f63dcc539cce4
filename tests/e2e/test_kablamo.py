"""Kablamo at a real table: one phone enters what a revolver fired, and the others
see the resolution order and the elimination, live; one of them in Italian."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import (
    SESSION_URL,
    clear_of_the_bar,
    new_session,
    no_horizontal_scroll,
    on_one_line,
    reopened_in,
    sit,
    tall_enough,
    wait_live,
)

pytestmark = [pytest.mark.e2e]


def create(page: Page) -> str:
    return new_session(page, "kablamo", ["Anna", "Bruno", "Carla"])


def test_a_reveal_on_one_phone_shows_the_order_and_the_elimination_on_the_others(phone_a, phone_b):
    code = create(phone_a)
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    with phone_b.expect_navigation():
        phone_b.select_option("#language", "it")
    wait_live(phone_b)
    sit(phone_b, "Siediti come Bruno")
    for seat in range(3):
        phone_a.locator(f"[data-loaded='{seat}']").click()
    expect(phone_b.locator("[data-rotate]")).to_be_visible()
    phone_b.locator("[data-rotate]").click()

    # Anna's phone enters all three revolvers: a Click, a Kablamo, an empty chamber.
    phone_a.locator("#reveal-0 [data-result=click]").click()
    phone_a.locator("#reveal-1 [data-result=kablamo]").click()
    phone_a.locator("#reveal-2 [data-result=empty]").click()

    order = phone_b.locator("[data-order] li")
    expect(order).to_have_count(2)
    expect(order.nth(0)).to_contain_text("Click")
    expect(order.nth(1)).to_contain_text("Kablamo")
    expect(phone_b.locator("[data-player='1']")).to_contain_text("fuori")
    expect(phone_b.locator("#history")).to_contain_text("Kablamo! Bruno è fuori.")
    expect(phone_a.locator("#history")).to_contain_text("Kablamo! Bruno is out.")
    expect(phone_a.locator("[data-next]")).to_be_visible()  # on to Replace
    for page in (phone_a, phone_b):
        tall_enough(page.locator("details.add-bullet > summary, details.eliminate > summary"))
        on_one_line(page.locator("#history .by"))  # "— Anna", never the dash alone
    no_horizontal_scroll(phone_a)
    no_horizontal_scroll(phone_b)


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_reveal_buttons_scrolled_to_stop_above_the_undo_bar(phone_a, language):
    # "Cylinders turned" brings the undo bar and the reveal forms, which start below
    # the fold. Scrolled to, Kablamo / Click / Empty / This bullet of every revolver
    # sit above the bar, not under it (they used to stop at the bottom of the screen).
    create(phone_a)
    for seat in range(3):
        phone_a.locator(f"[data-loaded='{seat}']").click()
    phone_a.locator("[data-rotate]").click()
    expect(phone_a.locator("#reveal-2 [data-result=kablamo]")).to_be_visible()
    reopened_in(phone_a, language)
    clear_of_the_bar(phone_a.locator("[id^=reveal-] [data-result]"))


def test_a_set_up_mistake_keeps_what_was_typed(phone_a):
    phone_a.goto("/new/kablamo/")
    phone_a.fill("#name_0", "Anna")
    phone_a.check("input[name=variant][value=hardcore]")
    phone_a.check("input[name=mulligan]")
    phone_a.get_by_role("button", name="Create session").click()
    expect(phone_a.locator("#messages")).to_contain_text("needs 2 to 5 players")
    expect(phone_a.locator("#name_0")).to_have_value("Anna")
    expect(phone_a.locator("input[name=variant][value=hardcore]")).to_be_checked()
    expect(phone_a.locator("input[name=mulligan]")).to_be_checked()
    phone_a.fill("#name_1", "Bruno")
    phone_a.get_by_role("button", name="Create session").click()
    phone_a.wait_for_url(SESSION_URL)
