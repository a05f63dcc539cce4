"""Several processes behind one address (``config/door.py``): ``python -m config.serve
--workers 2`` keeps the phones of one table in one process, and serves everything else
as one uvicorn would.

Which process served a socket is read from the answer's ``X-Segnalino-Worker: <number>
<pid>`` header, which each worker adds to its answers when ``SEGNALINO_WORKER_HEADER=1``
(uvicorn's default headers, set in the worker from its own ``os.getpid()``); the test
checks that the pid is a child of the door, so the header cannot be true of some other
process. The server tests need PostgreSQL and Redis, as a deployment does.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from config.door import PEEK_SECONDS, table_of, worker_for
from tests.support.client import (
    CHARACTERS,
    Phone,
    damage_of,
    frame_version,
    recv_until,
    socket_answer,
    tap_message,
)
from tests.support.servers import (
    REPO,
    free_port,
    fresh_postgres_database,
    prepare_database,
    running_door,
    server_env,
    stop,
)

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
NEEDS = (
    "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/segnalino and "
    "REDIS_URL=redis://127.0.0.1:6379/0 to run the door's server tests"
)
SERVICES = [
    pytest.mark.services,
    pytest.mark.skipif(not (DATABASE_URL.startswith("postgres") and REDIS_URL), reason=NEEDS),
]


# ---------------------------------------------------------------- routing


def test_a_tables_pages_and_sockets_are_routed_by_its_code_whatever_the_case():
    for line in (
        b"GET /ws/s/ABCDE/?lang=it HTTP/1.1\r\n",
        b"GET /s/abcde/ HTTP/1.1\r\n",
        b"POST /s/AbCdE/act HTTP/1.1\r\nHost: x\r\n",
        b"POST /s/ABCDE/seats/2/claim HTTP/1.1\r\n",
        b"GET /j/abc-de/ HTTP/1.0\n",
        b"GET http://segnalino.example/s/ABCDE/qr.svg HTTP/1.1\r\n",
    ):
        assert table_of(line) == "ABCDE", line
    assert table_of(b"GET /ws/w/k3y/ HTTP/1.1\r\n") == table_of(b"GET /w/k3y/ HTTP/1.1\r\n")


def test_anything_else_has_no_table_and_goes_round_robin():
    for head in (
        b"GET / HTTP/1.1\r\n",
        b"GET /cards/adrenaline/zx-2/ HTTP/1.1\r\n",
        b"GET /static/app.js HTTP/1.1\r\n",
        b"GET /s/ HTTP/1.1\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS hello
        b"GARBAGE\r\n",
        b"",
    ):
        assert table_of(head) is None, head


def test_a_table_always_goes_to_the_same_worker_and_tables_spread_over_all():
    assert worker_for("ABCDE", 4) == worker_for("ABCDE", 4)
    assert {worker_for(f"T{n:04d}", 4) for n in range(100)} == {0, 1, 2, 3}


def test_a_door_whose_workers_cannot_start_stops_with_uvicorns_startup_failure_status():
    with running(
        [sys.executable, "-m", "config.door", "--app", "no_such_module:application",
         "--port", str(free_port()), "--workers", "2"],
    ) as process:  # fmt: skip
        assert process.wait(timeout=60) == 3


@contextmanager
def running(command: list[str]) -> Iterator[subprocess.Popen]:
    process = subprocess.Popen(
        command, cwd=REPO, env=server_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            stop(process)


# ---------------------------------------------------------------- a real door


@pytest.fixture(scope="module")
def door_env() -> Iterator[dict[str, str]]:
    if not (DATABASE_URL.startswith("postgres") and REDIS_URL):
        pytest.skip(NEEDS)
    url, drop = fresh_postgres_database(DATABASE_URL, "door")
    env = server_env(
        DATABASE_URL=url,
        REDIS_URL=REDIS_URL,
        CHANNEL_PREFIX=f"segnalino-test-{uuid.uuid4().hex[:12]}",
        CELERY_EAGER="1",
    )
    try:
        prepare_database(env)
        yield env
    finally:
        drop()


@pytest.fixture(scope="module")
def door(door_env, tmp_path_factory):
    with running_door(door_env, 2, log_path=tmp_path_factory.mktemp("door") / "door.log") as (
        base,
        process,
    ):
        yield base, process


def served_by(headers) -> tuple[int, int]:
    """The worker number and pid an answer names."""
    number, pid = headers["X-Segnalino-Worker"].split()
    return int(number), int(pid)


def parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] != "Z"


def wait_until(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def full_table(base: str) -> tuple[list[Phone], str]:
    """Five phones at one Adrenaline table, each in its own seat."""
    host = Phone(base)
    code = host.create_session(CHARACTERS, host_seat=CHARACTERS[0])
    phones = [host]
    for seat in range(1, 5):
        phone = Phone(base)
        phone.claim(code, seat)
        phones.append(phone)
    return phones, code


class TestOneTablePerProcess:
    pytestmark = SERVICES

    async def test_the_five_sockets_of_a_table_are_served_by_one_worker_and_a_tap_reaches_all(
        self, door
    ):
        base, process = door
        phones, code = full_table(base)
        sockets = [await phone.socket(code) for phone in phones]
        try:
            workers = {served_by(ws.response.headers) for ws in sockets}
            assert len(workers) == 1, workers
            ((number, pid),) = workers
            assert number == worker_for(code, 2)
            assert parent_of(pid) == process.pid  # a worker of this door

            firsts = [
                await recv_until(ws, lambda f: frame_version(f) is not None, 5) for ws in sockets
            ]
            assert all(damage_of(f, "banshee") == 0 for f in firsts)

            fields = {
                "type": "shot",
                "shooter": "dstructor",
                "hits.0.target": "banshee",
                "hits.0.damage": "2",
                "hits.0.marks": "0",
            }
            await sockets[0].send(tap_message(code, fields, key="door-tap-1"))
            answer = await recv_until(sockets[0], lambda f: socket_answer(f) is not None, 5)
            done = socket_answer(answer)
            assert done is not None and done["type"] == "done", answer
            for ws in sockets[1:]:
                frame = await recv_until(
                    ws, lambda f: (frame_version(f) or -1) >= done["version"], 5
                )
                assert damage_of(frame, "banshee") == 2
        finally:
            for ws in sockets:
                await ws.close()

    def test_tables_are_spread_over_the_workers_by_their_code(self, door):
        base, process = door
        seen = {}
        host = Phone(base)
        for _n in range(8):
            code = host.create_session(("dstructor", "banshee", "dozer"))
            number, pid = served_by(host.get(f"/s/{code}/").expect(200).headers)
            assert number == worker_for(code, 2)
            assert parent_of(pid) == process.pid
            seen[number] = pid
        assert set(seen) == {0, 1} and seen[0] != seen[1]  # two processes, not one

    @pytest.mark.skipif(
        not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
        reason="needs Linux and at least two cores",
    )
    def test_each_worker_runs_on_a_core_of_its_own(self, door):
        # config/cores.py: worker n on the n-th core the door may use.
        base, process = door
        allowed = sorted(os.sched_getaffinity(0))
        pids = worker_pids(base, process.pid, 2)
        assert {n: sorted(os.sched_getaffinity(pid)) for n, pid in pids.items()} == {
            0: [allowed[0]],
            1: [allowed[1]],
        }
        assert sorted(os.sched_getaffinity(process.pid)) == allowed  # the door itself is free

    def test_pages_and_posts_go_through_the_door(self, door):
        base, _process = door
        phone = Phone(base)
        assert "Adrenaline" in phone.get("/").expect(200).text
        phone.get("/cards/").expect(200)
        code = phone.create_session(("dstructor", "banshee", "dozer"))  # GET + POST + redirect
        phone.claim(code, 1)  # an htmx POST with the CSRF token
        assert frame_version(phone.get(f"/s/{code}/").expect(200).text) is not None
        assert damage_of(phone.shot(code, "dstructor", "dozer").expect(200).text, "dozer") == 1
        phone.get("/no/such/page/").expect(404)

    def test_garbage_is_answered_by_a_worker(self, door):
        base, _process = door
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"HELLO THERE\r\n\r\n")
            assert sock.recv(100).startswith(b"HTTP/1.1 400")

    def test_clients_that_send_nothing_do_not_hold_up_the_others(self, door):
        base, _process = door
        port = int(base.rsplit(":", 1)[1])
        silent = [socket.create_connection(("127.0.0.1", port), timeout=5) for _n in range(20)]
        slow = socket.create_connection(("127.0.0.1", port), timeout=5)
        slow.sendall(b"GET /car")  # part of a request line, then nothing
        try:
            phone = Phone(base)
            started = time.monotonic()
            phone.get("/join/").expect(200)
            phone.get("/cards/").expect(200)
            assert time.monotonic() - started < PEEK_SECONDS  # served before any was given up on

            time.sleep(PEEK_SECONDS + 0.5)  # handed on round-robin, then the rest arrives
            slow.sendall(b"ds/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert slow.recv(100).startswith(b"HTTP/1.1 200")
            silent[0].sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert silent[0].recv(100).startswith(b"HTTP/1.1 200")
        finally:
            for sock in [*silent, slow]:
                sock.close()


def worker_pids(base: str, process_pid: int, count: int) -> dict[int, int]:
    """Each worker's pid, by number, from the answers to plain requests (round-robin)."""
    pids: dict[int, int] = {}
    phone = Phone(base)
    for _n in range(4 * count):
        number, pid = served_by(phone.get("/join/").expect(200).headers)
        assert parent_of(pid) == process_pid
        pids[number] = pid
    assert len(pids) == count, pids
    return pids


