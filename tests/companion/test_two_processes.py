"""Two server processes behind one Redis channel layer: a change posted to one
process reaches a socket held by the other.

Needs Redis only: both daphne processes share one SQLite file (the database is
not what is under test here) and ``REDIS_URL`` with a channel prefix unique to
this run, so parallel runs do not hear each other.
"""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from tests.support.client import Phone, damage_of, frame_version, recv_until
from tests.support.servers import prepare_database, running_server, sqlite_env

REDIS_URL = os.environ.get("REDIS_URL", "")
IDLE_SECONDS = 7  # longer than redis-py 8's 5 s read timeout: an idle subscription must live on

pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(
        not REDIS_URL, reason="set REDIS_URL=redis://127.0.0.1:6379/0 to run the two-process test"
    ),
]


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    """Two daphne processes, A and B: one SQLite file, one Redis channel layer."""
    env = sqlite_env(
        str(tmp_path_factory.mktemp("two-processes")),
        REDIS_URL=REDIS_URL,
        CHANNEL_PREFIX=f"segnalino-test-{uuid.uuid4().hex[:12]}",
        CELERY_EAGER="1",
    )
    prepare_database(env)
    with running_server(env) as server_a, running_server(env) as server_b:
        yield server_a, server_b


def table_across_processes(two_servers) -> tuple[Phone, Phone, str]:
    """The host plays through server A; a guest sits through server B (the Django
    sessions live in the shared database, so seats are the same on both)."""
    server_a, server_b = two_servers
    host = Phone(server_a)
    code = host.create_session(("dstructor", "banshee", "dozer"), host_seat="dstructor")
    guest = Phone(server_b)
    guest.claim(code, 1)
    return host, guest, code


async def test_an_action_posted_to_one_process_reaches_a_socket_on_the_other(two_servers):
    host, guest, code = table_across_processes(two_servers)
    async with guest.socket(code) as ws:
        first = await recv_until(ws, lambda frame: frame_version(frame) is not None, 5)
        before = frame_version(first)
        assert damage_of(first, "dozer") == 0

        answer = host.shot(code, "dstructor", "dozer", damage=1).expect(200)
        after = frame_version(answer.text)
        assert after is not None and after > before

        frame = await recv_until(ws, lambda html: (frame_version(html) or -1) >= after, 5)

    assert frame_version(frame) > before
    assert damage_of(frame, "dozer") == 1
    assert damage_of(frame, "banshee") is None  # an untouched board does not travel again


async def test_a_socket_idle_for_longer_than_the_redis_read_timeout_still_gets_updates(
    two_servers,
):
    host, guest, code = table_across_processes(two_servers)
    async with guest.socket(code) as ws:
        await recv_until(ws, lambda frame: frame_version(frame) is not None, 5)
        await asyncio.sleep(IDLE_SECONDS)  # a quiet moment at the table
        after = frame_version(host.shot(code, "dstructor", "banshee").expect(200).text)
        frame = await recv_until(ws, lambda html: (frame_version(html) or -1) >= after, 5)

    assert damage_of(frame, "banshee") == 1


async def test_a_phone_that_comes_on_another_process_hears_a_table_that_was_alone(two_servers):
    # Every phone of the table on process A: its taps cost Redis nothing (nobody
    # else listens). Then a phone opens its socket on process B: A hears B come,
    # and from then on B's phone is sent every tap, at once (not at the next
    # heartbeat check, seconds later).
    host, guest, code = table_across_processes(two_servers)
    async with host.socket(code) as own:
        await recv_until(own, lambda frame: frame_version(frame) is not None, 5)
        for target in ("banshee", "dozer"):  # the first finds A alone; the second is held
            after = frame_version(host.shot(code, "dstructor", target).expect(200).text)
            await recv_until(own, lambda html, at=after: (frame_version(html) or -1) >= at, 5)
        async with guest.socket(code) as ws:
            first = await recv_until(ws, lambda frame: frame_version(frame) is not None, 5)
            assert damage_of(first, "dozer") == 1
            await asyncio.sleep(0.3)  # B's word that it has come reaches A
            after = frame_version(host.shot(code, "dstructor", "dozer").expect(200).text)
            frame = await recv_until(ws, lambda html: (frame_version(html) or -1) >= after, 1.5)
    assert damage_of(frame, "dozer") == 2
