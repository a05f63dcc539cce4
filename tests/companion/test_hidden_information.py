"""Hidden information never reaches a phone that may not see it: not in the page,
not in a socket frame, not in an error message. These tests read what is sent."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from companion import services
from config.asgi import application
from games.models import Card
from tests.conftest import make_duel, phone

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 0  # seat 0 holds 0 3 8 9 11 14; seat 1 holds 0 1 5 6 12 13
OPPONENT_ONLY = [1, 5, 6, 12, 13]  # in seat 1's hand, never in seat 0's
SECRET_BID = 43  # looked for as a whole word: a session code such as "W7J43" holds it too


class Visible(HTMLParser):
    """Text and attribute values a phone receives, minus one-time tokens."""

    RANDOM = {"key", "csrfmiddlewaretoken"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        if named.get("name") in self.RANDOM:
            return
        for name, value in attrs:
            if value and name not in {"hx-headers", "ws-connect", "href", "src", "alt"}:
                self.parts.append(value)

    def handle_data(self, data):
        self.parts.append(data)


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return "\n".join(parser.parts)


def spell_names(numbers) -> list[str]:
    cards = {c.data["number"]: c for c in Card.objects.filter(game="shazamm")}
    return [name for n in numbers for name in (cards[n].name_en, cards[n].name_it)]


def assert_hides_opponent(html: str) -> None:
    text = visible(html)
    for name in spell_names(OPPONENT_ONLY):
        assert name not in text, f"the opponent's card {name!r} was sent"
    assert not re.search(rf"\b{SECRET_BID}\b", text), "the opponent's bid was sent"


@pytest.fixture
def duel(catalogs):
    return make_duel(seed=SEED)


def marco_locks_in(session) -> None:
    response = phone("marco").post(
        f"/s/{session.code}/act",
        {"type": "lock", "bid": str(SECRET_BID), "spells[]": ["13", "6"], "key": "m1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200, response.content


def test_the_page_shows_my_hand_and_only_the_size_of_the_opponents(duel):
    anna = phone("anna").get(f"/s/{duel.code}/").content.decode()
    assert "Suction" in anna  # her own card 14
    assert_hides_opponent(anna)
    marco = phone("marco").get(f"/s/{duel.code}/").content.decode()
    assert "Reinforcement" in marco  # his own card 13


def test_after_the_opponent_locks_in_i_see_only_that_they_did(duel):
    marco_locks_in(duel)
    anna = phone("anna").get(f"/s/{duel.code}/").content.decode()
    assert 'data-locked="1"' in anna
    assert_hides_opponent(anna)
    # a watcher sees no hand at all
    watcher = phone("tv").get(f"/w/{duel.code}/{duel.spectator_key}/").content.decode()
    assert_hides_opponent(watcher)
    assert "Suction" not in visible(watcher)


def test_the_reply_to_the_opponents_own_post_is_his_alone(duel):
    response = phone("marco").post(
        f"/s/{duel.code}/act",
        {"type": "lock", "bid": "7", "spells[]": ["13"], "key": "m2"},
        HTTP_HX_REQUEST="true",
    )
    assert "Suction" not in visible(response.content.decode())


async def test_socket_frames_to_my_phone_never_carry_the_opponents_secrets(duel):
    from tests.companion.test_consumers import phone_cookie

    ws = WebsocketCommunicator(
        application,
        f"/ws/s/{duel.code}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"cookie", (await phone_cookie("anna")).encode()),
        ],
    )
    assert (await ws.connect())[0]
    frames = [await ws.receive_from(timeout=5)]
    await sync_to_async(marco_locks_in)(duel)
    frames.append(await ws.receive_from(timeout=5))
    for frame in frames:
        await sync_to_async(assert_hides_opponent)(frame)
    assert 'data-locked="1"' in frames[-1]
    await ws.disconnect()


ANNA_ONLY = [3, 8, 9, 11, 14]  # in seat 0's hand, never in seat 1's


def assert_hides(html: str, numbers) -> None:
    text = visible(html)
    for name in spell_names(numbers):
        assert name not in text, f"a card {name!r} of another hand was sent"


async def test_two_seats_and_a_watcher_on_one_table_each_get_only_their_own_secrets(duel):
    """All three sockets share one live table and its per-revision renders: the
    render one viewer gets must never be another viewer's."""
    from tests.companion.test_consumers import communicator, phone_cookie

    sockets = {
        "anna": communicator(f"/ws/s/{duel.code}/?lang=en", await phone_cookie("anna")),
        "marco": communicator(f"/ws/s/{duel.code}/?lang=en", await phone_cookie("marco")),
        "tv": communicator(f"/ws/w/{duel.spectator_key}/?lang=en"),
    }
    frames: dict[str, list[str]] = {name: [] for name in sockets}
    for name, ws in sockets.items():
        assert (await ws.connect())[0]
        frames[name].append(await ws.receive_from(timeout=5))
    await sync_to_async(marco_locks_in)(duel)
    for name, ws in sockets.items():
        frames[name].append(await ws.receive_from(timeout=5))
    for frame in frames["anna"]:
        await sync_to_async(assert_hides_opponent)(frame)
    for frame in frames["marco"]:
        await sync_to_async(assert_hides)(frame, ANNA_ONLY)
    for frame in frames["tv"]:
        await sync_to_async(assert_hides_opponent)(frame)
        await sync_to_async(assert_hides)(frame, ANNA_ONLY)
    # …and each did get its own hand (the check is not vacuous).
    assert "Suction" in visible(frames["anna"][0])
    assert "Reinforcement" in visible(frames["marco"][0])
    for ws in sockets.values():
        await ws.disconnect()


