"""Shazamm! in real browsers: two phones bid in secret, then see the same reveal live.

Every test drives Debian Chromium against a real daphne process (see conftest.py).
Two phones are two browser contexts, so each has its own cookie and its own seat.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.pages import sit

pytestmark = [pytest.mark.e2e]

SESSION_URL = re.compile(r"/s/([A-Z0-9]+)/$")
# How long a phone waits for something another phone did to show up.
LIVE_TIMEOUT_MS = 5_000
# The bot thinks a little before it locks in.
BOT_TIMEOUT_MS = 15_000
# Spells that stop the turn for a decision (Larceny, Recycle) or depend on the last
# turn (Clone), and the bluff card: a test that wants one clean reveal avoids them.
AVOID = {"0", "2", "3", "6"}


# ---------------------------------------------------------------- helpers


def wait_live(page: Page, timeout: float = LIVE_TIMEOUT_MS) -> None:
    page.wait_for_selector("#connection[data-state=live]", state="attached", timeout=timeout)


def create_duel(page: Page, *, bot: bool = False) -> str:
    """Phone ``page`` creates an online duel, Anna (seat 0, this phone) against Marco."""
    page.goto("/new/shazamm/")
    page.fill("#name_0", "Anna")
    page.fill("#name_1", "Marco")
    expect(page.locator("input[name=mode][value=online]")).to_be_checked()
    expect(page.locator("input[name=sit]")).to_be_checked()
    if bot:
        page.check("input[name=bot]")
    page.get_by_role("button", name="Create session").click()
    page.wait_for_url(SESSION_URL)
    wait_live(page)
    match = SESSION_URL.search(page.url)
    assert match, page.url
    expect_board(page)
    expect(lock_form(page)).to_be_visible()
    return match.group(1)


def join_and_sit(page: Page, code: str, name: str = "Marco") -> None:
    page.goto(f"/j/{code}/")
    wait_live(page)
    sit(page, f"Sit as {name}")
    expect(lock_form(page)).to_be_visible()  # its own hand arrives live


def expect_board(page: Page) -> None:
    expect(page.locator("ol.bridge li.slab")).to_have_count(19)
    expect(page.locator("li.mage")).to_have_count(2)
    expect(page.locator("[data-mana='0']")).to_have_text("50 mana")
    expect(page.locator("[data-mana='1']")).to_have_text("50 mana")


def lock_form(page: Page) -> Locator:
    return page.locator("section#play form.lock")


def pick_spell(page: Page) -> Locator:
    """The first spell in this phone's hand that gives a clean reveal (no decision)."""
    boxes = lock_form(page).locator("input[type=checkbox][name='spells[]']")
    expect(boxes.first).to_be_attached()
    for box in boxes.all():
        if box.get_attribute("value") not in AVOID:
            return box
    raise AssertionError("no usable spell in hand: " + lock_form(page).inner_text())


def spell_name(box: Locator) -> str:
    """'7 Boost attack' (the reveal's form) from the spell's tile: its number and name."""
    label = box.locator("xpath=ancestor::label[1]")
    number = label.locator(".spell-no").inner_text()
    return f"{number.strip()} {label.locator('.spell-name').inner_text().strip()}"


def lock_in(page: Page, bid: int, spell: Locator | None = None) -> None:
    page.fill("#bid", str(bid))
    if spell is not None:
        spell.check()
    page.locator("[data-lock]").click()
    # The phone's own form gives way to what it locked in.
    expect(page.locator("section#play")).to_contain_text(f"You locked in: bid {bid}")


def reveal_steps(page: Page) -> list[str]:
    return page.locator(".reveal .steps li").all_inner_texts()


def expect_reveal(page: Page, timeout: float = LIVE_TIMEOUT_MS) -> Locator:
    """Wait until this phone shows the "Last reveal" of a full turn."""
    reveal = page.locator("section.reveal")
    expect(reveal.locator("h2")).to_have_text("Last reveal", timeout=timeout)
    expect(reveal.locator(".steps li").first).to_contain_text("Reveal:", timeout=timeout)
    return reveal


def mana_after(steps: list[str], name: str) -> str:
    """What the reveal says ``name`` has left after the first turn (50 if it never paid)."""
    left = "50"
    who = re.escape(name)
    pattern = re.compile(rf"{who} (?:pays \d+ \(mana left: (\d+)\)|refills mana to (\d+))")
    for step in steps:
        for match in pattern.finditer(step):
            left = match.group(1) or match.group(2)
    return f"{left} mana"


