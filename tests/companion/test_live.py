"""The live path: one announcement per change, tables per process, frames in
revision order, and phones that catch up after a lost announcement."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import re

import pytest
from asgiref.sync import sync_to_async

from companion import consumers, live, services
from companion.models import GameSession
from tests.companion.test_consumers import communicator, new_session, phone_cookie
from tests.conftest import next_key, shot

pytestmark = pytest.mark.django_db(transaction=True)

_REVISION = re.compile(r'data-revision="(\d+)"')

needs_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="set REDIS_URL=redis://127.0.0.1:6379/0 to run it"
)


def revision_of(frame: str) -> int | None:
    found = _REVISION.search(frame)
    return int(found.group(1)) if found else None


async def _connected(session, token: str):
    ws = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie(token))
    assert (await ws.connect())[0]
    first = await ws.receive_from(timeout=5)
    assert 'data-version="0"' in first
    return ws


def _count_revision_reads(monkeypatch) -> list[list[int]]:
    """The sessions of each query for revisions the tables make, from now on."""
    reads: list[list[int]] = []
    real = live.read_revisions

    def counted(session_ids):
        reads.append(sorted(session_ids))
        return real(session_ids)

    monkeypatch.setattr(live, "read_revisions", counted)
    return reads


def _table_count(session_id: int) -> int:
    with live._tables_lock:
        return len(live._TABLES.get(session_id, {}))


async def _messages(listener, count: int = 1, seconds: float = 5) -> list[bytes]:
    """What a Redis subscription (``listener``) hears next: up to ``count``
    messages, waiting at most ``seconds`` in all."""
    found: list[bytes] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while len(found) < count and loop.time() < deadline:
        message = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is not None:
            found.append(message["data"])
    return found


def _session_channel(base: int) -> tuple[str, str]:
    """A session's group nobody else uses, and its Redis channel."""
    group = f"session.{base + int(next_key().rpartition('-')[2])}"
    return group, live.redis_channel(group)


async def _relay_done(relay: live.Relay) -> None:
    """This loop's relay leaves its channels and closes its connections."""
    for name in list(relay.groups):
        await relay.leave(name)
    publishing = live._RELAYS.pop(asyncio.get_running_loop())._publishing
    if publishing is not None:
        await publishing.aclose()


async def test_each_phone_gets_one_frame_per_change(make_session):
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


async def test_a_socket_that_cannot_send_a_change_does_not_keep_it_from_the_others(
    make_session, monkeypatch, caplog
):
    """A table's sockets send a change one after the other: the first failing (its
    refresh raising) leaves the others to send it, and says so in the log."""
    session = await new_session(make_session)
    phones = [await _connected(session, f"phone-{i}") for i in range(3)]
    (table,) = live._TABLES[session.pk].values()
    first = next(iter(table.sockets))
    real = type(first).refresh

    async def refresh(self, revision=0, **kwargs):
        if self is first:
            raise RuntimeError("this phone's frame failed")
        return await real(self, revision, **kwargs)

    monkeypatch.setattr(type(first), "refresh", refresh)
    with caplog.at_level(logging.ERROR, logger="companion.live"):
        await sync_to_async(services.submit_action)(
            session, shot("dstructor", "dozer"), token="host", key=next_key()
        )
        got = [await ws.receive_nothing(timeout=1) or None for ws in phones]
    assert got.count(None) == 2  # two phones were sent the change (and not nothing)
    assert "could not send revision 1" in caplog.text
    for ws in phones:
        await ws.disconnect()


async def test_a_renamed_seat_reaches_the_phones(make_session):
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    await sync_to_async(services.rename_seat)(session, 1, "Bianca", "host")
    frame = await ws.receive_from(timeout=5)
    assert "Bianca" in frame
    await ws.disconnect()


