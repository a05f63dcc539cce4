"""The hot path's plain SQL reads and writes what the ORM would."""

from __future__ import annotations

import contextlib
import gc
import threading

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from companion import rows, services
from companion.models import Action, Checkpoint, GameSession, Seat
from tests.conftest import make_duel, next_key, shot
from tests.support.databases import postgres_only

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_a_session_and_its_seats_read_as_the_orm_reads_them(make_session):
    session = make_session()
    services.claim_seat(session, 1, "phone-b")
    services.submit_action(session, shot("dstructor", "dozer"), token="host", key=next_key())
    with transaction.atomic():
        by_code = rows.lock_session(code=session.code)
        by_pk = rows.lock_session(pk=session.pk)
        assert by_code is not None
        seats = rows.seats_of(by_code)
    orm = GameSession.objects.get(pk=session.pk)
    assert _fields(by_code) == _fields(by_pk) == _fields(orm)
    assert by_code.state["players"][2]["damage"] == ["dstructor"]  # JSON, decoded
    assert timezone.is_aware(by_code.created_at)
    assert [_fields(s) for s in seats] == [_fields(s) for s in Seat.objects.filter(session=orm)]
    assert [s.index for s in seats] == sorted(s.index for s in seats)
    assert seats[1].holder == "phone-b" and seats[1].session is by_code


def test_an_unknown_session_is_none():
    with transaction.atomic():
        assert rows.lock_session(code="NOSUCH") is None
        assert rows.lock_session(pk=987654) is None


def test_saving_the_state_writes_state_version_revision_and_time(make_session):
    session = make_session()
    now = timezone.now()
    with transaction.atomic():
        locked = rows.lock_session(pk=session.pk)
        assert locked is not None
        locked.state = {**locked.state, "note": "written"}
        locked.version, locked.revision = 7, 9
        rows.save_state(locked, now)
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.state["note"] == "written"
    assert (stored.version, stored.revision, stored.updated_at) == (7, 9, now)
    assert stored.initial_state == session.initial_state  # nothing else touched


def test_an_appended_action_reads_back_as_written(make_session):
    session = make_session()
    applied = services.submit_action(
        session, shot("dstructor", "dozer", 2), token="host", key="the-key"
    )
    stored = Action.objects.get(pk=applied.action.pk)
    assert _fields(stored) == _fields(applied.action)
    assert stored.payload["hits"][0]["damage"] == 2 and stored.events  # JSON both ways
    assert stored.created_at == GameSession.objects.get(pk=session.pk).updated_at


def test_the_session_and_its_seats_read_together_are_what_the_two_reads_give(make_session):
    session = make_session()
    services.claim_seat(session, 1, "phone-b")
    services.submit_action(session, shot("dstructor", "dozer"), token="host", key=next_key())
    with transaction.atomic():
        by_code, seats_by_code = rows.lock_with_seats(code=session.code)
        by_pk, seats_by_pk = rows.lock_with_seats(pk=session.pk)
        alone = rows.lock_session(pk=session.pk)
        assert alone is not None and by_code is not None
        seats = rows.seats_of(alone)
    assert _fields(by_code) == _fields(by_pk) == _fields(alone)
    assert by_code.state["players"][2]["damage"] == ["dstructor"]
    assert timezone.is_aware(by_code.updated_at)
    together = [_fields(s) for s in seats_by_code]
    assert together == [_fields(s) for s in seats_by_pk] == [_fields(s) for s in seats]
    assert [s.index for s in seats_by_code] == [0, 1, 2]
    assert seats_by_code[1].holder == "phone-b"
    assert all(s.session is by_code for s in seats_by_code)


def test_an_unknown_session_has_no_seats():
    with transaction.atomic():
        assert rows.lock_with_seats(code="NOSUCH") == (None, [])
        assert rows.lock_with_seats(pk=987654) == (None, [])


