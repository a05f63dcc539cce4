"""Start real ASGI server processes (uvicorn, as `make run`) for browser, multi-process and
benchmark runs."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(**overrides: str | None) -> dict[str, str]:
    """The environment for a server process: the embedded default unless overridden.

    ``DATABASE_URL`` and ``REDIS_URL`` are dropped from the inherited environment
    (a test's own database is not the servers'); pass them explicitly to use them.
    """
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "1",
            # A server not in debug mode refuses the public development key.
            "DJANGO_SECRET_KEY": "test-servers-key",
            # Every phone of a test is on 127.0.0.1: the per-address limits are
            # tested in-process (tests/companion/test_abuse.py), not here.
            "SEGNALINO_RATE_LIMITS": "0",
            "PYTHONPATH": str(REPO),
            "LOG_LEVEL": "ERROR",
        }
    )
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def sqlite_env(directory: str | None = None, **overrides: str | None) -> dict[str, str]:
    """An env whose SQLite database is a fresh file in ``directory`` (or a temp dir)."""
    directory = directory or tempfile.mkdtemp(prefix="segnalino-")
    return server_env(SQLITE_PATH=str(Path(directory) / "db.sqlite3"), **overrides)


def prepare_database(env: dict[str, str], repo: Path = REPO) -> None:
    """Migrate and load the card catalogs into the database ``env`` points at
    (with the code of ``repo``)."""
    for command in (["migrate", "--noinput", "-v", "0"], ["load_catalogs"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=repo,
            env=env,
            check=True,
            capture_output=True,
        )


def collect_static(env: dict[str, str], repo: Path = REPO) -> None:
    """``manage.py collectstatic`` as `make setup` runs it (a server with DEBUG off
    serves the hashed files it writes)."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
    )


def stop(process: subprocess.Popen, timeout: float = 10) -> None:
    """Stop a server process: politely, then, after ``timeout`` seconds, for good."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_for_http(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"server at {url} did not answer within {timeout}s")
        time.sleep(0.1)


def server_command(port: int) -> list[str]:
    """The server process's command line: uvicorn with `make run`'s options, on
    127.0.0.1:``port`` (or daphne, with ``SEGNALINO_TEST_SERVER=daphne``)."""
    app = "config.asgi:application"
    if os.environ.get("SEGNALINO_TEST_SERVER") == "daphne":
        return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app]
    from config.serve import serve_options

    options = serve_options("127.0.0.1", port, 1)
    return [
        sys.executable, "-m", "uvicorn", app,
        "--host", "127.0.0.1", "--port", str(port),
        "--loop", options["loop"], "--http", options["http"], "--ws", options["ws"],
        "--lifespan", options["lifespan"], "--no-server-header", "--no-access-log",
    ]  # fmt: skip


def serving(base: str, log: IO[bytes], timeout: float = 30.0) -> None:
    """Wait until the server at ``base`` answers (up to ``timeout`` seconds); if it
    never does, fail with the end of its output (``log``, the file it writes to)."""
    try:
        wait_for_http(base + "/", timeout=timeout)
    except TimeoutError:
        log.seek(0)
        raise RuntimeError(log.read().decode(errors="replace")[-2000:]) from None


@contextmanager
def running_server(
    env: dict[str, str],
    port: int | None = None,
    *,
    repo: Path = REPO,
    log_path: Path | None = None,
) -> Iterator[str]:
    """Run ``config.asgi:application`` from ``repo`` as `make run` serves it (uvicorn,
    ``config/serve.py``; ``SEGNALINO_TEST_SERVER=daphne`` for daphne) and yield its base URL;
    its output is kept in ``log_path`` if given (else thrown away at the end)."""
    port = port or free_port()
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("w+b") if log_path is not None else tempfile.TemporaryFile()
    process = subprocess.Popen(
        server_command(port),
        cwd=repo,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        serving(base, log)
        yield base
    finally:
        stop(process)
        log.close()


@contextmanager
def running_door(
    env: dict[str, str],
    workers: int = 2,
    *,
    log_path: Path | None = None,
) -> Iterator[tuple[str, subprocess.Popen]]:
    """``python -m config.serve --workers N`` (the door and its workers, as `make run
    --workers N` serves) on 127.0.0.1 and a free port; yields its base URL and the
    door's process. Every answer says which worker gave it (``X-Segnalino-Worker:
    <number> <pid>``, ``SEGNALINO_WORKER_HEADER=1``)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**env, "SEGNALINO_PUBLIC_URL": base, "SEGNALINO_WORKER_HEADER": "1"}
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("w+b") if log_path is not None else tempfile.TemporaryFile()
    process = subprocess.Popen(
        [sys.executable, "-m", "config.serve", "--bind", "127.0.0.1", "--port", str(port),
         "--workers", str(workers)],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, as in a terminal of its own
    )  # fmt: skip
    try:
        serving(base, log)
        yield base, process
    finally:
        if process.poll() is None:
            stop(process)
        log.close()


def fresh_postgres_database(database_url: str, label: str) -> tuple[str, Callable[[], None]]:
    """A new, empty PostgreSQL database next to the one ``database_url`` names (same
    server and user); returns its URL and a function that drops it."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    parts = urlsplit(database_url)
    name = f"{parts.path.lstrip('/') or 'segnalino'}_{label}_{uuid.uuid4().hex[:8]}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return urlunsplit(parts._replace(path=f"/{name}")), drop