def test_an_error_does_not_leak_the_opponents_hand(duel):
    response = phone("anna").post(
        f"/s/{duel.code}/act",
        {"type": "lock", "bid": "5", "spells[]": ["13"], "key": "a1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "not in your hand" in body
    assert "Marco" not in body or "hand" not in body.split("Marco")[1][:40]


def test_a_phone_cannot_lock_in_for_the_other_seat(duel):
    # the payload carries no seat: whatever a phone sends, it acts as its own seat
    response = phone("anna").post(
        f"/s/{duel.code}/act",
        {"type": "lock", "bid": "5", "seat": "1", "spells[]": [""], "key": "a2"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    duel.refresh_from_db()
    assert duel.state["locked"][0] is not None and duel.state["locked"][1] is None
    stranger = phone("stranger").post(
        f"/s/{duel.code}/act",
        {"type": "lock", "bid": "5", "spells[]": [""], "key": "s1"},
        HTTP_HX_REQUEST="true",
    )
    assert stranger.status_code == 403


def test_online_duels_cannot_be_undone(duel):
    marco_locks_in(duel)
    response = phone("marco").post(f"/s/{duel.code}/undo", {"key": "u1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "cannot be undone" in response.content.decode()


def test_the_leak_check_catches_a_hand_and_a_bid(duel):
    """The checker above fails on the page of the player who does hold those cards."""
    marco_locks_in(duel)
    marco = phone("marco").get(f"/s/{duel.code}/").content.decode()
    with pytest.raises(AssertionError):
        assert_hides_opponent(marco)
    with pytest.raises(AssertionError):
        assert_hides_opponent(f"<p>bid {SECRET_BID}</p>")


def test_with_the_box_each_phone_enters_its_own_spells_and_both_reveal_together(catalogs):
    session = services.create_session(
        game="shazamm",
        seat_names=["Anna", "Marco"],
        options={"hands": "physical"},
        host_token="anna",
        mode="companion",
    )
    services.claim_seat(session, 0, "anna")
    services.claim_seat(session, 1, "marco")
    anna, marco = phone("anna"), phone("marco")
    page = anna.get(f"/s/{session.code}/").content.decode()
    assert "Spells you laid face down" in page
    anna.post(
        f"/s/{session.code}/act",
        {"type": "lock", "bid": str(SECRET_BID), "spells[]": ["7"], "key": "a"},
        HTTP_HX_REQUEST="true",
    )
    waiting = marco.get(f"/s/{session.code}/").content.decode()
    assert 'data-locked="0"' in waiting
    assert not re.search(rf"\b{SECRET_BID}\b", visible(waiting))
    marco.post(
        f"/s/{session.code}/act",
        {"type": "lock", "bid": "20", "spells[]": ["7"], "key": "m"},
        HTTP_HX_REQUEST="true",
    )
    session.refresh_from_db()
    assert session.state["last"]["bids"] == [SECRET_BID, 20]
    revealed = marco.get(f"/s/{session.code}/").content.decode()
    assert "they cancel out" in revealed  # both laid Boost attack
