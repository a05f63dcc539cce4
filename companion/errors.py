"""Service errors: a message a player understands and the HTTP status it maps to."""

from __future__ import annotations

import re
from collections.abc import Mapping
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


class TooMany(ServiceError):
    status = 429


def status_for(error: Exception) -> int:
    if isinstance(error, ServiceError):
        return error.status
    if isinstance(error, InvalidInput):
        return 400
    if isinstance(error, RuleError):
        return 409
    return 400


# Field names the platform itself uses in messages: an action's ``type`` and undo's
# ``expected`` version. A game's own field names are its presenter's ``field_labels``.
FIELD_LABELS = {
    "type": gettext_lazy("action"),
    "expected": gettext_lazy("expected action"),
}


def _field_label(path: str, labels: Mapping[str, Any] | None = None) -> str:
    """``hits[0].damage`` → "damage", in the active language (the game's word first)."""
    name = re.split(r"[.\[]", str(path).replace("]", ""))[-1] if path else ""
    name = re.sub(r"\d+$", "", name) or str(path)
    label = (labels or {}).get(name) or FIELD_LABELS.get(name, name)
    return str(label)


def error_text(error: ServiceError | EngineError, game: str | None = None) -> str:
    """The error's message in the active language, its parameters localised too."""
    params = dict(error.params)
    presenter = None
    if game is not None:
        from games.views import presenter_for

        presenter = presenter_for(game)
    if "field" in params:
        labels = presenter.field_labels if presenter is not None else None
        params["field"] = _field_label(params["field"], labels)
    if presenter is not None:
        params = presenter.localise_params(params)
    text = gettext(error.message)
    return text % params if params else text
