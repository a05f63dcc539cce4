"""Action latency: from a phone sending its POST to the update arriving on another seat's socket.

For each backend, one daphne process is started on 127.0.0.1 (DJANGO_DEBUG=0):

* ``embedded`` — the default: a SQLite file and the in-memory channel layer;
* ``pg`` — PostgreSQL (database ``segnalino_bench``, created if missing) and Redis
  (channel layer with a prefix unique to the run).

Two scenarios run against it: one table, then ``--sessions`` tables at once. Every
table has 5 players, each on their own phone (own cookies, own seat, own socket).
All sockets are connected before any action; then actions go round-robin across
tables, at most ``--concurrency`` in flight and one per table at a time. For each
action we time, from the moment the POST is sent:

* ``post``   — the POST's own answer (an acknowledgement: the phone says its socket
  is live, so its own update comes on the socket);
* ``other``  — the frame showing the new version arriving on the next seat's socket;
* ``all``    — the last of the four other seats' sockets to get it.

The client runs on the same machine as the server, so on a small box the figures
include the client's own share of the CPU.

    .venv/bin/python benchmarks/latency.py [--backend embedded|pg|both]
        [--sessions 100] [--actions 3] [--single-actions 30] [--concurrency 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    REDIS_URL_BENCH,
    embedded_env,
    fmt,
    pg_env,
    server_cpu_seconds,
    summary_ms,
    write_results,
)

from tests.support.client import CHARACTERS, Phone, frame_version
from tests.support.servers import running_server

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

    async def run(self) -> None:
        try:
            async for frame in self.ws:
                now = time.perf_counter()
                text = frame if isinstance(frame, str) else frame.decode()
                version = frame_version(text)
                if version is None:
                    continue  # an error message, not a full update
                self.frame_bytes.append(len(text.encode()))
                self.seen.append((now, version))
                async with self.changed:
                    self.top = max(self.top, version)
                    self.changed.notify_all()
        except Exception as error:  # kept for the report, not raised
            self.failure = f"{type(error).__name__}: {error}"[:200]
        else:
            self.failure = "closed by the server"

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


def set_table(base: str) -> Table:
    """One 5-player session: the creator sits in seat 0, four more phones claim 1–4."""
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


# ---------------------------------------------------------------- one scenario


async def connect(table: Table, seat: int, gate: asyncio.Semaphore) -> float:
    """Open seat's socket; return the time from connecting to its first full frame."""
    async with gate:
        start = time.perf_counter()
        ws = await table.phones[seat].socket(table.code, open_timeout=FRAME_TIMEOUT)
        watch = Watch(ws)
        watch.task = asyncio.create_task(watch.run())
        table.watches[seat] = watch
        if await watch.arrival(0, FRAME_TIMEOUT) is None:
            raise RuntimeError(f"no first frame on {table.code} seat {seat}")
        return time.perf_counter() - start


async def scenario(
    base: str, *, sessions: int, actions: int, concurrency: int, budget: float
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=max(SETUP_THREADS, concurrency)) as pool:
        # 1. Tables, seats.
        started = time.perf_counter()
        tables: list[Table] = await asyncio.gather(
            *(loop.run_in_executor(pool, set_table, base) for _ in range(sessions))
        )
        setup_s = time.perf_counter() - started

        for table in tables:
            table.watches = [None] * SEATS  # type: ignore[list-item]
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
    for table in tables:
        for phone in table.phones:
            phone.close()


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
    loop = asyncio.get_running_loop()
    # 2. Every socket connected and showing the table before any action.
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    cpu_before_connect = server_cpu_seconds(port)
    started = time.perf_counter()
    connect_times = await asyncio.gather(
        *(connect(table, seat, gate) for table in tables for seat in range(SEATS))
    )
    connect_s = time.perf_counter() - started

    # 3. Actions: round-robin over tables, `concurrency` in flight, one per table.
    post: list[float] = []
    other: list[float] = []
    every: list[float] = []
    errors: list[str] = []
    stopped: list[int] = []
    lost_notes: list[str] = []
    lost = 0
    plan = iter([(n, table) for n in range(actions) for table in tables])

    def send(table: Table, seat: int, n: int) -> tuple[float, Any, float]:
        sent = time.perf_counter()
        answer = table.phones[seat].act(table.code, action_fields(n), live=True)
        return sent, answer, time.perf_counter()

    async def worker() -> None:
        nonlocal lost
        for n, table in plan:  # the iterator is shared: each item is taken once
            if time.monotonic() > deadline:
                stopped.append(n)
                return
            async with table.lock:
                actor = n % SEATS
                try:
                    sent, answer, answered = await loop.run_in_executor(pool, send, table, actor, n)
                except OSError as error:  # refused, reset, timed out
                    errors.append(f"{type(error).__name__}: {error}"[:160])
                    continue
                version = frame_version(answer.text) if answer.status == 200 else None
                if version is None:
                    errors.append(f"{answer.status}: {answer.text[:120]}")
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

    cpu_before_actions = server_cpu_seconds(port)
    deadline = time.monotonic() + budget  # no new action after this
    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    actions_s = time.perf_counter() - started
    cpu_after_actions = server_cpu_seconds(port)

    watches = [w for table in tables for w in table.watches if w is not None]
    frames = [size for w in watches for size in w.frame_bytes]

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
        "server_cpu_ms_per_connect": per(cpu_before_connect, cpu_before_actions, len(watches)),
        "server_cpu_ms_per_action": per(cpu_before_actions, cpu_after_actions, len(post)),
        "stopped_early": bool(stopped),
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:3] + lost_notes[:3],
        "lost": lost,
        "connect_ms": summary_ms(connect_times),
        "post_ms": summary_ms(post),
        "other_seat_ms": summary_ms(other),
        "all_seats_ms": summary_ms(every),
    }


