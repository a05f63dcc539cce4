"""The rows every tap reads and writes, in plain SQL: the one hot path.

Every game action locks its session, reads its seats, writes the new state and
appends its action row (``services._submit`` → ``_append``). Through the ORM,
building and compiling those queries cost more CPU than PostgreSQL spent running
them (the profile in ``benchmarks/README.md``, issue 15). Here the SQL is written
once per model, from the model's own fields (so a new field is read, converted and
written like the ORM would), and each row read becomes a model instance through
the same converters the ORM applies (JSON decoded, dates made aware), so the rest
of the app sees ordinary ``GameSession``, ``Seat`` and ``Action`` objects. Works on
PostgreSQL and SQLite.

On PostgreSQL a tap also waits for the database as few times as it can
(:func:`lock_with_seats`, :func:`write_action`): the transaction's BEGIN, the lock
and the seats go in one message, the state and the action row (and a checkpoint)
in one statement, then the COMMIT: three round trips where there were six. When
the write is the transaction's last statement (a tap, a bot's move), the COMMIT
goes with it, and the tap renders its change for the other phones while
PostgreSQL writes and flushes it: two round trips a tap in all
(``benchmarks/submit.py --table --round-trips``), and the flush (about half a
millisecond here) no longer after the render. The write and its COMMIT go as one
message of two statements (:class:`_Sending`), not in psycopg's pipeline mode,
whose own syncs cost a round trip more. SQLite, in the same process, has no round
trips to save: there the statements stay apart.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, cast

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from psycopg import generators

from companion import models as tables
from companion.models import Action, Checkpoint, GameSession, Seat

Converter = Callable[[Any, Any, Any], Any]


@functools.cache
def _reader(
    model: type[models.Model], vendor: str, where: str, lock: bool, value: str = "%s"
) -> tuple[str, tuple[str, ...], tuple[tuple[int, tuple[Any, tuple[Converter, ...]]], ...]]:
    """The SELECT of every concrete field of ``model`` ``WHERE <where> = <value>``
    (``value`` is SQL, a placeholder by default), the fields' attribute names, and
    the converters each column needs (by position)."""
    meta = model._meta
    table = connection.ops.quote_name(meta.db_table)
    fields = meta.concrete_fields
    columns = ", ".join(f"{table}.{connection.ops.quote_name(f.column)}" for f in fields)
    sql = f"SELECT {columns} FROM {table} WHERE {connection.ops.quote_name(where)} = {value}"
    if model is Seat:
        sql += f" ORDER BY {connection.ops.quote_name('index')}"
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    converters = []
    for position, field in enumerate(fields):
        column = field.get_col(meta.db_table)
        # As the ORM's compiler does: the backend's converters, then the field's.
        found = (
            *connection.ops.get_db_converters(column),
            *column.get_db_converters(connection),
        )
        if found:
            converters.append((position, (column, found)))
    return sql, tuple(f.attname for f in fields), tuple(converters)


def _rows(model: type[models.Model], where: str, value: Any, *, lock: bool = False) -> list[Any]:
    sql, _names, _converters = _reader(model, connection.vendor, where, lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        found = cursor.fetchall()
    return _instances(model, where, lock, found)


def _instances(
    model: type[models.Model], where: str, lock: bool, found: Sequence[Sequence[Any]]
) -> list[Any]:
    """The rows ``_reader(model, …, where, lock)`` selected, as model instances."""
    _sql, names, converters = _reader(model, connection.vendor, where, lock)
    instances = []
    for row in found:
        values = list(row)
        for position, (column, functions) in converters:
            for convert in functions:
                values[position] = convert(values[position], column, connection)
        instances.append(model.from_db(connection.alias, names, values))
    return instances


def lock_session(*, code: str | None = None, pk: int | None = None) -> GameSession | None:
    """The session by code or primary key, locked until the transaction ends
    (``SELECT … FOR UPDATE`` where the database has it); None if there is none."""
    found = _rows(
        GameSession, "code" if pk is None else "id", code if pk is None else pk, lock=True
    )
    return found[0] if found else None


def seats_of(session: GameSession) -> list[Seat]:
    """The session's seats in order, each knowing its session (no query for it)."""
    return _seated(session, _rows(Seat, "session_id", session.pk))


def _seated(session: GameSession, seats: list[Seat]) -> list[Seat]:
    for seat in seats:
        Seat.session.field.set_cached_value(seat, session)
    return seats