async def test_the_table_and_its_group_go_with_the_last_socket(make_session):
    session = await new_session(make_session)
    first = await _connected(session, "phone-a")
    second = await _connected(session, "phone-b")
    assert _table_count(session.pk) == 1
    assert live.relay().groups == {f"session.{session.pk}"}
    await first.disconnect()
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "banshee"), token="host", key=next_key()
    )
    assert 'data-version="1"' in await second.receive_from(timeout=5)
    await second.disconnect()
    assert _table_count(session.pk) == 0
    assert live.relay().groups == set()
    assert live.relay().tasks == []


async def test_a_socket_that_fails_still_leaves_its_table(make_session, monkeypatch):
    session = await new_session(make_session)
    ws = await _connected(session, "phone-a")

    async def broken(self, message):
        raise RuntimeError("boom")

    monkeypatch.setattr("companion.consumers.SessionConsumer._heartbeat", broken)
    await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 0}))
    with pytest.raises(RuntimeError):
        await ws.wait(timeout=5)
    assert _table_count(session.pk) == 0
    assert live.relay().groups == set()


async def test_a_slow_render_of_an_old_revision_never_overtakes_a_newer_one(
    make_session, monkeypatch
):
    # Revision 1's board renders slowly, revision 2's at once: the phone gets 2,
    # and the late render of 1 is never sent after it.
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    real = live.Table.frame

    async def frame(self, snapshot, *args, **kwargs):
        if snapshot.session.version == 1:
            await asyncio.sleep(0.6)  # a render delayed on this process
        return await real(self, snapshot, *args, **kwargs)

    monkeypatch.setattr(live.Table, "frame", frame)
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    await asyncio.sleep(0.05)  # revision 1's render has begun
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    seen = [revision_of(await ws.receive_from(timeout=5))]
    while not await ws.receive_nothing(timeout=1.0):
        seen.append(revision_of(await ws.receive_from(timeout=1)))
    assert seen == [2], seen  # revision 1, rendered late, is never sent after 2
    await ws.disconnect()


async def test_a_tap_that_reloads_its_session_after_commit_never_leaves_a_phone_behind(
    make_session, monkeypatch
):
    # The committing thread hands its session to this process's table, then goes
    # on using it: a POST answered without a live socket reloads it from the
    # database, by then at the next tap's revision. The table must keep what was
    # committed (revision 1), render it, and still take revision 2 when told.
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    table = live.table_here(session.pk)
    assert table is not None
    announced: list[int] = []

    def handed_over_unannounced(session_id, revision, handed=()):
        # The table is given the revision's snapshot, and no socket is woken.
        announced.append(revision)
        for to, snapshot, parts in handed:
            to.loop.call_soon_threadsafe(to.offer, snapshot, parts)

    monkeypatch.setattr(live, "announce", handed_over_unannounced)

    first = await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    await asyncio.sleep(0.05)  # the offer of revision 1 reached the table
    offered = table.snapshot
    assert offered is not None and offered.revision == 1
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "banshee"), token="host", key=next_key()
    )
    await sync_to_async(first.session.refresh_from_db)()  # the reply's reload: revision 2
    assert first.session.revision == 2
    assert offered.revision == 1 and offered.session.revision == 1  # not changed under it

    for revision in announced:
        table.announced(revision)
    seen = []
    while not seen or seen[-1] != 2:
        seen.append(revision_of(await ws.receive_from(timeout=5)))
    assert seen == sorted(seen) and seen[-1] == 2
    await ws.disconnect()


async def test_a_lost_announcement_is_caught_by_the_heartbeat(make_session, monkeypatch):
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    monkeypatch.setattr("companion.live.announce", lambda session_id, revision, handed=(): None)
    monkeypatch.setattr(live, "VERIFY_SECONDS", 0.0)
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    assert await ws.receive_nothing(timeout=0.3)  # nobody announced it
    await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 0}))
    pong = json.loads(await ws.receive_from(timeout=5))
    assert pong["type"] == "pong"
    frame = await ws.receive_from(timeout=5)
    assert 'data-version="1"' in frame
    await ws.disconnect()


