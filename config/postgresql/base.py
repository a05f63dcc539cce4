"""Django's PostgreSQL backend, whose pool checks connections with ``config.dbpool``.

Django gives psycopg_pool either no check or ``ConnectionPool.check_connection``
(a query on every hand-over) and takes no other; this backend installs
:func:`config.dbpool.check` on the pool it makes.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from config import dbpool


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool
        # Set once, before the pool opens (Django opens it on first use).
        if pool is not None and getattr(pool, "_check", None) is not dbpool.check:
            pool._check = dbpool.check
        return pool
