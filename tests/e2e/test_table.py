"""Phones at the table: what each player sees in a real browser, live over the socket.

Every test drives Debian Chromium against a real daphne process (see conftest.py).
Two phones are two browser contexts, so each has its own cookie and its own seat.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import Page, WebSocketRoute, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e import pages
from tests.e2e.pages import HOME_STRIP, clear_of_the_bar, reopened_in, with_home_strip

# No Django test database: the server under test has its own SQLite file, and
# nothing here uses the ``db`` fixture, so pytest-django never sets one up.
pytestmark = [pytest.mark.e2e]

REPO = Path(__file__).resolve().parents[2]
SESSION_URL = re.compile(r"/s/([A-Z0-9]+)/$")
WS_URL = re.compile(r"/ws/s/")
# How long a phone waits for something another phone did to show up.
LIVE_TIMEOUT_MS = 5_000


# ---------------------------------------------------------------- helpers


def create_session(
    page: Page, host_seat: str = "banshee", names: dict[str, str] | None = None
) -> str:
    """Phone ``page`` creates an Adrenaline table (D-struct-OR plays first) and sits down;
    ``names``: the players' names by character (Anna plays Banshee, Bruno Dozer)."""
    page.goto("/new/adrenaline/")
    for character, name in (names or {"banshee": "Anna", "dozer": "Bruno"}).items():
        page.fill(f"#name_{character}", name)
    page.select_option("#first", "dstructor")
    page.select_option("#host_seat", host_seat)
    page.get_by_role("button", name="Create session").click()
    page.wait_for_url(SESSION_URL)
    wait_live(page)
    match = SESSION_URL.search(page.url)
    assert match, page.url
    return match.group(1)


def wait_live(page: Page, timeout: float = LIVE_TIMEOUT_MS) -> None:
    page.wait_for_selector("#connection[data-state=live]", state="attached", timeout=timeout)


def track(page: Page, character: str):
    return page.locator(f"article#player-{character} ol.track")


