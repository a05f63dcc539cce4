"""The Redis cache of a process: one connection for every request, not one each.

Django keeps a cache object per thread and async context, so under ASGI each
request (a phone opening a table by its code, a socket connecting) had a cache of
its own, and each made its own connection pool and TCP connection to Redis."""

from __future__ import annotations

import os
import threading
import uuid

import pytest
import redis
from django.core.cache import CacheHandler

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = pytest.mark.skipif(
    not REDIS_URL, reason="set REDIS_URL=redis://127.0.0.1:6379/0 to run it"
)


def _connections_made(backend: str, requests: int) -> int:
    """Redis's count of connections it accepted while ``requests`` requests, each in
    a thread (and so a cache object) of its own, counted a wrong code."""
    handler = CacheHandler({"default": {"BACKEND": backend, "LOCATION": REDIS_URL}})
    key = f"test-cache:{uuid.uuid4().hex}"
    server = redis.Redis.from_url(REDIS_URL)
    before = server.info("stats")["total_connections_received"]

    def request() -> None:
        cache = handler["default"]
        cache.add(key, 0, 60)
        cache.incr(key)

    for _ in range(requests):
        thread = threading.Thread(target=request)
        thread.start()
        thread.join()
    made = server.info("stats")["total_connections_received"] - before
    assert int(handler["default"].get(key)) == requests  # every count was kept
    server.delete(key)
    server.close()
    return made


def test_requests_in_contexts_of_their_own_share_one_connection():
    assert _connections_made("config.cache.SharedRedisCache", 20) <= 1


def test_djangos_own_redis_cache_connects_once_a_request():
    # What SharedRedisCache is for: if Django shares its pools one day, this fails
    # and config.cache can go.
    assert _connections_made("django.core.cache.backends.redis.RedisCache", 20) >= 20
