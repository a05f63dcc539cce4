"""Which phone is this? A random token kept in the Django session (cookie)."""

from __future__ import annotations

import secrets
from typing import Any

TOKEN_KEY = "segnalino_token"


def phone_token(session: Any, *, create: bool = False) -> str:
    """The phone's token; ``create`` makes one (and so a session cookie) if missing."""
    token = session.get(TOKEN_KEY, "") if session is not None else ""
    if not token and create and session is not None:
        token = secrets.token_urlsafe(24)
        session[TOKEN_KEY] = token
    return token
