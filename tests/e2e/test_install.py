"""Installing the app on a 360 px phone: the home page says what Segnalino is for and
lists every game with what it offers, the web manifest is linked and parses, the
service worker takes over the page, and a phone that loses its network sees our
offline page in its language, never a stale table, and the live table again when
the network returns."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import LIVE_TIMEOUT_MS, PHONE
from tests.e2e.pages import new_session, no_horizontal_scroll, tall_enough, wait_live

pytestmark = [pytest.mark.e2e]

GAMES = {
    "adrenaline": ("Adrenaline", False),
    "kablamo": ("Kablamo", False),
    "munchkin": ("Munchkin Bites!", False),
    "plastic-attack": ("Plastic Attack", True),
    "shazamm": ("Shazamm!", True),
}


def controlled(page: Page) -> None:
    """Wait until the service worker has installed (it fetches the whole shell, which
    takes a while on a busy machine) and looks after this page. The worker claims
    the pages open when it activates; a table whose page was still loading then
    (the set-up form was sent while the worker installed) falls between two
    documents and is looked after from its next load, as a phone's next page is
    (seen here about one run in seven: the worker active, this page not yet its)."""
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then(r => r.active !== null)", timeout=60_000
    )
    if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)


def test_the_home_page_lists_every_game_with_its_offers_and_the_join_form_under_the_thumb(
    phone_a: Page,
):
    page = phone_a
    page.goto("/")
    expect(page.locator("h1")).to_have_count(1)
    expect(page.get_by_role("heading", level=1)).to_have_text("Your game night, on every phone")
    games = page.locator("li.game")
    expect(games).to_have_count(len(GAMES))
    for slug, (name, online) in GAMES.items():
        game = page.locator(f"li.game[data-game={slug}]")
        expect(game.get_by_role("heading", level=3)).to_contain_text(name)
        offers = game.get_by_role("list", name=f"What Segnalino offers for {name}")
        expect(offers.get_by_role("listitem").first).to_have_text("Table companion")
        expect(offers.get_by_text("Online")).to_have_count(1 if online else 0)
        expect(offers.get_by_role("link", name=f"Card reference – {name}")).to_be_visible()
        expect(game.get_by_role("link", name=f"New session – {name}")).to_have_attribute(
            "href", f"/new/{slug}/"
        )
    # Every tap target of the list is at least 44 px tall.
    heights = games.locator("a").evaluate_all(
        "links => links.map(a => a.getBoundingClientRect().height)"
    )
    assert min(heights) >= 44, heights

    # The join form sits at the bottom of the screen, where a thumb reaches.
    code = page.get_by_role("textbox", name="Join a table with its code")
    expect(code).to_be_visible()
    box = code.bounding_box()
    assert box is not None and box["y"] > PHONE["height"] * 0.75, box
    join = page.get_by_role("button", name="Join", exact=True)
    tall_enough(join)
    no_horizontal_scroll(page)

    # It still works: a code typed in the bar opens the table.
    page.get_by_role("link", name="New session – Kablamo").click()
    table = new_session(page, "kablamo", ["Anna", "Bruno"])
    page.goto("/")
    code.fill(table.lower())
    join.click()
    wait_live(page)


def test_the_manifest_is_linked_and_parses_and_the_worker_controls_the_page(phone_a: Page):
    page = phone_a
    page.goto("/")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest"), manifest
    assert manifest["errors"] == [], manifest["errors"]
    icon = page.request.get("/static/icons/icon-512.png")
    assert icon.ok and icon.headers["content-type"] == "image/png"

    controlled(page)
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope.endswith("/") and scope.count("/") == 3, scope  # the whole app


def test_a_table_opened_without_network_shows_the_offline_page_then_the_live_table(
    phone_a: Page,
):
    page = phone_a
    code = new_session(page, "kablamo", ["Anna", "Bruno"])
    controlled(page)
    table_url = page.url

    page.context.set_offline(True)
    page.goto(table_url)
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    expect(
        page.get_by_text("comes back, up to date, as soon as the connection does")
    ).to_be_visible()
    expect(page.locator("#live")).to_have_count(0)  # never a stale table
    expect(page.get_by_text("Anna")).to_have_count(0)
    retry = page.get_by_role("button", name="Try again")
    tall_enough(retry)
    retry.click()  # still offline: the same page, not the browser's error
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    assert page.url == table_url
    # The worker answers nothing else from its cache: a fragment or an action fails
    # as it would without it, and it keeps only static files and the offline page.
    fetched = page.evaluate(
        "url => fetch(url, {headers: {'HX-Request': 'true'}}).then(r => r.status, () => 'failed')",
        table_url,
    )
    assert fetched == "failed", fetched
    kept = page.evaluate(
        """() => caches.keys().then(names => Promise.all(names.map(name =>
             caches.open(name).then(cache => cache.keys())))).then(lists =>
             lists.flat().map(request => new URL(request.url).pathname))"""
    )
    assert kept and all(
        path.startswith(("/static/", "/offline/", "/__segnalino__/")) for path in kept
    ), kept

    page.context.set_offline(False)  # the page reloads by itself
    wait_live(page)
    expect(page.locator("#live")).to_have_attribute("data-session", code, timeout=LIVE_TIMEOUT_MS)


def test_an_italian_phone_offline_sees_the_offline_page_in_italian(
    browser, live_server_url, phone_a: Page
):
    code = new_session(phone_a, "kablamo", ["Anna", "Bruno"])
    context = browser.new_context(
        viewport=PHONE, base_url=live_server_url, is_mobile=True, has_touch=True, locale="it-IT"
    )
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "La tua serata giochi, su ogni telefono"
        )
        controlled(page)
        context.set_offline(True)
        page.goto(f"/s/{code}/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Sei senza connessione")
        expect(page.locator("html")).to_have_attribute("lang", "it")
        expect(page.get_by_role("button", name="Riprova")).to_be_visible()
    finally:
        context.close()


def test_a_phone_that_chose_italian_in_the_menu_gets_the_offline_page_in_italian(
    phone_a: Page,
):
    """The browser says English; the player picked IT: the worker follows the pages."""
    page = phone_a
    page.goto("/")
    controlled(page)
    page.select_option("#language", "it")  # the language menu submits itself
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "La tua serata giochi, su ogni telefono"
    )
    page.context.set_offline(True)
    page.goto("/s/ABCDE/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sei senza connessione")
