"""What the browser tests do on every game's pages: open a new session, wait for the
live badge, check the page fits a 360 px phone."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

SESSION_URL = re.compile(r"/s/([A-Z0-9]+)/$")
# How long a phone waits for something another phone did to show up.
LIVE_TIMEOUT_MS = 5_000


def wait_live(page: Page) -> None:
    page.wait_for_selector(
        "#connection[data-state=live]", state="attached", timeout=LIVE_TIMEOUT_MS
    )


def sit(page: Page, button: str) -> None:
    """Tap the seat button named ``button`` ("Sit as Bruno") and wait for the table
    the phone loads again once seated (its own board first, marked), live again."""
    with page.expect_navigation():
        page.get_by_role("button", name=button).click()
    wait_live(page)


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


def boxes(locator: Locator) -> list[dict[str, float]]:
    """The on-screen boxes of every element ``locator`` finds, in order."""
    found = [element.bounding_box() for element in locator.all()]
    assert found and all(box is not None for box in found), f"{locator} is not all shown"
    return [box for box in found if box is not None]


def on_one_line(locator: Locator) -> None:
    """Each element ``locator`` finds is laid out on one line (not broken in two)."""
    for element in locator.all():
        lines = element.evaluate("node => node.getClientRects().length")
        assert lines == 1, f"{element.text_content()!r} is broken over {lines} lines"


def side_by_side(first: Locator, second: Locator) -> None:
    """``first`` and ``second`` share a line (the second did not wrap away alone)."""
    a, b = boxes(first)[0], boxes(second)[0]
    assert abs(a["y"] - b["y"]) < a["height"] / 2, (
        f"{first.text_content()!r} and {second.text_content()!r} are on different lines"
    )


def wrapped_evenly(locator: Locator) -> None:
    """The elements ``locator`` finds fill their lines evenly: as many on each line (or
    one fewer on the last), never one alone on a line below the others."""
    rows: dict[int, int] = {}
    for box in boxes(locator):
        rows[round(box["y"])] = rows.get(round(box["y"]), 0) + 1
    counts = [rows[top] for top in sorted(rows)]
    assert max(counts) - min(counts) <= 1 and (len(counts) == 1 or counts[-1] > 1), (
        f"{locator} wraps {'+'.join(map(str, counts))}"
    )


#: The lines a link's text takes, as the screen shows them.
_LINES_OF = """node => {
  const lines = [];
  let top = -Infinity;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (let at = 0; at < text.length; at++) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      const box = range.getBoundingClientRect();
      if (!box.height) continue;
      if (box.top > top + box.height / 2) {
        lines.push('');
        top = box.top;
      }
      lines[lines.length - 1] += text.data[at];
    }
  }
  return lines;
}"""


def broken_only_after(locator: Locator, mark: str = "/") -> list[list[str]]:
    """Each element ``locator`` finds breaks its text only after ``mark`` (a link after a
    "/"); the lines of each, as shown."""
    shown = []
    for element in locator.all():
        lines = element.evaluate(_LINES_OF)
        assert all(line.endswith(mark) for line in lines[:-1]), f"broken as {lines}"
        shown.append(lines)
    return shown


def apart(locator: Locator, gap: float = 3) -> None:
    """The elements ``locator`` finds that share a line do not touch."""
    found = boxes(locator)
    for left, right in itertools.pairwise(found):
        if abs(left["y"] - right["y"]) < left["height"] / 2:
            space = right["x"] - (left["x"] + left["width"])
            assert space >= gap, f"two of {locator} are {space:.1f}px apart"


def tall_enough(locator: Locator, height: float = 44) -> None:
    """Every element ``locator`` finds is at least a thumb high."""
    for box in boxes(locator):
        assert box["height"] >= height, f"a tap target of {locator} is {box['height']:.0f}px high"


#: The strip a phone without a home button keeps at the bottom of its screen (34 px:
#: an iPhone's home indicator), under which nothing the player taps should sit.
HOME_STRIP = 34


def with_home_strip(page: Page, height: int = HOME_STRIP) -> None:
    """From now on the phone reports a home strip ``height`` px high at the bottom of
    its screen (``env(safe-area-inset-bottom)``), as a phone without a home button."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setSafeAreaInsetsOverride", {"insets": {"bottom": height}})


def reopened_in(page: Page, language: str) -> None:
    """The phone's table opened again in ``language``, live, its undo bar showing."""
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.reload()
    wait_live(page)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#controls [data-undo]")).to_be_visible()


def _brought_into_view(element: Locator, start: str, focus: str | None) -> None:
    """The page scrolled to ``start`` (``top`` or ``bottom``), then ``element`` (or the
    control ``focus`` finds in it: what gets the focus) brought into view with the least
    scrolling that shows it, as the browser does for a control that gets the focus."""
    page = element.page
    page.evaluate(
        "top => window.scrollTo({top, behavior: 'instant'})",
        0 if start == "top" else page.evaluate("document.documentElement.scrollHeight"),
    )
    target = element.locator(focus).first if focus else element
    target.evaluate("node => node.scrollIntoView({block: 'nearest', behavior: 'instant'})")


def _name(element: Locator) -> str:
    return " ".join((element.text_content() or "").split())[:40]


def clear_of_the_bar(
    locator: Locator, bar_at_the_bottom: str = "#controls", focus: str | None = None
) -> None:
    """Each element ``locator`` finds, brought into view from the top of the page with
    the least scrolling that shows it (what the browser does for a control at the edge
    of the screen that gets the focus: a tap, the keyboard's Next or Tab), ends up wholly
    above the bar floating at the bottom of the screen (the undo bar, unless
    ``bar_at_the_bottom`` names another; a sticky one is measured where it then sits),
    not under it. ``focus``: scroll to the control it finds in the element instead."""
    _clear_of(locator, bar_at_the_bottom, "top", focus, lambda box, bar: box["bottom"] - bar["y"])


def clear_of_the_top_bar(locator: Locator, bar_at_the_top: str, focus: str | None = None) -> None:
    """Each element ``locator`` finds, brought into view from the end of the page as
    :func:`clear_of_the_bar` does (scrolling up: Shift+Tab), ends up wholly below the
    bar stuck at the top of the screen (``bar_at_the_top``, where it then sits)."""
    _clear_of(locator, bar_at_the_top, "bottom", focus, lambda box, bar: bar["bottom"] - box["y"])


def _clear_of(
    locator: Locator,
    bar: str,
    scrolled_from: str,
    focus: str | None,
    under: Callable[[dict, dict], float],
) -> None:
    """Each element, brought into view from ``scrolled_from``, is under ``bar`` by
    ``under(element's box, bar's box)`` pixels (boxes with a ``bottom``): none."""
    page = locator.page
    for element in locator.all():
        _brought_into_view(element, scrolled_from, focus)
        box, bar_box = (
            {**found, "bottom": found["y"] + found["height"]}
            for found in (boxes(element)[0], boxes(page.locator(bar))[0])
        )
        covered = under(box, bar_box)
        assert covered <= 0, f"{_name(element)!r} is {covered:.0f}px under {bar} once scrolled to"
