"""The live path under attack, with two server processes on one Redis: bursts of
taps from many phones, Redis restarted mid-game, a server process killed. No
socket ever goes back to an older revision, and every phone ends on the last one.

The burst and kill tests need ``REDIS_URL`` (CI sets it). The restart test starts
a Redis server of its own (``redis-server`` must be installed), so restarting it
disturbs nothing else.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.client import Phone, damage_of, recv_until
from tests.support.servers import free_port, prepare_database, running_server, sqlite_env

REDIS_URL = os.environ.get("REDIS_URL", "")
_REVISION = re.compile(r'data-revision="(\d+)"')
SETTLE_SECONDS = 8.0  # how long after the last tap every phone must be on the last revision

pytestmark = [pytest.mark.services]


def revision_of(html: str) -> int | None:
    found = _REVISION.search(html)
    return int(found.group(1)) if found else None


def servers_env(directory: str, redis_url: str) -> dict[str, str]:
    env = sqlite_env(
        directory,
        REDIS_URL=redis_url,
        CHANNEL_PREFIX=f"segnalino-test-{uuid.uuid4().hex[:12]}",
        CELERY_EAGER="1",
    )
    prepare_database(env)
    return env


class Watcher:
    """One phone's socket: every revision it is sent, in order."""

    def __init__(self, phone: Phone, code: str) -> None:
        self.phone, self.code = phone, code
        self.revisions: list[int] = []

    async def run(self, stop: asyncio.Event) -> None:
        async with self.phone.socket(self.code) as ws:
            while not stop.is_set():
                try:
                    frame = await asyncio.wait_for(ws.recv(), 0.2)
                except TimeoutError:
                    continue
                found = revision_of(frame if isinstance(frame, str) else frame.decode())
                if found is not None:
                    self.revisions.append(found)


def current_revision(phone: Phone, code: str) -> int:
    found = revision_of(phone.get(f"/s/{code}/").expect(200).text)
    assert found is not None
    return found


@pytest.mark.skipif(not REDIS_URL, reason="set REDIS_URL=redis://127.0.0.1:6379/0 to run it")
async def test_bursts_from_eight_phones_on_two_processes_never_go_back_and_all_end_current(
    tmp_path,
):
    env = servers_env(str(tmp_path), REDIS_URL)
    with (
        running_server(env, log_path=tmp_path / "a.log") as server_a,
        running_server(env, log_path=tmp_path / "b.log") as server_b,
    ):
        host = Phone(server_a)
        code = host.create_session(host_seat="dstructor")
        second = Phone(server_b)
        second.claim(code, 1)
        watchers = [Watcher(Phone(server_a if i % 2 else server_b), code) for i in range(8)]
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(w.run(stop)) for w in watchers]
        await asyncio.sleep(1.0)  # every socket connected

        def burst(phone: Phone, player: str) -> None:
            for delta in (1, -1) * 6:  # a cube on and off: always allowed
                phone.adjust(code, player, "blue", delta).expect(200)

        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(4) as pool:
            jobs = [
                loop.run_in_executor(pool, burst, phone, player)
                for phone, player in (
                    (host, "dozer"),
                    (second, "violet"),
                    (host, "sprog"),
                    (second, "banshee"),
                )
            ]
            await asyncio.gather(*jobs)
        final = current_revision(host, code)
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            if all(w.revisions and w.revisions[-1] == final for w in watchers):
                break
            await asyncio.sleep(0.1)
        stop.set()
        await asyncio.gather(*tasks)

    for watcher in watchers:
        assert watcher.revisions == sorted(watcher.revisions), "a socket went backwards"
        assert watcher.revisions[-1] == final, (watcher.revisions[-5:], final)


