"""The end of a game night's game and the next one, on two phones: the end shows
on both, "Play again" takes the tapping phone to the new table, and the other
phone is offered the way there, live, and keeps its seat."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.pages import SESSION_URL, no_horizontal_scroll, wait_live
from tests.e2e.test_table import create_session, join_by_code, sit


def test_play_again_moves_both_phones_to_the_next_table_with_their_seats(phone_a, phone_b):
    code = create_session(phone_a)  # phone A hosts and sits as Anna
    join_by_code(phone_b, code)
    sit(phone_b, "Bruno")
    expect(phone_b.locator("#seats")).not_to_have_attribute("open", "")

    phone_a.on("dialog", lambda dialog: dialog.accept())
    phone_a.get_by_role("button", name="End session").click()
    expect(phone_b.locator("#finale")).to_contain_text("The session has ended")
    expect(phone_b.locator("#finale")).to_contain_text("The game in figures")
    play_again = phone_a.get_by_role("button", name="Play again (same players and seats)")
    play_again.click()
    phone_a.wait_for_url(lambda url: SESSION_URL.search(url) and code not in url)
    wait_live(phone_a)
    new_code = SESSION_URL.search(phone_a.url).group(1)
    expect(phone_a.locator("#seats li.seat", has_text="Anna").locator(".badge")).to_have_text("you")

    next_game = phone_b.locator("[data-next-game]")
    expect(next_game).to_be_visible()
    next_game.click()
    phone_b.wait_for_url(f"**/s/{new_code}/")
    wait_live(phone_b)
    expect(phone_b.locator("#seats li.seat", has_text="Bruno").locator(".badge")).to_have_text(
        "you"
    )
    expect(phone_b.locator("[data-hit=violet]")).to_be_visible()  # seated: it may tap
    no_horizontal_scroll(phone_b)
