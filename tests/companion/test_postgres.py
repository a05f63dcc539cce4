"""The action pipeline on PostgreSQL: concurrent taps, retries and undo.

These run only on PostgreSQL, where the row lock is real; CI sets DATABASE_URL.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from companion import services
from companion.models import GameSession
from tests.conftest import shot
from tests.support.databases import postgres_only

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    postgres_only()


def tap_concurrently(session: GameSession, payloads: list[tuple[dict, str]]) -> list:
    """Each payload from its own thread (own DB connection), released at the same moment."""
    barrier = threading.Barrier(len(payloads))
    results: list = [None] * len(payloads)

    def worker(i: int, payload: dict, key: str) -> None:
        try:
            barrier.wait()
            results[i] = services.submit_action(session, payload, token="host", key=key)
        except Exception as error:
            results[i] = error
        finally:
            connection.close()  # this thread's own connection, so the test DB can be dropped

    threads = [
        threading.Thread(target=worker, args=(i, payload, key))
        for i, (payload, key) in enumerate(payloads)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_two_phones_tapping_at_once_both_apply_with_consecutive_versions(make_session):
    session = make_session()
    results = tap_concurrently(
        session,
        [(shot("dstructor", "dozer"), "phone-a"), (shot("dstructor", "banshee"), "phone-b")],
    )
    assert all(not isinstance(r, Exception) for r in results), results
    assert sorted(r.action.version for r in results) == [1, 2]
    session.refresh_from_db()
    assert session.version == 2
    assert len(session.state["players"][1]["damage"]) == 1
    assert len(session.state["players"][2]["damage"]) == 1


def test_ten_taps_at_once_on_one_board_lose_nothing(make_session):
    session = make_session()
    results = tap_concurrently(
        session, [(shot("dstructor", "dozer"), f"tap-{i}") for i in range(10)]
    )
    assert all(not isinstance(r, Exception) for r in results), results
    session.refresh_from_db()
    assert session.version == 10
    assert len(session.state["players"][2]["damage"]) == 10


def test_a_retried_request_arriving_twice_at_once_applies_once(make_session):
    session = make_session()
    results = tap_concurrently(
        session,
        [(shot("dstructor", "dozer", 2), "same-key"), (shot("dstructor", "dozer", 2), "same-key")],
    )
    assert all(not isinstance(r, Exception) for r in results), results
    assert sorted(r.created for r in results) == [False, True]
    session.refresh_from_db()
    assert session.version == 1
    assert len(session.state["players"][2]["damage"]) == 2


def test_undo_on_postgres_replays_the_log(make_session):
    session = make_session()
    services.submit_action(session, shot("dstructor", "dozer", 2, 1), token="host", key="a")
    services.submit_action(session, shot("dstructor", "dozer", 1), token="host", key="b")
    services.undo(session, token="host", key="c")
    session.refresh_from_db()
    dozer = session.state["players"][2]
    assert dozer["damage"] == ["dstructor", "dstructor"]
    assert dozer["marks"] == {"dstructor": 1}


def test_database_connections_killed_while_idle_are_replaced_without_an_error():
    # PostgreSQL restarted, or idle connections cut by a firewall: the server's
    # pool checks a connection before handing it over, so the next tap works.
    import psycopg

    from tests.support.client import Phone
    from tests.support.servers import prepare_database, running_server, server_env

    settings_dict = connection.settings_dict
    host, port = settings_dict["HOST"] or "127.0.0.1", settings_dict["PORT"] or 5432
    url = f"postgres://{settings_dict['USER']}@{host}:{port}/{settings_dict['NAME']}"
    env = server_env(DATABASE_URL=url, DB_POOL="1", PGAPPNAME="segnalino-pool-test")
    prepare_database(env)
    with running_server(env) as base:
        phone = Phone(base)
        code = phone.create_session(host_seat="dstructor")
        phone.adjust(code, "dozer", "red", 1).expect(200)
        with psycopg.connect(
            host=host, port=port, user=settings_dict["USER"], dbname="postgres", autocommit=True
        ) as admin:
            killed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'segnalino-pool-test'"
            ).fetchone()
        assert killed is not None and killed[0] >= 1  # the server's idle connections
        for delta in (-1, 1, -1):  # a cube back and forth: always allowed
            phone.adjust(code, "dozer", "red", delta).expect(200)
        phone.get(f"/s/{code}/").expect(200)