@needs_redis
async def test_news_the_heartbeat_caught_makes_the_relay_say_again_that_it_listens(
    make_session, monkeypatch
):
    # A revision nobody announced to this process: a relay elsewhere may hold its
    # announcements back, believing nobody else listens (a word lost on the way),
    # so this relay says again on the channel that it listens.
    import redis.asyncio
    from django.conf import settings

    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    channel = live.redis_channel(live.group_name(session.pk))
    admin = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    listener = admin.pubsub()
    await listener.subscribe(channel)
    monkeypatch.setattr("companion.live.announce", lambda session_id, revision, handed=(): None)
    monkeypatch.setattr(live, "VERIFY_SECONDS", 0.0)
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 0}))
    assert json.loads(await ws.receive_from(timeout=5))["type"] == "pong"
    assert 'data-version="1"' in await ws.receive_from(timeout=5)
    assert await _messages(listener) == [f"{live.COME} {live.ORIGIN}".encode()]
    await ws.disconnect()
    await listener.aclose()
    await admin.aclose()


async def test_a_failure_after_commit_is_not_an_error_and_a_retry_changes_nothing(
    make_session, monkeypatch
):
    session = await new_session(make_session)

    def down(session_id, revision, handed=()):
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr("companion.live.announce", down)
    key = next_key()
    first = await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=key
    )
    again = await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=key
    )
    assert first.created and not again.created
    assert again.action.version == first.action.version == 1
    stored = await sync_to_async(GameSession.objects.get)(pk=session.pk)
    assert stored.version == 1 and len(stored.state["players"][2]["damage"]) == 1


async def test_a_phone_showing_an_old_revision_gets_the_current_one(make_session, monkeypatch):
    monkeypatch.setattr(consumers, "APPLY_SECONDS", 0.0)  # as if it had had the time
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    assert 'data-version="1"' in await ws.receive_from(timeout=5)
    # The phone says it shows revision 0 (it could not apply the frame): resent whole.
    await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 0}))
    assert json.loads(await ws.receive_from(timeout=5))["type"] == "pong"
    frame = await ws.receive_from(timeout=5)
    assert 'data-version="1"' in frame and 'id="board"' in frame
    await ws.disconnect()


async def test_a_quiet_phone_hears_the_server_beat_without_asking(make_session, monkeypatch):
    """Nothing happens at the table and the phone sends nothing: the server still
    says it is there, about once a beat, so the phone stays "live" between its own
    rare pings (two silent seconds and it would say it is offline)."""
    monkeypatch.setattr(consumers, "BEAT_SECONDS", 0.2)
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    loop = asyncio.get_running_loop()
    heard: list[tuple[float, dict]] = []
    start = loop.time()
    while loop.time() - start < 1.2:
        heard.append((loop.time(), json.loads(await ws.receive_from(timeout=1))))
    assert len(heard) >= 4
    assert all(message == {"type": "pong", "revision": 0} for _at, message in heard)
    times = [start] + [at for at, _message in heard]
    assert max(b - a for a, b in itertools.pairwise(times)) < 0.45  # never two beats missed
    await ws.disconnect()


async def test_a_socket_busy_with_frames_is_sent_no_beat_on_top(make_session, monkeypatch):
    """A phone that is being sent the table's changes knows the server is there:
    the beat goes only to a socket that has been quiet for half a beat."""
    monkeypatch.setattr(consumers, "BEAT_SECONDS", 1.0)
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    kinds = []
    for _ in range(15):  # a change every tenth of a second or so, for two seconds
        await sync_to_async(services.submit_action)(
            session, shot("dstructor", "dozer"), token="host", key=next_key()
        )
        frame = await ws.receive_from(timeout=5)
        kinds.append("pong" if frame.startswith("{") else "frame")
        await asyncio.sleep(0.1)
    assert kinds == ["frame"] * 15
    await ws.disconnect()


