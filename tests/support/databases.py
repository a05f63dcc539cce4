"""What a test needs of the database it runs on."""

from __future__ import annotations

import pytest
from django.db import connection

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/segnalino"


def postgres_only() -> None:
    """Skip, saying what to set, unless the tests run on PostgreSQL (CI sets it)."""
    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL: set DATABASE_URL={POSTGRES_URL}")
