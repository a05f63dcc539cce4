"""Shazamm! on a 360 × 740 phone: "Lock in" and its countdown on the first screen, the
hand as compact tiles whose text opens on demand."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import boxes, clear_of_the_top_bar, side_by_side, wait_live
from tests.e2e.test_shazamm import SESSION_URL, lock_form

pytestmark = [pytest.mark.e2e]

SCREEN_HEIGHT = 740
#: Set to a folder to keep a screenshot of the phone (for a human to look at).
SHOTS = os.environ.get("SEGNALINO_TV_SHOTS")


def timed_duel(page: Page, *, full_hand: bool, language: str = "en") -> None:
    """An online duel with a 60-second turn timer; ``full_hand``: all 14 spells (and
    the bluff card) in hand, the longest hand there is. ``language``: the phone's."""
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.goto("/new/shazamm/")
    page.fill("#name_0", "Anna")
    page.fill("#name_1", "Marco")
    page.select_option("#turn_seconds", "60")
    if full_hand:
        page.select_option("#variant", "full_hand")
    page.locator("form [type=submit]").last.click()
    page.wait_for_url(SESSION_URL)
    wait_live(page)
    expect(lock_form(page)).to_be_visible()
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"shazamm-{len(str(full_hand))}.png"))


def on_first_screen(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert page.evaluate("window.scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= SCREEN_HEIGHT, (
        f"{selector} is at {box['y']:.0f}px, below the first screen of a 360x740 phone"
    )
    return box


@pytest.mark.parametrize("full_hand", [False, True], ids=["six spells", "every spell"])
def test_lock_in_and_its_countdown_are_on_the_first_screen(phone_a, full_hand):
    timed_duel(phone_a, full_hand=full_hand)
    form = lock_form(phone_a)
    tiles = form.locator("li.spell-tile")
    expect(tiles.first).to_be_visible()
    assert tiles.count() >= (14 if full_hand else 5)
    button = on_first_screen(phone_a, "form.lock [data-lock]")
    timer = on_first_screen(phone_a, "form.lock .lock-timer")
    # Beside the button: on the same row, just left of it.
    assert abs((timer["y"] + timer["height"] / 2) - (button["y"] + button["height"] / 2)) < 8
    assert 0 <= button["x"] - (timer["x"] + timer["width"]) <= 16
    # It counts down, like the one at the top.
    countdown = form.locator(".lock-timer .countdown")
    expect(countdown).to_have_text("60")
    expect(countdown).not_to_have_text("60", timeout=5_000)
    assert 0 < int(countdown.inner_text()) < 60

    # Scrolled down to the last spell, the button stays in reach.
    tiles.last.scroll_into_view_if_needed()
    box = form.locator("[data-lock]").bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= SCREEN_HEIGHT


def test_a_spell_is_a_tile_and_its_text_opens_on_a_tap(phone_a):
    timed_duel(phone_a, full_hand=True)
    tile = lock_form(phone_a).locator("li.spell-tile").filter(has_text="Mutism")
    box = tile.bounding_box()
    assert box and box["height"] <= 60, "a spell takes more than one line of tiles"
    text = tile.locator(".spell-more p")
    expect(text).to_be_hidden()
    tile.locator("summary").click()
    expect(text).to_be_visible()
    if SHOTS:
        phone_a.screenshot(path=os.path.join(SHOTS, "shazamm-hand.png"), full_page=True)
    expect(text).not_to_be_empty()
    # The box is still a plain checkbox, named by the spell and described by its text.
    box_input = tile.get_by_role("checkbox")
    expect(box_input).to_have_accessible_name("1 Mutism")
    box_input.check()
    expect(box_input).to_be_checked()


#: The spell names cut inside a word: each word's width, measured on a line of its
#: own in the name's font, against the width the name has.
_CUT_NAMES = """() => {
  const cut = [];
  for (const name of document.querySelectorAll('form.lock .spell-name')) {
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    probe.style.font = getComputedStyle(name).font;
    document.body.append(probe);
    for (const word of name.textContent.trim().split(/\\s+/)) {
      probe.textContent = word;
      if (probe.getBoundingClientRect().width > name.getBoundingClientRect().width + 0.5) {
        cut.push(name.textContent.trim());
      }
    }
    probe.remove();
  }
  return cut;
}"""


@pytest.mark.parametrize("language", ["en", "it"])
def test_no_spell_name_is_cut_inside_a_word_on_a_360px_phone(phone_a, language):
    # Fifteen tiles of every spell, in English and in Italian (the longer names):
    # each name keeps its words whole, and takes at most two lines.
    timed_duel(phone_a, full_hand=True, language=language)
    tiles = lock_form(phone_a).locator("li.spell-tile")
    expect(tiles.first).to_be_visible()
    assert phone_a.evaluate(_CUT_NAMES) == []
    # A name on two lines squeezes neither the box nor the number beside it.
    checkboxes = {round(box["width"]) for box in boxes(tiles.locator("input"))}
    numbers = {round(box["width"]) for box in boxes(tiles.locator(".spell-no"))}
    assert len(checkboxes) == 1, checkboxes
    assert len(numbers) <= 2, numbers  # one digit or two
    tall = [
        t.inner_text()
        for t, box in zip(tiles.all(), boxes(tiles), strict=True)
        if box["height"] > 64
    ]
    assert not tall, f"{tall} take three lines or more"


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_spell_the_browser_scrolls_to_stops_below_the_lock_bar(phone_a, language):
    # The bid and "Lock in" stay stuck at the top while the hand scrolls. A spell the
    # browser brings into view scrolling up (a tap on its box or its "?", the keyboard's
    # Shift+Tab) stopped at the very top of the screen: under the bar, out of sight.
    timed_duel(phone_a, full_hand=True, language=language)
    tiles = lock_form(phone_a).locator("li.spell-tile")
    expect(tiles.first).to_be_visible()
    clear_of_the_top_bar(tiles, "form.lock .lock-bar", focus="input")
    clear_of_the_top_bar(tiles, "form.lock .lock-bar", focus="summary")


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_mages_thinking_badge_keeps_to_its_line(phone_a, language):
    # "Anna  you  50 mana  6 cards" filled the line and "thinking…" went alone to the
    # next one: the hand and the bid's state now wrap together.
    timed_duel(phone_a, full_hand=False, language=language)
    mage = phone_a.locator("li.mage").first
    expect(mage.locator(".badge.muted")).to_be_visible()
    side_by_side(mage.locator(".small"), mage.locator(".badge.muted"))