async def test_one_sockets_failed_beat_does_not_silence_the_others(
    make_session, monkeypatch, caplog
):
    """Every socket of a process beats from one task: a beat that fails is logged,
    and the other phones keep hearing theirs (else they would all go "offline")."""
    monkeypatch.setattr(consumers, "BEAT_GROUPS", 1)  # both in the one group
    monkeypatch.setattr(consumers, "BEAT_SECONDS", 0.2)
    real = consumers.SessionConsumer.beat

    async def beat(self, now):
        if self.token == "phone-a":
            raise RuntimeError("this socket's beat fails")
        await real(self, now)

    monkeypatch.setattr(consumers.SessionConsumer, "beat", beat)
    session = await new_session(make_session)
    failing = await _connected(session, "phone-a")
    ws = await _connected(session, "phone-b")
    for _ in range(3):
        assert json.loads(await ws.receive_from(timeout=1))["type"] == "pong"
    assert "a heartbeat failed" in caplog.text
    await failing.disconnect()
    await ws.disconnect()


async def test_a_phone_that_leaves_stops_the_beat_quietly(make_session, monkeypatch, caplog):
    monkeypatch.setattr(consumers, "BEAT_SECONDS", 0.1)
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    assert json.loads(await ws.receive_from(timeout=1))["type"] == "pong"
    await ws.disconnect()
    await asyncio.sleep(0.5)  # five beats' time
    assert _table_count(session.pk) == 0
    assert "a live update failed" not in caplog.text
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


async def test_a_phone_that_stops_beating_is_closed(make_session, monkeypatch):
    """The server's beat, which visits every socket, closes one whose phone pinged
    and then went quiet; a phone that never pinged (an old page) is left open."""
    monkeypatch.setattr(consumers, "BEAT_SECONDS", 0.2)
    monkeypatch.setattr(consumers, "QUIET_SECONDS", 0.6)
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    silent = await _connected(session, "phone-c")
    await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 0}))
    pongs = 0
    while (said := await ws.receive_output(timeout=3))["type"] == "websocket.send":
        assert json.loads(said["text"])["type"] == "pong"
        pongs += 1
    assert said == {"type": "websocket.close", "code": 4408}
    assert pongs >= 2  # its answer, then the beat's until it was found quiet
    await asyncio.sleep(0.1)
    assert _table_count(session.pk) == 1  # the silent phone is still at its table
    assert json.loads(await silent.receive_from(timeout=1))["type"] == "pong"
    await silent.disconnect()


def test_a_tap_whose_push_fails_after_commit_is_answered_as_done_and_a_retry_changes_nothing(
    make_session, monkeypatch
):
    from tests.conftest import phone

    session = make_session()
    services.claim_seat(session, 0, "phone-a")

    def down(session_id, revision, handed=()):
        raise ConnectionError("Redis blipped after the commit")

    monkeypatch.setattr("companion.live.announce", down)
    client = phone("phone-a")
    fields = {
        "type": "shot",
        "shooter": "dstructor",
        "hits.0.target": "dozer",
        "hits.0.damage": "1",
        "hits.0.marks": "0",
        "key": "the-same-key",
    }
    first = client.post(f"/s/{session.code}/act", fields, HTTP_HX_REQUEST="true")
    again = client.post(f"/s/{session.code}/act", fields, HTTP_HX_REQUEST="true")
    assert first.status_code == again.status_code == 200
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.version == 1 and len(stored.state["players"][2]["damage"]) == 1


