"""The session socket: full fragments on connect, a new frame after every change,
and garbage ignored with a message."""

from __future__ import annotations

import asyncio
import json
from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from companion import services
from companion.identity import TOKEN_KEY
from config.asgi import application
from tests.conftest import make_duel, next_key, shot

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def new_session(make_session):
    return make_session()


@sync_to_async
def phone_cookie(token: str) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[TOKEN_KEY] = token
    store.save()
    return f"sessionid={store.session_key}"


def communicator(path: str, cookie: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def test_a_phone_gets_the_whole_table_on_connect_and_every_change_after(make_session):
    session = await new_session(make_session)
    ws = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("phone-b"))
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_from(timeout=5)
    assert 'id="board"' in first and 'hx-swap-oob="true"' in first
    assert 'data-version="0"' in first

    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer", 2, 1), token="host", key=next_key()
    )
    frame = await ws.receive_from(timeout=5)
    assert 'data-version="1"' in frame
    assert "D-struct-OR hits Dozer: 2 damage, 1 mark." in frame
    await ws.disconnect()


async def test_the_frame_is_rendered_in_the_phone_language(make_session):
    session = await new_session(make_session)
    ws = communicator(f"/ws/s/{session.code}/?lang=it")
    assert (await ws.connect())[0]
    frame = await ws.receive_from(timeout=5)
    assert "Cos'è successo" in frame and "What happened" not in frame
    await ws.disconnect()


async def test_phones_of_two_languages_at_one_table_each_get_theirs_after_a_tap(make_session):
    # The table renders its parts one language at a time: each phone's frame,
    # personal part and shared, is still all in its own language.
    session = await new_session(make_session)
    phones = {}
    for language, token in (("it", "phone-b"), ("en", "phone-c"), ("it", "phone-d")):
        ws = communicator(f"/ws/s/{session.code}/?lang={language}", await phone_cookie(token))
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        phones[token] = (language, ws)
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer", 2, 1), token="host", key=next_key()
    )
    for language, ws in phones.values():
        frame = await ws.receive_from(timeout=5)
        if language == "it":
            assert "D-struct-OR colpisce Dozer" in frame and "hits Dozer" not in frame
        else:
            assert "D-struct-OR hits Dozer: 2 damage, 1 mark." in frame and "colpisce" not in frame
        await ws.disconnect()


async def test_a_reconnecting_phone_catches_up_at_once(make_session):
    session = await new_session(make_session)
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "banshee", 3), token="host", key=next_key()
    )
    ws = communicator(f"/ws/s/{session.code}/")
    assert (await ws.connect())[0]
    frame = await ws.receive_from(timeout=5)
    assert 'data-version="1"' in frame and 'data-damage="3"' in frame
    await ws.disconnect()


async def test_garbage_on_the_socket_gets_a_message_and_changes_nothing(make_session):
    session = await new_session(make_session)
    ws = communicator(f"/ws/s/{session.code}/", await phone_cookie("host"))
    assert (await ws.connect())[0]
    await ws.receive_from(timeout=5)
    for garbage in ("not json", json.dumps({"type": "shot", "hits": []}), "[]"):
        await ws.send_to(text_data=garbage)
        reply = await ws.receive_from(timeout=5)
        assert 'id="messages"' in reply and "only receives updates" in reply
    await ws.send_to(text_data="x" * 20_000)
    reply = await ws.receive_from(timeout=5)
    assert "too large" in reply
    await ws.send_to(bytes_data=b"\x00\xff" * 10)
    assert "only receives updates" in await ws.receive_from(timeout=5)
    await sync_to_async(session.refresh_from_db)()
    assert session.version == 0
    await ws.disconnect()


async def test_a_sync_request_resends_the_current_fragments(make_session):
    session = await new_session(make_session)
    ws = communicator(f"/ws/s/{session.code}/")
    assert (await ws.connect())[0]
    await ws.receive_from(timeout=5)
    await ws.send_to(text_data=json.dumps({"type": "sync"}))
    assert 'id="board"' in await ws.receive_from(timeout=5)
    await ws.disconnect()


async def test_a_wrong_code_or_watch_key_is_refused(make_session):
    await new_session(make_session)
    ws = communicator("/ws/s/QQQQQ/")
    connected, code = await ws.connect()
    assert not connected and code == 4404
    ws = communicator("/ws/w/not-the-key/")
    connected, code = await ws.connect()
    assert not connected and code == 4404