class TestLifetimes:
    pytestmark = SERVICES

    def test_a_dead_worker_is_replaced_and_killing_the_door_leaves_no_worker(
        self, door_env, tmp_path
    ):
        with running_door(door_env, 2, log_path=tmp_path / "door.log") as (base, process):
            before = worker_pids(base, process.pid, 2)
            os.kill(before[1], signal.SIGKILL)
            # Gone for good: reaped by the door, which it does once it has seen the
            # worker's end of their channel close (and started another). A zombie
            # first thread is not enough: the worker's other threads may still be
            # exiting with that end open, and a connection handed over meanwhile is
            # lost with them (as anything queued to a killed process is).
            assert wait_until(lambda: not Path(f"/proc/{before[1]}").exists(), 10)
            after = worker_pids(base, process.pid, 2)  # served again, by a new worker 1
            assert after[0] == before[0] and after[1] != before[1]

            process.kill()  # the door dies without a word
            process.wait()
            assert wait_until(lambda: not any(alive(pid) for pid in after.values()), 20), (
                "a worker outlived its door"
            )

    def test_ctrl_c_stops_the_door_and_every_worker(self, door_env, tmp_path):
        with running_door(door_env, 2, log_path=tmp_path / "door.log") as (base, process):
            pids = worker_pids(base, process.pid, 2)
            phones, code = full_table(base)

            async def interrupted_with_a_socket_open() -> int | None:
                async with phones[1].socket(code) as ws:
                    await recv_until(ws, lambda f: frame_version(f) is not None, 5)
                    os.killpg(process.pid, signal.SIGINT)  # what the terminal does on Ctrl+C
                    await asyncio.wait_for(ws.wait_closed(), 15)
                    return ws.close_code

            close_code = asyncio.run(interrupted_with_a_socket_open())
            assert process.wait(timeout=30) == 0
            assert close_code == 1012  # "service restart": the phone reconnects
            assert not any(alive(pid) for pid in pids.values())
