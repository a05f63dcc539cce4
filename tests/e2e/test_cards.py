"""The card reference on a 360 px phone: results as you type, a shareable card page,
the language switch, and the browser's language on a first visit."""

from __future__ import annotations

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
