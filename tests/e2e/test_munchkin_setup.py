"""Munchkin's set-up on a 360 × 740 phone: the names typed name the players in the
choices below, every name box has a label, and this phone starts as nobody (as in
Adrenaline's set-up)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import SESSION_URL, no_horizontal_scroll, wait_live

pytestmark = [pytest.mark.e2e]


def option_texts(page: Page, select: str) -> list[str]:
    return [text.strip() for text in page.locator(f"{select} option").all_inner_texts()]


def test_the_names_typed_name_the_players_in_both_choices(phone_a):
    page = phone_a
    page.goto("/new/munchkin/")
    # Every name box has a visible label.
    for number in range(1, 7):
        label = page.locator(f"label[for=name_{number - 1}]")
        expect(label).to_be_visible()
        expect(label).to_have_text(f"Player {number}")
    no_horizontal_scroll(page)
    page.get_by_label("Player 1", exact=True).fill("Anna")
    page.get_by_label("Player 2", exact=True).fill("Bruno")
    page.get_by_label("Player 3", exact=True).fill("  Carla   Rossi ")
    # As typed, live: never "Player 1" once a name is there.
    assert option_texts(page, "#first")[:4] == ["Anna", "Bruno", "Carla Rossi", "Player 4"]
    hosts = option_texts(page, "#host_seat")
    assert hosts[1:4] == ["Anna", "Bruno", "Carla Rossi"] and "Player 1" not in hosts
    # This phone starts as nobody, like Adrenaline's "This phone plays as".
    expect(page.locator("#host_seat")).to_have_value("")
    page.get_by_label("Player 2", exact=True).fill("Bea")
    assert option_texts(page, "#host_seat")[2] == "Bea"

    page.select_option("#first", label="Bea")
    page.select_option("#host_seat", label="Carla Rossi")
    page.get_by_role("button", name="Create session").click()
    page.wait_for_url(SESSION_URL)
    wait_live(page)
    expect(page.locator(".mk-turn-title")).to_contain_text("Turn 1: Bea")
    expect(page.locator("#seats .badge", has_text="you")).to_have_count(1)
    expect(page.locator("#seats li.seat", has_text="you")).to_contain_text("Carla Rossi")


def test_a_refused_set_up_comes_back_with_the_names_in_the_choices(phone_a):
    page = phone_a
    page.goto("/new/munchkin/")
    page.fill("#name_0", "Anna")
    page.fill("#name_1", "Bruno")
    page.fill("#name_2", "Carla")
    page.fill("#name_4", "Elena")
    page.select_option("#first", label="Player 4")  # a row left empty
    page.get_by_role("button", name="Create session").click()
    expect(page.locator("#messages, .error").first).to_contain_text("Player 4 has no name yet")
    expect(page.locator("#name_4")).to_have_value("Elena")
    assert option_texts(page, "#first")[:5] == ["Anna", "Bruno", "Carla", "Player 4", "Elena"]