@pytest.fixture
def own_redis():
    """A Redis server of this test's own, which it may stop and start again."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed: apt-get install -y redis-server")
    port = free_port()
    command = [
        binary,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
    ]
    state: dict[str, subprocess.Popen] = {}

    def start() -> None:
        state["process"] = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(100):
            if (
                subprocess.run(
                    ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True
                ).stdout.strip()
                == "PONG"
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop() -> None:
        process = state.pop("process", None)
        if process is not None:
            process.send_signal(signal.SIGKILL)
            process.wait()

    start()
    yield f"redis://127.0.0.1:{port}/0", start, stop
    stop()


async def test_after_redis_restarts_the_processes_update_each_others_phones_again(
    tmp_path, own_redis
):
    url, start_redis, stop_redis = own_redis
    env = servers_env(str(tmp_path), url)
    with running_server(env) as server_a, running_server(env) as server_b:
        host = Phone(server_a)
        code = host.create_session(host_seat="dstructor")
        guest = Phone(server_b)
        async with guest.socket(code) as ws:
            await recv_until(ws, lambda f: damage_of(f, "dozer") == 0, 5)
            host.shot(code, "dstructor", "dozer").expect(200)
            await recv_until(ws, lambda f: damage_of(f, "dozer") == 1, 5)

            stop_redis()  # every group and message is gone with it
            # A tap while Redis is down: committed, and answered as such.
            host.shot(code, "dstructor", "dozer").expect(200)
            await asyncio.sleep(1.0)
            start_redis()
            # The relays rejoin, check the revision and bring the phone up to date…
            await recv_until(ws, lambda f: damage_of(f, "dozer") == 2, 10)
            # …and the next taps are pushed across processes again, promptly.
            for expected in (3, 4):
                host.shot(code, "dstructor", "dozer").expect(200)
                await recv_until(ws, lambda f, n=expected: damage_of(f, "dozer") == n, 3)


@pytest.mark.skipif(not REDIS_URL, reason="set REDIS_URL=redis://127.0.0.1:6379/0 to run it")
async def test_a_phone_whose_server_process_dies_reconnects_to_the_other_and_is_current(
    tmp_path,
):
    env = servers_env(str(tmp_path), REDIS_URL)
    with running_server(env) as server_b:
        with running_server(env) as server_a:
            host = Phone(server_b)
            code = host.create_session(host_seat="dstructor")
            on_a = Phone(server_a)
            async with on_a.socket(code) as ws:
                await recv_until(ws, lambda f: damage_of(f, "dozer") == 0, 5)
        # Process A is gone (the proxy sends the phone to B); meanwhile a tap on B.
        host.shot(code, "dstructor", "dozer", damage=2).expect(200)
        on_b = Phone(server_b)
        on_b.jar = on_a.jar  # the same phone: its cookies
        async with on_b.socket(code) as ws:
            first = await recv_until(ws, lambda f: revision_of(f) is not None, 5)
        assert damage_of(first, "dozer") == 2
        assert revision_of(first) == current_revision(host, code)


@pytest.mark.skipif(not REDIS_URL, reason="set REDIS_URL=redis://127.0.0.1:6379/0 to run it")
def test_an_announcement_for_a_loop_that_closed_still_reaches_the_other_processes(settings):
    # A tap thread sends what a tap committed with its answer, to its socket's event
    # loop; if that loop has closed meanwhile (the process is stopping), the
    # publish it held is made from the thread, so other processes' phones hear of
    # the revision at once, not at their next check.
    import functools

    import redis

    from companion import live

    settings.REDIS_URL = REDIS_URL
    channel = f"segnalino-test-{uuid.uuid4().hex[:12]}:session.7"
    listener = redis.Redis.from_url(REDIS_URL).pubsub()
    listener.subscribe(channel)
    assert listener.get_message(timeout=2)["type"] == "subscribe"
    table_news: list[str] = []
    live.undelivered(
        [
            functools.partial(table_news.append, "for this process's sockets"),
            functools.partial(live._publish_on_loop, channel, f"12 {live.ORIGIN}"),
        ]
    )
    heard = listener.get_message(timeout=2)
    assert heard is not None and heard["data"] == f"12 {live.ORIGIN}".encode()
    assert table_news == []  # its sockets closed with the loop
    listener.close()
