"""Background work. With no broker configured these run eagerly, in process."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from companion.models import GameSession


@shared_task
def close_abandoned_sessions() -> int:
    """End sessions nobody has touched for a while; returns how many were ended.

    Like every change of a session, it moves the revision on: a tap worked out on
    the revision a table knew (``services._submit_known``) is then not written."""
    cutoff = timezone.now() - timedelta(hours=settings.SEGNALINO_ABANDONED_AFTER_HOURS)
    return GameSession.objects.filter(ended_at__isnull=True, updated_at__lt=cutoff).update(
        ended_at=timezone.now(), revision=F("revision") + 1
    )


@shared_task
def delete_old_sessions() -> int:
    """Delete sessions ended (or closed as abandoned) more than
    ``SEGNALINO_DELETE_AFTER_DAYS`` ago, with their seats and logs: their join codes
    are free again and nothing of them is kept. Returns how many were deleted."""
    cutoff = timezone.now() - timedelta(days=settings.SEGNALINO_DELETE_AFTER_DAYS)
    deleted, _by_model = GameSession.objects.filter(ended_at__lt=cutoff).delete()
    return int(_by_model.get(GameSession._meta.label, 0)) if deleted else 0


@shared_task
def play_bot(session_id: int, seat: int, version: int) -> bool:
    """A bot's move, off the request path; stale requests (the game moved on) do nothing."""
    from companion.services import play_bot_turn

    return play_bot_turn(session_id, seat, version)


@shared_task
def enforce_deadline(session_id: int) -> int:
    """Play the default action for seats whose timer ran out (also done lazily on requests)."""
    from companion.services import enforce_deadline as enforce

    session = GameSession.objects.filter(pk=session_id).first()
    return enforce(session) if session is not None else 0
