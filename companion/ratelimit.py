"""Limits per client address on what a real table never does often: making
sessions, trying join codes that match nothing, logging in to the admin.

Counted in Django's cache (the process's memory in the embedded default, Redis when
``REDIS_URL`` is set, so every server process shares the counts). A client's window
opens at its first request and lasts ``Limit.seconds``: the count's key expires then,
and adding to a count keeps its expiry. (Windows cut by the clock let a burst that
straddles a cut through twice, and made the throttle's test fail one run in a hundred.)
``SEGNALINO_RATE_LIMITS=0`` turns them off, and the per-socket message limit of
``consumers.SessionConsumer`` too (load benchmarks, where one client plays every
phone of a hundred tables and times 100 socket round trips back to back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache


@dataclass(frozen=True)
class Limit:
    name: str
    count: int  # allowed per window and client
    seconds: int  # the window


#: Sessions made from one address (a game night makes a few).
CREATE = Limit("create", 30, 600)
#: Join codes that match no session (a typo or two; guessing takes thousands).
WRONG_CODE = Limit("wrong-code", 20, 600)
#: Admin login attempts.
ADMIN_LOGIN = Limit("admin-login", 10, 600)


def client_of(request_or_scope: Any) -> str:
    """The client's address: ``REMOTE_ADDR`` of a request, ``client`` of an ASGI scope
    (daphne's ``--proxy-headers`` puts the real address there behind a proxy)."""
    meta = getattr(request_or_scope, "META", None)
    if meta is not None:
        return str(meta.get("REMOTE_ADDR", ""))
    client = request_or_scope.get("client") if isinstance(request_or_scope, dict) else None
    return str(client[0]) if client else ""


def _key(limit: Limit, client: str) -> str:
    return f"segnalino:rate:{limit.name}:{client}"


def count(limit: Limit, client: str) -> None:
    """One more for ``client``."""
    if not settings.SEGNALINO_RATE_LIMITS:
        return
    key = _key(limit, client)
    if cache.add(key, 1, limit.seconds):
        return
    try:
        cache.incr(key)  # keeps the key's expiry, so the window stays where it opened
    except ValueError:  # expired between the two calls
        cache.add(key, 1, limit.seconds)


def exceeded(limit: Limit, client: str) -> bool:
    """Has ``client`` used up ``limit`` in this window?"""
    if not settings.SEGNALINO_RATE_LIMITS:
        return False
    return int(cache.get(_key(limit, client), 0)) >= limit.count


def take(limit: Limit, client: str) -> bool:
    """Count one and say whether it was still within the limit."""
    if exceeded(limit, client):
        return False
    count(limit, client)
    return True