def mana(page: Page) -> tuple[str, str]:
    return (
        page.locator("[data-mana='0']").inner_text(),
        page.locator("[data-mana='1']").inner_text(),
    )


# ---------------------------------------------------------------- the secret bid


def test_two_phones_lock_in_secretly_and_see_the_same_reveal_live(phone_a, phone_b):
    code = create_duel(phone_a)
    join_and_sit(phone_b, code)
    expect_board(phone_b)
    expect(phone_b.locator("[data-locked]")).to_have_count(0)

    navigations: list[str] = []
    phone_b.on("framenavigated", lambda frame: navigations.append(frame.url))

    spell_a = pick_spell(phone_a)
    name_a = spell_name(spell_a)
    number_a = spell_a.get_attribute("value")
    lock_in(phone_a, 37, spell_a)

    # B learns that Anna has locked in, and nothing else.
    expect(phone_b.locator("[data-locked='0']")).to_have_text("locked in")
    expect(phone_b.locator("[data-locked='1']")).to_have_count(0)
    text_b = phone_b.inner_text("body")
    assert not re.search(r"\b37\b", text_b), f"Anna's bid shows on Marco's phone:\n{text_b}"
    hand_b = lock_form(phone_b).locator("input[name='spells[]'][type=checkbox]")
    if number_a not in [box.get_attribute("value") for box in hand_b.all()]:
        assert name_a not in text_b, f"Anna's spell shows on Marco's phone:\n{text_b}"
    assert "You locked in" not in text_b
    expect(lock_form(phone_b)).to_be_visible()  # B can still bid

    spell_b = pick_spell(phone_b)
    name_b = spell_name(spell_b)
    phone_b.fill("#bid", "23")
    spell_b.check()
    phone_b.locator("[data-lock]").click()

    expect_reveal(phone_a)
    expect_reveal(phone_b)
    steps_a, steps_b = reveal_steps(phone_a), reveal_steps(phone_b)
    assert steps_a == steps_b
    reveal = steps_a[0]
    assert "Anna bids 37" in reveal, reveal
    assert "Marco bids 23" in reveal, reveal
    assert name_a in reveal and name_b in reveal, reveal

    assert mana(phone_a) == mana(phone_b)
    assert mana(phone_a) == (mana_after(steps_a, "Anna"), mana_after(steps_a, "Marco")), steps_a
    assert navigations == [], "phone B reloaded instead of updating live"


def test_a_half_filled_bid_survives_the_other_phone_locking_in(phone_a, phone_b):
    code = create_duel(phone_a)
    join_and_sit(phone_b, code)

    # Marco is halfway through his move...
    spell_b = pick_spell(phone_b)
    phone_b.fill("#bid", "23")
    spell_b.check()
    expect(phone_b.locator("#bid")).to_have_value("23")

    # ...when Anna locks in: the live update reaches B's board...
    lock_in(phone_a, 5, pick_spell(phone_a))
    expect(phone_b.locator("[data-locked='0']")).to_have_text("locked in")

    # ...but leaves B's form (same swap key) alone.
    expect(phone_b.locator("#bid")).to_have_value("23")
    expect(spell_b).to_be_checked()
    expect(phone_b.locator("#bid-range")).to_have_value("23")

    # And the untouched form still works.
    phone_b.locator("[data-lock]").click()
    expect_reveal(phone_b)
    expect_reveal(phone_a)
    assert "Marco bids 23" in reveal_steps(phone_b)[0]
    assert reveal_steps(phone_a) == reveal_steps(phone_b)


# ---------------------------------------------------------------- the bot


def test_a_duel_against_the_bot_reveals_without_a_second_phone(phone_a):
    create_duel(phone_a, bot=True)
    # The bot takes the second seat (under its own name): nobody else can sit there.
    expect(phone_a.locator("#seats li.seat").nth(1).locator(".badge")).to_have_text("bot")
    expect(phone_a.get_by_role("button", name=re.compile("^Sit as"))).to_have_count(0)

    spell = pick_spell(phone_a)
    phone_a.fill("#bid", "4")
    spell.check()
    phone_a.locator("[data-lock]").click()

    expect_reveal(phone_a, timeout=BOT_TIMEOUT_MS)
    assert re.search(r"Anna bids 4\b", reveal_steps(phone_a)[0])
    steps = reveal_steps(phone_a)
    bot = phone_a.locator("#seats li.seat").nth(1).locator(".seat-name").inner_text()
    assert mana(phone_a) == (mana_after(steps, "Anna"), mana_after(steps, bot)), steps
