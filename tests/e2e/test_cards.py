"""The card reference on a 360 px phone: results as you type, a shareable card page,
the language switch, and the browser's language on a first visit."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e]


def fits_the_screen(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"


def test_typing_a_few_letters_finds_the_card_and_its_page(phone_a: Page):
    page = phone_a
    page.goto("/")
    page.get_by_role("link", name="Cards").click()
    expect(page.get_by_role("heading", name="Cards", level=1)).to_be_visible()
    fits_the_screen(page)

    page.get_by_label("Name or words of the effect").press_sequentially("distrut", delay=40)
    results = page.locator("#results .card-name")
    expect(results).to_have_text(["Lock Rifle"])  # the Italian name finds it, no Enter needed
    assert "q=distrut" in page.url  # the search is a link that can be shared

    results.first.click()
    expect(page).to_have_url(page.url.split("/cards/")[0] + "/cards/adrenaline/lock-rifle/")
    expect(page.get_by_role("heading", name="Lock Rifle", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Second lock")).to_be_visible()
    fits_the_screen(page)

    page.select_option("#language", "it")
    expect(page.get_by_role("heading", name="Distruttore", level=1)).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "it")


def test_filters_narrow_the_list_as_they_change(phone_a: Page):
    page = phone_a
    page.goto("/cards/")
    page.get_by_label("Game").select_option("shazamm")
    expect(page.locator("#results .card-name")).to_have_count(15)
    page.get_by_text("More filters").click()
    page.get_by_label("Priority").select_option("0")
    expect(page.locator("#results .card-name")).to_have_text(["Bluff"])
    fits_the_screen(page)


def test_an_italian_phone_gets_italian_on_its_first_visit(browser, live_server_url):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server_url, is_mobile=True, locale="it-IT"
    )
    try:
        page = context.new_page()
        page.goto("/cards/shazamm/mutism/")
        expect(page.get_by_role("heading", name="Mutismo", level=1)).to_be_visible()
    finally:
        context.close()


def test_a_typo_shows_close_matches(phone_a: Page):
    page = phone_a
    page.goto("/cards/")
    page.get_by_label("Name or words of the effect").press_sequentially("lokc rifle", delay=30)
    expect(page.locator("#results .card-name")).to_have_text(["Lock Rifle"])
    expect(page.get_by_text("Showing close matches for “lokc rifle”.")).to_be_visible()


def test_choosing_a_game_drops_the_filters_of_another(phone_a: Page):
    page = phone_a
    page.goto("/cards/")
    results = page.locator("#results .card-name")
    page.get_by_label("Game").select_option("adrenaline")
    expect(results).to_have_count(25)
    page.get_by_label("Card type").select_option("weapon")
    expect(results).to_have_count(21)
    page.get_by_text("More filters").click()
    page.get_by_label("Ammo colour").select_option("red")
    expect(page).to_have_url(re.compile(r"colour=red"))
    red = results.count()
    assert 0 < red < 21

    page.get_by_label("Game").select_option("shazamm")
    expect(results).to_have_count(15)  # every spell, not 0 cards
    expect(page.get_by_label("Card type")).to_have_value("")
    expect(page.get_by_label("Ammo colour")).to_have_count(0)  # not a Shazamm! filter
    expect(page.get_by_label("Priority")).to_be_visible()
    expect(page).to_have_url(page.url.split("/cards/")[0] + "/cards/?game=shazamm")
    fits_the_screen(page)

    # The filters are redrawn with each answer; the one in use keeps the keyboard focus.
    page.get_by_label("Priority").focus()
    page.keyboard.press("ArrowDown")
    expect(results).to_have_text(["Bluff"])  # priority 0
    assert page.evaluate("document.activeElement.id") == "priority"


def test_no_cards_offers_a_way_out_that_keeps_the_words(phone_a: Page):
    page = phone_a
    page.goto("/cards/?game=shazamm")
    page.get_by_label("Name or words of the effect").press_sequentially("rifle", delay=30)
    expect(page.locator("#results")).to_contain_text("0 cards")
    way_out = page.get_by_role("link", name="Clear the filters, keep “rifle”")
    box = way_out.bounding_box()
    assert box is not None and box["height"] >= 44
    way_out.click()
    expect(page.locator("#results .card-name")).to_have_text(["Lock Rifle"])
    expect(page.get_by_label("Game")).to_have_value("")
    expect(page.get_by_label("Name or words of the effect")).to_have_value("rifle")


def test_more_filters_is_a_button_that_opens_with_a_tap(phone_a: Page):
    page = phone_a
    page.goto("/cards/")
    summary = page.locator(".more-filters > summary")
    box = summary.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 200
    expect(page.get_by_label("Priority")).to_be_hidden()
    summary.tap()
    expect(page.locator(".more-filters")).to_have_attribute("open", "")
    expect(page.get_by_label("Priority")).to_be_visible()
    summary.focus()
    page.keyboard.press("Enter")  # and with the keyboard
    expect(page.get_by_label("Priority")).to_be_hidden()