@functools.cache
def _locker(vendor: str, where: str, begin: bool) -> str:
    """``BEGIN`` (if ``begin``), the session's locking SELECT and its seats' SELECT,
    as one string of statements: PostgreSQL runs them in turn, each seeing what
    was committed before it started, so the seats are read once the lock is held."""
    session_sql = _reader(GameSession, vendor, where, True)[0]
    if where == "id":
        seats_sql = _reader(Seat, vendor, "session_id", False)[0]
    else:
        table = connection.ops.quote_name(GameSession._meta.db_table)
        found = (
            f"(SELECT {connection.ops.quote_name('id')} FROM {table}"
            f" WHERE {connection.ops.quote_name(where)} = %s)"
        )
        seats_sql = _reader(Seat, vendor, "session_id", False, found)[0]
    return ("BEGIN; " if begin else "") + f"{session_sql}; {seats_sql}"


def lock_with_seats(
    *, code: str | None = None, pk: int | None = None
) -> tuple[GameSession | None, list[Seat]]:
    """:func:`lock_session` then :func:`seats_of` (no seats if there is no session).

    On PostgreSQL, in one round trip: the two SELECTs go as one message of
    statements (which the client-side binding Django uses with psycopg 3 allows),
    and so does the BEGIN of the transaction, when this is its first statement
    (:func:`_begins_here`). Elsewhere, as two queries."""
    where, value = ("code", code) if pk is None else ("id", pk)
    if connection.vendor != "postgresql":
        locked = lock_session(code=code, pk=pk)
        return locked, seats_of(locked) if locked is not None else []
    with connection.cursor() as cursor:
        if not _binds_client_side(connection.connection):
            locked = lock_session(code=code, pk=pk)
            return locked, seats_of(locked) if locked is not None else []
        raw = connection.connection
        begin = _begins_here(raw)
        if begin:
            with connection.wrap_database_errors:
                raw.autocommit = True  # psycopg sends no BEGIN of its own: ours goes along
        try:
            cursor.execute(_locker(connection.vendor, where, begin), [value, value])
        except BaseException:
            if begin and raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                with connection.wrap_database_errors:
                    raw.autocommit = False  # no transaction began: as Django left it
            raise
        if begin:
            cursor.nextset()
        found = cursor.fetchall()
        cursor.nextset()
        seat_rows = cursor.fetchall()
    if not found:
        return None, []
    (locked,) = _instances(GameSession, where, True, found)
    return locked, _seated(locked, _instances(Seat, "session_id", False, seat_rows))


def _binds_client_side(raw: Any) -> bool:
    """Does Django bind values into the statements (its default with psycopg 3), so
    that several statements can go as one message? With server-side binding (an
    option), one statement goes per execute."""
    return issubclass(raw.cursor_factory, psycopg.ClientCursor)


def _begins_here(raw: Any) -> bool:
    """Would psycopg begin a transaction before the next statement, one that the
    outermost ``atomic()`` block will commit or roll back and then put the
    connection back in autocommit?

    Then the caller may send the BEGIN itself, with its statements (psycopg sends it
    alone and waits for the answer), after setting psycopg's ``autocommit``: from
    there on psycopg sends every statement as it comes, inside the transaction the
    BEGIN opened; COMMIT and ROLLBACK go as always (psycopg sends them whenever a
    transaction is open), and the block's end sets ``autocommit`` as Django wants it.
    A block that will not commit (``atomic()`` inside ``set_autocommit(False)``), a
    transaction already begun, or one psycopg would begin with more than a plain
    BEGIN (an isolation level set in the database's OPTIONS, say) is left as it is."""
    return (
        connection.in_atomic_block
        and connection.commit_on_exit
        and not connection.get_autocommit()
        and not raw.autocommit
        and raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
        and raw.isolation_level is None
        and raw.read_only is None
        and raw.deferrable is None
    )


_WRITTEN = ("state", "version", "revision", "deadline", "updated_at")


@functools.cache
def _written() -> tuple[models.Field, ...]:
    return tuple(
        f for name in _WRITTEN for f in GameSession._meta.concrete_fields if f.name == name
    )


@functools.cache
def _writer(vendor: str) -> str:
    table = connection.ops.quote_name(GameSession._meta.db_table)
    assignments = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in _written())
    return f"UPDATE {table} SET {assignments} WHERE {connection.ops.quote_name('id')} = %s"