def _write(
    locked: GameSession | None,
    now,
    key: str,
    *,
    meanwhile=None,
    last=False,
    revision: int | None = None,
    **changes,
) -> Action:
    assert locked is not None
    locked.state = {**locked.state, **changes}
    locked.version += 1
    locked.revision += 1
    return rows.write_action(
        locked,
        now,
        version=locked.version,
        kind=Action.Kind.GAME,
        seat=1,
        key=key,
        payload={"type": "note"},
        events=[{"type": "noted"}],
        meanwhile=meanwhile,
        last=last,
        revision=revision,
    )


@pytest.mark.parametrize("version", [30, 31])
def test_a_written_action_stores_the_state_the_row_and_every_32nd_version_a_checkpoint(
    make_session, version
):
    session = make_session()
    GameSession.objects.filter(pk=session.pk).update(version=version, revision=version + 5)
    now = timezone.now()
    with transaction.atomic():
        locked, _seats = rows.lock_with_seats(pk=session.pk)
        row = _write(locked, now, "the-key", note="written")
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.state["note"] == "written"
    assert (stored.version, stored.revision, stored.updated_at) == (version + 1, version + 6, now)
    assert stored.initial_state == session.initial_state  # nothing else touched
    assert _fields(Action.objects.get(pk=row.pk)) == _fields(row)
    assert (row.version, row.key, row.created_at, row.session) == (
        version + 1,
        "the-key",
        now,
        locked,
    )
    kept = {c.version: c.state for c in Checkpoint.objects.filter(session=session)}
    assert kept.get(version + 1) == (stored.state if version + 1 == 32 else None)


