"""Shared bits of the benchmarks: server environments, percentiles, the results file.

The benchmarks only ever talk to servers they start themselves on 127.0.0.1.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import sys
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.support.servers import prepare_database, server_env, sqlite_env  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_BENCH_DB = "segnalino_bench"
PG_URL = f"postgres://postgres@127.0.0.1:5432/{PG_BENCH_DB}"
REDIS_URL = "redis://127.0.0.1:6379/0"
# The server's own settings give the channel layer no read timeout (redis-py's 5 s
# default would kill a consumer idle in BZPOPMIN), so the benchmark uses the plain URL.
REDIS_URL_BENCH = REDIS_URL

# Production-like servers: no debug toolbar of any kind, quiet logs.
PRODUCTION = {"DJANGO_DEBUG": "0", "LOG_LEVEL": "ERROR"}


def embedded_env(directory: str, **overrides: str) -> dict[str, str]:
    """The embedded default: a fresh SQLite file, the in-memory channel layer."""
    env = sqlite_env(directory, **{**PRODUCTION, **overrides})
    prepare_database(env)
    return env


def ensure_pg_database() -> None:
    """Create the benchmark database if it is missing (it is kept between runs)."""
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (PG_BENCH_DB,)
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{PG_BENCH_DB}"')


def pg_env(redis_url: str = REDIS_URL_BENCH, **overrides: str) -> dict[str, str]:
    """PostgreSQL + Redis, with a channel prefix of its own so runs never mix."""
    ensure_pg_database()
    settings = {
        "DATABASE_URL": PG_URL,
        "REDIS_URL": redis_url,
        "CHANNEL_PREFIX": f"segnalino-bench-{uuid.uuid4().hex[:12]}",
        "CELERY_EAGER": "1",
        **PRODUCTION,
    }
    env = server_env(**{**settings, **overrides})
    prepare_database(env)
    return env


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0–100), interpolating linearly between ranks; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * min(max(q, 0.0), 100.0) / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary_ms(seconds: list[float]) -> dict[str, float | int | None]:
    """n, p50, p95, p99 and max in milliseconds, rounded to 0.1 ms."""
    ms = [s * 1000 for s in seconds]

    def r(value: float | None) -> float | None:
        return None if value is None else round(value, 1)

    return {
        "n": len(ms),
        "p50": r(percentile(ms, 50)),
        "p95": r(percentile(ms, 95)),
        "p99": r(percentile(ms, 99)),
        "max": r(max(ms) if ms else None),
    }


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
    }


def write_results(name: str, payload: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / name
    document = {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        **payload,
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


def fmt(value: float | int | None, width: int = 7) -> str:
    return f"{'—' if value is None else value:>{width}}"


def server_cpu_seconds(port: int) -> float | None:
    """CPU time (user + system) used so far by our own server child listening on ``port``.

    Linux only (reads /proc); None elsewhere or if the process is not found.
    """
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    me, ticks = os.getpid(), os.sysconf("SC_CLK_TCK")
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) != me or b"daphne" not in cmdline or str(port).encode() not in cmdline:
            continue
        return (int(fields[11]) + int(fields[12])) / ticks
    return None
