"""What the relay's Redis traffic costs a revision: one PUBLISH on a table's channel and
its echo read back on this process's own subscription (``companion.live.Relay``), with
redis-py's asyncio client, as the server does it.

    .venv/bin/python benchmarks/relay_publish.py [--round-trips 3000] [--no-hiredis]

It prints wall and CPU microseconds a round trip, and whether redis-py parsed the
replies with hiredis (in C) or in Python (``--no-hiredis`` hides hiredis). On this
shared machine those move by a quarter from run to run; to compare, count
instructions instead, with two values of ``--round-trips``:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/p100 \\
        .venv/bin/python benchmarks/relay_publish.py --round-trips 100
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/p600 \\
        .venv/bin/python benchmarks/relay_publish.py --round-trips 600
    # (totals of /tmp/p600 - totals of /tmp/p100) / 500 = instructions a round trip

Needs the Redis at ``--redis-url`` (default: the benchmarks' one).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REDIS_URL


async def round_trips(url: str, count: int) -> tuple[float, float]:
    import redis.asyncio

    channel = f"segnalino-bench-relay-{uuid.uuid4().hex[:12]}"
    publishing = redis.asyncio.Redis.from_url(url)
    listening = redis.asyncio.Redis.from_url(url)
    subscription = listening.pubsub()
    await subscription.subscribe(channel)
    await subscription.get_message(timeout=1)  # the subscription's confirmation
    try:
        started, cpu_started = time.perf_counter(), time.process_time()
        for revision in range(count):
            await publishing.publish(channel, f"{revision} bench")
            heard = await subscription.get_message(ignore_subscribe_messages=True, timeout=1)
            if heard is None:
                raise RuntimeError(f"revision {revision} was not heard back")
        return time.perf_counter() - started, time.process_time() - cpu_started
    finally:
        await subscription.aclose()
        await listening.aclose()
        await publishing.aclose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--round-trips", type=int, default=3000)
    parser.add_argument("--redis-url", default=REDIS_URL)
    parser.add_argument("--no-hiredis", action="store_true", help="parse in Python")
    args = parser.parse_args(argv)
    if args.no_hiredis:
        sys.modules["hiredis"] = None  # type: ignore[assignment]  # redis-py then finds none
    import redis.utils

    wall, cpu = asyncio.run(round_trips(args.redis_url, args.round_trips))
    parser_name = "hiredis" if redis.utils.HIREDIS_AVAILABLE else "Python"
    print(
        f"{args.round_trips} publishes heard back ({parser_name} parser): "
        f"{wall / args.round_trips * 1e6:.1f} µs wall, "
        f"{cpu / args.round_trips * 1e6:.1f} µs CPU each"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
