"""Where the server's CPU goes for one action, without a server or a network.

Sets Django up with the embedded settings on a fresh SQLite file (``DJANGO_DEBUG=0``,
the in-memory channel layer), creates a 5-player Adrenaline table (five phones, each
in its own seat) and then, for each action, does in this process the server work
the benchmark's action causes:

* ``post``    — the acting phone's POST through Django's full request stack
  (middleware, CSRF, session, ``companion.views.act`` → ``services.submit_action_at``;
  after commit ``services.notify`` offers the new revision to this process's live
  table and announces it on the channel layer); the phone says its socket is live,
  so the answer is an acknowledgement;
* ``sockets`` — what the table's 5 sockets then do on an asyncio loop, as
  ``SessionConsumer.refresh`` does when the announcement arrives: the
  ``companion.live.Table`` takes the offered snapshot (``offer``), each socket asks
  for it (``latest``) and for its frame (``frame``: each part rendered once per
  revision and viewer keys, on ``database_sync_to_async`` as in the server), and
  keeps only the fragments that changed (``rendering.Shown``).

With ``--remote`` the table is not offered the committed snapshot: it reads the
session, seats and log tail itself, as a process that did not make the change does.

Not included: daphne (HTTP parsing, WebSocket framing), the ASGI handler's thread
hops, the relay's trip through the channel layer (nobody is in the group), and
PostgreSQL/Redis.

It prints the milliseconds per action (median of the timed runs) and, with
``--profile``, the functions with the most cumulative time, in both threads that
work (the POST and the event loop in the main thread; the reads and renders in
asgiref's thread-sensitive executor), so a function's "cumulative" can include
the loop waiting for that executor (``select.epoll.poll``).

    .venv/bin/python benchmarks/profile_action.py [--actions 40] [--profile] [--top 30]
        [--policy table|own] [--language en|it] [--remote]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import FIVE, seated_table, setup_django_in_process  # noqa: E402

CHARACTERS = FIVE


def phone_client(token: str):
    """A test client holding ``token`` in its Django session, like a phone's cookie."""
    from importlib import import_module

    from django.conf import settings
    from django.test import Client

    from companion.identity import TOKEN_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[TOKEN_KEY] = token
    store.save()
    client = Client(HTTP_HOST="127.0.0.1", enforce_csrf_checks=False)
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    return client


