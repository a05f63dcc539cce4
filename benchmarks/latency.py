"""Action latency: from a phone sending its tap to the update arriving on another seat's socket.

For each backend, one daphne process is started on 127.0.0.1 (DJANGO_DEBUG=0):

* ``embedded`` — the default: a SQLite file and the in-memory channel layer;
* ``pg`` — PostgreSQL (database ``segnalino_bench``, created if missing) and Redis
  (channel layer with a prefix unique to the run).

Two scenarios run against it: one table, then ``--sessions`` tables at once. Every
table has 5 players, each on their own phone (own cookies, own seat, own socket).
All sockets are connected before any action; then actions go round-robin across
tables, at most ``--concurrency`` in flight and one per table at a time. For each
action we time, from the moment the tap is sent (on the acting phone's socket, as
``app.js`` sends it while the socket is live; ``--taps post``: as a POST):

* ``post``   — the tap's own answer (the socket's ``done``, or the POST's
  acknowledgement: its own update comes on the socket like everyone's);
* ``other``  — the frame showing the new version arriving on the next seat's socket;
* ``all``    — the last of the four other seats' sockets to get it.

With ``--paced``, a third scenario: ``--paced-sessions`` tables (200 = 1,000
sockets) each acting every ``--paced-interval`` seconds, spread evenly, for
``--paced-duration`` seconds, an open loop; it reports whether the process kept up
(actions completed of those scheduled, frames later than 2 s or lost) besides the
latency and the CPU per action.

Before each scenario's actions the same process's round trip for trivial work is
timed (a GET of a small page, a WebSocket message answered with an error fragment):
the floor, to which the latency is compared (this machine is shared and noisy).

The client runs on the same machine as the server, so on a small box the figures
include the client's own share of the CPU. ``--repo`` serves another tree's code
(e.g. a worktree of an older commit) to the same client.

    .venv/bin/python benchmarks/latency.py [--backend embedded|pg|both]
        [--sessions 100] [--actions 3] [--single-actions 30] [--concurrency 10]
        [--paced [--paced-sessions 200] [--paced-interval 5] [--paced-duration 60]]
        [--taps socket|post] [--repo PATH] [--server-log-level ERROR]
        [--pings] [--client-processes N] [--server-cpus 1] [--client-cpus 0]
        [--server-probe [--switch-interval S]] [--server-trace] [--tap-threads N]

``--server-probe`` serves ``benchmarks/probe.py``: the paced run then also reports
the server's event-loop lag, a thread's wait for the GIL and the garbage
collector's collections; every paced run reports the client's CPU and loop lag.
``--server-trace`` (the probe too) reports, for the 1-table run, how long after
its message a tap reaches each step of its way through the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    REDIS_URL_BENCH,
    REPO,
    RESULTS,
    fmt,
    log_trouble,
    now_stamp,
    serve,
    server_cpu_seconds,
    server_env_at,
    summary_ms,
    temp_dir,
    write_results,
)

from tests.support.client import (
    CHARACTERS,
    Phone,
    frame_version,
    fresh_key,
    socket_answer,
    tap_message,
)

REVISION = re.compile(r'<div id="status"[^>]*\bdata-revision="(\d+)"')
SEATS = len(CHARACTERS)  # 5 players, 5 phones, 5 sockets per table
SHOOTER = CHARACTERS[0]  # the first player; nobody ends a turn, so it stays theirs
MAX_SHOTS_PER_TARGET = 8  # well below a kill (11): nobody dies mid-benchmark
FRAME_TIMEOUT = 20.0  # seconds an update may take before it counts as lost
CONNECT_CONCURRENCY = 20
SETUP_THREADS = 8


# ---------------------------------------------------------------- one socket


@dataclass
class Watch:
    """A phone's socket, read continuously; remembers when each version arrived."""

    ws: Any
    seen: list[tuple[float, int]] = field(default_factory=list)  # (arrival, version)
    frame_bytes: list[int] = field(default_factory=list)
    top: int = -1
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    task: asyncio.Task | None = None
    failure: str | None = None  # why the socket stopped, if it did

    answers: dict[str, asyncio.Future[dict]] = field(default_factory=dict)
    pinger: asyncio.Task | None = None
    revision: int = 0  # the revision the phone shows (#status[data-revision])

    async def ping_every(self, seconds: float) -> None:
        """Ping as app.js does: the revision shown, every ``seconds`` on average."""
        with contextlib.suppress(Exception):
            while True:
                await asyncio.sleep(seconds * (0.5 + random.random()))  # not all at once
                await self.ws.send(json.dumps({"type": "ping", "revision": self.revision}))

    async def run(self) -> None:
        try:
            async for frame in self.ws:
                now = time.perf_counter()
                text = frame if isinstance(frame, str) else frame.decode()
                answer = socket_answer(text)
                if answer is not None:
                    waiting = self.answers.pop(answer.get("key", ""), None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(answer)
                    continue
                version = frame_version(text)
                if version is None:
                    continue  # an error message, not a full update
                shown = REVISION.search(text)
                if shown:
                    self.revision = max(self.revision, int(shown.group(1)))
                self.frame_bytes.append(len(text.encode()))
                self.seen.append((now, version))
                async with self.changed:
                    self.top = max(self.top, version)
                    self.changed.notify_all()
        except Exception as error:  # kept for the report, not raised
            self.failure = f"{type(error).__name__}: {error}"[:200]
        else:
            self.failure = "closed by the server"

    async def tap(self, code: str, fields: dict[str, str]) -> tuple[float, int | None, str, float]:
        """Send a tap on this socket as app.js does; (sent, version or None, what
        the answer said, answered)."""
        key = fresh_key()
        answer = self.answers[key] = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        await self.ws.send(tap_message(code, fields, key=key))
        try:
            async with asyncio.timeout(FRAME_TIMEOUT):
                said = await answer
        except TimeoutError:
            self.answers.pop(key, None)
            return sent, None, "no answer", time.perf_counter()
        version = said.get("version") if said["type"] == "done" else None
        return sent, version, str(said)[:160], time.perf_counter()

    async def arrival(self, version: int, timeout: float) -> float | None:
        """When the first frame showing ``version`` (or later) arrived; None on timeout."""
        try:
            async with asyncio.timeout(timeout), self.changed:
                await self.changed.wait_for(lambda: self.top >= version)
        except TimeoutError:
            return None
        return next(t for t, v in self.seen if v >= version)


@dataclass
class Table:
    code: str
    phones: list[Phone]
    watches: list[Watch] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


# Phones keep their HTTP connection open between taps, as browsers do
# (``--new-connections`` opens one per POST instead: the worst case).
KEEP_ALIVE = True


#: Base URLs of floor servers (``benchmarks/floor.py``): a table there is a code.
FLOOR_BASES: set[str] = set()


def set_table(base: str) -> Table:
    """One 5-player session: the creator sits in seat 0, four more phones claim 1–4."""
    if base in FLOOR_BASES:
        return Table(f"F{uuid.uuid4().hex[:15]}", [Phone(base) for _ in range(SEATS)])
    host = Phone(base, keep_alive=KEEP_ALIVE)
    code = host.create_session(CHARACTERS, first=SHOOTER, host_seat=SHOOTER)
    phones = [host]
    for index in range(1, SEATS):
        phone = Phone(base, keep_alive=KEEP_ALIVE)
        phone.claim(code, index, htmx=False)
        phones.append(phone)
    return Table(code, phones)


def action_fields(n: int) -> dict[str, str]:
    """The n-th action of a table: one damage by the shooter, then cube +1/−1 pairs."""
    targets = CHARACTERS[1:]
    if n < MAX_SHOTS_PER_TARGET * len(targets):
        return {
            "type": "shot",
            "shooter": SHOOTER,
            "hits.0.target": targets[n % len(targets)],
            "hits.0.damage": "1",
            "hits.0.marks": "0",
        }
    # Cubes start at 1 and stay within 0..3: +1, −1, +1, −1 …
    return {"type": "adjust", "player": SHOOTER, "field": "red", "delta": "1" if n % 2 else "-1"}


#: Whether phones ping on their socket as app.js does (``--pings``; off by default,
#: as in the figures recorded before it existed), and how often (``--ping-seconds``:
#: app.js pings every 5 s since the server beats on quiet sockets, 2026-11-27; every
#: second before, so 1 for a ``--repo`` tree older than that).
PINGS = False
PING_SECONDS = 5.0
#: Whether the server is ``benchmarks/probe.py`` (``--server-probe``), which
#: reports its event loop's lag.
SERVER_PROBE = False
#: Whether the probe also notes a tap's steps (``--server-trace``).
SERVER_TRACE = False
#: Phones ask for permessage-deflate, as browsers do (``--no-deflate``: they do not).
DEFLATE = True

#: How a phone sends its taps: on its socket, as app.js does while the socket is
#: open (``--taps post``: as POSTs, as it does while the socket is down).
TAPS_ON_SOCKET = True


def post_tap(table: Table, seat: int, n: int) -> tuple[float, int | None, str, float]:
    sent = time.perf_counter()
    answer = table.phones[seat].act(table.code, action_fields(n), live=True)
    version = frame_version(answer.text) if answer.status == 200 else None
    return sent, version, f"{answer.status}: {answer.text[:120]}", time.perf_counter()


async def send_tap(
    pool: ThreadPoolExecutor, table: Table, seat: int, n: int
) -> tuple[float, int | None, str, float]:
    """Seat's n-th tap: (sent, the version it made or None, what the answer said,
    answered)."""
    if TAPS_ON_SOCKET:
        return await table.watches[seat].tap(table.code, action_fields(n))
    return await asyncio.get_running_loop().run_in_executor(pool, post_tap, table, seat, n)


# ---------------------------------------------------------------- one scenario


async def connect(table: Table, seat: int, gate: asyncio.Semaphore) -> float:
    """Open seat's socket; return the time from connecting to its first full frame."""
    async with gate:
        start = time.perf_counter()
        ws = await table.phones[seat].socket(
            table.code, open_timeout=FRAME_TIMEOUT, compression="deflate" if DEFLATE else None
        )
        watch = Watch(ws)
        watch.task = asyncio.create_task(watch.run())
        if PINGS:
            watch.pinger = asyncio.create_task(watch.ping_every(PING_SECONDS))
        table.watches[seat] = watch
        if await watch.arrival(0, FRAME_TIMEOUT) is None:
            raise RuntimeError(f"no first frame on {table.code} seat {seat}")
        return time.perf_counter() - start


FLOOR_SAMPLES = 100


async def floor(base: str, code: str, samples: int = FLOOR_SAMPLES) -> dict[str, Any]:
    """The same process's round trip for trivial work, measured now: a GET of a small
    page (``/join/``, 2 KB) on a kept-alive connection, and a WebSocket message
    answered with the small error fragment (``"hello"``: both the old and the new
    consumer answer it so). The figures of a run are divided by ``http`` p50."""
    loop = asyncio.get_running_loop()
    phone = Phone(base, keep_alive=True)

    def http() -> list[float]:
        phone.get("/join/").expect(200)  # the connection is open, the page warm
        times = []
        for _ in range(samples):
            start = time.perf_counter()
            phone.get("/join/").expect(200)
            times.append(time.perf_counter() - start)
        return times

    try:
        http_times = await loop.run_in_executor(None, http)
        ws_times: list[float] = []
        async with phone.socket(
            code, open_timeout=FRAME_TIMEOUT, compression="deflate" if DEFLATE else None
        ) as ws:
            async with asyncio.timeout(FRAME_TIMEOUT):
                while frame_version(str(await ws.recv())) is None:
                    pass  # the first full frame
                for _ in range(samples + 1):
                    start = time.perf_counter()
                    await ws.send("hello")
                    while True:
                        reply = str(await ws.recv())
                        if frame_version(reply) is None and 'id="messages"' in reply:
                            break
                    ws_times.append(time.perf_counter() - start)
        return {"http_ms": summary_ms(http_times), "ws_ms": summary_ms(ws_times[1:])}
    finally:
        phone.close()


def ratios(result: dict[str, Any]) -> dict[str, float | None]:
    """``other`` p50/p95/p99 divided by the floor's HTTP p50, measured in the same run."""
    base = (result.get("floor") or {}).get("http_ms", {}).get("p50")
    out: dict[str, float | None] = {}
    for q in ("p50", "p95", "p99"):
        value = result["other_seat_ms"][q]
        out[q] = round(value / base, 1) if value is not None and base else None
    return out


async def set_tables(
    pool: ThreadPoolExecutor, base: str, sessions: int
) -> tuple[list[Table], float]:
    """``sessions`` tables with every seat taken, made in parallel; and how long it took."""
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    tables: list[Table] = await asyncio.gather(
        *(loop.run_in_executor(pool, set_table, base) for _ in range(sessions))
    )
    for table in tables:
        table.watches = [None] * SEATS  # type: ignore[list-item]
    return tables, time.perf_counter() - started


async def scenario(
    base: str, *, sessions: int, actions: int, concurrency: int, budget: float
) -> dict[str, Any]:
    with ThreadPoolExecutor(max_workers=max(SETUP_THREADS, concurrency)) as pool:
        # 1. Tables, seats.
        tables, setup_s = await set_tables(pool, base, sessions)
        try:
            return await measure(
                tables,
                pool,
                actions=actions,
                concurrency=concurrency,
                budget=budget,
                port=int(base.rsplit(":", 1)[1]),
                setup_s=setup_s,
            )
        finally:
            await close_all(tables)


async def close_all(tables: list[Table]) -> None:
    """Close every socket (bounded in time) and stop its reader."""
    watches = [w for table in tables for w in table.watches if w is not None]
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(15):
            await asyncio.gather(*(w.ws.close() for w in watches), return_exceptions=True)
    for w in watches:
        if w.task:
            w.task.cancel()
        if w.pinger:
            w.pinger.cancel()
    for table in tables:
        for phone in table.phones:
            phone.close()


async def connect_all(
    tables: list[Table], port: int
) -> tuple[list[float], float, float | None, float | None]:
    """Every socket of every table connected and showing the table: each socket's
    connect time, the seconds for all, and the server's CPU seconds before and after."""
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    cpu_before = server_cpu_seconds(port)
    started = time.perf_counter()
    times = await asyncio.gather(
        *(connect(table, seat, gate) for table in tables for seat in range(SEATS))
    )
    return list(times), time.perf_counter() - started, cpu_before, server_cpu_seconds(port)


async def measure(
    tables: list[Table],
    pool: ThreadPoolExecutor,
    *,
    actions: int,
    concurrency: int,
    budget: float,
    port: int,
    setup_s: float,
) -> dict[str, Any]:
    # 2. Every socket connected and showing the table before any action.
    connect_times, connect_s, cpu_before_connect, cpu_after_connect = await connect_all(
        tables, port
    )
    base = f"http://127.0.0.1:{port}"
    floor_figures = await floor(base, tables[0].code)

    # 3. Actions: round-robin over tables, `concurrency` in flight, one per table.
    post: list[float] = []
    other: list[float] = []
    every: list[float] = []
    errors: list[str] = []
    stopped: list[int] = []
    lost_notes: list[str] = []
    lost = 0
    plan = iter([(n, table) for n in range(actions) for table in tables])

    async def worker() -> None:
        nonlocal lost
        for n, table in plan:  # the iterator is shared: each item is taken once
            if time.monotonic() > deadline:
                stopped.append(n)
                return
            async with table.lock:
                actor = n % SEATS
                try:
                    sent, version, said, answered = await send_tap(pool, table, actor, n)
                except OSError as error:  # refused, reset, timed out
                    errors.append(f"{type(error).__name__}: {error}"[:160])
                    continue
                if version is None:
                    errors.append(said)
                    continue
                post.append(answered - sent)
                others = [(actor + k) % SEATS for k in range(1, SEATS)]
                arrived = await asyncio.gather(
                    *(table.watches[s].arrival(version, FRAME_TIMEOUT) for s in others)
                )
                if None in arrived:
                    lost += 1
                    missing = [s for s, t in zip(others, arrived, strict=True) if t is None]
                    lost_notes.append(
                        f"lost v{version} on {table.code} seats {missing}: "
                        + "; ".join(
                            f"top v{table.watches[s].top} {table.watches[s].failure or 'open'}"
                            for s in missing
                        )
                    )
                    continue
                other.append(arrived[0] - sent)
                every.append(max(arrived) - sent)

    loop = asyncio.get_running_loop()
    if SERVER_TRACE:
        await loop.run_in_executor(None, server_lag, base)  # the path from here on
    cpu_before_actions = server_cpu_seconds(port)
    deadline = time.monotonic() + budget  # no new action after this
    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    actions_s = time.perf_counter() - started
    cpu_after_actions = server_cpu_seconds(port)
    # A tap's way through the server, where one is in flight at a time.
    traced = await loop.run_in_executor(None, server_lag, base) if SERVER_TRACE else None

    watches = [w for table in tables for w in table.watches if w is not None]
    frames = [size for w in watches for size in w.frame_bytes]
    updates = [size for w in watches for size in w.frame_bytes[1:]]  # after the first

    def per(before: float | None, after: float | None, count: int) -> float | None:
        if before is None or after is None or not count:
            return None
        return round((after - before) * 1000 / count, 1)

    return {
        "sessions": len(tables),
        "sockets": len(watches),
        "actions": len(post),
        "concurrency": min(concurrency, len(tables)),
        "setup_s": round(setup_s, 1),
        "connect_s": round(connect_s, 1),
        "actions_s": round(actions_s, 1),
        "actions_per_s": round(len(post) / actions_s, 1) if actions_s else None,
        "frame_kb": round(sum(frames) / len(frames) / 1024, 1) if frames else None,
        "update_kb": round(sum(updates) / len(updates) / 1024, 1) if updates else None,
        "server_cpu_ms_per_connect": per(cpu_before_connect, cpu_after_connect, len(watches)),
        "server_cpu_ms_per_action": per(cpu_before_actions, cpu_after_actions, len(post)),
        "stopped_early": bool(stopped),
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:3] + lost_notes[:3],
        "lost": lost,
        "connect_ms": summary_ms(connect_times),
        "post_ms": summary_ms(post),
        "other_seat_ms": summary_ms(other),
        "all_seats_ms": summary_ms(every),
        "floor": floor_figures,
        "tap_path": traced.get("path") if traced and len(tables) == 1 else None,
    }