def save_state(session: GameSession, now: datetime) -> None:
    """Write the session's state, version, revision and deadline (and
    ``updated_at``, which becomes ``now``), as ``save(update_fields=…)`` would, in
    one statement."""
    with connection.cursor() as cursor:
        cursor.execute(_writer(connection.vendor), _state_params(session, now))


def _state_params(session: GameSession, now: datetime) -> list[Any]:
    session.updated_at = now
    db = _wrapper()
    params: Sequence[Any] = [
        field.get_db_prep_save(getattr(session, field.attname), db) for field in _written()
    ]
    return [*params, session.pk]


def _wrapper() -> Any:
    """This thread's database wrapper itself, for the fields' conversions: each look-up
    through Django's ``connection`` goes through asgiref's ``Local`` (a field's
    conversion makes two or three; a tap converts some fifteen values)."""
    return connections[DEFAULT_DB_ALIAS]


@functools.cache
def _insert(
    model: type[models.Model], vendor: str, returning: bool, selected_from: str = ""
) -> tuple[str, tuple[models.Field, ...]]:
    """The INSERT of a ``model`` row, of every concrete field but the key (which it
    returns if ``returning``), and those fields in order.

    ``selected_from``: the row is made only if that ``WITH`` part of the statement
    returns one, its values selected from it, each cast to its column's type (in a
    VALUES list PostgreSQL takes them as the columns' types; selected, they would
    be text). The casts leave out a length (``varchar``, not ``varchar(8)``, which
    would cut a longer value short): the column itself checks it, as in a VALUES
    list."""
    meta = model._meta
    quote = connection.ops.quote_name
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    columns = ", ".join(quote(f.column) for f in fields)
    if selected_from:
        casts = ", ".join(
            f"CAST(%s AS {(f.db_type(connection) or '').partition('(')[0]})" for f in fields
        )
        values = f"SELECT {casts} FROM {quote(selected_from)}"
    else:
        values = f"VALUES ({', '.join('%s' for _f in fields)})"
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) {values}"
    if returning:
        sql += f" RETURNING {quote(meta.pk.column)}"
    return sql, fields


def _inserter(vendor: str) -> tuple[str, tuple[models.Field, ...]]:
    """The action row's INSERT, returning its key."""
    return _insert(Action, vendor, True)


