"""Taps on the socket: a phone sends its game actions and undos on the socket it
already holds, answered by their one-time key; the same tap as its POST, never
applied twice whichever way it is retried, and every bad tap refused with a reason
that changes nothing."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from asgiref.sync import sync_to_async

from companion import services
from companion.models import GameSession
from tests.companion.test_consumers import communicator, new_session, phone_cookie
from tests.conftest import next_key, phone, shot
from tests.support.client import socket_answer

pytestmark = pytest.mark.django_db(transaction=True)


def tap(path: str, fields: dict[str, str | list[str]]) -> str:
    return json.dumps({"type": "tap", "path": path, "body": urllib.parse.urlencode(fields, True)})


def hit(code: str, target: str, key: str, damage: str = "1") -> str:
    return tap(
        f"/s/{code}/act",
        {
            "type": "shot",
            "shooter": "dstructor",
            "hits.0.target": target,
            "hits.0.damage": damage,
            "hits.0.marks": "0",
            "key": key,
        },
    )


async def answer_to(ws, timeout: float = 5) -> dict:
    """Read frames until the answer to a tap comes (updates may come first)."""
    while True:
        answer = socket_answer(await ws.receive_from(timeout=timeout))
        if answer is not None:
            return answer


async def open_socket(code: str, token: str = "", lang: str = "en"):
    ws = communicator(f"/ws/s/{code}/?lang={lang}", await phone_cookie(token) if token else "")
    assert (await ws.connect())[0]
    await ws.receive_from(timeout=5)  # the whole table
    return ws


@sync_to_async
def stored(session) -> GameSession:
    return GameSession.objects.get(pk=session.pk)


@sync_to_async
def seated(make_session, *tokens: str):
    session = make_session()
    for index, token in enumerate(tokens):
        services.claim_seat(session, index, token)
    return session


async def test_a_tap_on_the_socket_is_applied_and_the_other_phone_sees_it(make_session):
    session = await seated(make_session, "anna", "bruno")
    anna = await open_socket(session.code, "anna")
    bruno = await open_socket(session.code, "bruno")
    await anna.send_to(text_data=hit(session.code, "dozer", "tap-1", damage="2"))
    answer = await answer_to(anna)
    assert answer == {"type": "done", "key": "tap-1", "version": 1}
    frame = await bruno.receive_from(timeout=5)
    assert 'data-version="1"' in frame and "D-struct-OR hits Dozer: 2 damage." in frame
    assert (await stored(session)).version == 1
    await anna.disconnect()
    await bruno.disconnect()


async def test_a_tap_sent_again_with_its_key_is_applied_once_by_socket_or_post(make_session):
    # The phone lost the answer (its socket dropped): it sends the tap again, on a
    # new socket or as a POST, with the same key.
    session = await seated(make_session, "anna")
    ws = await open_socket(session.code, "anna")
    await ws.send_to(text_data=hit(session.code, "dozer", "again-1"))
    assert (await answer_to(ws))["version"] == 1
    await ws.send_to(text_data=hit(session.code, "dozer", "again-1"))
    assert await answer_to(ws) == {"type": "done", "key": "again-1", "version": 1}
    response = await sync_to_async(phone("anna").post)(
        f"/s/{session.code}/act",
        {
            "type": "shot",
            "shooter": "dstructor",
            "hits.0.target": "dozer",
            "hits.0.damage": "1",
            "key": "again-1",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    after = await stored(session)
    assert after.version == 1 and len(after.state["players"][2]["damage"]) == 1
    await ws.disconnect()


async def test_a_refused_tap_says_why_in_the_phones_language_and_changes_nothing(make_session):
    session = await seated(make_session, "anna")
    ws = await open_socket(session.code, "anna", lang="it")
    await ws.send_to(text_data=tap(f"/s/{session.code}/undo", {"expected": "1", "key": "u-1"}))
    answer = await answer_to(ws)
    assert answer["type"] == "refused" and answer["key"] == "u-1" and answer["status"] == 409
    assert 'id="messages"' in answer["html"] and "niente da annullare" in answer["html"]
    assert (await stored(session)).revision == 1  # the seat taken; nothing more
    await ws.disconnect()


async def test_undo_on_the_socket_names_what_it_takes_back(make_session):
    session = await seated(make_session, "anna")
    ws = await open_socket(session.code, "anna")
    await ws.send_to(text_data=hit(session.code, "dozer", "s-1"))
    assert (await answer_to(ws))["version"] == 1
    await ws.send_to(text_data=hit(session.code, "banshee", "s-2"))
    assert (await answer_to(ws))["version"] == 2
    # A phone that still shows the first shot as the last one: refused.
    await ws.send_to(text_data=tap(f"/s/{session.code}/undo", {"expected": "1", "key": "u-1"}))
    stale = await answer_to(ws)
    assert stale["type"] == "refused" and stale["status"] == 409
    await ws.send_to(text_data=tap(f"/s/{session.code}/undo", {"expected": "2", "key": "u-2"}))
    assert (await answer_to(ws))["type"] == "done"
    after = await stored(session)
    assert after.state["players"][1]["damage"] == [] and len(after.state["players"][2]["damage"])
    await ws.disconnect()


@pytest.mark.parametrize(
    ("what", "message", "status"),
    [
        ("another table's path", "/s/ZZZZZ/act", 404),
        ("a page, not a tap", "/s/{code}/seats/0/free", 404),
        ("no such page", "/nowhere", 404),
        ("a long made-up path", "/s/{code}/" + "act" * 40, 404),
        ("a NUL in the body", "nul", 400),
        ("a malformed key", "badkey", 400),
        ("a field no form has", "badfield", 400),
        ("too many fields", "manyfields", 400),
    ],
)
async def test_a_bad_tap_is_refused_with_a_reason_and_changes_nothing(
    make_session, what, message, status
):
    session = await seated(make_session, "anna")
    ws = await open_socket(session.code, "anna")
    fields: dict[str, str | list[str]] = {
        "type": "shot",
        "shooter": "dstructor",
        "hits.0.target": "dozer",
        "hits.0.damage": "1",
        "key": next_key(),
    }
    path = f"/s/{session.code}/act"
    if message.startswith("/"):
        path = message.format(code=session.code)
    elif message == "nul":
        fields["hits.0.target"] = "do\x00zer"
    elif message == "badkey":
        fields["key"] = "timeout:1:0"
    elif message == "badfield":
        fields["a.b.c.d"] = "1"
    elif message == "manyfields":
        fields.update({f"f{n}": "1" for n in range(201)})  # a form may have 200
    text = tap(path, fields)
    assert len(text) < 16 * 1024  # within the socket's message limit
    await ws.send_to(text_data=text)
    answer = await answer_to(ws)
    assert answer["type"] == "refused", what
    assert answer["status"] == status, (what, answer)
    assert 'class="error"' in answer["html"]
    after = await stored(session)
    assert after.version == 0 and after.revision == 1, what
    await ws.disconnect()


async def test_a_tap_without_a_seat_or_from_the_watch_link_is_refused(make_session):
    session = await seated(make_session, "anna")
    stranger = await open_socket(session.code, "stranger")
    await stranger.send_to(text_data=hit(session.code, "dozer", "x-1"))
    answer = await answer_to(stranger)
    assert answer["status"] == 403 and "Take a seat" in answer["html"]
    watcher = communicator(f"/ws/w/{session.spectator_key}/")
    assert (await watcher.connect())[0]
    await watcher.receive_from(timeout=5)
    # A watcher knows no code; even with the right path it may not play.
    await watcher.send_to(text_data=hit(session.code, "dozer", "x-2"))
    answer = await answer_to(watcher)
    assert answer["status"] == 403 and "Watchers cannot change the game" in answer["html"]
    assert (await stored(session)).version == 0
    await stranger.disconnect()
    await watcher.disconnect()


async def test_a_failure_after_commit_answers_done_and_a_retry_changes_nothing(
    make_session, monkeypatch
):
    session = await seated(make_session, "anna")
    ws = await open_socket(session.code, "anna")

    def down(session_id, revision, handed=()):
        raise ConnectionError("the channel layer is down")

    monkeypatch.setattr("companion.live.announce", down)
    await ws.send_to(text_data=hit(session.code, "dozer", "f-1"))
    assert await answer_to(ws) == {"type": "done", "key": "f-1", "version": 1}
    await ws.send_to(text_data=hit(session.code, "dozer", "f-1"))
    assert await answer_to(ws) == {"type": "done", "key": "f-1", "version": 1}
    after = await stored(session)
    assert after.version == 1 and len(after.state["players"][2]["damage"]) == 1
    await ws.disconnect()


async def test_a_tap_the_server_fails_on_says_failed_so_the_phone_sends_it_again(
    make_session, monkeypatch
):
    session = await seated(make_session, "anna")
    ws = await open_socket(session.code, "anna")
    real = services.submit_action_at
    calls = []

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise ConnectionError("the database went away")
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "submit_action_at", flaky)
    await ws.send_to(text_data=hit(session.code, "dozer", "r-1"))
    assert await answer_to(ws) == {"type": "failed", "key": "r-1"}
    assert (await stored(session)).version == 0
    await ws.send_to(text_data=hit(session.code, "dozer", "r-1"))
    assert await answer_to(ws) == {"type": "done", "key": "r-1", "version": 1}
    await ws.disconnect()


async def test_heartbeats_are_answered_while_a_tap_is_applied(make_session, monkeypatch):
    # A slow write must not make the phone think its connection is gone.
    import threading

    session = await seated(make_session, "anna")
    ws = await open_socket(session.code, "anna")
    release = threading.Event()
    real = services.submit_action_at

    def slow(*args, **kwargs):
        release.wait(5)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "submit_action_at", slow)
    await ws.send_to(text_data=hit(session.code, "dozer", "slow-1"))
    await ws.send_to(text_data=json.dumps({"type": "ping", "revision": 1}))
    pong = json.loads(await ws.receive_from(timeout=2))
    assert pong["type"] == "pong"
    release.set()
    assert (await answer_to(ws))["type"] == "done"
    await ws.disconnect()


async def test_shot_from_the_services_still_reaches_a_socket(make_session):
    # Changes made elsewhere (a POST, a timer, a bot) reach the sockets as before.
    session = await new_session(make_session)
    ws = await open_socket(session.code, "viewer")
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    assert 'data-version="1"' in await ws.receive_from(timeout=5)
    await ws.disconnect()


async def test_taps_never_take_more_pooled_connections_than_there_are_tap_threads(make_session):
    # On PostgreSQL taps run in a few threads, each keeping one pooled connection
    # from one tap to the next (tests/companion/test_tap_threads.py): tap after
    # tap, the pool keeps the rest for the pages and the sockets' reads.
    from django.conf import settings
    from django.db import connection

    pool = await sync_to_async(lambda: getattr(connection, "pool", None))()
    if pool is None:
        pytest.skip("set DATABASE_URL=postgres://… (a connection pool) to run it")
    session = await new_session(make_session)
    await sync_to_async(services.claim_seat)(session, 0, "phone-a")
    ws = await open_socket(session.code, "phone-a")
    for n in range(12):
        await ws.send_to(text_data=hit(session.code, "dozer", f"pool-{n}"))
        assert (await answer_to(ws))["type"] == "done"
    stats = pool.get_stats()
    # Held: this test's own connection, the one of Channels' database thread (the
    # socket's reads) and at most one a tap thread.
    held = stats["pool_size"] - stats["pool_available"]
    assert held <= 2 + settings.SEGNALINO_TAP_THREADS < pool.max_size, stats
    await ws.disconnect()


async def tap_watched_on_postgresql(make_session, monkeypatch, prerender, damage: str) -> str:
    """Phone A hits Dozer on PostgreSQL with the tables' ``prerender`` replaced by
    ``prerender(real, table, snapshot)``; what phone B is then sent (skips elsewhere)."""
    from django.db import connection

    from companion import live

    if await sync_to_async(lambda: connection.vendor)() != "postgresql":
        pytest.skip("set DATABASE_URL=postgres://… to run it")
    real = live.Table.prerender
    monkeypatch.setattr(
        live.Table, "prerender", lambda table, snapshot: prerender(real, table, snapshot)
    )
    session = await new_session(make_session)
    await sync_to_async(services.claim_seat)(session, 0, "phone-a")
    await sync_to_async(services.claim_seat)(session, 1, "phone-b")
    ws_a = await open_socket(session.code, "phone-a")
    ws_b = await open_socket(session.code, "phone-b")
    await ws_a.send_to(text_data=hit(session.code, "dozer", next_key(), damage=damage))
    assert (await answer_to(ws_a))["type"] == "done"
    update = await ws_b.receive_from(timeout=5)
    await ws_a.disconnect()
    await ws_b.disconnect()
    return update


@pytest.mark.parametrize("table_knows", [True, False], ids=["known revision", "locked"])
async def test_on_postgresql_a_tap_is_rendered_while_it_is_written_and_sent_after_commit(
    make_session, monkeypatch, table_knows
):
    # The table renders the new revision once, while PostgreSQL runs the write (sent,
    # its answer not read yet: libpq says a command is in progress); the other phone
    # is sent it only once it is committed. Where the table knows the session's
    # revision, the write is one statement on its own, made only if the session is
    # still there; else (``live.known`` finds nothing) the tap locks the session in
    # a transaction, and the write goes with its COMMIT.
    import psycopg
    from django.db import connection

    from companion import live

    if not table_knows:
        monkeypatch.setattr(live, "known", lambda **lookup: None)
    renders: list[tuple[int, bool, bool]] = []

    def prerender(real, table, snapshot):
        raw = connection.connection
        running = (
            raw is not None and raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.ACTIVE
        )
        renders.append((snapshot.revision, connection.in_atomic_block, running))
        return real(table, snapshot)

    update = await tap_watched_on_postgresql(make_session, monkeypatch, prerender, "2")
    assert 'data-damage="2"' in update
    inside = not table_knows
    assert [(inside, True)] == [(inside, running) for _r, inside, running in renders]


async def test_on_postgresql_a_render_that_fails_ahead_is_done_by_the_table_after_commit(
    make_session, monkeypatch
):
    # Rendering ahead is never the tap's failure: what could not be rendered the
    # table renders on its way to the sockets, after the commit, and the other
    # phone is sent the revision all the same.
    calls: list[int] = []

    def prerender(real, table, snapshot):
        calls.append(snapshot.revision)
        if len(calls) == 1:
            raise RuntimeError("a template that fails once")
        return real(table, snapshot)

    update = await tap_watched_on_postgresql(make_session, monkeypatch, prerender, "3")
    assert 'data-damage="3"' in update
    assert len(calls) == 1  # ahead, failed: not handed over, rendered by the table


async def test_on_postgresql_a_render_ahead_that_would_read_the_log_is_left_to_the_table(
    make_session, monkeypatch, caplog
):
    # The write travels while the table renders ahead (with its COMMIT, or committed
    # on its own): the connection is busy, and a read could see a later tap. A
    # render ahead that reads the database (the log past the table's tail, say) is
    # refused, quietly, and the table renders it after the commit.
    from companion.models import GameSession

    asked: list[int] = []

    def prerender(real, table, snapshot):
        asked.append(snapshot.revision)
        GameSession.objects.count()
        return real(table, snapshot)

    update = await tap_watched_on_postgresql(make_session, monkeypatch, prerender, "4")
    assert 'data-damage="4"' in update
    assert len(asked) == 1  # tried ahead, refused; the table's own render does not ask
    assert "could not render" not in caplog.text


async def test_a_tap_wakes_the_servers_event_loop_once(make_session, monkeypatch):
    # On PostgreSQL a tap runs in a tap thread, which hands the event loop what it
    # committed (the parts, the announcement, the publish) and the tap's answer in
    # one call: each call from another thread wakes the loop (a write to its
    # wake-up descriptor, and a turn of the interpreter's lock).
    import asyncio
    import threading

    from django.db import connection

    if await sync_to_async(lambda: connection.vendor)() != "postgresql":
        pytest.skip("set DATABASE_URL=postgres://… (taps run in tap threads there) to run it")
    session = await seated(make_session, "anna", "bruno")
    anna = await open_socket(session.code, "anna")
    bruno = await open_socket(session.code, "bruno")
    loop, here = asyncio.get_running_loop(), threading.get_ident()
    woken: list[object] = []
    real = loop.call_soon_threadsafe

    def counted(callback, *args, **kwargs):
        if threading.get_ident() != here:
            woken.append(callback)
        return real(callback, *args, **kwargs)

    monkeypatch.setattr(loop, "call_soon_threadsafe", counted)
    await anna.send_to(text_data=hit(session.code, "dozer", "once-1"))
    assert await answer_to(anna) == {"type": "done", "key": "once-1", "version": 1}
    assert 'data-version="1"' in await bruno.receive_from(timeout=5)
    assert len(woken) == 1, woken
    await anna.disconnect()
    await bruno.disconnect()
