"""No tap is ever lost and none is ever doubled: a phone whose Wi-Fi drops keeps
its taps, says how many are waiting, and sends each once, in order, when the
network comes back — even across a reload. A tap that no longer applies when it
arrives is shown as refused, with the reason."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_table import create_session, expect_damage, join_by_code, sit, wait_live

pytestmark = [pytest.mark.e2e]


def go_offline(page: Page) -> None:
    page.context.set_offline(True)
    # The badge tells the truth within 3 s of the network going.
    expect(page.locator("#connection")).to_have_attribute("data-state", "offline", timeout=3_000)


def test_three_taps_made_offline_arrive_once_in_order_when_the_network_returns(phone_a, phone_b):
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    expect_damage(phone_b, "dozer", 0)

    go_offline(phone_a)
    for target in ("dozer", "violet", "dozer"):
        phone_a.locator(f"[data-hit={target}]").click()
    badge = phone_a.locator("#connection")
    expect(badge).to_have_attribute("data-pending", "3")
    expect(badge).to_contain_text("3 taps waiting to be sent")
    box = badge.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360  # fits the phone, no scrolling
    phone_b.wait_for_timeout(1_000)
    expect_damage(phone_b, "dozer", 0)  # nothing left the phone

    phone_a.context.set_offline(False)
    expect_damage(phone_b, "dozer", 2)
    expect_damage(phone_b, "violet", 1)
    expect(badge).not_to_have_attribute("data-pending", "3", timeout=10_000)
    expect(badge).to_have_attribute("data-state", "live", timeout=10_000)
    # Exactly three actions, in the order tapped.
    expect(phone_b.locator("#status")).to_have_attribute("data-version", "3")
    lines = phone_b.locator("#history li").all_inner_texts()
    assert "Bruno" in lines[0] and "Violet" in lines[1] and "Bruno" in lines[2], lines
    expect_damage(phone_a, "dozer", 2)


def test_taps_waiting_on_a_phone_survive_a_reload(phone_a, phone_b):
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    go_offline(phone_a)
    # Two hits (the same one twice at once would be a double tap: app.js drops it).
    phone_a.locator("[data-hit=dozer]").click()
    phone_a.locator("[data-hit=violet]").click()
    expect(phone_a.locator("#connection")).to_have_attribute("data-pending", "2")
    context = phone_a.context
    phone_a.close()  # the page goes away with the taps still waiting
    context.set_offline(False)
    again = context.new_page()
    again.goto(f"/s/{code}/")
    wait_live(again)
    expect_damage(phone_b, "dozer", 1)
    expect_damage(phone_b, "violet", 1)
    expect_damage(again, "violet", 1)
    expect(phone_b.locator("#status")).to_have_attribute("data-version", "2")


def test_a_tap_that_no_longer_applies_when_it_arrives_is_shown_refused(phone_a, phone_b):
    code = create_session(phone_b, host_seat="dozer")  # B hosts
    join_by_code(phone_a, code)
    sit(phone_a, "Anna")
    expect(phone_a.locator("[data-hit=violet]")).to_be_visible()  # seated: it may tap
    go_offline(phone_a)
    phone_a.locator("[data-hit=violet]").click()
    expect(phone_a.locator("#connection")).to_have_attribute("data-pending", "1")
    phone_b.once("dialog", lambda dialog: dialog.accept())
    phone_b.get_by_role("button", name="End session").click()
    expect(phone_b.locator("#status")).to_contain_text("This session has ended")

    phone_a.context.set_offline(False)
    expect(phone_a.locator("#messages")).to_contain_text("This session has ended.", timeout=10_000)
    expect(phone_a.locator("#connection")).not_to_have_attribute("data-pending", "1")
    expect_damage(phone_b, "violet", 0)


def test_while_the_socket_is_live_a_tap_travels_on_it_and_makes_no_request(phone_a, phone_b):
    # The same taps as a POST, on the socket the phone already holds: no HTTP
    # request per tap, the answer comes back on the socket by the tap's key.
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    wait_live(phone_a)
    posts: list[str] = []
    phone_a.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    sent: list[str] = []
    phone_a.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    phone_a.reload()  # the socket opened after listening, so its frames are seen
    wait_live(phone_a)

    phone_a.locator("[data-hit=dozer]").click()
    expect_damage(phone_b, "dozer", 1)
    phone_a.locator("[data-undo]").click()
    expect_damage(phone_b, "dozer", 0)
    expect(phone_a.locator("#connection")).not_to_have_attribute("data-pending", "1")
    assert posts == [], f"a tap went as a POST while the socket was live: {posts}"
    taps = [frame for frame in sent if '"type": "tap"' in frame or '"type":"tap"' in frame]
    assert len(taps) == 2 and "/act" in taps[0] and "/undo" in taps[1], taps


def test_a_phone_left_on_the_table_stays_live_on_the_servers_beat(phone_a):
    """Nobody taps for a while: the phone pings only every five seconds, and the
    server's beat (a pong once a second) keeps it "live", on the one socket it
    opened, with no reconnect and no false "offline"."""
    create_session(phone_a)
    wait_live(phone_a)
    opened: list[str] = []
    heard: list[str] = []
    sent: list[str] = []

    def watch(ws) -> None:
        opened.append(ws.url)
        ws.on("framereceived", lambda payload: heard.append(str(payload)))
        ws.on("framesent", lambda payload: sent.append(str(payload)))

    phone_a.on("websocket", watch)
    phone_a.reload()
    wait_live(phone_a)
    states: list[str | None] = []
    for _ in range(12):  # six seconds, looked at twice a second
        phone_a.wait_for_timeout(500)
        states.append(phone_a.locator("#connection").get_attribute("data-state"))
    assert states == ["live"] * 12, states
    assert len(opened) == 1, opened
    assert sum('"pong"' in frame for frame in heard) >= 4  # the server's beats
    assert sum('"ping"' in frame for frame in sent) <= 2  # the phone's pings are rare


def test_a_seat_taken_offline_is_taken_when_the_network_returns_and_the_page_marks_it(
    phone_a, phone_b
):
    # Sitting down is queued like a tap while the Wi-Fi is gone; when it returns the
    # seat is taken once and the phone loads its table: its own board first, marked.
    code = create_session(phone_a)
    join_by_code(phone_b, code)
    go_offline(phone_b)
    phone_b.get_by_role("button", name="Sit as Bruno").click()
    expect(phone_b.locator("#connection")).to_have_attribute("data-pending", "1")
    expect(phone_b.get_by_role("group", name="Your board")).to_have_count(0)
    with phone_b.expect_navigation(timeout=15_000):
        phone_b.context.set_offline(False)
    wait_live(phone_b)
    mine = phone_b.get_by_role("group", name="Your board")
    expect(mine.locator("article#player-dozer")).to_be_visible()
    expect(phone_b.locator(".players article").first).to_have_id("player-dozer")
    expect(phone_b.locator("#connection")).not_to_have_attribute("data-pending", "1")
    bruno_on_a = phone_a.locator("#seats li.seat", has_text="Bruno")
    expect(bruno_on_a.locator(".badge")).to_have_text("taken")


def test_a_phone_scrolled_down_to_a_board_still_sees_it_is_offline_and_what_waits(phone_a):
    """The badge that says the phone is offline, and how many taps wait, stays on
    screen wherever the player has scrolled (their board is further down)."""
    create_session(phone_a)
    board = phone_a.locator("article#player-dozer")
    board.scroll_into_view_if_needed()
    phone_a.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    go_offline(phone_a)
    board.locator("[data-hit=dozer]").click()
    badge = phone_a.locator("#connection")
    expect(badge).to_have_attribute("data-pending", "1")
    assert phone_a.evaluate("window.scrollY") > 300, "the page was not scrolled down"
    box = badge.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 740, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    expect(badge).to_contain_text("1 tap waiting to be sent")
