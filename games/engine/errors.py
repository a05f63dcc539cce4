"""Errors an engine raises, with messages a player understands.

Engines are pure Python, so they cannot call Django's gettext. A message is an
English msgid marked with :func:`gettext_noop` (so ``makemessages`` extracts it)
plus named parameters; the web layer translates the msgid and fills in the
parameters in the player's language.
"""

from __future__ import annotations

from typing import Any


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it (pure stand-in)."""
    return message


class EngineError(Exception):
    """Base class: ``message`` is a msgid, ``params`` fill its ``%(name)s`` slots."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


class InvalidInput(EngineError):
    """The request itself is malformed or out of range (HTTP 400)."""


class RuleError(EngineError):
    """The request is well formed, but the rules do not allow it now (HTTP 409)."""
