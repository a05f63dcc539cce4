from datetime import timedelta

import pytest
from django.utils import timezone

from companion.models import GameSession
from companion.tasks import close_abandoned_sessions

pytestmark = pytest.mark.django_db


def test_sessions_left_untouched_for_two_days_are_ended(make_session):
    old, fresh = make_session(), make_session()
    GameSession.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(hours=49))
    assert close_abandoned_sessions() == 1
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert old.is_ended and not fresh.is_ended
