"""The watch-only link on a TV (1280 × 720): every board at once, big enough to read
from across the room, and live: a tap on a phone shows up on the TV."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import LIVE_TIMEOUT_MS, new_session, wait_live
from tests.e2e.test_table import SESSION_URL, expect_damage

pytestmark = [pytest.mark.e2e]

TV = {"width": 1280, "height": 720}
CHARACTERS = {
    "dstructor": "Dario",
    "banshee": "Anna",
    "dozer": "Bruno",
    "violet": "Carla",
    "sprog": "Elena",
}
#: Set to a folder to keep a screenshot of each TV page (for a human to look at).
SHOTS = os.environ.get("SEGNALINO_TV_SHOTS")


@pytest.fixture
def tv(browser, live_server_url) -> Iterator[Page]:
    """A TV's browser: 1280 × 720, no touch, the watch link open."""
    context = browser.new_context(viewport=TV, base_url=live_server_url)
    context.set_default_timeout(LIVE_TIMEOUT_MS)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


def watch_link(phone: Page) -> str:
    href = phone.locator("#invite a", has_text="/w/").get_attribute("href")
    assert href, "no watch-only link on the host's page"
    return re.sub(r"^https?://[^/]+", "", href)


def open_on_tv(tv: Page, phone: Page, name: str) -> None:
    tv.goto(watch_link(phone))
    wait_live(tv)
    if SHOTS:
        tv.screenshot(path=os.path.join(SHOTS, f"tv-{name}.png"))


def in_view(tv: Page, selector: str) -> None:
    """Every element matching ``selector`` is wholly on the 1280 × 720 screen."""
    boxes = tv.locator(selector)
    assert boxes.count() > 0, selector
    for index in range(boxes.count()):
        box = boxes.nth(index).bounding_box()
        assert box is not None, f"{selector} #{index} is not shown"
        assert box["x"] >= 0 and box["x"] + box["width"] <= TV["width"] + 0.5, (
            f"{selector} #{index} goes off the side of the screen: {box}"
        )
        assert box["y"] >= 0 and box["y"] + box["height"] <= TV["height"] + 0.5, (
            f"{selector} #{index} is below the bottom of the screen: {box}"
        )


def no_scrolling(tv: Page) -> None:
    height = tv.evaluate("document.documentElement.scrollHeight")
    assert height <= TV["height"], f"the TV page is {height}px tall on a 720px screen"
    assert tv.evaluate("window.scrollY") == 0


def font_px(tv: Page, selector: str) -> float:
    return float(
        tv.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    )


def nothing_to_tap(tv: Page) -> None:
    visible = [b for b in tv.locator("#live button").all() if b.is_visible()]
    assert visible == [], "a watcher has buttons to press"


def five_player_table(phone: Page) -> str:
    phone.goto("/new/adrenaline/")
    for slug, name in CHARACTERS.items():
        phone.check(f"input[name=play_{slug}]")
        phone.fill(f"#name_{slug}", name)
    phone.select_option("#first", "dstructor")
    phone.select_option("#host_seat", "banshee")
    phone.get_by_role("button", name="Create session").click()
    phone.wait_for_url(SESSION_URL)
    wait_live(phone)
    match = SESSION_URL.search(phone.url)
    assert match
    return match.group(1)


def test_a_tv_shows_all_five_adrenaline_boards_big_and_live(phone_a, tv):
    five_player_table(phone_a)
    open_on_tv(tv, phone_a, "adrenaline")

    expect(tv.locator("article.player")).to_have_count(5)
    no_scrolling(tv)
    in_view(tv, "article.player")
    in_view(tv, "#board .turnbar")
    in_view(tv, "#board .killshot")
    in_view(tv, "#map .map-board")
    for name in CHARACTERS.values():
        expect(tv.locator("article.player h3", has_text=name)).to_be_visible()
    assert font_px(tv, "article.player h3") >= 20
    assert font_px(tv, "article.player .points") >= 20
    assert font_px(tv, "#board .turn") >= 20
    # The history sits in its own column, beside the boards.
    history = tv.locator("#history").bounding_box()
    boards = tv.locator("article#player-dozer").bounding_box()
    assert history and boards and history["x"] >= boards["x"] + boards["width"]
    nothing_to_tap(tv)

    # A tap on the phone shows up on the TV, in place, still without scrolling.
    phone_a.locator("[data-hit=dozer]").click()
    expect_damage(phone_a, "dozer", 1)
    expect_damage(tv, "dozer", 1)
    expect(tv.locator("#history li").first).to_contain_text("Bruno")
    no_scrolling(tv)
    in_view(tv, "article.player")


def test_a_phone_still_gets_its_column_from_the_watch_link(phone_a, new_phone):
    five_player_table(phone_a)
    watcher = new_phone()
    watcher.goto(watch_link(phone_a))
    wait_live(watcher)
    width = watcher.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    assert watcher.evaluate("document.documentElement.scrollHeight") > 740  # one column


def test_a_tv_shows_both_mages_and_the_whole_bridge(phone_a, tv):
    new_session(phone_a, "shazamm", ["Anna", "Marco"])
    open_on_tv(tv, phone_a, "shazamm")
    no_scrolling(tv)
    in_view(tv, "ol.bridge")
    in_view(tv, "ul.mages li.mage")
    expect(tv.locator("ul.mages li.mage")).to_have_count(2)
    assert font_px(tv, "li.mage") >= 20
    nothing_to_tap(tv)


def test_a_tv_shows_all_six_munchkin_boards_and_a_level_tapped_on_a_phone(phone_a, tv):
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
    new_session(phone_a, "munchkin", names, lambda p: p.select_option("#host_seat", "0"))
    open_on_tv(tv, phone_a, "munchkin")
    expect(tv.locator("article.mk-player")).to_have_count(6)
    no_scrolling(tv)
    in_view(tv, "article.mk-player")
    in_view(tv, "#board.munchkin .mk-turn")
    assert font_px(tv, "article.mk-player h3") >= 20
    nothing_to_tap(tv)

    phone_a.locator("[data-level-up='2']").click()
    expect(tv.locator("[data-level='2']")).to_have_text("2")
    in_view(tv, "article.mk-player")

    # Anna fights a Zombie: the fight shows on the TV, the six boards stay in view.
    start = phone_a.locator("#mk-start")
    start.get_by_label("Monster", exact=True).fill("Zombie")
    start.get_by_label("Monster level").fill("3")
    start.get_by_role("button", name="Fight!").click()
    expect(tv.locator("[data-total=monsters]")).to_have_text("3")
    expect(tv.locator("#mk-fight")).to_contain_text("#1 Zombie")
    if SHOTS:
        tv.screenshot(path=os.path.join(SHOTS, "tv-munchkin-fight.png"))
    no_scrolling(tv)
    in_view(tv, "#mk-fight .mk-totals")
    in_view(tv, "article.mk-player h3")


@pytest.mark.parametrize("game", ["kablamo", "plastic-attack"])
def test_the_other_games_fit_a_tv_too(phone_a, tv, game):
    new_session(phone_a, game, ["Anna", "Bruno", "Carla", "Dario"])
    open_on_tv(tv, phone_a, game)
    no_scrolling(tv)
    in_view(tv, "#board")
    for name in ("Anna", "Bruno", "Carla", "Dario"):
        expect(tv.locator("#live")).to_contain_text(name)
    nothing_to_tap(tv)
