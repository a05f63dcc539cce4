"""The threads that apply the taps phones send on their sockets (PostgreSQL): each
keeps its pooled connection from one tap to the next, and a connection that died
or went wrong meanwhile never costs a phone its tap."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, connection

from companion import consumers
from tests.support.databases import postgres_only

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    postgres_only()


def on_tap_threads(function: Callable[[], Any], times: int) -> list[Any]:
    """``function`` run ``times`` times in turn, as a socket's taps run."""

    async def taps() -> list[Any]:
        return [await consumers.tap_thread(function)() for _ in range(times)]

    return asyncio.run(taps())


def backend() -> int:
    """The PostgreSQL backend serving this thread's connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate(pids: set[int]) -> None:
    params = connection.get_connection_params()
    with psycopg.connect(**{**params, "autocommit": True}) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    time.sleep(0.2)  # the goodbye reaches the idle sockets


def test_a_tap_thread_keeps_its_connection_from_one_tap_to_the_next(monkeypatch):
    from psycopg_pool import ConnectionPool

    handed: list[object] = []
    real = ConnectionPool.getconn

    def counted(pool, *args, **kwargs):
        handed.append(pool)
        return real(pool, *args, **kwargs)

    monkeypatch.setattr(ConnectionPool, "getconn", counted)
    backends = on_tap_threads(backend, 12)
    threads = consumers.settings.SEGNALINO_TAP_THREADS
    # Twelve taps in turn: at most one hand-over from the pool per thread, not one a tap.
    assert len(handed) <= threads
    assert len(set(backends)) <= threads


def test_a_tap_after_its_threads_connection_was_killed_goes_through():
    # PostgreSQL restarted, or an administrator ended idle backends: the next tap
    # takes a new connection instead of failing.
    before = set(on_tap_threads(backend, 8))
    terminate(before)
    after = on_tap_threads(backend, 8)
    assert not before & set(after)


def test_a_tap_whose_query_failed_leaves_its_thread_a_connection_that_works():
    def failing() -> str:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1 / 0")
        except DatabaseError:
            return "refused"
        return "ran"

    assert on_tap_threads(failing, 3) == ["refused"] * 3
    assert len(on_tap_threads(backend, 3)) == 3


def test_the_threads_give_their_connections_back_when_released():
    def checked_out() -> int:
        stats = connection.pool.get_stats()
        return stats["pool_size"] - stats["pool_available"]

    held = set(on_tap_threads(backend, 4))
    before = checked_out()
    consumers.release_tap_threads()
    assert before - checked_out() == len(held)
