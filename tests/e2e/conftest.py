"""Browser tests: a real daphne server and Debian Chromium driven by sync Playwright.

The server runs in its own process on a fresh SQLite file with the in-memory
channel layer, so these tests never touch pytest-django's test database.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.servers import prepare_database, running_server, sqlite_env

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
# How long a phone waits for something another phone did to show up.
LIVE_TIMEOUT_MS = 5_000


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A daphne process on a migrated SQLite file with the card catalogs loaded."""
    env = sqlite_env(str(tmp_path_factory.mktemp("e2e-db")))
    prepare_database(env)
    with running_server(env) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """One headless Debian Chromium per test module (never a downloaded browser).

    Module-scoped rather than session-scoped: sync Playwright keeps its own event
    loop in this thread while it is open, which must not overlap async tests
    from other modules.
    """
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian chromium: apt-get install -y chromium")
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:  # pragma: no cover - would only happen if something ran us inside a loop
        pytest.fail("sync Playwright cannot run inside a running asyncio loop")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


#: Console messages that mean the page is broken, whatever the test looked at: the
#: browser refused something under the Content-Security-Policy or the
#: Permissions-Policy (an inline handler, an eval), or a script threw.
_BROKEN = ("Content Security Policy", "Permissions-Policy", "EvalError", "htmx:")


@pytest.fixture
def new_phone(browser, live_server_url) -> Iterator[Callable[[], object]]:
    """Make phones: each one a separate browser context (own cookies), 360×740.
    A test fails if any phone's page threw an error or broke a security policy."""
    contexts = []
    broken: list[str] = []

    def make():
        context = browser.new_context(
            viewport=PHONE,
            base_url=live_server_url,
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
        )
        context.set_default_timeout(LIVE_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: broken.append(f"script error: {error}"))
        page.on(
            "console",
            lambda message: (
                broken.append(message.text)
                if any(mark in message.text for mark in _BROKEN)
                else None
            ),
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert broken == [], broken


@pytest.fixture
def phone_a(new_phone):
    return new_phone()


@pytest.fixture
def phone_b(new_phone):
    return new_phone()