async def test_a_watch_socket_sees_the_board_but_no_buttons(make_session):
    session = await new_session(make_session)
    ws = communicator(f"/ws/w/{session.spectator_key}/", await phone_cookie("host"))
    assert (await ws.connect())[0]
    frame = await ws.receive_from(timeout=5)
    assert 'id="board"' in frame and "data-hit=" not in frame and "data-undo" not in frame
    await ws.disconnect()


async def test_a_foreign_origin_cannot_open_the_socket(make_session):
    session = await new_session(make_session)
    ws = WebsocketCommunicator(
        application, f"/ws/s/{session.code}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await ws.connect()
    assert not connected
    await asyncio.sleep(0)


async def test_after_a_change_a_phone_gets_only_the_fragments_that_changed(make_session):
    session = await new_session(make_session)
    ws = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("phone-b"))
    assert (await ws.connect())[0]
    first = await ws.receive_from(timeout=5)
    for ident in ("status", "seats", "board", "player-dozer", "player-banshee", "history"):
        assert f'id="{ident}"' in first  # on connect: the whole table

    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer", 2), token="host", key=next_key()
    )
    frame = await ws.receive_from(timeout=5)
    assert 'data-version="1"' in frame
    assert 'id="core-dozer"' in frame and 'data-damage="2"' in frame
    assert "D-struct-OR hits Dozer: 2 damage." in frame
    # Boards nobody touched, and the seats, are not sent again; of Dozer's board,
    # only the track the hit changed (not its gear, nor the board around it).
    assert 'id="player-banshee"' not in frame and 'id="seats"' not in frame
    assert 'id="player-dozer"' not in frame and 'id="gear-dozer"' not in frame
    assert len(frame) < len(first) / 5
    await ws.disconnect()

    again = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("phone-b"))
    assert (await again.connect())[0]
    full = await again.receive_from(timeout=5)
    assert 'id="player-banshee"' in full and 'id="seats"' in full and 'data-damage="2"' in full
    await again.disconnect()


async def test_a_page_that_shows_the_current_revision_is_sent_nothing_on_connect(make_session):
    """The page was just rendered at the table's revision: the socket sends no first
    frame (it would only repeat the page), and the next change carries only what
    changed, as for any phone."""
    session = await new_session(make_session)
    await sync_to_async(session.refresh_from_db)()
    ws = communicator(
        f"/ws/s/{session.code}/?lang=en&shown={session.revision}", await phone_cookie("phone-b")
    )
    assert (await ws.connect())[0]
    assert await ws.receive_nothing(timeout=0.5)

    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer", 2), token="host", key=next_key()
    )
    frame = await ws.receive_from(timeout=5)
    assert 'data-version="1"' in frame and 'data-damage="2"' in frame
    assert 'id="player-banshee"' not in frame and 'id="seats"' not in frame
    await ws.disconnect()


async def test_a_phone_waking_at_an_old_revision_gets_everything_at_once(make_session):
    """A phone that slept through a change reconnects saying the revision it shows:
    it is older than the table's, so the whole table comes at once."""
    session = await new_session(make_session)
    await sync_to_async(session.refresh_from_db)()
    slept_at = session.revision
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "banshee", 3), token="host", key=next_key()
    )
    for shown in (slept_at, "garbage", "²"):
        ws = communicator(f"/ws/s/{session.code}/?lang=en&shown={shown}")
        assert (await ws.connect())[0]
        frame = await ws.receive_from(timeout=5)
        assert 'data-version="1"' in frame and 'data-damage="3"' in frame
        assert 'id="seats"' in frame and 'id="player-dozer"' in frame
        await ws.disconnect()


async def _frames_until(ws: WebsocketCommunicator, done, timeout: float = 5) -> list[str]:
    """What the socket sends until ``done(message)``, that message included."""
    messages = []
    while True:
        messages.append(await ws.receive_from(timeout=timeout))
        if done(messages[-1]):
            return messages


