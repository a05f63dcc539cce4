"""Service errors: a message a player understands and the HTTP status it maps to."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.engine import EngineError, InvalidInput, RuleError


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


class BadRequest(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


def status_for(error: Exception) -> int:
    if isinstance(error, ServiceError):
        return error.status
    if isinstance(error, InvalidInput):
        return 400
    if isinstance(error, RuleError):
        return 409
    return 400


def error_text(error: ServiceError | EngineError) -> str:
    """The error's message in the active language."""
    text = gettext(error.message)
    return text % error.params if error.params else text
