"""Handing over pooled PostgreSQL connections that work, without a round trip each.

psycopg_pool's own check (``ConnectionPool.check_connection``, which Django installs
for ``CONN_HEALTH_CHECKS``) sends an empty query every time a connection leaves the
pool: one more round trip on every tap. :func:`check` asks the database only when
something says it might be needed:

* the server wrote to the connection while it sat in the pool (its socket is
  readable): PostgreSQL says goodbye before it closes a backend it terminates or
  when it shuts down, and a closed socket reads as end of file;
* the connection has not been handed over for :data:`IDLE_SECONDS` (a network cut
  that nothing announced, e.g. a NAT or firewall forgetting an idle flow).

Otherwise a connection used a moment ago is handed over as it is. A connection the
check finds dead raises, and the pool replaces it with a new one.
"""

from __future__ import annotations

import select
import time
import weakref
from typing import Any

#: A connection not handed over for this long is checked with a query first.
IDLE_SECONDS = 30.0

_last_handed: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def check(conn: Any) -> None:
    """The pool's ``check`` callback: return if ``conn`` can be handed over, raise if not."""
    from psycopg_pool import ConnectionPool

    now = time.monotonic()
    last = _last_handed.get(conn)
    _last_handed[conn] = now
    if conn.closed or conn.broken:
        raise ConnectionError("the pooled connection is closed")
    if last is None or now - last > IDLE_SECONDS or _has_news(conn):
        ConnectionPool.check_connection(conn)


def _has_news(conn: Any) -> bool:
    """Did the server write to this idle connection (or close it)? A local look at
    the socket, no round trip."""
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):
        return True  # no usable socket: let the real check say so
    return bool(readable)
