"""Plastic Attack at a real table: each player builds an army on their own phone, a
battle entered on two phones is judged on both, live, and the page fits a 360 px
phone. Two phones are two browser contexts (own cookies, own seat)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import (
    clear_of_the_bar,
    new_session,
    no_horizontal_scroll,
    side_by_side,
    sit,
    wait_live,
)

pytestmark = [pytest.mark.e2e]


def create(page: Page) -> str:
    return new_session(page, "plastic-attack", ["Anna", "Bruno"])


def build(page: Page, *figures: tuple[str, int, tuple[str, str, str]]) -> None:
    for n, (name, power, actions) in enumerate(figures):
        page.fill(f"#fig-{n}-name", name)
        page.fill(f"#fig-{n}-power", str(power))
        for band, action in zip(("7-8", "9-10", "J-Q"), actions, strict=True):
            page.select_option(f"#fig-{n}-{band}", action)
    left = 15 - sum(power for _name, power, _actions in figures)
    # The points left, counted as the player types (in the phone's language).
    expect(page.locator("[data-budget]")).to_have_text(re.compile(rf"^{left}\b"))
    page.locator("[data-army]").click()


def build_the_two_armies(anna: Page, bruno: Page) -> None:
    """Anna's Tank and Winter Superhero; Bruno's Dragon (with the Knock-out) and Knight."""
    build(
        anna,
        ("Tank", 8, ("special-weapons", "sniper", "luck")),
        ("Winter Superhero", 7, ("remedy", "deception", "shield")),
    )
    build(
        bruno,
        ("Dragon", 6, ("knock-out", "vulnerability", "mind-control")),
        ("Knight", 5, ("intimidation", "master-plan", "quick-action")),
    )


def test_two_phones_build_their_armies_and_see_a_battle_judged_live(phone_a, phone_b):
    code = create(phone_a)
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    sit(phone_b, "Sit as Bruno")
    expect(phone_b.locator("#fig-0-name")).to_be_visible()
    no_horizontal_scroll(phone_b)

    # Bruno, half-way through his form, is not wiped by Anna's army arriving.
    phone_b.fill("#fig-0-name", "Dragon")
    build(
        phone_a,
        ("Tank", 8, ("special-weapons", "sniper", "luck")),
        ("Winter Superhero", 7, ("remedy", "deception", "shield")),
    )
    expect(phone_b.locator("#army-0")).to_contain_text("Winter Superhero")
    expect(phone_b.locator("#fig-0-name")).to_have_value("Dragon")
    build(
        phone_b,
        ("Dragon", 6, ("knock-out", "vulnerability", "mind-control")),
        ("Knight", 5, ("intimidation", "master-plan", "quick-action")),
    )

    phone_a.get_by_role("button", name="Anna drew the Ace").click()
    phone_a.select_option("#attack-figure", label="Tank")
    phone_a.locator("[data-declare]").click()
    phone_b.get_by_role("button", name="Knight").click()
    phone_a.locator("[data-card='9']").click()
    expect(phone_b.locator("#board")).to_contain_text("card down")
    for pair in phone_b.locator(".battle .card-pair").all():  # "Bruno:" with his card
        side_by_side(pair.locator(".card-of"), pair.locator(".playing-card"))
    phone_b.locator("[data-card='K']").click()

    # 8 + 9 = 17 against 5 + 13 = 18: the Knight holds, on both phones.
    for page in (phone_a, phone_b):
        expect(page.locator("[data-total=attack]")).to_have_text("17")
        expect(page.locator("[data-total=defence]")).to_have_text("18")
        expect(page.locator("[data-winner]")).to_contain_text("Bruno holds")
    expect(phone_b.locator("[data-declare]")).to_be_visible()  # Bruno's turn now
    expect(phone_a.locator("#history")).to_contain_text(
        "Knight (K, total 18) holds off Tank (9, total 17)."
    )
    no_horizontal_scroll(phone_a)


def test_online_two_phones_lay_cards_secretly_and_reveal_together_one_in_italian(phone_a, phone_b):
    code = new_session(
        phone_a,
        "plastic-attack",
        ["Anna", "Bruno"],
        lambda p: p.check("input[name=mode][value=online]"),
    )
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    with phone_b.expect_navigation():
        phone_b.select_option("#language", "it")
    wait_live(phone_b)
    sit(phone_b, "Siediti come Bruno")
    build_the_two_armies(phone_a, phone_b)

    # The app dealt: each phone shows its own hand, the attacker (the Ace's
    # receiver) sees the attack form.
    expect(phone_a.locator("p.hand .playing-card")).not_to_have_count(0)
    expect(phone_b.locator("p.hand .playing-card")).not_to_have_count(0)
    a_hand = set(phone_a.locator("p.hand .playing-card").all_inner_texts())
    b_hand = set(phone_b.locator("p.hand .playing-card").all_inner_texts())
    assert not a_hand & b_hand
    attacker, defender = (
        (phone_a, phone_b) if phone_a.locator("[data-declare]").count() else (phone_b, phone_a)
    )
    attacker.locator("[data-declare]").click()
    defender.locator("[data-defend]").first.click()
    attacker.locator("[data-card]").first.click()
    # Face down on the other phone (in its own language), shown to its owner.
    expect(defender.locator("#board .playing-card.down")).to_have_count(1)
    expect(attacker.locator("#board .playing-card.down")).to_have_count(0)
    defender.locator("[data-card]").first.click()
    for page in (phone_a, phone_b):
        expect(page.locator("[data-total=attack]")).to_be_visible()
        expect(page.locator("#board .playing-card.down")).to_have_count(0)
    expect(phone_b.locator("html")).to_have_attribute("lang", "it")
    expect(phone_b.locator("[data-last-battle]")).to_contain_text("Ultima battaglia")
    expect(phone_a.locator("[data-last-battle]")).to_contain_text("Last battle")


@pytest.mark.parametrize(
    ("language", "sit_as"), [("en", "Sit as Bruno"), ("it", "Siediti come Bruno")]
)
def test_the_attack_button_after_a_knock_out_scrolled_to_stops_above_the_undo_bar(
    phone_a, phone_b, language, sit_as
):
    # Bruno knocks Anna out and attacks again: the last battle, its effects and "Anna
    # skips this turn" push his "Attack!" below the fold of his phone, which shows the
    # undo bar (the Knock-out is his to undo). Scrolled to, the button sits above the
    # bar; it used to stop at the bottom of the screen, wholly under it.
    code = create(phone_a)
    phone_b.context.set_extra_http_headers({"Accept-Language": language})
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    sit(phone_b, sit_as)
    build_the_two_armies(phone_a, phone_b)
    phone_b.locator("#play button[name=seat][value='1']").click()  # Bruno drew the Ace
    phone_b.select_option("#attack-figure", label="Dragon")
    phone_b.locator("[data-declare]").click()
    phone_a.get_by_role("button", name="Tank").click()
    phone_b.locator("[data-card='8']").click()  # 6 + 8 = 14 against 8 + 2: a 7-8 win
    phone_a.locator("[data-card='2']").click()
    phone_b.locator("[data-special]").click()  # Knock-out: Anna skips her turn
    expect(phone_b.locator("#board .hint")).to_contain_text("Anna")
    expect(phone_b.locator("#controls [data-undo]")).to_be_visible()
    clear_of_the_bar(phone_b.locator("[data-declare]"))


@pytest.mark.parametrize(
    ("language", "one_left", "one_over", "many_over"),
    [
        ("en", "1 Power point left", "1 Power point too many", "3 Power points too many"),
        (
            "it",
            "1 punto di Potenza rimasto",
            "1 punto di Potenza di troppo",
            "3 punti di Potenza di troppo",
        ),
    ],
)
def test_the_army_form_counts_one_power_point_in_the_singular(
    phone_a, language, one_left, one_over, many_over
):
    """The points left are counted as the player types: "1 Power point left", not
    "1 Power points left", and the same for one too many (15 to share)."""
    create(phone_a)
    phone_a.context.set_extra_http_headers({"Accept-Language": language})
    phone_a.reload()
    expect(phone_a.locator("html")).to_have_attribute("lang", language)
    budget = phone_a.locator("[data-budget]")
    phone_a.fill("#fig-0-power", "10")
    phone_a.fill("#fig-1-power", "4")
    expect(budget).to_have_text(one_left)
    phone_a.fill("#fig-1-power", "6")
    expect(budget).to_have_text(one_over)
    phone_a.fill("#fig-1-power", "8")
    expect(budget).to_have_text(many_over)