async def test_after_redis_comes_back_every_table_checks_its_revision_in_one_query(
    make_session, monkeypatch
):
    # Redis pub/sub keeps nothing for a subscriber that was away: when the relay's
    # subscription reconnects, the tables ask the database (the restart itself is
    # tests/companion/test_live_faults.py's). A recent check does not stop them.
    sessions = [await new_session(make_session) for _ in range(2)]
    phones = [await _connected(session, f"phone-{i}") for i, session in enumerate(sessions)]
    reads = _count_revision_reads(monkeypatch)
    live.relay().reconnected()
    await asyncio.sleep(live.CHECK_BATCH_SECONDS + 0.3)
    assert reads == [sorted(session.pk for session in sessions)]
    for ws in phones:
        await ws.disconnect()


async def test_a_heartbeat_crossing_a_frame_on_the_way_gets_no_second_copy(make_session):
    # At a busy table a ping often leaves the phone while a newer frame is on its
    # way: the phone is not behind, so the whole table is not sent again.
    session = await new_session(make_session)
    ws = await _connected(session, "phone-b")
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    assert 'data-version="1"' in await ws.receive_from(timeout=5)
    await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 0}))
    assert json.loads(await ws.receive_from(timeout=5))["type"] == "pong"
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


async def test_the_revision_checks_of_many_tables_are_one_query(make_session, monkeypatch):
    # Every phone beats a heart a second; each table checks the database's revision
    # every few seconds: the tables of a process that ask together are one query.
    sessions = [await new_session(make_session) for _ in range(3)]
    phones = [await _connected(session, f"phone-{i}") for i, session in enumerate(sessions)]
    reads = _count_revision_reads(monkeypatch)
    monkeypatch.setattr(live, "VERIFY_SECONDS", 0.0)
    for ws in phones:
        await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 0}))
    for ws in phones:
        assert json.loads(await ws.receive_from(timeout=5))["type"] == "pong"
    await asyncio.sleep(live.CHECK_BATCH_SECONDS + 0.3)
    assert reads == [sorted(session.pk for session in sessions)]
    for ws in phones:
        assert await ws.receive_nothing(timeout=0.2)  # nothing new: nothing sent
        await ws.disconnect()


@needs_redis
async def test_a_burst_of_announcements_reaches_the_other_processes_whole_and_in_order(caplog):
    # Hundreds of tables changing at once on one process (a busy evening): every
    # announcement reaches the other processes, in order, and none is refused for
    # want of a Redis connection (redis-py's pool holds 100).
    import redis.asyncio
    from django.conf import settings

    channel = live.redis_channel(f"session.burst-{next_key()}")
    listener = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    subscription = listener.pubsub()
    await subscription.subscribe(channel)
    loop = asyncio.get_running_loop()
    for revision in range(1, 301):
        live._publish_on_loop(channel, f"{revision} another-process")
    heard: list[int] = []
    deadline = loop.time() + 10
    while len(heard) < 300 and loop.time() < deadline:
        message = await subscription.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is not None:
            heard.append(int(message["data"].split()[0]))
    assert heard == list(range(1, 301))
    assert "could not announce" not in caplog.text
    await subscription.aclose()
    await listener.aclose()
    publishing = live._RELAYS.pop(loop)._publishing
    if publishing is not None:
        await publishing.aclose()


