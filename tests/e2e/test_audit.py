"""A real audit of the screens a new player sees, on a 360 px phone: axe-core
(WCAG 2 A/AA and best practices) finds nothing, every page has one <h1>, every
control is at least 44 px tall and wide enough to hit, and tapping around a live
table logs no error in the browser's console."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import axe_source, describe, violations
from tests.e2e.pages import wait_live
from tests.e2e.test_shazamm import create_duel
from tests.e2e.test_table import create_session, expect_damage, join_by_code, sit

#: The smallest tap target a thumb hits reliably.
TAP_PX = 44


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_source()


@pytest.fixture
def console_errors(new_phone) -> Iterator[tuple[Page, list[str]]]:
    page = new_phone()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page, errors


def audit(page: Page, axe: str) -> None:
    """The page as it is now passes axe-core and has exactly one <h1>."""
    found = violations(page, axe)
    assert found == [], f"{page.url}\n{describe(found)}"
    assert page.locator("h1").count() == 1, f"{page.url}: {page.locator('h1').count()} <h1>"


#: Every visible control, less than ``min`` px tall or wide: "tag.class "name" WxH".
_SMALL_TARGETS = """(min) => {
    const out = [];
    const controls = "a[href], button, select, input:not([type=hidden]), summary, "
        + "label.chip-choice";
    for (const el of document.querySelectorAll(controls)) {
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (!r.width || !r.height || style.visibility === "hidden") continue;
        if (el.matches(".skip")) continue;  // shown only on focus, then large
        // A radio or checkbox inside its label: the label is the target.
        if (el.matches("input[type=radio], input[type=checkbox]") && el.closest("label")) {
            continue;
        }
        // A link inside running text (WCAG 2.5.8 excepts it).
        const text = el.parentElement.textContent.trim();
        if (el.matches("a") && el.closest("p, li, td, dd") && !el.closest("nav")
            && style.display === "inline" && text !== el.textContent.trim()) continue;
        if (r.height < min - 0.5 || r.width < min - 0.5) {
            const name = (el.getAttribute("aria-label") || el.textContent || el.name || "")
                .trim().slice(0, 40);
            const classes = el.className ? "." + el.className.split(" ").join(".") : "";
            const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
            out.push(`${el.tagName.toLowerCase()}${classes} "${name}" ${size}`);
        }
    }
    return out;
}"""


def small_targets(page: Page) -> list[str]:
    """Visible links, buttons and form controls less than 44 px tall or wide
    (links inside running text excepted)."""
    return page.evaluate(_SMALL_TARGETS, TAP_PX)


def check(page: Page, axe: str) -> None:
    audit(page, axe)
    small = small_targets(page)
    assert small == [], f"{page.url}: tap targets under {TAP_PX}px:\n" + "\n".join(small)


def test_home_cards_and_a_card_pass_the_audit(phone_a, axe):
    phone_a.goto("/")
    check(phone_a, axe)
    phone_a.goto("/cards/")
    check(phone_a, axe)
    phone_a.locator("#results a[href*='/cards/']").first.click()
    phone_a.wait_for_url(re.compile(r"/cards/.+/.+"))
    check(phone_a, axe)


@pytest.mark.parametrize("game", ["adrenaline", "shazamm", "munchkin", "kablamo", "plastic-attack"])
def test_the_new_session_forms_pass_the_audit(phone_a, axe, game):
    phone_a.goto(f"/new/{game}/")
    check(phone_a, axe)


#: Every visible radio and checkbox drawn smaller than the others (24 px): squeezed by
#: a label whose text wraps.
_SQUEEZED = """() => [...document.querySelectorAll("input[type=radio], input[type=checkbox]")]
    .filter(el => el.getBoundingClientRect().height && getComputedStyle(el).opacity !== "0")
    .map(el => [el.name + "=" + el.value, Math.round(el.getBoundingClientRect().width)])
    .filter(([, width]) => width < 24)"""


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("game", ["adrenaline", "shazamm", "munchkin", "kablamo", "plastic-attack"])
def test_a_set_up_forms_boxes_keep_their_size_beside_a_long_label(phone_a, game, language):
    """A choice whose label runs over two lines of a 360 px phone keeps its radio or
    checkbox as large as the others, beside the text."""
    phone_a.context.set_extra_http_headers({"Accept-Language": language})
    phone_a.goto(f"/new/{game}/")
    expect(phone_a.locator("html")).to_have_attribute("lang", language)
    assert phone_a.evaluate(_SQUEEZED) == []


def test_an_adrenaline_table_with_the_map_and_its_watch_page_pass_the_audit(
    phone_a, phone_b, new_phone, axe
):
    code = create_session(phone_a)  # the map is the default
    join_by_code(phone_b, code)
    sit(phone_b, "Bruno")  # phone A shows the seat "taken"
    expect(phone_a.locator("#seats li.seat", has_text="Bruno").locator(".badge")).to_have_text(
        "taken"
    )
    expect(phone_a.locator("#map")).to_be_visible()
    check(phone_a, axe)
    check(phone_b, axe)
    watch_url = phone_a.locator("#invite a[href*='/w/']").get_attribute("href")
    assert watch_url
    tv = new_phone()
    tv.goto(watch_url)
    wait_live(tv)
    check(tv, axe)


def test_an_adrenaline_table_without_the_map_passes_the_audit(phone_a, axe):
    phone_a.goto("/new/adrenaline/")
    phone_a.fill("#name_banshee", "Anna")
    phone_a.fill("#name_dozer", "Bruno")
    phone_a.select_option("#board", "")
    phone_a.select_option("#host_seat", "banshee")
    phone_a.get_by_role("button", name="Create session").click()
    wait_live(phone_a)
    assert phone_a.locator("#map").count() == 0
    check(phone_a, axe)


@pytest.mark.parametrize("bot", [False, True], ids=["two-phones", "against-the-bot"])
def test_an_online_shazamm_duel_passes_the_audit(phone_a, axe, bot):
    create_duel(phone_a, bot=bot)
    check(phone_a, axe)


def test_tapping_around_a_live_table_logs_no_console_error(console_errors, phone_b):
    """Hits, the shot helper (which fetches itself afresh after each shot), an undo
    and another phone sitting down: the browser's console stays clean."""
    page, errors = console_errors
    code = create_session(page, host_seat="dstructor")
    join_by_code(phone_b, code)
    sit(phone_b, "Bruno")
    page.locator("#gear-dstructor summary").click()
    page.select_option("#pickup-dstructor", "lock-rifle")
    page.locator("#gear-dstructor").get_by_role("button", name="Pick up (pay)").click()
    form = page.locator("#shot-form")
    form.locator("label.chip-choice", has_text="Lock Rifle").click()
    form.locator("label.chip-choice", has_text="Anna").click()
    form.get_by_role("button", name="Record shot").click()
    expect(page.locator("#history")).to_contain_text("D-struct-OR hits Anna: 2 damage, 1 mark.")
    expect(form.locator("label.chip-choice", has_text="Lock Rifle")).to_be_visible()
    board = page.locator("article#player-dozer")
    for damage in (1, 2, 3):
        board.locator("[data-hit=dozer]").click()
        expect_damage(page, "dozer", damage)
    page.get_by_role("button", name="Undo").first.click()
    expect_damage(page, "dozer", 2)
    page.wait_for_timeout(500)
    assert errors == [], errors


def test_a_phone_back_online_settles_on_one_socket_and_is_sent_no_frame_it_has(phone_a):
    """After the Wi-Fi drops and returns, the phone reconnects once and stays: it
    does not keep replacing its socket, and a table that did not change meanwhile
    sends it nothing but heartbeats."""
    create_session(phone_a)
    sockets: list[str] = []
    frames: list[str] = []

    def opened(ws) -> None:
        sockets.append(ws.url)
        ws.on(
            "framereceived",
            lambda payload: frames.append(payload) if not payload.startswith("{") else None,
        )

    phone_a.on("websocket", opened)
    phone_a.context.set_offline(True)
    badge = phone_a.locator("#connection")
    expect(badge).to_have_attribute("data-state", "offline", timeout=3_000)
    phone_a.context.set_offline(False)
    expect(badge).to_have_attribute("data-state", "live", timeout=10_000)
    settled = len(sockets)
    phone_a.wait_for_timeout(4_000)
    assert len(sockets) == settled, sockets
    assert re.search(r"[?&]shown=\d+", sockets[-1]), sockets[-1]
    assert frames == []
    expect(badge).to_have_attribute("data-state", "live")