# ---------------------------------------------------------------- at a table's pace

LATE_SECONDS = 2.0  # a frame later than this after the tap counts as late
LOST_GRACE = 15.0  # after the run, how long lost frames may still come


async def loop_lag(samples: list[float]) -> None:
    """This process's event-loop lag: how late a 5 ms sleep wakes, again and again
    (the time a frame that has arrived waits before its reader notes it)."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        samples.append(time.perf_counter() - start - LAG_TICK)


LAG_TICK = 0.005


def server_lag(base: str) -> dict[str, Any] | None:
    """The server's event-loop lag since the last call (``--server-probe``:
    ``benchmarks/probe.py``), or None without the probe."""
    if not SERVER_PROBE:
        return None
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{base}/__probe__", timeout=10) as answer:
        return json.loads(answer.read())


class Together:
    """How the client processes of one paced run (``--client-processes``) start and
    stop their schedules at once: each names a table when its sockets are all
    connected, then waits for the start; the parent measures the server between."""

    def __init__(self, context: Any, parties: int) -> None:
        self.connected = context.Queue()
        self.results = context.Queue()
        self.start = context.Barrier(parties + 1)
        self.stop = context.Barrier(parties + 1)
        self.t0 = context.Value("d", 0.0)


async def paced_part(
    base: str,
    *,
    sessions: int,
    first: int,
    total: int,
    interval: float,
    duration: float,
    threads: int,
    together: Together | None = None,
) -> dict[str, Any]:
    """One client process's share of a paced run: its ``sessions`` tables, the
    ``first``-th to the last of ``total``, on the same schedule as if one process
    played them all. Raw figures, merged by :func:`paced`."""
    port = int(base.rsplit(":", 1)[1])
    loop = asyncio.get_running_loop()
    raw: dict[str, Any] = {
        "other": [],
        "every": [],
        "post": [],
        "lag": [],  # how late each tap went out, against the schedule
        "errors": [],
        "notes": [],
        "counts": {"scheduled": 0, "sent": 0, "completed": 0, "not_sent": 0},
        "frames": {"expected": 0, "late": 0, "lost": 0},
        "client_lag": [],
        "floor": None,
    }
    counts, frames = raw["counts"], raw["frames"]
    overdue: list[tuple[Watch, int]] = []  # frames lost: (socket, version)
    per_table = int(duration // interval) + (1 if duration % interval else 0)
    with ThreadPoolExecutor(max_workers=max(SETUP_THREADS, threads)) as pool:
        tables, raw["setup_s"] = await set_tables(pool, base, sessions)
        try:
            connect_times, connect_s, cpu_before_connect, cpu_after_connect = await connect_all(
                tables, port
            )
            raw["connect_times"], raw["connect_s"] = connect_times, connect_s
            # The phones are this one process: its garbage collector walking the
            # state of 2,000 sockets stalled every one of them for 100+ ms at a time
            # (max loop lag 171 ms), which real phones, each on its own, never do.
            # As the server does (config/asgi.py): what is alive now is frozen.
            gc.collect()
            gc.freeze()
            gc.set_threshold(20_000, 20, 20)
            raw["cpu_connect"] = (
                cpu_after_connect - cpu_before_connect
                if together is None and cpu_before_connect is not None and cpu_after_connect
                else None
            )
            if together is None:
                raw["floor"] = await floor(base, tables[0].code)
                await loop.run_in_executor(None, server_lag, base)  # from now on
                cpu_before = server_cpu_seconds(port)
                t0 = time.perf_counter() + 0.5
            else:
                together.connected.put(tables[0].code)
                await loop.run_in_executor(None, together.start.wait, START_WAIT)
                t0 = together.t0.value

            async def play(index: int, table: Table) -> None:
                offset = index * interval / total
                for n in range(per_table):
                    due = t0 + offset + n * interval
                    if due - t0 >= duration:
                        return
                    counts["scheduled"] += 1
                    wait = due - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    elif -wait > interval + LATE_SECONDS:
                        # A whole turn behind: the table's phones would have
                        # given up on this tap; it is not sent.
                        counts["not_sent"] += 1
                        continue
                    actor = n % SEATS
                    try:
                        sent, version, said, answered = await send_tap(pool, table, actor, n)
                    except OSError as error:
                        raw["errors"].append(f"{type(error).__name__}: {error}"[:160])
                        continue
                    counts["sent"] += 1
                    raw["lag"].append(max(0.0, sent - due))
                    if version is None:
                        raw["errors"].append(said)
                        continue
                    raw["post"].append(answered - sent)
                    others = [(actor + k) % SEATS for k in range(1, SEATS)]
                    arrived = await asyncio.gather(
                        *(table.watches[s].arrival(version, FRAME_TIMEOUT) for s in others)
                    )
                    frames["expected"] += len(others)
                    frames["lost"] += sum(t is None for t in arrived)
                    frames["late"] += sum(
                        t is not None and t - sent > LATE_SECONDS for t in arrived
                    )
                    if None in arrived:
                        missing = [s for s, t in zip(others, arrived, strict=True) if t is None]
                        overdue.extend((table.watches[s], version) for s in missing)
                        raw["notes"].append(
                            f"lost v{version} on {table.code} seats {missing}: "
                            + "; ".join(
                                f"top v{table.watches[s].top} {table.watches[s].failure or 'open'}"
                                for s in missing
                            )
                        )
                        continue
                    counts["completed"] += 1
                    raw["other"].append(arrived[0] - sent)
                    raw["every"].append(max(arrived) - sent)

            lagging = asyncio.create_task(loop_lag(raw["client_lag"]))
            cpu_self = time.process_time()
            await asyncio.gather(*(play(first + i, t) for i, t in enumerate(tables)))
            raw["wall"] = time.perf_counter() - t0
            raw["client_cpu"] = time.process_time() - cpu_self
            lagging.cancel()
            if together is None:
                cpu_after = server_cpu_seconds(port)
                raw["cpu"] = (
                    cpu_after - cpu_before
                    if cpu_before is not None and cpu_after is not None
                    else None
                )
                raw["server_lag"] = await loop.run_in_executor(None, server_lag, base)
            else:
                await loop.run_in_executor(None, together.stop.wait, STOP_WAIT + duration)
            # Did the lost frames come at all? (A phone's ping, with --pings, makes
            # its table check the revision within seconds.)
            await asyncio.gather(*(w.arrival(v, LOST_GRACE) for w, v in overdue))
            raw["never"] = sum(w.top < v for w, v in overdue)
        finally:
            await close_all(tables)

    watches = [w for table in tables for w in table.watches if w is not None]
    raw["sockets"] = len(watches)
    raw["updates"] = [size for w in watches for size in w.frame_bytes[1:]]
    raw["failed"] = [
        w.failure for w in watches if w.failure and w.failure != "closed by the server"
    ]
    return raw


START_WAIT = 900.0  # seconds a client process waits for the others to connect
STOP_WAIT = 120.0  # and, beyond the duration, for the others to finish


def _client_process(together: Together, base: str, kwargs: dict[str, Any]) -> None:
    try:
        raw = asyncio.run(paced_part(base, together=together, **kwargs))
    except BaseException as error:
        together.start.abort()
        together.stop.abort()
        together.results.put({"failure": f"{type(error).__name__}: {error}"[:300]})
        raise
    together.results.put(raw)


def paced(
    base: str, *, sessions: int, interval: float, duration: float, threads: int, processes: int = 1
) -> dict[str, Any]:
    """``sessions`` tables × 5 phones on one process, each table acting every
    ``interval`` seconds, the tables' starts spread evenly over one interval, for
    ``duration`` seconds of actions. An open loop: the schedule does not wait for
    the server (except that a table never has two actions in flight, as a table of
    people would not); what is measured is whether the process keeps up.

    ``processes`` > 1: the tables are shared among that many client processes (one
    Python event loop reading 2,000 pinging sockets can be the bottleneck), which
    start their schedules together."""
    port = int(base.rsplit(":", 1)[1])
    kwargs: dict[str, Any] = {
        "total": sessions,
        "interval": interval,
        "duration": duration,
        "threads": threads,
    }
    if processes <= 1:
        raw = asyncio.run(paced_part(base, sessions=sessions, first=0, **kwargs))
        return paced_result(raw, sessions, interval, duration, processes=1)
    import multiprocessing

    context = multiprocessing.get_context("fork")
    together = Together(context, processes)
    children = []
    first = 0
    for k in range(processes):
        share = sessions // processes + (1 if k < sessions % processes else 0)
        child = context.Process(
            target=_client_process,
            args=(together, base, {**kwargs, "sessions": share, "first": first}),
        )
        first += share
        child.start()
        children.append(child)
    try:
        codes = [together.connected.get(timeout=START_WAIT) for _ in children]
        floor_figures = asyncio.run(floor(base, codes[0]))
        server_lag(base)  # from now on
        cpu_before = server_cpu_seconds(port)
        together.t0.value = time.perf_counter() + 0.5
        together.start.wait(START_WAIT)
        together.stop.wait(STOP_WAIT + duration)
        wall = time.perf_counter() - together.t0.value
        cpu_after = server_cpu_seconds(port)
        lag_of_server = server_lag(base)
        raws = [together.results.get(timeout=STOP_WAIT + LOST_GRACE + 60) for _ in children]
    finally:
        for child in children:
            child.join(timeout=60)
            if child.is_alive():
                child.kill()
    failures = [r["failure"] for r in raws if "failure" in r]
    if failures:
        raise RuntimeError(f"a client process failed: {failures}")
    raw = {
        key: [x for r in raws for x in r[key]]
        for key in (
            "other", "every", "post", "lag", "errors", "notes", "client_lag",
            "connect_times", "updates", "failed",
        )
    }  # fmt: skip
    raw["counts"] = {k: sum(r["counts"][k] for r in raws) for k in raws[0]["counts"]}
    raw["frames"] = {k: sum(r["frames"][k] for r in raws) for k in raws[0]["frames"]}
    raw["never"] = sum(r["never"] for r in raws)
    raw["sockets"] = sum(r["sockets"] for r in raws)
    raw["client_cpu"] = sum(r["client_cpu"] for r in raws)
    raw["client_cpu_max"] = max(r["client_cpu"] / r["wall"] for r in raws)
    raw["setup_s"] = max(r["setup_s"] for r in raws)
    raw["connect_s"] = max(r["connect_s"] for r in raws)
    raw["cpu_connect"] = None  # the processes' connections overlap
    raw["floor"] = floor_figures
    raw["wall"] = wall
    raw["cpu"] = cpu_after - cpu_before if cpu_before is not None and cpu_after else None
    raw["server_lag"] = lag_of_server
    return paced_result(raw, sessions, interval, duration, processes=processes)


def paced_result(
    raw: dict[str, Any], sessions: int, interval: float, duration: float, *, processes: int
) -> dict[str, Any]:
    counts, frames, wall, cpu = raw["counts"], raw["frames"], raw["wall"], raw["cpu"]
    updates = raw["updates"]
    return {
        "sessions": sessions,
        "sockets": raw["sockets"],
        "interval_s": interval,
        "duration_s": duration,
        "target_actions_per_s": round(sessions / interval, 1),
        "setup_s": round(raw["setup_s"], 1),
        "connect_s": round(raw["connect_s"], 1),
        "connect_ms": summary_ms(raw["connect_times"]),
        "server_cpu_ms_per_connect": (
            round(raw["cpu_connect"] * 1000 / raw["sockets"], 1)
            if raw["cpu_connect"] is not None and raw["sockets"]
            else None
        ),
        "wall_s": round(wall, 1),
        **counts,
        "actions_per_s": round(counts["completed"] / wall, 1) if wall else None,
        "frames_expected": frames["expected"],
        "frames_late": frames["late"],
        "frames_lost": frames["lost"],
        "frames_never": raw["never"],
        "errors": len(raw["errors"]),
        "error_samples": sorted(set(raw["errors"]))[:3] + raw["notes"][:3] + raw["failed"][:3],
        "server_cpu_ms_per_action": (
            round(cpu * 1000 / counts["completed"], 1) if cpu and counts["completed"] else None
        ),
        "server_cpu_share": round(cpu / wall, 2) if cpu and wall else None,
        "server_loop_lag_ms": raw.get("server_lag"),
        "client_processes": processes,
        "client_cpu_share": round(raw["client_cpu"] / wall, 2) if wall else None,
        "client_cpu_share_max": round(raw.get("client_cpu_max", raw["client_cpu"] / wall), 2),
        "client_loop_lag_ms": summary_ms(raw["client_lag"]),
        "update_kb": round(sum(updates) / len(updates) / 1024, 1) if updates else None,
        "send_lag_ms": summary_ms(raw["lag"]),
        "post_ms": summary_ms(raw["post"]),
        "other_seat_ms": summary_ms(raw["other"]),
        "all_seats_ms": summary_ms(raw["every"]),
        "floor": raw["floor"],
    }


# ---------------------------------------------------------------- backends


def run_scenarios(targets: list[tuple[str, str]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every scenario on every target (label, base URL), interleaved: each scenario
    runs ``--rounds`` times, alternating the targets (and which goes first)."""
    results = []
    extra = {
        "keep_alive": KEEP_ALIVE,
        "taps": args.taps,
        "pings": PINGS,
        "ping_seconds": PING_SECONDS if PINGS else None,
        "server": args.server,
        "server_cpus": sorted(args.server_cpus) if args.server_cpus else None,
        "client_cpus": sorted(args.client_cpus) if args.client_cpus else None,
        "tap_threads": args.tap_threads,
        "switch_interval": args.switch_interval,
        "workers": args.workers,
    }
    plans = [(1, args.single_actions), (args.sessions, args.actions)]
    for sessions, actions in plans:
        if sessions < 1 or actions < 1:
            continue
        for round_ in range(args.rounds):
            order = targets if round_ % 2 == 0 else targets[::-1]
            for label, base in order:
                print(f"  {label}: {sessions} session(s) × {actions} actions …", flush=True)
                if base == BGIO:
                    found = bgio(sessions, actions, args.concurrency)
                    if found is not None:
                        results.append({"backend": label, "round": round_, **found})
                    continue
                result = asyncio.run(
                    scenario(
                        base,
                        sessions=sessions,
                        actions=actions,
                        concurrency=args.concurrency,
                        budget=args.budget,
                    )
                )
                results.append({"backend": label, "round": round_, **extra, **result})
    if args.paced and args.paced_sessions > 0:
        for round_ in range(args.rounds):
            order = targets if round_ % 2 == 0 else targets[::-1]
            for label, base in order:
                if base == BGIO:
                    continue
                print(
                    f"  {label}: {args.paced_sessions} tables × {SEATS} phones, one action "
                    f"per table every {args.paced_interval:g} s for {args.paced_duration:g} s …",
                    flush=True,
                )
                result = paced(
                    base,
                    sessions=args.paced_sessions,
                    interval=args.paced_interval,
                    duration=args.paced_duration,
                    threads=args.paced_threads,
                    processes=args.client_processes,
                )
                results.append(
                    {"backend": label, "round": round_, **extra, "paced": True, **result}
                )
    return results


