"""Background work. With no broker configured these run eagerly, in process."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from companion.models import GameSession


@shared_task
def close_abandoned_sessions() -> int:
    """End sessions nobody has touched for a while; returns how many were ended."""
    cutoff = timezone.now() - timedelta(hours=settings.SEGNALINO_ABANDONED_AFTER_HOURS)
    return GameSession.objects.filter(ended_at__isnull=True, updated_at__lt=cutoff).update(
        ended_at=timezone.now()
    )