@needs_redis
async def test_a_process_alone_with_a_table_does_not_hear_its_own_news_and_others_still_do():
    # The announcement goes on Redis only where another process listens: a table
    # alone in its process costs its relay nothing more (it used to hear each of its
    # own announcements back, and throw it away). A process that comes says so on
    # the channel, and is told the last announcement and every one after.
    import redis.asyncio
    from django.conf import settings

    group, channel = _session_channel(900_000)
    relay = live.relay()
    heard: list[bytes] = []
    real_heard = relay.heard

    def hearing(channel: bytes, data: bytes) -> None:
        heard.append(data)
        real_heard(channel, data)

    relay.heard = hearing  # type: ignore[method-assign]
    await relay.join(group)
    admin = redis.asyncio.Redis.from_url(settings.REDIS_URL)

    async def numsub(name: str) -> int:
        return dict(await admin.pubsub_numsub(name))[name.encode()]

    # The relay's own subscription, and its marker, counted together.
    assert await numsub(channel) == 1
    assert await numsub(live._marker(channel)) == 1
    live._publish_on_loop(channel, f"1 {live.ORIGIN}")
    await asyncio.sleep(0.5)
    assert heard == []  # nothing came back: nothing was published

    listener = admin.pubsub()

    # Another process's relay comes: subscribed, it says so on the channel.
    await listener.subscribe(channel)
    await admin.publish(channel, f"{live.COME} another-process")
    assert await _messages(listener, 2) == [
        f"{live.COME} another-process".encode(),  # its own word
        f"1 {live.ORIGIN}".encode(),  # told again
    ]
    live._publish_on_loop(channel, f"2 {live.ORIGIN}")
    assert await _messages(listener) == [f"2 {live.ORIGIN}".encode()]

    # Leaving, the relay leaves the channel and its marker in one command.
    await relay.join(f"session.{910_000 + int(next_key().rpartition('-')[2])}")  # stays on
    await relay.leave(group)
    assert await numsub(live._marker(channel)) == 0
    assert await numsub(channel) == 1  # the listener
    live._publish_on_loop(channel, "3 another-process")  # this relay is not counted out
    assert await _messages(listener) == [b"3 another-process"]
    await listener.aclose()
    await admin.aclose()
    await _relay_done(relay)


async def _relay_counting_commands(group: str) -> tuple[live.Relay, list[tuple]]:
    """This loop's relay, joined to ``group``, and the commands it sends Redis from
    now on (sent as ever: each is counted on its way)."""
    from django.conf import settings

    relay = live.relay()
    await relay.join(group)
    await asyncio.sleep(0.3)  # Redis confirms the subscription; nobody else to tell
    sent: list[tuple] = []
    if relay._publishing is None:
        relay._publishing = live._Announcer(settings.REDIS_URL)
    real_send = relay._publishing.send

    async def counted(commands):
        sent.extend(commands)
        return await real_send(commands)

    relay._publishing.send = counted  # type: ignore[method-assign]
    return relay, sent


@needs_redis
async def test_a_table_alone_in_its_process_sends_redis_nothing_a_tap_until_another_comes():
    # One process's table, its phones all on it: after the first tap finds nobody
    # else listening, the taps cost Redis nothing. A process that comes and goes
    # is told while it listens; once it has gone, the taps cost nothing again.
    import redis.asyncio
    from django.conf import settings

    group, channel = _session_channel(920_000)
    relay, sent = await _relay_counting_commands(group)

    async def settled() -> None:
        while relay._sending is not None and not relay._sending.done():
            await asyncio.sleep(0.01)

    for revision in range(1, 7):
        live._publish_on_loop(channel, f"{revision} {live.ORIGIN}")
        await settled()
    assert [command[-1] for command in sent] == [f"1 {live.ORIGIN}"]

    admin = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    listener = admin.pubsub()
    await listener.subscribe(channel)
    await admin.publish(channel, f"{live.COME} another-process")
    assert await _messages(listener, 2) == [
        f"{live.COME} another-process".encode(),
        f"6 {live.ORIGIN}".encode(),  # what it may have missed
    ]
    live._publish_on_loop(channel, f"7 {live.ORIGIN}")
    assert await _messages(listener) == [f"7 {live.ORIGIN}".encode()]

    await listener.unsubscribe(channel)  # the other process goes
    await listener.aclose()
    await admin.aclose()
    sent.clear()
    for revision in range(8, 12):
        live._publish_on_loop(channel, f"{revision} {live.ORIGIN}")
        await settled()
    assert [command[-1] for command in sent] == [f"8 {live.ORIGIN}"]  # found alone again
    await _relay_done(relay)