BGIO = "node"  # the target that is boardgame.io (benchmarks/bgio.js)
BGIO_SCRIPT = REPO / "benchmarks" / "bgio.js"
BGIO_MODULES = REPO / "benchmarks" / ".node" / "node_modules" / "boardgame.io"


def bgio_missing() -> str | None:
    """Why boardgame.io cannot run here, or None."""
    import shutil

    if shutil.which("node") is None:
        return "no `node` on this machine"
    if not BGIO_MODULES.is_dir():
        return "boardgame.io is not installed in benchmarks/.node (see README)"
    return None


def bgio(sessions: int, actions: int, concurrency: int) -> dict[str, Any] | None:
    """boardgame.io 0.50.2 with the same load shape (``benchmarks/bgio.js``)."""
    import subprocess

    ran = subprocess.run(
        ["node", str(BGIO_SCRIPT), str(sessions), str(actions), str(concurrency)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if ran.returncode != 0:
        print(f"  boardgame.io failed: {ran.stderr[-400:]}", flush=True)
        return None
    found = json.loads(ran.stdout.strip().splitlines()[-1])
    return {
        "concurrency": min(concurrency, sessions),
        "errors": 0,
        "error_samples": [],
        "post_ms": {"p50": None, "p95": None},
        "frame_kb": None,
        "update_kb": None,
        **found,
    }


def run_backend(backend: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Segnalino on ``backend`` (and, with ``--floor``, the floor on the same
    database, channel layer and ASGI server, at the same time, measured in turn)."""
    stamp = now_stamp()
    log_path = RESULTS / f"server-{backend}-{stamp}.log"
    floor_log = RESULTS / f"server-{backend}-floor-{stamp}.log"
    bare_log = RESULTS / f"server-{backend}-bare-{stamp}.log"
    how = {"server": args.server, "workers": args.workers, "cpus": args.server_cpus}
    with temp_dir() as directory, contextlib.ExitStack() as stack:
        env = server_env_at(
            args.repo, backend, directory, args.redis_url, log_level=args.server_log_level
        )
        if args.server_garbage:
            env["SEGNALINO_PROBE_GARBAGE"] = args.server_garbage
        if SERVER_TRACE:
            env["SEGNALINO_PROBE_TRACE"] = "1"
        if args.switch_interval is not None:
            env["SEGNALINO_SWITCH_INTERVAL"] = str(args.switch_interval)
        if args.tap_threads is not None:
            env["SEGNALINO_TAP_THREADS"] = str(args.tap_threads)
        if SERVER_PROBE:
            served: dict[str, Any] = {
                "app": "probe:application",
                "extra_path": str(REPO / "benchmarks"),
            }
        else:
            served = {}
        base = stack.enter_context(
            serve(args.repo, env, log_path, **served, **how, callgrind=args.server_callgrind)
        )
        targets = [(backend, base)]

        def beside(kind: str, app_env: dict[str, str], log: Path) -> None:
            """Serve ``benchmarks/<kind>.py`` from this tree next to Segnalino."""
            found = stack.enter_context(
                serve(
                    REPO,
                    app_env,
                    log,
                    app=f"{kind}:application",
                    extra_path=str(REPO / "benchmarks"),
                    **how,
                )
            )
            FLOOR_BASES.add(found)
            targets.append((f"{backend}/{kind}", found))

        if args.floor:
            prefix = env.get("CHANNEL_PREFIX", "") + "-floor"
            beside("floor", {**env, "CHANNEL_PREFIX": prefix}, floor_log)
        if args.bare and backend != "pg":
            print("  the bare server skipped: it runs on PostgreSQL only", flush=True)
        elif args.bare:
            frame = str(args.bare_frame_bytes)
            beside("bare", {**env, "SEGNALINO_BARE_FRAME_BYTES": frame}, bare_log)
        if args.bgio:
            missing = bgio_missing()
            if missing:
                print(f"  boardgame.io skipped: {missing}", flush=True)
            else:
                targets.append(("bgio", BGIO))
        results = run_scenarios(targets, args)
    for r in results:
        if r["backend"] == "bgio":
            continue
        kind = r["backend"].rpartition("/")[2]
        path = {"floor": floor_log, "bare": bare_log}.get(kind, log_path)
        r["server_log"] = {"path": str(path), **log_trouble(path)}
    return results


def floor_ratios(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Segnalino ÷ the floor (and ÷ boardgame.io), for each scenario and round run
    on both."""
    out = []
    pairs = [
        (r, kind)
        for r in results
        if "/" not in r["backend"] and r["backend"] != "bgio"
        for kind in ("bare", "floor", "bgio")
    ]
    for r, kind in pairs:
        wanted = "bgio" if kind == "bgio" else f"{r['backend']}/{kind}"
        match = next(
            (
                f
                for f in results
                if f["backend"] == wanted
                and f["sessions"] == r["sessions"]
                and f.get("round") == r.get("round")
                and bool(f.get("paced")) == bool(r.get("paced"))
            ),
            None,
        )
        if match is None:
            continue

        def div(a: float | None, b: float | None) -> float | None:
            return round(a / b, 2) if a is not None and b else None

        row = {
            "against": kind,
            "label": f"{r['backend']} × {r['sessions']}" + (" paced" if r.get("paced") else ""),
            "round": r.get("round"),
        }
        for q in ("p50", "p95", "p99"):
            row[q] = div(r["other_seat_ms"][q], match["other_seat_ms"][q])
            row[f"{q}_ms"] = (r["other_seat_ms"][q], match["other_seat_ms"][q])
        row["cpu"] = div(r["server_cpu_ms_per_action"], match["server_cpu_ms_per_action"])
        row["cpu_ms"] = (r["server_cpu_ms_per_action"], match["server_cpu_ms_per_action"])
        row["rate"] = div(r["actions_per_s"], match["actions_per_s"])
        row["rate_per_s"] = (r["actions_per_s"], match["actions_per_s"])
        out.append(row)
    return out


def print_floor_ratios(rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    print("Segnalino ÷ the bare server (benchmarks/bare.py: no framework, the same uvicorn and")
    print("PostgreSQL, one committed statement and a 200-byte fan-out), ÷ the floor")
    print("(benchmarks/floor.py: same stack, one locked JSON update and a 200-byte fan-out) and")
    print("÷ boardgame.io 0.50.2 (benchmarks/bgio.js: same load shape, nothing durable), same")
    print("run, interleaved; (Segnalino, the other) in brackets:")
    for row in rows:
        print(
            f"  ÷ {row['against']:<6}{row['label']:<16} round {row['round']}: tap → other phone "
            f"p50 {row['p50']}× {row['p50_ms']}, p95 {row['p95']}× {row['p95_ms']}, "
            f"p99 {row['p99']}× {row['p99_ms']}; CPU/action {row['cpu']}× {row['cpu_ms']}; "
            f"actions/s {row['rate']}× {row['rate_per_s']}"
        )
    print()


def print_table(results: list[dict[str, Any]]) -> None:
    closed = [r for r in results if not r.get("paced")]
    head = (
        f"{'backend':<9}{'sessions':>9}{'sockets':>8}{'actions':>8}{'act/s':>7}"
        f"{'post p50':>9}{'p95':>7}{'other p50':>10}{'p95':>7}{'p99':>7}"
        f"{'all p95':>8}{'p99':>7}{'frame KB':>9}{'upd KB':>7}{'cpu/act':>8}{'err':>4}{'lost':>5}"
    )
    print()
    print("Latency in ms from the POST being sent (post = its own answer;")
    print("other = next seat's socket shows it; all = the last of the 4 other sockets;")
    print("frame KB = every frame, upd KB = frames after each socket's first;")
    print("cpu/act = server CPU ms per action, all its sockets' frames included).")
    if closed:
        print(head)
        print("-" * len(head))
    for r in closed:
        print(
            f"{r['backend']:<9}{r['sessions']:>9}{r['sockets']:>8}{r['actions']:>8}"
            f"{fmt(r['actions_per_s'])}"
            f"{fmt(r['post_ms']['p50'], 9)}{fmt(r['post_ms']['p95'])}"
            f"{fmt(r['other_seat_ms']['p50'], 10)}{fmt(r['other_seat_ms']['p95'])}"
            f"{fmt(r['other_seat_ms']['p99'])}"
            f"{fmt(r['all_seats_ms']['p95'], 8)}{fmt(r['all_seats_ms']['p99'])}"
            f"{fmt(r['frame_kb'], 9)}{fmt(r['update_kb'])}{fmt(r['server_cpu_ms_per_action'], 8)}"
            f"{r['errors']:>4}{r['lost']:>5}"
        )
    for r in [r for r in results if r.get("paced")]:
        sl = r["send_lag_ms"]
        print()
        print(
            f"{r['backend']}: {r['sessions']} tables, {r['sockets']} sockets on one process, "
            f"one action per table every {r['interval_s']:g} s "
            f"({r['target_actions_per_s']} actions/s asked) for {r['duration_s']:g} s:"
        )
        print(
            f"  actions: {r['completed']} completed of {r['scheduled']} scheduled "
            f"({r['sent']} sent, {r['not_sent']} not sent: a turn behind; {r['errors']} errors); "
            f"{r['actions_per_s']} actions/s over {r['wall_s']} s"
        )
        print(
            f"  frames to the other phones: {r['frames_expected']} expected, "
            f"{r['frames_late']} later than {LATE_SECONDS:g} s, {r['frames_lost']} lost "
            f"(none in {FRAME_TIMEOUT:g} s), {r.get('frames_never', '?')} of which never came: "
            f"that socket still showed an older version {LOST_GRACE:g} s after the run"
        )
        print(
            f"  tap → other phone ms: p50 {r['other_seat_ms']['p50']}, "
            f"p95 {r['other_seat_ms']['p95']}, p99 {r['other_seat_ms']['p99']}, "
            f"max {r['other_seat_ms']['max']}; all four p95 {r['all_seats_ms']['p95']}; "
            f"post p50 {r['post_ms']['p50']}"
        )
        print(f"  taps sent late against the schedule: p95 {sl['p95']} ms, max {sl['max']} ms")
        cl, sv = r.get("client_loop_lag_ms") or {}, r.get("server_loop_lag_ms") or {}
        print(
            f"  client ({r.get('client_processes', 1)} process(es)): "
            f"{r.get('client_cpu_share')} of a core in all, "
            f"{r.get('client_cpu_share_max')} the busiest; its event loop late by p50 "
            f"{cl.get('p50')}, p95 {cl.get('p95')}, p99 {cl.get('p99')}, max {cl.get('max')} ms"
        )
        if sv:
            print(
                f"  server's event loop late by p50 {sv.get('p50')}, p95 {sv.get('p95')}, "
                f"p99 {sv.get('p99')}, max {sv.get('max')} ms ({sv.get('n')} wake-ups of "
                f"{LAG_TICK * 1000:g} ms; switch interval {sv.get('switch_interval_s')} s)"
            )
            th = sv.get("thread") or {}
            print(
                f"  a thread of the server waking from a {LAG_TICK * 1000:g} ms sleep (the GIL): "
                f"late by p50 {th.get('p50')}, p95 {th.get('p95')}, p99 {th.get('p99')}, "
                f"max {th.get('max')} ms"
            )
            for generation, collections in (sv.get("gc") or {}).items():
                print(
                    f"  its garbage collections of generation {generation}: "
                    f"{collections['n']}, {collections['ms']} ms in all, "
                    f"the longest {collections['max_ms']} ms "
                    f"({collections.get('cpu_ms', '?')} ms of CPU in all)"
                )
            if sv.get("resident_mb"):
                print(f"  its resident memory at the end: {sv['resident_mb']} MB")
            if sv.get("stalls"):
                print(
                    "  its event loop's stalls over 50 ms (s into the run: ms): "
                    + ", ".join(f"{at:g}: {ms:g}" for at, ms in sv["stalls"])
                )
            if "garbage" in sv:
                garbage = sv["garbage"]
                print(
                    f"  reference cycles it made (unreachable objects): {garbage['n']}; "
                    + ", ".join(f"{name} {n}" for name, n in garbage["types"][:8])
                    + "; functions: "
                    + ", ".join(f"{name} {n}" for name, n in garbage["functions"][:5])
                )
            for generation, held in (sv.get("generations") or {}).items():
                print(
                    f"  generation {generation} at the end: {held['n']} objects, "
                    + ", ".join(f"{name} {n}" for name, n in held["types"][:5])
                )
        print(
            f"  server CPU: {r['server_cpu_ms_per_action']} ms per action, "
            f"{r['server_cpu_share']} of one core; update frame {r['update_kb']} KB; "
            f"connect p50 {r['connect_ms']['p50']} ms ({r['server_cpu_ms_per_connect']} ms "
            f"CPU each, {r['connect_s']} s for all)"
        )
    print()
    print("Floor (same process, idle, just before the actions): GET /join/ on a kept-alive")
    print("connection and a WebSocket message answered with the error fragment; ratio =")
    print("tap → other phone p50/p95/p99 ÷ the floor's HTTP p50.")
    for r in results:
        fl = r.get("floor") or {}
        h, w = fl.get("http_ms", {}), fl.get("ws_ms", {})
        q = ratios(r)
        label = f"{r['backend']} × {r['sessions']}" + (" paced" if r.get("paced") else "")
        print(
            f"  {label:<22} http p50 {h.get('p50')} p95 {h.get('p95')} ms; "
            f"ws p50 {w.get('p50')} p95 {w.get('p95')} ms; "
            f"ratio {q['p50']} / {q['p95']} / {q['p99']}"
        )
    for r in results:
        if r.get("tap_path"):
            print(
                f"\nA tap's way through the server ({r['backend']} × 1, --server-trace): "
                "ms after its message reached the socket, p50 and p95 over the taps"
            )
            for row in r["tap_path"]:
                print(f"  {row['p50']:7.2f} {row['p95']:7.2f}  {row['step']}")
    for r in results:
        if r.get("stopped_early"):
            print(f"{r['backend']} × {r['sessions']}: stopped early at the time budget")
        if r["error_samples"]:
            print(f"{r['backend']} × {r['sessions']}: errors such as {r['error_samples']}")
    logs = {r["server_log"]["path"]: r["server_log"] for r in results if "server_log" in r}
    for path, log in logs.items():
        print(
            f"server log {path}: {log['lines']} lines, {log['trouble']} look like errors"
            f" ({log.get('over_capacity', 0)} 'over capacity')"
            + (f", such as {log['samples'][:3]}" if log["trouble"] else "")
        )
    print()


def cpu_list(text: str) -> set[int]:
    """``0`` or ``0,1`` or ``0-1``: a set of core numbers (as taskset's -c)."""
    cores: set[int] = set()
    for part in text.split(","):
        low, _sep, high = part.partition("-")
        cores.update(range(int(low), int(high or low) + 1))
    return cores


def git_head(repo: Path) -> str:
    import subprocess

    found = subprocess.run(
        ["git", "-C", str(repo), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["embedded", "pg", "both"], default="both")
    parser.add_argument("--sessions", type=int, default=100, help="tables at once (default 100)")
    parser.add_argument("--actions", type=int, default=3, help="actions per table (default 3)")
    parser.add_argument(
        "--single-actions", type=int, default=30, help="actions in the 1-table run (default 30)"
    )
    parser.add_argument("--concurrency", type=int, default=10, help="actions in flight")
    parser.add_argument(
        "--budget",
        type=float,
        default=120.0,
        help="seconds of actions per scenario; no new action starts after it (default 120)",
    )
    parser.add_argument(
        "--redis-url",
        default=REDIS_URL_BENCH,
        help="Redis for the pg backend (default: redis://127.0.0.1:6379/0)",
    )
    parser.add_argument(
        "--new-connections",
        action="store_true",
        help="open a new HTTP connection for every POST (default: keep it open, as browsers do)",
    )
    parser.add_argument(
        "--taps",
        choices=["socket", "post"],
        default="socket",
        help="how phones send taps: on their socket, as app.js does while it is open "
        "(default), or as POSTs (as it does while the socket is down; a server "
        "older than taps on the socket takes only these)",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="phones do not ask for permessage-deflate (browsers do; the server's CPU "
        "per action includes compressing every frame)",
    )
    parser.add_argument(
        "--pings",
        action="store_true",
        help="phones ping on their socket, as real phones do",
    )
    parser.add_argument(
        "--ping-seconds",
        type=float,
        default=5.0,
        help="with --pings, seconds between a phone's pings (default 5, as app.js; "
        "1 for a --repo tree before the server's own beat, 2026-11-27)",
    )
    parser.add_argument(
        "--paced",
        action="store_true",
        help="also run tables at a table's pace (default 200 tables = 1,000 sockets)",
    )
    parser.add_argument(
        "--paced-sessions", type=int, default=200, help="tables in the paced run (default 200)"
    )
    parser.add_argument(
        "--paced-interval",
        type=float,
        default=5.0,
        help="seconds between a table's actions (default 5)",
    )
    parser.add_argument(
        "--paced-duration", type=float, default=60.0, help="seconds of actions (default 60)"
    )
    parser.add_argument(
        "--paced-threads", type=int, default=64, help="client threads for the POSTs (default 64)"
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=1,
        help="client processes sharing the paced run's tables (default 1: one event "
        "loop reads every socket)",
    )
    parser.add_argument(
        "--server-cpus",
        type=cpu_list,
        default=None,
        help="cores the server may run on, e.g. 1 (default: any)",
    )
    parser.add_argument(
        "--client-cpus",
        type=cpu_list,
        default=None,
        help="cores this client may run on, e.g. 0 (default: any)",
    )
    parser.add_argument(
        "--server-probe",
        action="store_true",
        help="serve benchmarks/probe.py: the paced run reports the server's event-loop lag",
    )
    parser.add_argument(
        "--server-trace",
        action="store_true",
        help="serve benchmarks/probe.py noting a tap's steps: the 1-table run reports how "
        "long after its message each step came (the lock, the write, the render, the frames)",
    )
    parser.add_argument(
        "--server-garbage",
        choices=["run", "connect"],
        default=None,
        help="with --server-probe: report the reference cycles the server made during "
        "the run (or from start-up, connections included)",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="the server's sys.setswitchinterval in seconds (with --server-probe)",
    )
    parser.add_argument(
        "--tap-threads",
        type=int,
        default=None,
        help="the server's SEGNALINO_TAP_THREADS (default: its settings' 4)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also serve benchmarks/floor.py (same stack, trivial work) and run every "
        "scenario on both, interleaved; prints Segnalino ÷ floor",
    )
    parser.add_argument(
        "--bare",
        action="store_true",
        help="also serve benchmarks/bare.py (no framework: the same uvicorn, PostgreSQL and "
        "work at its leanest) and run every scenario on it too; prints Segnalino ÷ bare",
    )
    parser.add_argument(
        "--bare-frame-bytes",
        type=int,
        default=0,
        help="with --bare: its fragment about this many bytes of changing HTML, as "
        "Segnalino's updates (default: ~200 bytes, as the floor's)",
    )
    parser.add_argument(
        "--bgio",
        action="store_true",
        help="also run boardgame.io 0.50.2 with the same load shape (node and "
        "benchmarks/.node needed; skipped with the reason otherwise)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="times each scenario runs per target (default 1)"
    )
    parser.add_argument(
        "--server",
        choices=["daphne", "uvicorn", "uvicorn-shared", "granian"],
        default="uvicorn",
        help="the ASGI server (granian: from benchmarks/.py, see README); with --workers N, "
        "uvicorn runs behind config/door.py (each table in one process, as `make run "
        "--workers N`), uvicorn-shared runs uvicorn's own workers on one shared socket",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes on the one port (default 1)"
    )
    parser.add_argument(
        "--repo",
        type=Path,
        default=REPO,
        help="run the server from this tree (e.g. a git worktree of an older commit); "
        "the client is always this one",
    )
    parser.add_argument(
        "--server-log-level",
        default="ERROR",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="the server's LOG_LEVEL (default ERROR; INFO shows channels_redis dropping "
        "group messages for a full channel)",
    )
    parser.add_argument(
        "--server-callgrind",
        type=Path,
        metavar="DIR",
        help="run Segnalino's server under valgrind's callgrind, its counts written to "
        "DIR when it stops: instructions, the same figure whatever the machine's load. "
        "Two runs with different --single-actions, their totals' difference divided "
        "by the actions' difference, give a tap's instructions on the server",
    )
    args = parser.parse_args(argv)
    global KEEP_ALIVE, TAPS_ON_SOCKET, PINGS, PING_SECONDS, DEFLATE, SERVER_PROBE, SERVER_TRACE
    SERVER_TRACE = args.server_trace
    SERVER_PROBE = args.server_probe or SERVER_TRACE
    if args.switch_interval is not None and not SERVER_PROBE:
        parser.error("--switch-interval needs --server-probe")
    if args.client_cpus:
        os.sched_setaffinity(0, args.client_cpus)
    args.client_processes = max(1, min(args.client_processes, 8))
    KEEP_ALIVE = not args.new_connections
    DEFLATE = not args.no_deflate
    PINGS = args.pings
    PING_SECONDS = args.ping_seconds
    TAPS_ON_SOCKET = args.taps == "socket"
    if not args.redis_url.startswith(("redis://127.0.0.1", "redis://localhost")):
        parser.error("--redis-url must point at 127.0.0.1")
    args.sessions = max(0, min(args.sessions, 300))
    args.actions = max(0, min(args.actions, 100))
    args.single_actions = max(0, min(args.single_actions, 500))
    args.concurrency = max(1, min(args.concurrency, 50))
    args.paced_sessions = max(0, min(args.paced_sessions, 400))
    args.paced_interval = max(0.5, args.paced_interval)
    args.paced_duration = max(1.0, min(args.paced_duration, 600.0))
    args.paced_threads = max(1, min(args.paced_threads, 256))
    args.repo = args.repo.resolve()
    if not (args.repo / "manage.py").is_file():
        parser.error(f"--repo {args.repo}: no manage.py there")

    backends = ["embedded", "pg"] if args.backend == "both" else [args.backend]
    results: list[dict[str, Any]] = []
    for backend in backends:
        print(f"Starting the {backend} server …", flush=True)
        results.extend(run_backend(backend, args))
    print_table(results)
    ratio_rows = floor_ratios(results)
    print_floor_ratios(ratio_rows)
    path = write_results(
        "latency.json",
        {
            "settings": {
                "sockets_per_session": SEATS,
                "concurrency": args.concurrency,
                "server": f"{args.server} × {args.workers} process(es), DJANGO_DEBUG=0",
                "repo": str(args.repo),
                "argv": sys.argv[1:] if argv is None else argv,
                "redis_url": args.redis_url,
            },
            "results": results,
            "floor_ratios": ratio_rows,
        },
    )
    print(f"Server: {args.repo} ({git_head(args.repo)})")
    print(f"Written to {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    failed = any(r["errors"] or r.get("lost") or r.get("frames_lost") for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