def expect_damage(page: Page, character: str, damage: int) -> None:
    """Wait (up to 5 s) until this phone's board for ``character`` shows ``damage``."""
    selector = f"article#player-{character} ol.track[data-damage='{damage}']"
    try:
        page.wait_for_selector(selector, state="attached", timeout=LIVE_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        shown = track(page, character).get_attribute("data-damage", timeout=1_000)
        raise AssertionError(f"{character} shows {shown} damage, expected {damage}") from None


def hit(page: Page, character: str, expected_after: int) -> None:
    """Tap "+1 damage" and wait for this phone's own board to show it.

    Waiting matters: each button carries a one-time key, so a second tap on the
    same (not yet replaced) button is the same action and counts once.
    """
    page.locator(f"[data-hit={character}]").click()
    expect_damage(page, character, expected_after)


def history_of(page: Page) -> list[list[str]]:
    """The phone's history entries, newest first: [id, text] each."""
    return page.locator("#history-list > li").evaluate_all(
        "items => items.map(item => [item.id, item.innerText])"
    )


def join_by_code(page: Page, code: str) -> None:
    page.goto("/")
    page.fill("#code", code.lower())  # phones type in lower case; the code is not
    page.get_by_role("button", name="Join", exact=True).click()
    page.wait_for_url(SESSION_URL)
    wait_live(page)


def sit(page: Page, name: str) -> None:
    pages.sit(page, f"Sit as {name}")


# ---------------------------------------------------------------- live table


def test_a_tap_on_one_phone_shows_up_on_the_other_phone_without_reloading(phone_a, phone_b):
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    assert SESSION_URL.search(phone_b.url).group(1) == code
    sit(phone_b, "Bruno")
    # Phone A sees the seat go, live.
    bruno = phone_a.locator("#seats li.seat", has_text="Bruno")
    expect(bruno.locator(".badge")).to_have_text("taken")
    expect_damage(phone_b, "dozer", 0)

    navigations = []
    phone_b.on("framenavigated", lambda frame: navigations.append(frame.url))
    hit(phone_a, "dozer", 1)

    expect_damage(phone_b, "dozer", 1)
    expect(phone_b.locator("#history")).to_contain_text("D-struct-OR hits Bruno: 1 damage.")
    assert navigations == [], "phone B reloaded instead of updating live"


def test_undo_on_one_phone_takes_the_damage_back_on_the_other(phone_a, phone_b):
    code = create_session(phone_a)
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    hit(phone_a, "violet", 1)
    expect_damage(phone_b, "violet", 1)

    phone_a.locator("[data-undo]").click()

    expect_damage(phone_a, "violet", 0)
    expect_damage(phone_b, "violet", 0)
    expect(phone_b.locator("#history")).to_contain_text("Undid action #1.")
    expect(phone_b.locator("#history li.undone")).to_contain_text("D-struct-OR hits Violet")


#: How far (px) the lowest text of the page's own content runs under the top of the
#: floating undo bar, scrolled to the end (negative: clear of it). Text inside
#: something fixed, hidden or folded away (a closed ``<details>``), or visually
#: hidden (a screen reader's only: 1 px), is not the page's content.
_UNDER_THE_BAR = """() => {
  const bar = document.getElementById('controls').getBoundingClientRect();
  const floating = (el) => {
    for (let at = el; at; at = at.parentElement) {
      if (getComputedStyle(at).position === 'fixed') return true;
    }
    return false;
  };
  let lowest = -Infinity;
  for (const el of document.body.querySelectorAll('*')) {
    if (el.children.length || !el.textContent.trim()) continue;
    if (!el.checkVisibility({visibilityProperty: true}) || floating(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width > 1 && box.height > 1) lowest = Math.max(lowest, box.bottom);
  }
  return lowest - bar.top;
}"""


def test_the_undo_bar_never_covers_the_end_of_the_page(phone_a):
    # The undo bar floats over the bottom of the screen: scrolled to the end, the
    # last lines of the page (the history, the footer) are above it, not under it.
    create_session(phone_a)
    hit(phone_a, "dozer", 1)
    expect(phone_a.locator("#controls [data-undo]")).to_be_visible()
    phone_a.evaluate(
        "window.scrollTo({top: document.documentElement.scrollHeight, behavior: 'instant'})"
    )
    assert phone_a.evaluate(_UNDER_THE_BAR) <= 0


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_link_the_browser_scrolls_to_stops_above_the_home_pages_join_bar(
    phone_a: Page, language: str
):
    # The join form floats at the bottom of the home page, where a thumb is. The game
    # list's links and buttons, brought into view, used to stop under it.
    phone_a.context.set_extra_http_headers({"Accept-Language": language})
    phone_a.goto("/")
    expect(phone_a.locator("html")).to_have_attribute("lang", language)
    clear_of_the_bar(phone_a.locator(".game-list a, #card-q"), ".thumb-join")


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_control_the_browser_scrolls_to_stops_above_the_undo_bar(phone_a, language):
    # With something to undo, the bar floats over the bottom of the screen. A button
    # below the fold that the browser brings into view (a tap, the keyboard's Next or
    # Tab) stopped at the very bottom of the screen: wholly under the bar. Violet's
    # "Record the hit" and the folded seats at the foot of the page, in both languages.
    create_session(phone_a)
    hit(phone_a, "dozer", 1)
    reopened_in(phone_a, language)
    clear_of_the_bar(phone_a.locator("[data-hit=violet], #seats > summary"))


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_undo_bar_sits_above_the_phones_home_strip(phone_a, language):
    # On a phone with a home strip at the bottom of its screen, the undo button sat
    # in it (a swipe there leaves the browser), unlike the home page's join bar: the
    # bar now grows by the strip, and what keeps clear of the bar follows it.
    create_session(phone_a)
    hit(phone_a, "dozer", 1)
    with_home_strip(phone_a)
    reopened_in(phone_a, language)
    undo = phone_a.locator("#controls [data-undo]").bounding_box()
    assert undo is not None
    height = phone_a.viewport_size["height"]
    assert undo["y"] + undo["height"] <= height - HOME_STRIP, "the undo button is in the strip"
    clear_of_the_bar(phone_a.locator("[data-hit=violet], #seats > summary"))
    record = phone_a.locator("#shot-form button.record")
    assert record.evaluate("node => getComputedStyle(node).bottom") == f"{76 + HOME_STRIP}px"
    phone_a.evaluate(
        "window.scrollTo({top: document.documentElement.scrollHeight, behavior: 'instant'})"
    )
    assert phone_a.evaluate(_UNDER_THE_BAR) <= 0


def test_the_other_phone_keeps_the_newest_fifteen_entries_in_order(phone_a, phone_b):
    # After each tap a phone is sent only the new entry, to put at the top of its
    # history; it drops the oldest past fifteen, and ends up with what a reload shows.
    code = create_session(phone_a)
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    for damage in range(1, 10):
        hit(phone_a, "dozer", damage)
    for damage in range(1, 9):
        hit(phone_a, "violet", damage)
    expect_damage(phone_b, "violet", 8)
    expect(phone_b.locator("#history-list > li").first).to_have_id("history-17")
    live = history_of(phone_b)
    phone_b.reload()
    wait_live(phone_b)
    fresh = history_of(phone_b)
    assert live == fresh
    assert [ident for ident, _text in fresh] == [f"history-{v}" for v in range(17, 2, -1)]


def test_a_new_history_entry_the_phone_already_shows_is_not_shown_twice(phone_a):
    # A reply to the phone's own request may have put an entry in its history just
    # before its socket brings the same one, to go at the top: it is shown once.
    # And the list keeps its length (fifteen) however many come in.
    create_session(phone_a)
    hit(phone_a, "dozer", 1)
    hit(phone_a, "dozer", 2)
    entries = phone_a.locator("#history-list > li")
    expect(entries).to_have_count(2)

    def arrive(*items: tuple[str, str]) -> None:
        html = "".join(f'<li id="{ident}">{text}</li>' for ident, text in items)
        phone_a.evaluate(
            "html => htmx.swap(document.body, html, {swapStyle: 'none'})",
            f'<div hx-swap-oob="afterbegin:#history-list">{html}</div>',
        )

    arrive(("history-3", "three"))
    arrive(("history-3", "three, from the socket"))
    assert [ident for ident, _text in history_of(phone_a)] == [
        "history-3",
        "history-2",
        "history-1",
    ]
    assert history_of(phone_a)[0][1] == "three, from the socket"
    arrive(*((f"history-{n}", str(n)) for n in range(24, 3, -1)))
    assert [ident for ident, _text in history_of(phone_a)] == [
        f"history-{n}" for n in range(24, 9, -1)
    ]


def test_a_phone_that_lost_its_connection_catches_up_when_it_reconnects(phone_a, phone_b):
    code = create_session(phone_a)
    down = False
    sockets: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        if down:  # the network is still gone: this attempt fails too
            ws.close(code=1013, reason="try again later")
            return
        ws.connect_to_server()
        sockets.append(ws)

    phone_b.route_web_socket(WS_URL, route)
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    expect_damage(phone_b, "dozer", 0)

    # The server restarts (1012): phone B's socket drops and it shows it.
    down = True
    sockets[-1].close(code=1012, reason="service restart")
    expect(phone_b.locator("#connection")).to_have_attribute("data-state", "offline")
    expect(phone_b.locator("#connection")).to_have_text("Reconnecting…")

    hit(phone_a, "dozer", 1)
    hit(phone_a, "dozer", 2)
    expect_damage(phone_b, "dozer", 0)  # B heard nothing while it was away

    down = False
    # htmx retries with a jittered back-off (up to 1 s, 2 s, 4 s...): allow for it.
    expect(phone_b.locator("#connection")).to_have_attribute("data-state", "live", timeout=15_000)
    expect(phone_b.locator("#connection")).to_have_text("Live")
    expect_damage(phone_b, "dozer", 2)
    expect(phone_b.locator("#history")).to_contain_text("D-struct-OR hits Bruno")

    # And it is live again, not just resynced once: the new history entry comes
    # alone, on top of the history it was resent, and it shows what a reload shows.
    hit(phone_a, "dozer", 3)
    expect_damage(phone_b, "dozer", 3)
    expect(phone_b.locator("#history-list > li").first).to_have_id("history-3")
    live = history_of(phone_b)
    phone_b.reload()
    wait_live(phone_b)
    assert history_of(phone_b) == live


DEBUG_ERROR_SCRIPT = "**/django_htmx/django-htmx.js"


@pytest.mark.parametrize(
    "debug_script",
    [
        pytest.param(False, id="as-in-production"),
        pytest.param(True, id="with-DEBUG-script"),
    ],
)
def test_a_shot_with_too_much_damage_is_refused_with_a_message(phone_a, debug_script):
    if not debug_script:
        # With DEBUG off (production) {% htmx_script %} does not add this script; the
        # test server runs with DEBUG on, so leave it out to see what players see.
        phone_a.route(
            DEBUG_ERROR_SCRIPT,
            lambda route: route.fulfill(body="", content_type="text/javascript"),
        )
    create_session(phone_a)
    form = phone_a.locator("#shot-form")
    form.locator("label.chip-choice", has_text="Bruno").click()  # Dozer's seat
    damage = form.locator("[data-target=dozer] input[name$='.damage'][value='4']")
    # The form offers at most 4; a tampered or stale page could still send 13.
    damage.evaluate("input => { input.value = '13'; input.checked = true; }")
    form.get_by_role("button", name="Record shot").click()

    message = phone_a.locator("#messages .error")
    expect(message).to_be_visible()
    expect(message).to_contain_text("must be between 0 and 12")
    # The message arrived by swapping #messages only: the table is still there.
    assert phone_a.locator("article#player-dozer").count() == 1, "the table was replaced"
    expect_damage(phone_a, "dozer", 0)
    expect(phone_a.locator("#history")).to_contain_text("Nothing yet.")
    expect(phone_a.locator("#connection")).to_have_attribute("data-state", "live")

    # The message can be dismissed and the page still works.
    message.locator("[data-dismiss]").click()
    expect(message).to_have_count(0)
    hit(phone_a, "dozer", 1)
    expect(phone_a.locator("#messages .error")).to_have_count(0)


def test_a_phone_that_sat_down_stays_seated_when_another_phone_taps(phone_a, phone_b):
    code = create_session(phone_a)
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    with phone_b.expect_response(lambda response: "/claim" in response.url) as claimed:
        sit(phone_b, "Bruno")
    assert claimed.value.ok
    bruno_on_a = phone_a.locator("#seats li.seat", has_text="Bruno")
    expect(bruno_on_a.locator(".badge")).to_have_text("taken")

    hit(phone_a, "violet", 1)
    expect_damage(phone_b, "violet", 1)  # the live frame after the tap has arrived

    bruno = phone_b.locator("#seats li.seat", has_text="Bruno")
    expect(bruno.locator(".badge")).to_have_text("you", timeout=1_000)
    expect(phone_b.locator("[data-hit=violet]")).to_be_visible(timeout=1_000)


# ---------------------------------------------------------------- phone layout


def _open_everything(page: Page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def _check_phone_layout(page: Page, what: str) -> None:
    width = page.viewport_size["width"]
    overflow = page.evaluate(
        """(width) => {
          const doc = document.documentElement;
          const wide = [...document.querySelectorAll('body *')].filter(el => {
            if (el.closest('.sr-only')) return false;
            const box = el.getBoundingClientRect();
            return box.width > 0 && box.right > width + 0.5;
          }).map(el => el.outerHTML.slice(0, 120));
          return {scroll: doc.scrollWidth, body: document.body.scrollWidth, wide: wide.slice(0, 5)};
        }""",
        width,
    )
    assert overflow["scroll"] <= width, f"{what}: page scrolls sideways: {overflow}"
    assert overflow["wide"] == [], f"{what}: elements stick out past {width}px: {overflow}"

    small = page.evaluate(
        """() => [...document.querySelectorAll('button, .button, [role=button]')]
          .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
          .map(el => [el.getBoundingClientRect().height, el.outerHTML.slice(0, 100)])
          .filter(([height]) => height < 40)"""
    )
    assert small == [], f"{what}: buttons shorter than 40px: {small}"


def test_every_page_fits_a_360px_phone_with_big_enough_buttons(phone_a):
    phone_a.goto("/")
    _check_phone_layout(phone_a, "home page")

    phone_a.goto("/new/adrenaline/")
    _check_phone_layout(phone_a, "create page")

    create_session(phone_a)
    hit(phone_a, "dozer", 1)  # an undo button and a history entry too
    _open_everything(phone_a)
    _check_phone_layout(phone_a, "session page")

    phone_a.goto("/join/?code=ZZZZZ")
    _check_phone_layout(phone_a, "unknown code page")


# ---------------------------------------------------------------- language


def test_choosing_italian_in_the_header_shows_the_table_in_italian(phone_a, phone_b):
    code = create_session(phone_a)
    phone_b.goto(f"/j/{code}/")
    wait_live(phone_b)
    english_title = phone_b.locator("#history-title").inner_text()

    with phone_b.expect_navigation():
        phone_b.select_option("#language", "it")
    wait_live(phone_b)

    expect(phone_b.locator("html")).to_have_attribute("lang", "it")
    expect(phone_b.locator("#language")).to_have_value("it")
    with translation.override("it"):
        italian_title = translation.gettext("What happened")
        italian_seats = translation.gettext("Seats")
    assert italian_title != english_title, "the Italian catalog does not translate it"
    expect(phone_b.locator("#history-title")).to_have_text(italian_title)
    expect(phone_b.locator("#seats-title")).to_have_text(italian_seats)

    # Live frames for this phone keep its language.
    hit(phone_a, "dozer", 1)
    expect_damage(phone_b, "dozer", 1)
    expect(phone_b.locator("#history-title")).to_have_text(italian_title)
    expect(phone_b.locator("#history li").first).not_to_contain_text("hits Bruno")
    # The next entry comes alone, to go on top: in Italian too.
    hit(phone_a, "dozer", 2)
    expect(phone_b.locator("#history-list > li")).to_have_count(2)
    expect(phone_b.locator("#history li").first).to_have_id("history-2")
    expect(phone_b.locator("#history li").first).not_to_contain_text("hits Bruno")
    # The other phone is untouched: the choice is per phone.
    expect(phone_a.locator("#history-title")).to_have_text(english_title)
