"""The pool's connection check: a dead connection is never handed over, and a live
one used a moment ago is handed over without a query."""

from __future__ import annotations

import os
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest

from config import dbpool

DATABASE_URL = os.environ.get("DATABASE_URL", "")
pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgres"),
        reason="needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/segnalino",
    ),
]


@pytest.fixture
def queries(monkeypatch):
    """How many times the check asked the database."""
    from psycopg_pool import ConnectionPool

    calls: list[object] = []
    real = ConnectionPool.check_connection

    def counted(conn):
        calls.append(conn)
        real(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def _connect(name: str):
    import psycopg

    # The server's own database: DATABASE_URL's may be any name (segnalino_<branch>).
    admin = urlunsplit(urlsplit(DATABASE_URL)._replace(path="/postgres"))
    return psycopg.connect(admin, autocommit=True, application_name=name)


def test_a_connection_used_a_moment_ago_is_handed_over_without_a_query(queries):
    with _connect("dbpool-fresh") as conn:
        dbpool.check(conn)  # never seen: asked once
        conn.execute("SELECT 1").fetchone()
        dbpool.check(conn)
        dbpool.check(conn)
        assert len(queries) == 1


def test_a_connection_killed_while_idle_is_refused(queries):
    name = f"dbpool-{uuid.uuid4().hex[:8]}"
    with _connect(name) as conn, _connect("dbpool-admin") as admin:
        dbpool.check(conn)
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (name,),
        )
        time.sleep(0.2)  # the goodbye reaches the idle socket
        with pytest.raises(Exception):  # noqa: B017 - psycopg's OperationalError, or ours
            dbpool.check(conn)


def test_a_connection_idle_for_long_is_asked_again(queries, monkeypatch):
    with _connect("dbpool-idle") as conn:
        dbpool.check(conn)
        monkeypatch.setattr(dbpool, "IDLE_SECONDS", 0.0)
        time.sleep(0.01)
        dbpool.check(conn)
        assert len(queries) == 2