# ---------------------------------------------------------------- backends


def server_for(backend: str, directory: str, redis_url: str) -> dict[str, str]:
    overrides = {"SEGNALINO_MANIFEST_STATIC": "0"}
    if backend == "embedded":
        return embedded_env(directory, **overrides)
    return pg_env(redis_url, **overrides)


def run_backend(backend: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    results = []
    with tempfile.TemporaryDirectory(prefix="segnalino-bench-") as directory:
        env = server_for(backend, directory, args.redis_url)
        with running_server(env) as base:
            plans = [(1, args.single_actions), (args.sessions, args.actions)]
            for sessions, actions in plans:
                if sessions < 1 or actions < 1:
                    continue
                print(f"  {backend}: {sessions} session(s) × {actions} actions …", flush=True)
                result = asyncio.run(
                    scenario(
                        base,
                        sessions=sessions,
                        actions=actions,
                        concurrency=args.concurrency,
                        budget=args.budget,
                    )
                )
                results.append({"backend": backend, "keep_alive": KEEP_ALIVE, **result})
    return results


def print_table(results: list[dict[str, Any]]) -> None:
    head = (
        f"{'backend':<9}{'sessions':>9}{'sockets':>8}{'actions':>8}{'act/s':>7}"
        f"{'post p50':>9}{'p95':>7}{'other p50':>10}{'p95':>7}{'p99':>7}"
        f"{'all p95':>8}{'p99':>7}{'frame KB':>9}{'cpu/act':>8}{'err':>4}{'lost':>5}"
    )
    print()
    print("Latency in ms from the POST being sent (post = its own answer;")
    print("other = next seat's socket shows it; all = the last of the 4 other sockets;")
    print("cpu/act = server CPU ms per action, all its sockets' frames included).")
    print(head)
    print("-" * len(head))
    for r in results:
        print(
            f"{r['backend']:<9}{r['sessions']:>9}{r['sockets']:>8}{r['actions']:>8}"
            f"{fmt(r['actions_per_s'])}"
            f"{fmt(r['post_ms']['p50'], 9)}{fmt(r['post_ms']['p95'])}"
            f"{fmt(r['other_seat_ms']['p50'], 10)}{fmt(r['other_seat_ms']['p95'])}"
            f"{fmt(r['other_seat_ms']['p99'])}"
            f"{fmt(r['all_seats_ms']['p95'], 8)}{fmt(r['all_seats_ms']['p99'])}"
            f"{fmt(r['frame_kb'], 9)}{fmt(r['server_cpu_ms_per_action'], 8)}"
            f"{r['errors']:>4}{r['lost']:>5}"
        )
    for r in results:
        if r["stopped_early"]:
            print(f"{r['backend']} × {r['sessions']}: stopped early at the time budget")
        if r["error_samples"]:
            print(f"{r['backend']} × {r['sessions']}: errors such as {r['error_samples']}")
    print()


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
    args = parser.parse_args(argv)
    global KEEP_ALIVE
    KEEP_ALIVE = not args.new_connections
    if not args.redis_url.startswith(("redis://127.0.0.1", "redis://localhost")):
        parser.error("--redis-url must point at 127.0.0.1")
    args.sessions = max(0, min(args.sessions, 300))
    args.actions = max(0, min(args.actions, 100))
    args.single_actions = max(0, min(args.single_actions, 500))
    args.concurrency = max(1, min(args.concurrency, 50))

    backends = ["embedded", "pg"] if args.backend == "both" else [args.backend]
    results: list[dict[str, Any]] = []
    for backend in backends:
        print(f"Starting the {backend} server …", flush=True)
        results.extend(run_backend(backend, args))
    print_table(results)
    path = write_results(
        "latency.json",
        {
            "settings": {
                "sockets_per_session": SEATS,
                "concurrency": args.concurrency,
                "server": "1 daphne process, DJANGO_DEBUG=0",
                "redis_url": args.redis_url,
            },
            "results": results,
        },
    )
    print(f"Written to {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    failed = any(r["errors"] or r["lost"] for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
