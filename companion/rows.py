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
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.db import connection, models

from companion import models as tables
from companion.models import Action, Checkpoint, GameSession, Seat

Converter = Callable[[Any, Any, Any], Any]


@functools.cache
def _reader(
    model: type[models.Model], vendor: str, where: str, lock: bool
) -> tuple[str, tuple[str, ...], tuple[tuple[int, tuple[Any, tuple[Converter, ...]]], ...]]:
    """The SELECT of every concrete field of ``model`` ``WHERE <where> = %s``, the
    fields' attribute names, and the converters each column needs (by position)."""
    meta = model._meta
    table = connection.ops.quote_name(meta.db_table)
    fields = meta.concrete_fields
    columns = ", ".join(f"{table}.{connection.ops.quote_name(f.column)}" for f in fields)
    sql = f"SELECT {columns} FROM {table} WHERE {connection.ops.quote_name(where)} = %s"
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
    sql, names, converters = _reader(model, connection.vendor, where, lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        found = cursor.fetchall()
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
    seats = _rows(Seat, "session_id", session.pk)
    for seat in seats:
        Seat.session.field.set_cached_value(seat, session)
    return seats


_WRITTEN = ("state", "version", "revision", "updated_at")


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
    """Write the session's state, version and revision (and ``updated_at``, which
    becomes ``now``), as ``save(update_fields=…)`` would, in one statement."""
    session.updated_at = now
    params: Sequence[Any] = [
        field.get_db_prep_save(getattr(session, field.attname), connection) for field in _written()
    ]
    with connection.cursor() as cursor:
        cursor.execute(_writer(connection.vendor), [*params, session.pk])


@functools.cache
def _inserter(vendor: str) -> tuple[str, tuple[models.Field, ...]]:
    meta = Action._meta
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    table = connection.ops.quote_name(meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join("%s" for _f in fields)
    pk = connection.ops.quote_name(meta.pk.column)
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}) RETURNING {pk}", fields


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
    if row.version % tables.CHECKPOINT_EVERY == 0 and session.version == row.version:
        Checkpoint.objects.create(session=session, version=row.version, state=session.state)
    return row
