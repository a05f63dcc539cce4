"""The relay: one listener per process on the session's group, waking its sockets."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from companion import services
from companion.relay import relay
from tests.companion.test_consumers import communicator, new_session, phone_cookie
from tests.conftest import next_key, shot

pytestmark = pytest.mark.django_db(transaction=True)


async def _connected(session, token: str):
    ws = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie(token))
    assert (await ws.connect())[0]
    assert 'data-version="0"' in await ws.receive_from(timeout=5)
    return ws


async def test_each_phone_gets_one_frame_per_change_not_two(make_session):
    # The committing thread wakes the sockets of its process directly and the
    # relay hears the same change from the group: the phone must see it once.
    session = await new_session(make_session)
    phones = [await _connected(session, f"phone-{i}") for i in range(3)]
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    for ws in phones:
        assert 'data-version="1"' in await ws.receive_from(timeout=5)
        assert await ws.receive_nothing(timeout=0.3)
    for ws in phones:
        await ws.disconnect()


async def test_a_change_without_a_pre_render_reaches_the_phones_through_the_relay(make_session):
    # Renaming a seat goes through the group message only (nothing pre-rendered).
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    await sync_to_async(services.rename_seat)(session, 1, "Bianca", "host")
    frame = await ws.receive_from(timeout=5)
    assert "Bianca" in frame
    await ws.disconnect()


async def test_the_relay_leaves_the_group_with_the_last_socket(make_session):
    session = await new_session(make_session)
    first = await _connected(session, "phone-a")
    second = await _connected(session, "phone-b")
    assert relay().members == {session.group_name: 2}
    await first.disconnect()
    # The socket still open keeps getting changes.
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "banshee"), token="host", key=next_key()
    )
    assert 'data-version="1"' in await second.receive_from(timeout=5)
    await second.disconnect()
    assert relay().members == {}
    assert relay().task is None