def append_action(session: GameSession, now: datetime, **values: Any) -> Action:
    """Append the action row ``session`` is now at (``values``: its fields but the
    session and the time), in one statement, and keep a checkpoint of the state
    every ``CHECKPOINT_EVERY`` versions. The log's only writer."""
    row = Action(session=session, created_at=now, **values)
    sql, fields = _inserter(connection.vendor)
    params = [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (row.pk,) = cursor.fetchone()
    row._state.adding, row._state.db = False, connection.alias
    if _checkpoint_due(session, row):
        Checkpoint.objects.create(session=session, version=row.version, state=session.state)
    return row


def _checkpoint_due(session: GameSession, row: Action) -> bool:
    return row.version % tables.CHECKPOINT_EVERY == 0 and session.version == row.version


def _checkpointer(vendor: str) -> tuple[str, tuple[models.Field, ...]]:
    """The checkpoint's INSERT."""
    return _insert(Checkpoint, vendor, False)


@functools.cache
def _combined(vendor: str, checkpoint: bool, if_still: bool = False) -> str:
    """:func:`save_state`'s UPDATE (and the checkpoint's INSERT) as data-modifying
    ``WITH`` parts of :func:`append_action`'s INSERT: one statement, which
    PostgreSQL runs whole or not at all. (Each part runs once, read or not.)

    ``if_still``: the UPDATE also asks that the row be at a revision (one more
    value, after its key) and returns its key, and the INSERTs are made only from
    that: where the row has moved on, nothing is written and nothing returned."""
    quote = connection.ops.quote_name
    writer, source = _writer(vendor), ""
    if if_still:
        writer += f" AND {quote('revision')} = %s RETURNING {quote('id')}"
        source = "written"
    parts = [f"{quote('written')} AS ({writer})"]
    if checkpoint:
        parts.append(f"{quote('kept')} AS ({_insert(Checkpoint, vendor, False, source)[0]})")
    return f"WITH {', '.join(parts)} {_insert(Action, vendor, True, source)[0]}"


def can_write_if_still() -> bool:
    """Can :func:`write_action` write on a known revision (its ``revision``) here:
    PostgreSQL, and no transaction of the caller's (the statement commits on its
    own)? Its one statement binds its values in PostgreSQL (:class:`_SendingBound`),
    whichever way Django's own cursors bind theirs. Connected once this says yes."""
    db = _wrapper()
    if db.vendor != "postgresql" or db.in_atomic_block or not db.get_autocommit():
        return False
    db.ensure_connection()
    return True


class Moved(Exception):
    """The session's row is no longer at the revision a write asked for: nothing
    was written."""


def _write_if_still(
    sql: str, params: list[Any], row: Action, meanwhile: Callable[[Action], object] | None
) -> int:
    """Send the statement, run ``meanwhile`` while it travels (no query may use the
    connection meanwhile: :class:`Committed`), and return the new row's key, or
    raise :class:`Moved`. A failure (a key used twice) wrote nothing."""
    db = _wrapper()

    def refusing() -> None:
        if meanwhile is not None:
            with db.execute_wrapper(_refuse_while_sent):
                meanwhile(row)

    found = _sent(db, sql, params, refusing, _SendingBound)
    if found is None:
        raise Moved(f"session {row.session_id} is no longer at the revision asked for")
    return int(found[0])


def _refuse_while_sent(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
    raise Committed(
        "this connection waits for the answer to the write it sent; "
        "nothing more can be asked of it until then"
    )


class Committed(RuntimeError):
    """A query asked of a transaction already committed with its last write
    (:func:`write_action`'s ``last``): its lock is gone, so what it would read
    could be past the write, and what it would write would stand alone."""


def write_action(
    session: GameSession,
    now: datetime,
    *,
    meanwhile: Callable[[Action], object] | None = None,
    last: bool = False,
    revision: int | None = None,
    **values: Any,
) -> Action:
    """:func:`save_state` then :func:`append_action`, with the same arguments as the
    latter: on PostgreSQL in one statement (and one round trip), elsewhere in turn.
    A failure (a key used twice) writes nothing of it.

    ``meanwhile``, on PostgreSQL, is called with the new row: after the statement's
    answer (then it may query, in this transaction), unless the COMMIT goes along
    (below). Elsewhere it is not called.

    ``last``: the caller's outermost ``atomic()`` block asks nothing more of the
    database and commits once this returns. Then, with ``meanwhile`` (and the block
    outermost, with no savepoint), the statement and the COMMIT go as one message,
    sent without waiting (:class:`_Sending`), so ``meanwhile`` (its row's key not yet
    known) runs while PostgreSQL writes *and flushes* the change, and the block's own
    commit has nothing left to do. ``meanwhile`` may not query then (the
    lock goes with the commit: a read could see a later change); nor may anything
    until the block ends: both raise :class:`Committed`. If the commit fails, the
    error is raised here, as the block's commit would.

    ``revision``: the caller worked the action out on what it knew of the session,
    at this revision, without a lock (:func:`can_write_if_still`). The write is then
    one statement, committed on its own, which writes nothing (and raises
    :class:`Moved`) unless the session's row is still at that revision; and
    ``meanwhile`` runs while it travels: one round trip a tap, not two."""
    if revision is not None and not can_write_if_still():
        raise ValueError("a write on a known revision needs PostgreSQL in autocommit")
    db = _wrapper()
    if db.vendor != "postgresql":
        save_state(session, now)
        return append_action(session, now, **values)
    params = _state_params(session, now)
    if revision is not None:
        params.append(revision)  # the UPDATE's condition, after the row's key
    row = Action(session=session, created_at=now, **values)
    checkpoint = _checkpoint_due(session, row)
    if checkpoint:
        kept = Checkpoint(session=session, version=row.version, state=session.state)
        params += [
            f.get_db_prep_save(getattr(kept, f.attname), db) for f in _checkpointer(db.vendor)[1]
        ]
    params += [f.get_db_prep_save(getattr(row, f.attname), db) for f in _inserter(db.vendor)[1]]
    if revision is not None:
        row.pk = _write_if_still(_combined(db.vendor, checkpoint, True), params, row, meanwhile)
        row._state.adding, row._state.db = False, db.alias
        return row
    sql = _combined(db.vendor, checkpoint)
    if meanwhile is None or not (last and _ends_here() and _binds_client_side(db.connection)):
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            (row.pk,) = cursor.fetchone()
        if meanwhile is not None:
            meanwhile(row)  # the answer is in: it may ask the database
    else:
        call = meanwhile

        def committed() -> None:
            _refuse_until_block_ends()
            call(row)

        (row.pk,) = _sent(db, f"{sql}; COMMIT", params, committed, _Sending)
    row._state.adding, row._state.db = False, db.alias
    return row


def _sent(
    db: Any,
    sql: str,
    params: list[Any],
    meanwhile: Callable[[], object],
    kind: Callable[[Any], _SendsWithoutWaiting],
) -> Any:
    """Send ``sql`` without waiting (a cursor of ``kind``), run ``meanwhile`` while it
    travels, then read the answer (even if ``meanwhile`` failed: the connection is
    not free until then, and what was sent stands) and return its first row, or
    None. Django wraps the cursor as it does its own (with DEBUG, logging what ran)."""
    sending = kind(db.connection)
    wrap = db.make_debug_cursor if db.queries_logged else db.make_cursor
    with wrap(cast(Any, sending)) as sender:
        sender.execute(sql, params)
        try:
            meanwhile()
        finally:
            with db.wrap_database_errors:
                sending.answer()
        return sender.fetchone()


class _SendsWithoutWaiting:
    """A cursor whose ``execute`` sends its statement(s) as one message, as
    psycopg's own would, and returns without waiting; :meth:`answer` then reads the
    answer as psycopg's ``execute`` would have, so ``fetchone`` and the errors are
    the usual ones. It is psycopg's execute cut in two at the wait, through the
    steps psycopg's cursors use (private to psycopg, so the PostgreSQL tests
    exercise both halves). Django wraps it like any of its cursors: its execute
    wrappers and query log see the statements.

    Nothing else may use the connection until the answer is read. psycopg's
    pipeline mode would let it, at the cost of more than twice the system calls a
    tap (its syncs and flushes: 18.7 against 7.4, ``strace -c``) and 4–5 % more of
    the tap thread's instructions."""

    _conn: Any
    _pgconn: Any
    _start_query: Any
    _execute_send: Any
    _convert_query: Any
    _check_results: Any
    _set_results: Any

    def execute(
        self,
        query: Any,
        params: Any = None,
        *,
        prepare: bool | None = None,
        binary: bool | None = None,
    ) -> Any:
        with self._conn.lock:
            self._conn.wait(self._start_query(query))
            self._execute_send(self._convert_query(query, params))
            self._conn.wait(generators.send(self._pgconn))
        return self

    def answer(self) -> None:
        with self._conn.lock:
            results = self._conn.wait(generators.fetch_many(self._pgconn))
        self._check_results(results)
        self._set_results(results)


class _Sending(_SendsWithoutWaiting, psycopg.ClientCursor):
    """Django's kind of cursor (the values bound into the statements, PostgreSQL's
    simple query): several statements may go as one message (a write and its
    COMMIT)."""


class _SendingBound(_SendsWithoutWaiting, psycopg.Cursor):
    """One statement, its values bound by PostgreSQL (the extended query protocol:
    the statement and its values go apart, in one message). Nothing is quoted into
    the statement: psycopg's C code writes each value as it is (a tap's state, some
    kilobytes of JSON, was escaped character by character in Python)."""


def _ends_here() -> bool:
    """Is the transaction the caller's outermost ``atomic()`` block, with no
    savepoint and nothing failed, which commits when that block ends?"""
    return (
        connection.in_atomic_block
        and connection.commit_on_exit
        and len(connection.atomic_blocks) == 1
        and not connection.savepoint_ids
        and not connection.needs_rollback
    )


def _refuse_until_block_ends() -> None:
    """From here until the current outermost ``atomic()`` block ends, a query on
    this connection raises :class:`Committed`."""
    refuse = _Refuse(connection.atomic_blocks[0])
    connection.execute_wrappers.append(refuse)
    connection.on_commit(functools.partial(_forget, refuse))


class _Refuse:
    """The execute wrapper of :func:`_refuse_until_block_ends`: an object, not a
    closure that names itself, so that after the block nothing holds it in a
    reference cycle (one a tap is garbage only the collector would find; a
    process at a table's pace made thousands a minute)."""

    __slots__ = ("block",)

    def __init__(self, block: Any) -> None:
        self.block = block

    def __call__(self, execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        if connection.atomic_blocks and connection.atomic_blocks[0] is self.block:
            raise Committed(
                "this transaction was committed with its last write; "
                "nothing more can be asked of it"
            )
        _forget(self)  # the block has ended (rolled back on an error): a new one
        return execute(sql, *args)


def _forget(wrapper: Callable[..., Any]) -> None:
    if wrapper in connection.execute_wrappers:
        connection.execute_wrappers.remove(wrapper)