def test_a_key_used_twice_fails_and_writes_nothing_of_the_second_action(make_session):
    session = make_session()
    services.submit_action(session, shot("dstructor", "dozer"), token="host", key="the-key")
    before = GameSession.objects.get(pk=session.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        locked, _seats = rows.lock_with_seats(code=session.code)
        _write(locked, timezone.now(), "the-key", note="lost")
    assert _fields(GameSession.objects.get(pk=session.pk)) == _fields(before)
    assert Action.objects.filter(session=session).count() == 1
    # And a phone sending that key again gets the first result back, as before.
    again = services.submit_action(session, shot("dstructor", "dozer"), token="host", key="the-key")
    assert again.created is False and again.action.version == 1


# ------------------------------------------------ PostgreSQL: the BEGIN sent with the reads


def _postgres_only() -> None:
    postgres_only()


def _locked_elsewhere(pk: int) -> bool:
    """Is the session's row locked, as another phone's tap (its own connection) finds?"""
    found: list[bool] = []

    def other_phone() -> None:
        try:
            with transaction.atomic():
                GameSession.objects.select_for_update(nowait=True).get(pk=pk)
            found.append(False)
        except OperationalError:
            found.append(True)
        finally:
            connection.close()

    thread = threading.Thread(target=other_phone)
    thread.start()
    thread.join(timeout=30)
    return found == [True]


@pytest.mark.django_db(transaction=True)
def test_the_lock_is_held_from_the_read_to_the_commit_and_an_error_undoes_everything(
    make_session,
):
    _postgres_only()
    session = make_session()
    assert not _locked_elsewhere(session.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        locked, seats = rows.lock_with_seats(code=session.code)
        assert len(seats) == 3
        assert _locked_elsewhere(session.pk)
        _write(locked, timezone.now(), "lost-key", note="lost")
        assert _locked_elsewhere(session.pk)
        raise RuntimeError("the tap fails after writing")
    stored = GameSession.objects.get(pk=session.pk)
    assert (stored.version, stored.state) == (session.version, session.state)
    assert not Action.objects.filter(session=session).exists()
    assert not _locked_elsewhere(session.pk)
    # Django and psycopg agree again: autocommit, no transaction open.
    assert connection.get_autocommit() and connection.connection.autocommit
    assert connection.connection.pgconn.transaction_status == 0  # idle


@pytest.mark.django_db(transaction=True)
def test_a_tap_on_postgresql_sends_its_begin_with_the_reads_and_commits(make_session):
    _postgres_only()
    session = make_session()
    sent: list[str] = []

    def record(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        applied = services.submit_action_at(
            session.code, shot("dstructor", "dozer"), token="host", key=next_key()
        )
    assert len(sent) == 2  # the reads, then the writes (BEGIN and COMMIT not counted)
    assert sent[0].startswith("BEGIN; SELECT") and sent[1].startswith("WITH")
    assert GameSession.objects.get(pk=session.pk).version == applied.action.version == 1
    assert connection.get_autocommit() and connection.connection.autocommit


@pytest.mark.django_db(transaction=True)
def test_a_tap_that_starts_a_turn_writes_the_new_deadline_with_the_state():
    session = make_duel(seed=3, turn_seconds=30)
    first = session.deadline
    assert first is not None
    bid = {"type": "lock", "bid": 5, "spells": []}
    services.submit_action(session, bid, token="anna", key="anna-bids")
    sent: list[str] = []

    def record(execute, sql, params, many, context):
        if connection.in_atomic_block:  # the tap's transaction, not the timer task after it
            sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        services.submit_action(session, bid, token="marco", key="marco-bids")
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.version == 2 and stored.state["turn"] == 2  # both bid: the next turn
    assert stored.deadline is not None and stored.deadline > first  # a new clock
    if connection.vendor == "postgresql":
        assert len(sent) == 2  # no UPDATE of its own for the deadline


@pytest.mark.django_db(transaction=True)
def test_a_block_inside_a_transaction_of_its_own_is_left_to_psycopg(make_session):
    """Under ``set_autocommit(False)`` the atomic block does not commit: psycopg
    begins the transaction, as always, and the next one after the commit too."""
    _postgres_only()
    session = make_session()
    transaction.set_autocommit(False)
    try:
        with transaction.atomic(savepoint=False):  # no SAVEPOINT: nothing sent before
            locked, _seats = rows.lock_with_seats(pk=session.pk)
        assert locked is not None and connection.connection.autocommit is False
        transaction.commit()
        GameSession.objects.filter(pk=session.pk).update(revision=99)
        transaction.rollback()  # the update was in a transaction psycopg began
    finally:
        transaction.set_autocommit(True)
    assert GameSession.objects.get(pk=session.pk).revision == session.revision


# ------------------------------------------ PostgreSQL: the COMMIT sent with the last write


def _asks(found: list[str]):
    """A ``meanwhile`` that asks the database something and notes what happened."""

    def meanwhile(_row: Action) -> None:
        try:
            found.append(f"read {GameSession.objects.count()}")
        except rows.Committed:
            found.append("refused")

    return meanwhile


@pytest.mark.django_db(transaction=True)
def test_the_last_write_takes_the_commit_along_and_the_lock_goes_with_it(make_session):
    # While the write and its COMMIT travel, meanwhile may not read (the lock is
    # going: another tap's change could be read), and the block asks nothing more:
    # the other phones' taps are free as soon as the change is on disk.
    _postgres_only()
    session = make_session()
    found: list[str] = []
    with transaction.atomic():
        locked, _seats = rows.lock_with_seats(pk=session.pk)
        row = _write(locked, timezone.now(), "last-key", meanwhile=_asks(found), last=True)
        assert found == ["refused"]
        assert not _locked_elsewhere(session.pk)  # committed: the lock is gone
        with pytest.raises(rows.Committed):
            GameSession.objects.get(pk=session.pk)
    stored = GameSession.objects.get(pk=session.pk)  # after the block: asked as ever
    assert stored.version == row.version == 1
    assert Action.objects.get(session=session).key == "last-key"
    assert connection.get_autocommit() and connection.connection.autocommit
    assert connection.connection.pgconn.transaction_status == 0  # idle
    assert not connection.execute_wrappers


@pytest.mark.django_db(transaction=True)
def test_a_committed_write_leaves_nothing_for_the_garbage_collector(make_session):
    # A reference cycle a tap is garbage only the collector finds: at a table's
    # pace, thousands a minute, and every collection stalls each phone of the
    # process. The last write's refusal of further queries made one (a closure
    # naming itself, holding the atomic block).
    _postgres_only()
    session = make_session()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for n in range(3):
            with transaction.atomic():
                locked, _seats = rows.lock_with_seats(pk=session.pk)
                _write(locked, timezone.now(), f"key-{n}", meanwhile=_asks([]), last=True)
        gc.collect()
        left = [type(o).__qualname__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
    assert GameSession.objects.get(pk=session.pk).version == 3


@pytest.mark.django_db(transaction=True)
def test_a_failure_after_the_last_write_keeps_it_and_a_retry_gets_the_first_result(
    make_session, monkeypatch
):
    # The commit went with the write: an error after it cannot take the action back,
    # so the phone that retries its key is told of the action it did record.
    _postgres_only()
    session = make_session()
    key = next_key()

    def fails(*_args, **_kwargs):
        raise RuntimeError("the timers could not be set")

    with monkeypatch.context() as patched:
        patched.setattr(services, "_schedule_followups", fails)
        with pytest.raises(RuntimeError):
            services.submit_action(session, shot("dstructor", "dozer"), token="host", key=key)
    assert GameSession.objects.get(pk=session.pk).version == 1  # asked as ever
    again = services.submit_action(session, shot("dstructor", "dozer"), token="host", key=key)
    assert again.created is False and again.action.version == 1
    assert not connection.execute_wrappers


def _serves_the_next_tap(session: GameSession, *, version: int) -> None:
    """The connection answers the next tap as ever: Django and psycopg agree that no
    transaction is open, and nothing is left wrapping its queries."""
    assert connection.get_autocommit() and connection.connection.autocommit
    assert connection.connection.pgconn.transaction_status == 0  # idle
    assert not connection.execute_wrappers
    applied = services.submit_action(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    assert applied.created and applied.action.version == version


@pytest.mark.django_db(transaction=True)
def test_a_render_that_fails_while_the_last_write_travels_leaves_the_write_and_the_connection(
    make_session,
):
    # The COMMIT went with the write: the change stands, the error is the caller's,
    # and the connection's answer is read all the same, so it serves the next tap.
    _postgres_only()
    session = make_session()

    def fails(_row: Action) -> None:
        raise RuntimeError("the render failed")

    with pytest.raises(RuntimeError, match="the render failed"), transaction.atomic():
        locked, _seats = rows.lock_with_seats(pk=session.pk)
        raw = connection.connection
        _write(locked, timezone.now(), "kept-key", meanwhile=fails, last=True)
    assert connection.connection is raw and not raw.closed  # not dropped for a broken one
    assert GameSession.objects.get(pk=session.pk).version == 1
    assert Action.objects.get(session=session).key == "kept-key"
    _serves_the_next_tap(session, version=2)


@pytest.mark.django_db(transaction=True)
def test_a_last_write_that_fails_takes_nothing_along(make_session):
    _postgres_only()
    session = make_session()
    services.submit_action(session, shot("dstructor", "dozer"), token="host", key="the-key")
    before = GameSession.objects.get(pk=session.pk)
    found: list[str] = []
    with pytest.raises(IntegrityError), transaction.atomic():
        locked, _seats = rows.lock_with_seats(pk=session.pk)
        _write(locked, timezone.now(), "the-key", meanwhile=_asks(found), last=True)
    assert _fields(GameSession.objects.get(pk=session.pk)) == _fields(before)
    assert Action.objects.filter(session=session).count() == 1
    assert not _locked_elsewhere(session.pk)
    _serves_the_next_tap(session, version=2)


@pytest.mark.django_db(transaction=True)
def test_the_write_sent_ahead_is_in_the_query_log_with_its_commit(make_session):
    # What Django logs with DEBUG on (and a test's CaptureQueriesContext) holds the
    # write, its values and the COMMIT that went with it, as sent.
    _postgres_only()
    session = make_session()
    with CaptureQueriesContext(connection) as logged, transaction.atomic():
        locked, _seats = rows.lock_with_seats(pk=session.pk)
        _write(locked, timezone.now(), "logged-key", meanwhile=_asks([]), last=True)
    (write,) = [q["sql"] for q in logged.captured_queries if (q["sql"] or "").startswith("WITH")]
    assert "'logged-key'" in write and write.endswith("; COMMIT")
    assert GameSession.objects.get(pk=session.pk).version == 1


@pytest.mark.django_db(transaction=True)
def test_a_last_write_inside_a_savepoint_waits_for_the_outer_block(make_session):
    # Only the outermost block may commit: inside another, the write goes alone,
    # meanwhile reads what it wrote, and the outer block still decides.
    _postgres_only()
    session = make_session()
    found: list[str] = []
    with pytest.raises(RuntimeError), transaction.atomic():
        with transaction.atomic():
            locked, _seats = rows.lock_with_seats(pk=session.pk)
            _write(locked, timezone.now(), "inner-key", meanwhile=_asks(found), last=True)
        assert _locked_elsewhere(session.pk)
        raise RuntimeError("the outer block fails")
    assert found == [f"read {GameSession.objects.count()}"]
    assert GameSession.objects.get(pk=session.pk).version == 0
    assert not Action.objects.filter(session=session).exists()


# ------------------------------------------------ PostgreSQL: a write on a known revision


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("version", [30, 31])
def test_a_write_on_the_revision_still_there_stores_all_of_it(make_session, version):
    _postgres_only()
    session = make_session()
    GameSession.objects.filter(pk=session.pk).update(version=version, revision=version + 5)
    known = GameSession.objects.get(pk=session.pk)
    row = _write(known, timezone.now(), "still", revision=version + 5, note="written")
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.state["note"] == "written"
    assert (stored.version, stored.revision) == (version + 1, version + 6)
    found = Action.objects.get(pk=row.pk)
    assert (found.key, found.version, found.seat, found.events) == (
        "still",
        version + 1,
        1,
        [{"type": "noted"}],
    )
    kept = {c.version: c.state for c in Checkpoint.objects.filter(session=session)}
    assert kept.get(version + 1) == (stored.state if version + 1 == 32 else None)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", ["revision gone", "inside a transaction", "key too long"])
def test_a_write_on_a_known_revision_that_cannot_stand_writes_nothing(make_session, case):
    # Revision gone: another tap moved the row on. Inside a transaction: the
    # statement would not commit on its own, and the revision it checks could be
    # one the transaction itself wrote. Key too long: the values are cast to their
    # columns' types without a length, so the column refuses what does not fit, as
    # in a plain INSERT (a cast to varchar(64) would cut it short).
    from django.db import DataError

    _postgres_only()
    session = make_session()
    known = GameSession.objects.get(pk=session.pk)
    if case == "revision gone":
        GameSession.objects.filter(pk=session.pk).update(revision=known.revision + 1)
    key = "k" * 65 if case == "key too long" else "a-key"
    failure = {"revision gone": rows.Moved, "inside a transaction": ValueError}.get(case, DataError)
    block = transaction.atomic() if case == "inside a transaction" else contextlib.nullcontext()
    before = _fields(GameSession.objects.get(pk=session.pk))
    with pytest.raises(failure), block:
        _write(known, timezone.now(), key, revision=known.revision, note="lost")
    assert _fields(GameSession.objects.get(pk=session.pk)) == before
    assert not Action.objects.filter(session=session).exists()