@needs_redis
async def test_an_answer_sent_before_another_process_came_does_not_leave_it_untold():
    # Redis answers "nobody else listens" to an announcement; before the answer is
    # read, another process subscribes and its word that it has come is heard; then
    # telling it the last announcement again fails (Redis drops the connection).
    # The answer predates that process, so the next announcement still goes to it.
    import redis.asyncio
    from django.conf import settings

    group, channel = _session_channel(930_000)
    relay, _sent = await _relay_counting_commands(group)
    real_send = relay._publishing.send
    admin = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    listener = admin.pubsub()
    calls = itertools.count()

    async def crossed(commands):
        call = next(calls)
        if call == 1:  # telling it again
            raise redis.exceptions.ConnectionError("Redis went away for a moment")
        answers = await real_send(commands)
        if call == 0:  # the word comes while the first answer is on its way
            await listener.subscribe(channel)
            relay.heard(channel.encode(), f"{live.COME} another-process".encode())
        return answers

    relay._publishing.send = crossed  # type: ignore[method-assign]
    live._publish_on_loop(channel, f"1 {live.ORIGIN}")
    await asyncio.sleep(0.3)
    live._publish_on_loop(channel, f"2 {live.ORIGIN}")
    assert await _messages(listener) == [f"2 {live.ORIGIN}".encode()]
    await listener.aclose()
    await admin.aclose()
    await _relay_done(relay)


@needs_redis
async def test_announcements_go_on_after_redis_drops_the_connection_and_a_refusal_keeps_step():
    # The relay's own connection for its announcements: when Redis drops it (a
    # restart, an administrator), the next announcement still gets through; when
    # Redis refuses one command of a batch, the others are still made and the
    # replies stay in step with the commands.
    import redis.asyncio
    from django.conf import settings

    channel = live.redis_channel(f"session.dropped-{next_key()}")
    admin = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    listener = admin.pubsub()
    await listener.subscribe(channel)
    announcer = live._Announcer(settings.REDIS_URL)

    async def heard() -> bytes | None:
        deadline = asyncio.get_running_loop().time() + 3
        while asyncio.get_running_loop().time() < deadline:
            message = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
            if message is not None:
                return message["data"]
        return None

    assert await announcer.send([("PUBLISH", channel, "1 another")]) == [1]
    assert await heard() == b"1 another"
    [own_id] = await announcer.send([("CLIENT", "ID")])
    await admin.client_kill_filter(_id=own_id)
    assert await announcer.send([("PUBLISH", channel, "2 another")]) == [1]
    assert await heard() == b"2 another"

    with pytest.raises(redis.exceptions.ResponseError, match="not today"):
        await announcer.send(
            [
                ("PUBLISH", channel, "3 another"),
                ("EVAL", "return redis.error_reply('not today')", 0),
                ("PUBLISH", channel, "4 another"),
            ]
        )
    assert [await heard(), await heard()] == [b"3 another", b"4 another"]
    assert await announcer.send([("ECHO", "in step")]) == [b"in step"]
    await announcer.aclose()
    await listener.aclose()
    await admin.aclose()


def test_a_tables_parts_are_rendered_a_language_at_a_time_and_handed_back_in_order():
    from django.utils import translation

    from companion import fragments
    from companion.live import _in_turn

    jobs = [("shared", None, "it"), ("personal", None, "en"), ("personal", None, "it")]
    seen: list[tuple[str, str]] = []
    store = fragments.Store()

    def render(job):
        seen.append((job[2], translation.get_language()))
        assert fragments.in_use(store, job[2])  # the store, in the part's language
        return (job[0], translation.gettext("What happened"))

    with translation.override("en"):
        found = _in_turn(jobs, render, store)
        assert translation.get_language() == "en"  # as it was
    assert not fragments.in_use(store, "en")
    assert all(asked == active for asked, active in seen)  # each in its own language
    assert [asked for asked, _active in seen] == ["en", "it", "it"]  # one switch each
    assert found == [
        ("shared", "Cos'è successo"),
        ("personal", "What happened"),
        ("personal", "Cos'è successo"),
    ]
