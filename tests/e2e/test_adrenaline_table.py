"""Adrenaline at a real table, on 360 × 740 phones: a shot in three taps without
scrolling, one hit as one action whatever the order of taps, the double entry
caught, and figures moved on the map seen on the other phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import pages
from tests.e2e.pages import (
    boxes,
    broken_only_after,
    clear_of_the_bar,
    no_horizontal_scroll,
    on_one_line,
    reopened_in,
    tall_enough,
    wait_live,
    wrapped_evenly,
)
from tests.e2e.test_table import create_session, expect_damage, hit, join_by_code, sit

VIEWPORT_HEIGHT = 740


def tap_in_view(page: Page, locator) -> None:
    """Tap ``locator`` as a thumb would: it must be on screen without scrolling."""
    box = locator.bounding_box()
    assert box is not None, "not shown"
    assert page.evaluate("window.scrollY") == 0, "the page was scrolled"
    assert box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT_HEIGHT, (
        f"{locator} is at {box['y']:.0f}px: below the fold of a 360x740 phone"
    )
    locator.click()


def test_a_shot_with_the_weapon_helper_takes_three_taps_and_no_scrolling(phone_a):
    # D-struct-OR plays first; this phone sits as D-struct-OR, who holds a Lock Rifle.
    create_session(phone_a, host_seat="dstructor")
    phone_a.locator("#gear-dstructor summary").click()
    phone_a.select_option("#pickup-dstructor", "lock-rifle")
    phone_a.locator("#gear-dstructor").get_by_role("button", name="Pick up (pay)").click()
    form = phone_a.locator("#shot-form")
    expect(form.locator("label.chip-choice", has_text="Lock Rifle")).to_be_visible()
    phone_a.evaluate("window.scrollTo(0, 0)")

    tap_in_view(phone_a, form.locator("label.chip-choice", has_text="Lock Rifle"))
    target = phone_a.locator("#shot-form label.chip-choice", has_text="Bruno")
    expect(phone_a.locator("#shot-form [name='effects[]'][value=basic]")).to_be_checked()
    tap_in_view(phone_a, target)
    record = phone_a.locator("#shot-form").get_by_role("button", name="Record shot")
    expect(phone_a.locator("#shot-form [data-target=dozer]")).to_be_visible()
    tap_in_view(phone_a, record)

    expect_damage(phone_a, "dozer", 2)
    expect(phone_a.locator("#history")).to_contain_text("D-struct-OR hits Bruno: 2 damage, 1 mark.")
    no_horizontal_scroll(phone_a)


def test_one_hit_is_one_action_whatever_the_order_of_the_taps(phone_a):
    create_session(phone_a)
    board = phone_a.locator("article#player-dozer")
    board.locator("form.hit label", has_text="2").first.click()  # damage 2 …
    board.locator("form.hit fieldset", has_text="Marks").locator("label", has_text="1").click()
    board.locator("[data-hit=dozer]").click()
    expect_damage(phone_a, "dozer", 2)
    # The same hit again, numbers chosen in the other order: the mark of the first
    # hit turns into damage once, as the rules say (2 + 2 + 1), whatever the taps.
    board.locator("form.hit fieldset", has_text="Marks").locator("label", has_text="1").click()
    board.locator("form.hit fieldset", has_text="Damage").locator("label", has_text="2").click()
    board.locator("[data-hit=dozer]").click()
    expect_damage(phone_a, "dozer", 5)
    # 2 direct + the earlier mark = 3 placed, and the new mark stays.
    expect(phone_a.locator("#history li").first).to_contain_text(
        "D-struct-OR hits Bruno: 3 damage, 1 mark. (1 mark turned into damage.)"
    )


@pytest.mark.parametrize(
    ("language", "sit_as", "yours"),
    [("en", "Sit as Bruno", "Your board"), ("it", "Siediti come Bruno", "La tua plancia")],
)
def test_a_phone_that_sits_down_finds_its_own_board_first_and_marked(
    phone_a, phone_b, language, sit_as, yours
):
    code = create_session(phone_a)  # Anna (Banshee) on phone A; Bruno plays Dozer
    phone_b.context.set_extra_http_headers({"Accept-Language": language})
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    expect(phone_b.get_by_role("group", name=yours)).to_have_count(0)
    pages.sit(phone_b, sit_as)
    mine = phone_b.get_by_role("group", name=yours)
    expect(mine.locator("article#player-dozer")).to_be_visible()
    expect(phone_b.locator(".players article").first).to_have_id("player-dozer")
    # The tap of another phone still reaches it, on the page it loaded.
    hit(phone_a, "dozer", 1)
    expect_damage(phone_b, "dozer", 1)


@pytest.mark.parametrize(
    ("language", "sit_as", "yours", "offline"),
    [
        ("en", "Sit as Bruno", "Your board", False),
        ("it", "Siediti come Bruno", "La tua plancia", False),
        ("en", "Sit as Bruno", "Your board", True),
    ],
)
def test_a_phone_whose_seat_the_host_frees_no_longer_shows_a_board_as_its_own(
    phone_a, phone_b, language, sit_as, yours, offline
):
    code = create_session(phone_a)  # Anna hosts on phone A; Bruno plays Dozer
    phone_b.context.set_extra_http_headers({"Accept-Language": language})
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    pages.sit(phone_b, sit_as)
    expect(phone_b.get_by_role("group", name=yours)).to_have_count(1)
    # The host frees Bruno's seat (while phone B's network is gone, or not):
    # phone B loads its table again on its own, at once or when it is back.
    phone_a.locator("#seats summary").click()  # folded on a seated phone
    free = phone_a.get_by_role("button", name="Free Bruno's seat")
    if offline:
        phone_b.context.set_offline(True)
        free.click()
        expect(phone_a.get_by_role("button", name="Sit as Bruno")).to_be_visible()
        with phone_b.expect_navigation(timeout=15_000):
            phone_b.context.set_offline(False)
    else:
        with phone_b.expect_navigation():
            free.click()
    wait_live(phone_b)
    expect(phone_b.get_by_role("group", name=yours)).to_have_count(0)
    expect(phone_b.get_by_role("button", name=sit_as)).to_be_visible()
    # Still live: the next tap reaches it.
    hit(phone_a, "dozer", 1)
    expect_damage(phone_b, "dozer", 1)


def test_the_same_hit_from_two_phones_asks_the_second_before_it_applies(phone_a, phone_b):
    code = create_session(phone_a)  # phone A sits as Anna (Banshee)
    join_by_code(phone_b, code)
    sit(phone_b, "Bruno")
    expect_damage(phone_b, "violet", 0)
    # Phone B goes quiet for a moment (its socket is slow), then records the same hit.
    phone_b.evaluate("document.getElementById('status').dataset.version = '0'")
    phone_a.locator("[data-hit=violet]").click()
    expect_damage(phone_a, "violet", 1)
    phone_b.evaluate("document.getElementById('status').dataset.version = '0'")
    phone_b.locator("[data-hit=violet]").click()
    message = phone_b.locator("#messages .error")
    expect(message).to_contain_text("Anna just recorded this: D-struct-OR hits Violet: 1 damage.")
    expect_damage(phone_b, "violet", 1)
    message.get_by_role("button", name="Record it again").click()
    expect_damage(phone_b, "violet", 2)
    expect_damage(phone_a, "violet", 2)


def test_a_figure_moved_on_one_phones_map_moves_on_the_other(phone_a, phone_b):
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    wait_live(phone_b)
    game_map = phone_a.locator("#map")
    game_map.locator("label.chip-choice", has_text="Bruno").click()
    game_map.get_by_role("button", name="Move here: red room 1-0").click()
    expect(phone_b.locator("#map")).to_contain_text("Not on the map:")
    expect(phone_b.locator("#map circle.figure title")).to_have_text("Bruno")
    expect(phone_b.locator("#history")).to_contain_text("Bruno moves to the red room (1-0).")
    box = phone_b.locator("#map .map-board").bounding_box()
    assert box is not None and box["width"] <= 360
    no_horizontal_scroll(phone_b)


def test_the_set_up_choices_name_the_players_as_typed(phone_a):
    phone_a.goto("/new/adrenaline/")
    phone_a.fill("#name_banshee", "Anna")
    expect(phone_a.locator("#first option[value=banshee]")).to_have_text("Anna")
    expect(phone_a.locator("#host_seat option[value=banshee]")).to_have_text("Anna")
    expect(phone_a.locator("#host_seat option[value=dozer]")).to_have_text("Dozer")


def red_cubes(phone_a: Page, phone_b: Page):
    """Phone A's first gear panel, opened, and phone B's count of that player's red
    cubes."""
    gear_a = phone_a.locator("details.gear").first
    gear_a.locator("summary").click()
    player = (gear_a.get_attribute("id") or "").removeprefix("gear-")
    return gear_a, phone_b.locator(f"#ammo-{player} output").first


def test_a_cube_paid_on_one_phone_is_counted_on_the_other(phone_a, phone_b):
    """A stepper row is one form: its − and + buttons each say which way."""
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    wait_live(phone_b)
    gear_a, red_on_b = red_cubes(phone_a, phone_b)
    before = int(red_on_b.text_content() or "")
    gear_a.get_by_role("button", name="Add one: red").click()
    expect(phone_b.locator("#history")).to_contain_text("+1 red")
    assert int(red_on_b.text_content() or "") == before + 1
    gear_a.get_by_role("button", name="Remove one: red").click()
    expect(phone_b.locator("#history")).to_contain_text("-1 red")
    assert int(red_on_b.text_content() or "") == before
    no_horizontal_scroll(phone_a)


def test_a_double_tap_records_one_hit_and_a_stepper_counts_every_tap(phone_a, phone_b):
    """A finger that taps "Record the hit" twice in a row (a double click) records
    one hit, seen as one on the other phone; two quick taps on a cube's + are two
    cubes (a stepper is meant to be tapped again)."""
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    wait_live(phone_b)
    phone_a.locator("[data-hit=dozer]").dblclick()
    expect_damage(phone_b, "dozer", 1)
    expect(phone_b.locator("#history-list > li")).to_have_count(1)
    # The same hit on purpose, after choosing again: a second hit.
    board = phone_a.locator("article#player-dozer")
    board.locator("form.hit fieldset", has_text="Damage").locator("label", has_text="1").click()
    board.locator("[data-hit=dozer]").click()
    expect_damage(phone_b, "dozer", 2)
    expect(phone_b.locator("#history-list > li")).to_have_count(2)
    phone_a.wait_for_timeout(500)  # nothing more arrives: the double tap was dropped
    expect(phone_b.locator("#history-list > li")).to_have_count(2)
    expect_damage(phone_a, "dozer", 2)
    # On a fast network the first tap's hit shows before the finger comes down again:
    # the browser still counts that press as the second of a double tap (detail 2).
    button = board.locator("[data-hit=dozer]")
    button.click()
    expect_damage(phone_a, "dozer", 3)
    button.dispatch_event("click", {"detail": 2})
    phone_a.wait_for_timeout(500)
    expect(phone_b.locator("#history-list > li")).to_have_count(3)
    expect_damage(phone_b, "dozer", 3)

    gear_a, red_on_b = red_cubes(phone_a, phone_b)
    before = int(red_on_b.text_content() or "")
    gear_a.get_by_role("button", name="Add one: red").dblclick()
    expect(red_on_b).to_have_text(str(before + 2))


@pytest.mark.parametrize(("language", "damage"), [("en", "Damage"), ("it", "Danni")])
def test_a_hits_numbers_sit_on_one_row_of_a_360px_phone(phone_a, language, damage):
    """A board's hit form: each row of numbers (damage 0–4, marks 0–3) is one row at
    360 px, its name above it, not a last number alone on a line of its own."""
    create_session(phone_a)
    phone_a.context.set_extra_http_headers({"Accept-Language": language})
    phone_a.reload()
    wait_live(phone_a)
    form = phone_a.locator("article#player-dozer form.hit")
    expect(form.locator("fieldset.pips legend").first).to_have_text(damage)
    for fieldset in form.locator("fieldset.pips").all():
        numbers = boxes(fieldset.locator("label"))
        tops = {round(box["y"]) for box in numbers}
        assert len(numbers) >= 4 and len(tops) == 1, (
            f"{fieldset.locator('legend').text_content()}: numbers on {len(tops)} rows"
        )
        assert all(box["width"] >= 44 for box in numbers)  # thumb-sized
        tall_enough(fieldset.locator("label"))
    no_horizontal_scroll(phone_a)


def test_nothing_sits_at_the_bottom_of_the_screen_until_there_is_something_to_undo(phone_a):
    # The undo bar is fixed at the bottom; with nothing to undo it is not there at
    # all (it used to leave a strip across whatever scrolled under it), and the
    # shot helper's Record button keeps its place above the bar only while it shows.
    create_session(phone_a, host_seat="dstructor")
    expect(phone_a.locator("#controls")).to_be_hidden()
    record = phone_a.locator("#shot-form button.record")
    assert record.evaluate("node => getComputedStyle(node).bottom") == "12px"
    board = phone_a.locator("article#player-dozer")
    board.locator("[data-hit=dozer]").click()
    expect_damage(phone_a, "dozer", 1)
    expect(phone_a.locator("#controls [data-undo]")).to_be_visible()
    assert record.evaluate("node => getComputedStyle(node).bottom") == "76px"
    on_one_line(phone_a.locator("#history .by"))


def a_tall_shot(page: Page) -> None:
    """D-struct-OR's shot with a three-effect weapon at all three others: a form taller
    than the screen, its Record button stuck at the bottom of it."""
    form = page.locator("#shot-form")
    form.locator("select[name=_other_weapon]").select_option("machine-gun")
    expect(form.locator("label.effect")).to_have_count(3)
    for name in ("Anna", "Bruno", "Violet"):
        form.locator("label.chip-choice", has_text=name).click()
        expect(form.locator("div.target", has_text=name)).to_be_visible()
    height = form.bounding_box()
    assert height is not None and height["height"] > VIEWPORT_HEIGHT


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_chip_the_browser_scrolls_to_stops_above_the_record_button(phone_a, language):
    # The shot helper's Record button sticks to the bottom of the screen while the form
    # runs past it. A chip or number brought into view (a tap, the keyboard's Tab) used
    # to stop at the very bottom: under the button, where a tap records the shot. With
    # the undo bar showing too, the button sits higher and the chips stop higher.
    create_session(phone_a, host_seat="dstructor")
    hit(phone_a, "dozer", 1)
    reopened_in(phone_a, language)
    for undo_bar in (True, False):
        if not undo_bar:
            phone_a.locator("#controls [data-undo]").click()
            expect(phone_a.locator("#controls")).to_be_hidden()
            phone_a.reload()  # a fresh shot form
            wait_live(phone_a)
        a_tall_shot(phone_a)
        form = phone_a.locator("#shot-form")
        clear_of_the_bar(
            form.locator("label.chip-choice, .pips label"), "#shot-form button.record", "input"
        )


@pytest.mark.parametrize("language", ["en", "it"])
def test_four_players_read_well_on_a_360px_phone(phone_a, language):
    # Four players with names of five letters: the map's four figures wrapped three and
    # one alone; the undo button's label was cut after some 35 letters on one line (it
    # could end ".…"); the watch-only link, on a phone set to larger text, broke
    # anywhere in its code (or at a "-" in it), its last letters alone on a line.
    names = {"dstructor": "Dario", "banshee": "Anna", "dozer": "Bruno", "violet": "Carla"}
    create_session(phone_a, names=names)
    board = phone_a.locator("article#player-dozer")
    board.locator("form.hit fieldset.pips").nth(0).locator("label", has_text="2").click()
    board.locator("form.hit fieldset.pips").nth(1).locator("label", has_text="1").click()
    board.locator("[data-hit=dozer]").click()
    expect_damage(phone_a, "dozer", 2)
    reopened_in(phone_a, language)

    wrapped_evenly(phone_a.locator("#map fieldset.chips").first.locator("label.chip-choice"))

    label = phone_a.locator("#controls .undo-text")
    expect(label).to_contain_text("Bruno")
    hidden = label.evaluate(
        "node => [node.scrollWidth - node.clientWidth, node.scrollHeight - node.clientHeight]"
    )
    assert hidden == [0, 0], f"{label.text_content()!r} is cut: {hidden} px hidden"
    undo = boxes(phone_a.locator("#controls [data-undo]"))[0]
    assert undo["height"] <= 56, "the undo bar grew"

    phone_a.add_style_tag(content="html{font-size:20px}")  # the phone's larger text
    lines = broken_only_after(phone_a.locator("#invite .small a"))
    assert any(len(link) > 1 for link in lines), f"no link took two lines: {lines}"
    no_horizontal_scroll(phone_a)


def test_a_board_names_its_shooters_as_the_table_does_and_follows_a_rename_made_offline(
    phone_a, phone_b
):
    # Carla plays D-struct-OR, who plays first: the boards' hit forms are hers.
    names = {"dstructor": "Carla", "banshee": "Anna", "dozer": "Bruno"}
    code = create_session(phone_a, names=names)
    join_by_code(phone_b, code)
    sit(phone_b, "Bruno")
    form = phone_a.locator("#hit-dozer")
    form.locator("label", has=phone_a.locator("input[name='hits.0.marks'][value='1']")).click()
    hit(phone_a, "dozer", 1)
    reopened_in(phone_b, "it")
    board = phone_b.locator("#core-dozer")
    expect(board.locator(".marks")).to_contain_text("da Carla")  # Italian, by her name
    expect(board.locator("ol.track .sr-only")).to_have_text(["Carla"])
    expect(board).not_to_contain_text("D-struct-OR")
    no_horizontal_scroll(phone_b)

    phone_b.context.set_offline(True)
    expect(phone_b.locator("#connection")).to_have_attribute("data-state", "offline")
    phone_a.locator("#host-title").scroll_into_view_if_needed()
    phone_a.get_by_text("Rename seats").click()
    phone_a.fill("#rename-0", "Dora")
    phone_a.locator("#rename-0 ~ button").click()
    expect(phone_a.locator("#core-dozer .marks")).to_contain_text("from Dora")
    phone_b.context.set_offline(False)  # the socket comes back and catches up
    expect(board.locator(".marks")).to_contain_text("da Dora", timeout=10_000)
    expect(board.locator("ol.track .sr-only")).to_have_text(["Dora"])


def test_a_long_name_fits_the_phone_and_leaves_a_boards_points_on_one_line(phone_a):
    """A player named at length, in one word (the form takes 40 letters), still
    fits a 360 px phone: the name breaks on the board and on the shot helper's and
    the map's chips, and "0 pts" stays on one line beside it, not "0" over "pts"."""
    names = {"banshee": "Massimilianobartolomeicastelfranchi", "dozer": "Bruno"}
    create_session(phone_a, names=names)
    on_one_line(phone_a.locator("article.player [data-points]"))
    no_horizontal_scroll(phone_a)
