"""What the browser tests do on every game's pages: open a new session, wait for the
live badge, check the page fits a 360 px phone."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page

SESSION_URL = re.compile(r"/s/([A-Z0-9]+)/$")
# How long a phone waits for something another phone did to show up.
LIVE_TIMEOUT_MS = 5_000


def wait_live(page: Page) -> None:
    page.wait_for_selector(
        "#connection[data-state=live]", state="attached", timeout=LIVE_TIMEOUT_MS
    )


def new_session(
    page: Page, game: str, names: list[str], choose: Callable[[Page], object] | None = None
) -> str:
    """Phone ``page`` sets up ``game`` with ``names`` (the set-up's name_0, name_1…),
    makes the other choices ``choose`` makes, creates it and waits for the live table;
    the session's code."""
    page.goto(f"/new/{game}/")
    for index, name in enumerate(names):
        page.fill(f"#name_{index}", name)
    if choose is not None:
        choose(page)
    page.get_by_role("button", name="Create session").click()
    page.wait_for_url(SESSION_URL)
    wait_live(page)
    match = SESSION_URL.search(page.url)
    assert match, page.url
    return match.group(1)


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width}px wide on a 360px phone"
