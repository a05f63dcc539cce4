"""Where the server's CPU goes for one action, without a server or a network.

Sets Django up with the embedded settings on a fresh SQLite file (``DJANGO_DEBUG=0``),
creates a 5-player Adrenaline table (five phones, each in its own seat) and then, for
each action, does in this process the server work the benchmark's action causes:

* ``post``    — the acting phone's POST through Django's full request stack
  (middleware, CSRF, session, ``companion.views.act`` → ``services.submit_action``,
  which after commit renders the frames of the sockets this process holds, then
  sends the group message); the phone says its socket is live, so the answer is
  an acknowledgement;
* ``sockets`` — what each of the table's 5 sockets then does for the group message
  (``SessionConsumer._deliver``: the same functions, called directly).

Not included: daphne (HTTP parsing, WebSocket framing), the thread hops of the ASGI
handler, and a real channel layer (the in-memory one is used).

It prints the milliseconds per action (median of the timed runs) and, with
``--profile``, the functions with the most cumulative time.

    .venv/bin/python benchmarks/profile_action.py [--actions 40] [--profile] [--top 30]
        [--policy table|own] [--language en|it] [--full-reply]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CHARACTERS = ["dstructor", "banshee", "dozer", "violet", "sprog"]


def setup_django(directory: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "0",
            "LOG_LEVEL": "ERROR",
            "SQLITE_PATH": str(Path(directory) / "db.sqlite3"),
        }
    )
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_catalogs", verbosity=0, stdout=io.StringIO())


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
    client.cookies["sessionid"] = store.session_key
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
    parser.add_argument("--policy", choices=["table", "own"], default="table")
    parser.add_argument("--language", default="en")
    parser.add_argument(
        "--full-reply", action="store_true", help="the POST asks for the full fragments (no socket)"
    )
    args = parser.parse_args(argv)

    directory = tempfile.mkdtemp(prefix="segnalino-profile-")
    setup_django(directory)

    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.utils import translation

    from companion import services
    from companion.models import GameSession
    from companion.rendering import Listener, cached_frames, socket_frames, socket_opened

    tokens = [f"phone-{i}" for i in range(len(CHARACTERS))]
    session = services.create_session(
        game="adrenaline",
        seat_names=[c.title() for c in CHARACTERS],
        options={"characters": CHARACTERS, "skulls": 8, "first_player": 0},
        host_token=tokens[0],
        edit_policy=args.policy,
    )
    for index, token in enumerate(tokens):
        services.claim_seat(session, index, token)
    clients = [phone_client(token) for token in tokens]
    # The table's five sockets, as SessionConsumer.connect registers them, and a
    # listener on the session's group for the stamp of each change.
    for token in tokens:
        socket_opened(session.pk, token, Listener(token, False, args.language))
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(session.group_name, channel)
    url = f"/s/{session.code}/act"
    headers = {"HX-Request": "true"}
    if not args.full_reply:
        headers["X-Segnalino-Live"] = "1"

    def one_action(n: int) -> tuple[float, float]:
        actor = n % len(tokens)
        cpu_start = time.process_time()
        start = time.perf_counter()
        response = clients[actor].post(url, {**action_fields(n), "key": f"k-{n}"}, headers=headers)
        assert response.status_code == 200, response.content[:300]
        posted = time.perf_counter()
        # Every socket of the table (the actor's too) sends its frame, as
        # SessionConsumer._deliver does when it is woken.
        stamp = async_to_sync(layer.receive)(channel)["stamp"]
        for token in tokens:
            frame = cached_frames(session.pk, token, language=args.language, stamp=stamp)
            if frame is None:
                frame = socket_frames(session.pk, token, language=args.language, stamp=stamp)
            assert 'data-version="' in frame
        cpu.append((time.process_time() - cpu_start) * 1000)
        return posted - start, time.perf_counter() - posted

    cpu: list[float] = []  # CPU time of this process per action (less noisy than wall)
    with translation.override(args.language):
        args.warmup = max(args.warmup, len(tokens))  # every phone has posted once
        for n in range(args.warmup):
            one_action(n)
        cpu.clear()
        profiler = cProfile.Profile() if args.profile else None
        posts, sockets = [], []
        for n in range(args.warmup, args.warmup + args.actions):
            if profiler:
                profiler.enable()
            post, socket = one_action(n)
            if profiler:
                profiler.disable()
            posts.append(post * 1000)
            sockets.append(socket * 1000)

    version = GameSession.objects.get(pk=session.pk).version
    frame = socket_frames(session.pk, tokens[1], language=args.language)
    total = [p + s for p, s in zip(posts, sockets, strict=True)]
    print(f"{args.actions} actions (after {args.warmup} warm-up), session at v{version}")
    print(f"frame: {len(frame.encode()) / 1024:.1f} KB")
    print(
        f"ms per action (median / mean): post {statistics.median(posts):.1f} / "
        f"{statistics.mean(posts):.1f}; 5 sockets {statistics.median(sockets):.1f} / "
        f"{statistics.mean(sockets):.1f}; total {statistics.median(total):.1f} / "
        f"{statistics.mean(total):.1f}"
    )
    print(f"CPU ms per action (median): {statistics.median(cpu):.1f}")
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
