"""A tap worked out on the revision this process's table knows, written in one
statement only if the session is still there (``services._submit_known``,
``rows.write_action``'s ``revision``), on PostgreSQL. Whatever the table knows, a
tap never overwrites a newer change, never applies twice, and is refused as the
locked path would refuse it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from companion import live, services
from companion.errors import Conflict, Forbidden
from companion.models import Action, GameSession
from companion.tasks import close_abandoned_sessions
from tests.conftest import shot
from tests.support.databases import postgres_only

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    postgres_only()


@contextmanager
def table_knowing(session: GameSession) -> Iterator[live.Table]:
    """A table of ``session`` in this process (no sockets), knowing its revision as
    read now, and learning of no later one unless the test says so (its event loop
    never runs)."""
    loop = asyncio.new_event_loop()
    table = live.Table(session.pk, loop)
    table._use(live.read_snapshot(session.pk))
    with live._tables_lock:
        live._TABLES.setdefault(session.pk, {})[loop] = table
    try:
        yield table
    finally:
        with live._tables_lock:
            live._TABLES.get(session.pk, {}).pop(loop, None)
            if not live._TABLES.get(session.pk):
                live._TABLES.pop(session.pk, None)
                live._CODES.pop(session.code, None)
        loop.close()


def tap(session: GameSession, target: str, key: str, token: str = "host", **kw):
    return services.submit_action_at(
        session.code, shot("dstructor", target), token=token, key=key, **kw
    )


def damage(session: GameSession, player: int) -> int:
    return len(GameSession.objects.get(pk=session.pk).state["players"][player]["damage"])


def test_a_tap_on_the_revision_the_table_knows_is_one_statement(make_session):
    session = make_session()
    with table_knowing(session), CaptureQueriesContext(connection) as queries:
        applied = tap(session, "dozer", "known-1")
    assert applied.created and applied.action.version == 1
    # No BEGIN, no lock, no COMMIT: one statement, committed on its own.
    assert len(queries) == 1, [q["sql"][:60] for q in queries]
    assert '"revision" = ' in queries[0]["sql"] and "FOR UPDATE" not in queries[0]["sql"]
    stored = GameSession.objects.get(pk=session.pk)
    assert (stored.version, stored.revision) == (1, session.revision + 1)
    assert stored.state == applied.session.state
    assert damage(session, 2) == 1
    assert Action.objects.get(session=session).key == "known-1"


def test_a_table_behind_the_database_never_overwrites_the_newer_change(make_session):
    # The table knows revision R; another tap (from a phone of another process, say)
    # has moved the session on. A tap worked out on R writes nothing; it is made
    # again under the lock, on top of the other: both hits stand.
    session = make_session()
    with table_knowing(session):
        services.submit_action(session, shot("dstructor", "banshee"), token="host", key="other")
        with CaptureQueriesContext(connection) as queries:
            applied = tap(session, "dozer", "behind")
    assert applied.action.version == 2
    assert '"revision" = ' in queries[0]["sql"]  # tried on R, refused by the database
    assert any("FOR UPDATE" in q["sql"] for q in queries[1:])  # then locked
    assert (damage(session, 1), damage(session, 2)) == (1, 1)
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.version == 2
    assert [a.version for a in Action.objects.filter(session=session).order_by("version")] == [1, 2]


def test_a_seat_taken_after_the_table_read_moves_the_revision_so_the_tap_is_checked_again(
    make_session,
):
    # Seats are part of what a tap is checked against: a seat change moves the
    # revision on, so a table that has not heard of it cannot let a phone act for a
    # seat it has just lost.
    session = make_session()
    services.claim_seat(session, 0, "anna")
    with table_knowing(session):
        services.free_seat(GameSession.objects.get(pk=session.pk), 0, "anna")
        with pytest.raises(Forbidden):
            tap(session, "dozer", "lost-seat", token="anna")
    assert damage(session, 2) == 0
    assert not Action.objects.filter(session=session).exists()


def test_a_session_closed_as_abandoned_takes_no_tap_from_a_table_that_shows_it_open(make_session):
    session = make_session()
    GameSession.objects.filter(pk=session.pk).update(updated_at=timezone.now() - timedelta(days=30))
    with table_knowing(session) as table:
        assert close_abandoned_sessions() == 1
        assert table.snapshot is not None and table.snapshot.session.ended_at is None
        with pytest.raises(Conflict):
            tap(session, "dozer", "too-late")
    assert damage(session, 2) == 0
    assert not Action.objects.filter(session=session).exists()


def test_a_repeated_key_gets_the_first_result_and_applies_once(make_session):
    session = make_session()
    with table_knowing(session) as table:
        first = tap(session, "dozer", "twice")
        table._use(live.read_snapshot(session.pk))  # the table heard of it
        again = tap(session, "dozer", "twice")
    assert (first.created, again.created) == (True, False)
    assert again.action.pk == first.action.pk
    assert damage(session, 2) == 1
    assert Action.objects.filter(session=session).count() == 1


def test_a_refused_tap_on_a_known_revision_is_refused_as_under_the_lock(make_session):
    # A phone with no seat (a forged or stale cookie): the same refusal, nothing written.
    session = make_session()
    with table_knowing(session):
        with pytest.raises(Forbidden):
            tap(session, "dozer", "nobody", token="not-a-seat")
    assert GameSession.objects.get(pk=session.pk).version == 0


def test_ten_taps_at_once_on_a_known_revision_lose_nothing(make_session):
    session = make_session()
    barrier = threading.Barrier(10)
    errors: list[BaseException] = []

    def phone(n: int) -> None:
        try:
            barrier.wait()
            tap(session, "dozer", f"at-once-{n}")
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    with table_knowing(session):
        threads = [threading.Thread(target=phone, args=(n,)) for n in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert errors == []
    assert damage(session, 2) == 10
    versions = sorted(Action.objects.filter(session=session).values_list("version", flat=True))
    assert versions == list(range(1, 11))
