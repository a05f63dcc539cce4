"""Shared bits of the benchmarks: server environments, percentiles, the results file.

The benchmarks only ever talk to servers they start themselves on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import platform
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.support.servers import (  # noqa: E402
    free_port,
    prepare_database,
    running_server,
    server_env,
    serving,
    sqlite_env,
    stop,
)

RESULTS = REPO / "benchmarks" / "results"
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
# SEGNALINO_BENCH_DB: another database name (e.g. one per person sharing a server).
PG_BENCH_DB = os.environ.get("SEGNALINO_BENCH_DB", "segnalino_bench")
PG_URL = f"postgres://postgres@127.0.0.1:5432/{PG_BENCH_DB}"
REDIS_URL = "redis://127.0.0.1:6379/0"
# The server's own settings give the channel layer no read timeout (redis-py's 5 s
# default would kill a consumer idle in BZPOPMIN), so the benchmark uses the plain URL.
REDIS_URL_BENCH = REDIS_URL

# Production-like servers: no debug toolbar of any kind, quiet logs.
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "LOG_LEVEL": "ERROR",
    "DJANGO_SECRET_KEY": "benchmark-servers-key",
    # One client plays every phone of hundreds of tables: no per-address limits.
    "SEGNALINO_RATE_LIMITS": "0",
}


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


#: Server processes started by :func:`serve`, by port: their CPU is counted with
#: every process they started (uvicorn's and granian's workers).
SERVER_PIDS: dict[int, list[int]] = {}


def _cpu_of_tree(roots: list[int]) -> float | None:
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parent[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    total, wanted = 0.0, set(roots)
    for pid in cpu:
        walk = pid
        while walk and walk not in wanted:
            walk = parent.get(walk, 0)
        if walk:
            total += cpu[pid]
    return total


def server_cpu_seconds(port: int) -> float | None:
    """CPU seconds (user + system) used so far by the server on ``port`` (with its
    worker processes), or None where /proc is missing (not Linux).

    PostgreSQL and Redis are separate processes and not included.
    """
    if port in SERVER_PIDS:
        return _cpu_of_tree(SERVER_PIDS[port])
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
        if int(fields[1]) != me or str(port).encode() not in cmdline:
            continue
        return (int(fields[11]) + int(fields[12])) / ticks
    return None


#: Where ``--server uvicorn|granian`` come from: installed by
#: ``pip install --target benchmarks/.py`` (see README), not in the project's venv.
EXTRA_PACKAGES = REPO / "benchmarks" / ".py"


def server_command(server: str, app: str, port: int, workers: int = 1) -> list[str]:
    """The command line of one ASGI server on 127.0.0.1:``port`` serving ``app``.

    ``uvicorn`` with more than one worker is the door (``config/door.py``, as
    ``config.serve --workers N``: each table's sockets in one process, with
    ``make run``'s uvicorn options); ``uvicorn-shared`` is uvicorn's own workers
    on one shared listening socket (the kernel spreads the connections)."""
    py = sys.executable
    if server == "daphne":
        return [py, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app]
    if server == "uvicorn" and workers > 1:
        return [
            py, "-m", "config.door", "--app", app, "--bind", "127.0.0.1", "--port", str(port),
            "--workers", str(workers),
        ]  # fmt: skip
    if server in {"uvicorn", "uvicorn-shared"}:
        return [
            py, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port),
            "--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio",
            "--lifespan", "off", "--no-access-log", "--log-level", "warning",
            "--workers", str(workers),
        ]  # fmt: skip
    if server == "granian":
        return [
            py, "-m", "granian", "--interface", "asginl", "--host", "127.0.0.1",
            "--port", str(port), "--loop", "uvloop", "--workers", str(workers),
            "--ws", "--log-level", "warning", app,
        ]  # fmt: skip
    raise ValueError(server)


@contextlib.contextmanager
def serve(
    repo: Path,
    env: dict[str, str],
    log_path: Path,
    *,
    app: str = "config.asgi:application",
    server: str = "daphne",
    workers: int = 1,
    extra_path: str = "",
    cpus: set[int] | None = None,
    callgrind: Path | None = None,
):
    """An ASGI server (``server``) serving ``app`` from ``repo`` with ``workers``
    processes on one port; yields its base URL. daphne has no workers of its own:
    ``workers`` > 1 starts that many daphne processes on one listening socket
    bound here (``--fd``), the same proxy-less set-up as uvicorn's ``--workers``.
    ``cpus``: the cores the server's processes may run on (``taskset``), if not all.
    ``callgrind``: the one server process runs under valgrind's callgrind, which
    writes its instruction counts into that folder when the server stops (some
    fifty times slower: for counting, not timing)."""
    port = free_port()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("w+b")
    paths = [str(repo), *([extra_path] if extra_path else []), str(EXTRA_PACKAGES)]
    env = {**env, "PYTHONPATH": os.pathsep.join(paths)}
    if workers == 1:
        # As `make run` starts its one process: on a core of its own (config/cores.py;
        # SEGNALINO_PIN_CORES=0 in this environment turns it off). A tree from
        # before that reads nothing of it. The door assigns its workers' itself.
        env.setdefault("SEGNALINO_CORE", "0")
    processes: list[subprocess.Popen] = []
    listener = None
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    if server == "daphne" and workers > 1:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(1024)
        listener.set_inheritable(True)
        fd = listener.fileno()
        for _ in range(workers):
            command = [sys.executable, "-m", "daphne", "--fd", str(fd), app]
            processes.append(
                subprocess.Popen(
                    command,
                    cwd=repo,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    pass_fds=(fd,),
                    preexec_fn=pin,
                )
            )
    else:
        command = server_command(server, app, port, workers)
        if callgrind is not None:
            if workers > 1:
                raise ValueError("callgrind counts one server process")
            callgrind.mkdir(parents=True, exist_ok=True)
            out = callgrind / f"callgrind.{now_stamp()}.%p"
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command]
        processes.append(
            subprocess.Popen(
                command,
                cwd=repo,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=pin,
            )
        )
    SERVER_PIDS[port] = [p.pid for p in processes]
    base = f"http://127.0.0.1:{port}"
    try:
        serving(base, log, timeout=600 if callgrind is not None else 30)
        yield base
    finally:
        for process in processes:
            stop(process, timeout=300 if callgrind is not None else 10)
        if listener is not None:
            listener.close()
        SERVER_PIDS.pop(port, None)
        log.close()


# ---------------------------------------------------------------- another tree's server


def bench_database(repo: Path) -> str:
    """The PostgreSQL database for the server code in ``repo``: ``segnalino_bench``
    for this tree, one of its own for another (its migrations may differ)."""
    if repo.resolve() == REPO:
        return PG_BENCH_DB
    return f"{PG_BENCH_DB}_{re.sub(r'[^a-z0-9]+', '_', repo.resolve().name.lower())}"


def ensure_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def server_env_at(
    repo: Path, backend: str, directory: str, redis_url: str, log_level: str = "ERROR"
) -> dict[str, str]:
    """A production-like server environment for the code in ``repo`` (embedded or pg),
    its database migrated and catalogs loaded with that code."""
    overrides = {"SEGNALINO_MANIFEST_STATIC": "0", "PYTHONPATH": str(repo)}
    if backend == "embedded":
        env = sqlite_env(directory, **{**PRODUCTION, **overrides})
    else:
        database = bench_database(repo)
        ensure_database(database)
        env = server_env(
            DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{database}",
            REDIS_URL=redis_url,
            CHANNEL_PREFIX=f"segnalino-bench-{uuid.uuid4().hex[:12]}",
            CELERY_EAGER="1",
            **PRODUCTION,
            **overrides,
        )
    prepare_database(env, repo)
    return {**env, "LOG_LEVEL": log_level}


APP = "config.asgi:application"


def server_at(repo: Path, env: dict[str, str], log_path: Path):
    """``daphne config.asgi:application`` run from ``repo``, its output kept in
    ``log_path``; a context manager yielding its base URL."""
    return running_server(env, repo=repo, log_path=log_path)


_TROUBLE = re.compile(r"Traceback|ERROR|Error|Exception|WARNING|over capacity", re.IGNORECASE)


def log_trouble(log_path: Path, limit: int = 5) -> dict[str, Any]:
    """Lines of a server log that look like errors or warnings: a count and samples."""
    try:
        lines = log_path.read_text(errors="replace").splitlines()
    except OSError:
        return {"lines": 0, "trouble": 0, "samples": []}
    bad = [line for line in lines if _TROUBLE.search(line)]
    # channels_redis logs a group message dropped for a full channel at INFO only
    # (see --server-log-level): the message is lost without an error.
    full = sum("over capacity" in line for line in lines)
    return {"lines": len(lines), "trouble": len(bad), "over_capacity": full, "samples": bad[:limit]}


def now_stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def temp_dir() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix="segnalino-bench-")


#: The five characters of the in-process benchmarks' Adrenaline table, in seat order.
FIVE = ["dstructor", "banshee", "dozer", "violet", "sprog"]


def seated_table(tokens: list[str], *, seat_names: list[str] | None = None, **options: Any):
    """A 5-player Adrenaline table (8 skulls, the first seat first) for the in-process
    benchmarks, each seat held by the phone of that token (the first one hosts);
    ``options``: ``create_session``'s (an ``edit_policy``, say). Needs Django set up."""
    from companion import services

    session = services.create_session(
        game="adrenaline",
        seat_names=seat_names or [c.title() for c in FIVE],
        options={"characters": FIVE, "skulls": 8, "first_player": 0},
        host_token=tokens[0],
        **options,
    )
    for index, token in enumerate(tokens):
        services.claim_seat(session, index, token)
    return session


def setup_django_in_process(
    directory: str, *, keep_database: bool = False, catalogs: bool = False
) -> str:
    """Django in this process, production-like (``DJANGO_DEBUG=0``), on a fresh SQLite
    file in ``directory`` (or on ``DATABASE_URL`` if ``keep_database``), migrated,
    with the in-memory channel layer and eager Celery; returns the database vendor."""
    import io

    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "0",
            "LOG_LEVEL": "ERROR",
            "SQLITE_PATH": str(Path(directory) / "db.sqlite3"),
        }
    )
    for key in ("REDIS_URL",) if keep_database else ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", "--noinput", verbosity=0, stdout=io.StringIO())
    if catalogs:
        call_command("load_catalogs", verbosity=0, stdout=io.StringIO())
    return connection.vendor