def action_fields(n: int) -> dict[str, str]:
    """As in latency.py: one damage by the first player to the others, then cube pairs."""
    targets = CHARACTERS[1:]
    if n < 8 * len(targets):
        return {
            "type": "shot",
            "shooter": CHARACTERS[0],
            "hits.0.target": targets[n % len(targets)],
            "hits.0.damage": "1",
            "hits.0.marks": "0",
        }
    return {
        "type": "adjust",
        "player": CHARACTERS[0],
        "field": "red",
        "delta": "1" if n % 2 else "-1",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=40, help="timed actions (default 40)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed actions first (≥ 5)")
    parser.add_argument("--profile", action="store_true", help="cProfile the timed actions")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--dump", metavar="FILE", help="with --profile: write the pstats here")
    parser.add_argument("--policy", choices=["table", "own"], default="table")
    parser.add_argument("--language", default="en")
    parser.add_argument(
        "--remote",
        action="store_true",
        help="the table reads each revision itself (a process that did not commit it)",
    )
    args = parser.parse_args(argv)

    directory = tempfile.mkdtemp(prefix="segnalino-profile-")
    setup_django_in_process(directory, catalogs=True)

    from asgiref.sync import SyncToAsync
    from django.utils import translation

    from companion import live
    from companion.models import GameSession
    from companion.rendering import Shown

    tokens = [f"phone-{i}" for i in range(len(CHARACTERS))]
    session = seated_table(tokens, edit_policy=args.policy)
    clients = [phone_client(token) for token in tokens]
    url = f"/s/{session.code}/act"
    headers = {"HX-Request": "true", "X-Segnalino-Live": "1"}

    # The process's table of the session, on an event loop of its own, as
    # ``live.sit`` makes it (registered, so ``live.offer`` reaches it; nobody is in
    # the channel layer's group, so the announcement itself goes nowhere).
    loop = asyncio.new_event_loop()
    table = live.Table(session.pk, loop)
    if not args.remote:
        with live._tables_lock:
            live._TABLES.setdefault(session.pk, {})[loop] = table
    shown = [Shown() for _ in tokens]
    update_bytes: list[int] = []

    async def first_frames() -> None:
        snapshot = await table.latest(fresh=True)
        for token, seen in zip(tokens, shown, strict=True):
            html = await table.frame(snapshot, token, spectator=False, language=args.language)
            seen.everything(html)

    async def refresh(revision: int, token: str, seen: Shown) -> int:
        snapshot = await table.latest(revision)
        assert snapshot.revision >= revision, (snapshot.revision, revision)
        html = await table.frame(snapshot, token, spectator=False, language=args.language)
        return len(seen.changes(html).encode())

    async def sockets(revision: int) -> None:
        await asyncio.sleep(0)  # the offer queued by the committing thread runs first
        sizes = await asyncio.gather(
            *(refresh(revision, t, s) for t, s in zip(tokens, shown, strict=True))
        )
        update_bytes.extend(sizes)

    revision = GameSession.objects.get(pk=session.pk).revision
    loop.run_until_complete(first_frames())

    def one_action(n: int) -> tuple[float, float]:
        nonlocal revision
        actor = n % len(tokens)
        cpu_start = time.process_time()
        start = time.perf_counter()
        response = clients[actor].post(url, {**action_fields(n), "key": f"k-{n}"}, headers=headers)
        assert response.status_code == 200, response.content[:300]
        posted = time.perf_counter()
        # The revision the announcement carries: one more per action here.
        revision += 1
        loop.run_until_complete(sockets(revision))
        cpu.append((time.process_time() - cpu_start) * 1000)
        return posted - start, time.perf_counter() - posted

    cpu: list[float] = []  # CPU time of this process per action (less noisy than wall)
    with translation.override(args.language):
        args.warmup = max(args.warmup, len(tokens))  # every phone has posted once
        for n in range(args.warmup):
            one_action(n)
        cpu.clear()
        update_bytes.clear()
        profiler = cProfile.Profile() if args.profile else None
        # The renders and reads run on asgiref's thread-sensitive executor (one
        # thread): profile that thread too, or the profile misses them.
        worker = cProfile.Profile() if args.profile else None
        if worker:
            SyncToAsync.single_thread_executor.submit(worker.enable).result()
        posts, socket_ms = [], []
        for n in range(args.warmup, args.warmup + args.actions):
            if profiler:
                profiler.enable()
            post, socket = one_action(n)
            if profiler:
                profiler.disable()
            posts.append(post * 1000)
            socket_ms.append(socket * 1000)
        if worker:
            SyncToAsync.single_thread_executor.submit(worker.disable).result()

    stored = GameSession.objects.get(pk=session.pk)
    assert stored.revision == revision, (stored.revision, revision)
    full = "".join(
        piece.html
        for piece in loop.run_until_complete(
            table.frame(table.snapshot, tokens[1], spectator=False, language=args.language)
        )
    )
    loop.close()
    total = [p + s for p, s in zip(posts, socket_ms, strict=True)]
    print(
        f"{args.actions} actions (after {args.warmup} warm-up), session at v{stored.version} "
        f"r{stored.revision}; table {'reads each revision' if args.remote else 'offered'}"
    )
    print(
        f"frame: {len(full.encode()) / 1024:.1f} KB whole; "
        f"{statistics.mean(update_bytes) / 1024:.1f} KB per socket per update (changed only)"
    )
    print(
        f"ms per action (median / mean): post {statistics.median(posts):.1f} / "
        f"{statistics.mean(posts):.1f}; 5 sockets {statistics.median(socket_ms):.1f} / "
        f"{statistics.mean(socket_ms):.1f}; total {statistics.median(total):.1f} / "
        f"{statistics.mean(total):.1f}"
    )
    print(f"CPU ms per action (median): {statistics.median(cpu):.1f}")
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.add(worker)
        stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
        print(out.getvalue())
        if args.dump:
            stats.dump_stats(args.dump)
    return 0


if __name__ == "__main__":
    sys.exit(main())
