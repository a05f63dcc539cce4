"""The tables a phone has opened, newest first: kept in its own (cookie) session, so
the home page can offer "resume" or "look back" without an account."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.urls import reverse

from companion.models import GameSession
from games.engine.registry import get_engine
from games.views import presenter_for

RECENT_KEY = "segnalino:recent"
MAX_RECENT = 8


def remember_table(store: SessionBase, code: str) -> None:
    """Put ``code`` first in the phone's list (once), keeping the last few."""
    codes = [c for c in store.get(RECENT_KEY, []) if isinstance(c, str) and c != code]
    updated = [code, *codes][:MAX_RECENT]
    if store.get(RECENT_KEY) != updated:
        store[RECENT_KEY] = updated


def recent_tables(store: SessionBase) -> list[dict[str, Any]]:
    """The phone's tables that still exist, newest first, with whether they are over."""
    codes = [c for c in store.get(RECENT_KEY, []) if isinstance(c, str)][:MAX_RECENT]
    found = {s.code: s for s in GameSession.objects.filter(code__in=codes)}
    tables = []
    for code in codes:
        session = found.get(code)
        if session is None:
            continue
        over = session.is_ended or get_engine(session.game).outcome(session.state) is not None
        tables.append(
            {
                "code": code,
                "game": presenter_for(session.game).name,
                "url": reverse("session", args=[code]),
                "over": over,
                "when": session.updated_at,
            }
        )
    return tables