async def test_a_phone_whose_seat_the_host_frees_is_told_to_load_its_page_again(make_session):
    # Its page was made for seat 1 (its own board first and marked "Your board"),
    # which no frame moves: once the seat is not its own any more, the page is
    # loaded again. Another seated phone is not, and both still get the frames.
    session = await new_session(make_session)
    await sync_to_async(services.claim_seat)(session, 1, "phone-b")
    await sync_to_async(services.claim_seat)(session, 2, "phone-c")
    await sync_to_async(session.refresh_from_db)()
    shown = f"&shown={session.revision}"
    bruno = communicator(
        f"/ws/s/{session.code}/?lang=en&seat=1{shown}", await phone_cookie("phone-b")
    )
    carla = communicator(
        f"/ws/s/{session.code}/?lang=en&seat=2{shown}", await phone_cookie("phone-c")
    )
    for ws in (bruno, carla):
        assert (await ws.connect())[0]
        assert await ws.receive_nothing(timeout=0.3)  # the page is current

    await sync_to_async(services.free_seat)(session, 1, "host")
    told = await _frames_until(bruno, lambda m: 'id="seats"' in m)
    assert told[0] == '{"type": "reload"}'
    seats = await carla.receive_from(timeout=5)
    assert 'id="seats"' in seats and "reload" not in seats

    # Told once: the next change is a frame like any other, for both.
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer", 2), token="host", key=next_key()
    )
    for ws in (bruno, carla):
        frame = await ws.receive_from(timeout=5)
        assert 'data-damage="2"' in frame and "reload" not in frame
        await ws.disconnect()


async def test_a_phone_that_sits_down_or_moves_seat_is_told_to_load_its_page_again(make_session):
    session = await new_session(make_session)
    await sync_to_async(session.refresh_from_db)()
    ws = communicator(
        f"/ws/s/{session.code}/?lang=en&seat=-&shown={session.revision}",
        await phone_cookie("phone-b"),
    )
    assert (await ws.connect())[0]
    await sync_to_async(services.claim_seat)(session, 1, "phone-b")
    assert (await ws.receive_from(timeout=5)) == '{"type": "reload"}'
    await ws.disconnect()

    # Its reloaded page says seat 1; moving to seat 2 is another reload.
    await sync_to_async(session.refresh_from_db)()
    ws = communicator(
        f"/ws/s/{session.code}/?lang=en&seat=1&shown={session.revision}",
        await phone_cookie("phone-b"),
    )
    assert (await ws.connect())[0]
    assert await ws.receive_nothing(timeout=0.3)
    await sync_to_async(services.claim_seat)(session, 2, "phone-b")
    assert (await ws.receive_from(timeout=5)) == '{"type": "reload"}'
    await ws.disconnect()


async def test_a_duel_seat_taken_by_its_rejoin_link_sends_the_old_phone_back_to_its_page():
    # Marco's new phone opens his rejoin link: his old phone, still on the table,
    # holds no seat any more and is told to load the page again (which then shows
    # it Marco's seat taken, and none of his cards).
    session = await sync_to_async(make_duel)()
    seat = await sync_to_async(session.seats.get)(index=1)
    old = communicator(
        f"/ws/s/{session.code}/?lang=en&seat=1&shown={session.revision}",
        await phone_cookie("marco"),
    )
    assert (await old.connect())[0]
    assert await old.receive_nothing(timeout=0.3)
    await sync_to_async(services.claim_seat)(session, 1, "marco-new-phone", seat.rejoin_key)
    assert (await old.receive_from(timeout=5)) == '{"type": "reload"}'
    await old.disconnect()


@pytest.mark.parametrize("said", ["", "&seat=", "&seat=abc", "&seat=1234", "&seat=%00", "&seat=-1"])
async def test_a_socket_that_does_not_say_its_pages_seat_is_never_told_to_reload(
    make_session, said
):
    # An older page's socket, or a URL someone typed: nothing compared, the frames
    # go as ever.
    session = await new_session(make_session)
    ws = communicator(f"/ws/s/{session.code}/?lang=en{said}", await phone_cookie("phone-b"))
    assert (await ws.connect())[0]
    assert 'id="board"' in await ws.receive_from(timeout=5)
    await sync_to_async(services.claim_seat)(session, 1, "phone-b")
    frame = await ws.receive_from(timeout=5)
    assert 'id="seats"' in frame and "reload" not in frame
    await ws.disconnect()


async def test_a_phone_back_online_after_its_seat_was_freed_is_told_to_reload_first(make_session):
    # Its socket was down when the host freed the seat: the page it reconnects
    # from still says seat 1, so the reload comes first, then the table as ever.
    session = await new_session(make_session)
    await sync_to_async(services.claim_seat)(session, 1, "phone-b")
    await sync_to_async(session.refresh_from_db)()
    shown = session.revision
    await sync_to_async(services.free_seat)(session, 1, "host")
    ws = communicator(
        f"/ws/s/{session.code}/?lang=en&seat=1&shown={shown}", await phone_cookie("phone-b")
    )
    assert (await ws.connect())[0]
    assert (await ws.receive_from(timeout=5)) == '{"type": "reload"}'
    assert 'id="seats"' in await ws.receive_from(timeout=5)
    await ws.disconnect()
