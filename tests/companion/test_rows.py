"""The hot path's plain SQL reads and writes what the ORM would."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from companion import rows, services
from companion.models import GameSession, Seat
from tests.conftest import next_key, shot

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
        locked.state = {**locked.state, "note": "written"}
        locked.version, locked.revision = 7, 9
        rows.save_state(locked, now)
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.state["note"] == "written"
    assert (stored.version, stored.revision, stored.updated_at) == (7, 9, now)
    assert stored.initial_state == session.initial_state  # nothing else touched


def test_an_appended_action_reads_back_as_written(make_session):
    from companion.models import Action

    session = make_session()
    applied = services.submit_action(
        session, shot("dstructor", "dozer", 2), token="host", key="the-key"
    )
    stored = Action.objects.get(pk=applied.action.pk)
    assert _fields(stored) == _fields(applied.action)
    assert stored.payload["hits"][0]["damage"] == 2 and stored.events  # JSON both ways
    assert stored.created_at == GameSession.objects.get(pk=session.pk).updated_at
