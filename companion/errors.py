"""Service errors: a message a player understands and the HTTP status it maps to."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext, gettext_lazy

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


FIELD_LABELS = {
    "damage": gettext_lazy("damage"),
    "marks": gettext_lazy("marks"),
    "target": gettext_lazy("target"),
    "shooter": gettext_lazy("shooter"),
    "player": gettext_lazy("player"),
    "weapon": gettext_lazy("weapon"),
    "delta": gettext_lazy("change"),
    "skulls": gettext_lazy("skulls"),
    "type": gettext_lazy("action"),
    "expected": gettext_lazy("expected action"),
}


def _field_label(path: str) -> str:
    """``hits[0].damage`` → "damage", in the active language."""
    name = re.split(r"[.\[]", str(path).replace("]", ""))[-1] if path else ""
    name = re.sub(r"\d+$", "", name) or str(path)
    return str(FIELD_LABELS.get(name, name))


def error_text(error: ServiceError | EngineError, game: str | None = None) -> str:
    """The error's message in the active language, its parameters localised too."""
    params = dict(error.params)
    if "field" in params:
        params["field"] = _field_label(params["field"])
    if game is not None:
        from games.views import presenter_for

        params = presenter_for(game).localise_params(params)
    text = gettext(error.message)
    return text % params if params else text
