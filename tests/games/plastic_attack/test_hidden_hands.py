"""With the app's deck, a hand never reaches another phone: not in the page, not in a
socket frame, not to the watch link, and a battle card laid face down stays face
down for the other player until both are in. These tests read what is sent."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from companion import services
from companion.models import GameSession
from games.plastic_attack.views import card_label
from tests.companion.test_consumers import communicator, phone_cookie
from tests.support.plastic_attack import online_war

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def dealt_war(catalogs) -> GameSession:
    return online_war()


def hand_shown(frame: str) -> set[str]:
    """The cards a frame shows in the hand or as buttons (labels or codes)."""
    hand = re.search(r'<p class="hand"[^>]*>(.*?)</p>', frame, re.S)
    shown = (
        set(re.findall(r'<span class="playing-card">([^<]+)</span>', hand.group(1)))
        if hand
        else set()
    )
    return shown | set(re.findall(r'data-card="([^"]+)"', frame))


async def test_each_socket_shows_its_own_hand_only_and_the_watcher_none(catalogs):
    session = await dealt_war(catalogs)
    state = session.state
    sockets = {
        0: communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("anna")),
        1: communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("bruno")),
        None: communicator(f"/ws/w/{session.spectator_key}/?lang=en"),
    }
    frames = {}
    for seat, ws in sockets.items():
        assert (await ws.connect())[0]
        frames[seat] = await ws.receive_from(timeout=5)
    for seat in (0, 1):
        own = {card_label(c) for c in state["hands"][seat]}
        other = {card_label(c) for c in state["hands"][1 - seat]}
        other_codes = set(state["hands"][1 - seat])
        shown = hand_shown(frames[seat])
        assert own <= shown, "a player does not see their own hand"
        assert not (shown & (other | other_codes)), "another hand was sent"
    assert hand_shown(frames[None]) == set()

    # The current player lays a card: the other sees only that a card is down.
    current = state["current"]
    other = 1 - current
    await sync_to_async(services.submit_action)(
        session,
        {"type": "declare", "character": 0 if current == 0 else 2, "defender": other},
        token=("anna", "bruno")[current],
        key="declare",
    )
    await sync_to_async(services.submit_action)(
        session,
        {"type": "defend", "character": 0 if other == 0 else 2},
        token=("anna", "bruno")[other],
        key="defend",
    )
    laid = state["hands"][current][0]
    await sync_to_async(services.submit_action)(
        session, {"type": "card", "card": laid}, token=("anna", "bruno")[current], key="card"
    )
    seen = ""
    while 'data-version="' not in seen or "card down" not in seen:
        seen = await sockets[other].receive_from(timeout=5)
    battle = re.search(r'<p class="cards">(.*?)</p>', seen, re.S)
    assert battle is not None and "card down" in battle.group(1)
    assert card_label(laid) not in battle.group(1)  # face down for the other player
    assert card_label(laid) not in hand_shown(seen) and f'"{laid}"' not in seen
    for ws in sockets.values():
        await ws.disconnect()


def test_a_post_reply_and_an_error_carry_only_the_posters_hand(catalogs):
    from tests.conftest import phone

    session = dealt_war.__wrapped__(catalogs)  # the plain function, in this thread
    state = session.state
    current, other = state["current"], 1 - state["current"]
    tokens = ("anna", "bruno")
    poster = phone(tokens[other])
    # A refused tap (not their turn): the message only.
    refused = poster.post(
        f"/s/{session.code}/act",
        {"type": "declare", "character": "0", "defender": str(current), "key": "x1"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert hand_shown(refused) == set() and "playing-card" not in refused
    # A good tap answered without a live socket: the poster's own frames.
    reply = (
        phone(tokens[current])
        .post(
            f"/s/{session.code}/act",
            {
                "type": "declare",
                "character": "0" if current == 0 else "2",
                "defender": str(other),
                "key": "x2",
            },
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )
    shown = hand_shown(reply)
    assert {card_label(c) for c in state["hands"][current]} <= shown
    assert not shown & {card_label(c) for c in state["hands"][other]}
