"""Small validators engines use to parse client payloads into typed actions."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from games.engine.errors import InvalidInput
from games.engine.errors import gettext_noop as _


def require(payload: Mapping[str, Any], key: str) -> Any:
    if key not in payload or payload[key] in (None, ""):
        raise InvalidInput(_("The field “%(field)s” is missing."), field=key)
    return payload[key]


def as_int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise InvalidInput(_("“%(field)s” must be a whole number."), field=field)
    try:
        number = int(str(value).strip()) if isinstance(value, str) else int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: JSON's Infinity
        raise InvalidInput(_("“%(field)s” must be a whole number."), field=field) from None
    if isinstance(value, float) and value != number:
        raise InvalidInput(_("“%(field)s” must be a whole number."), field=field)
    if not low <= number <= high:
        raise InvalidInput(
            _("“%(field)s” must be between %(low)s and %(high)s."),
            field=field,
            low=low,
            high=high,
        )
    return number


def as_choice(value: Any, field: str, choices: Collection[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InvalidInput(_("“%(field)s” is not a valid choice."), field=field)
    return value


def as_bool(value: Any, field: str) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("1", "true", "on", 1):
        return True
    if value in ("0", "false", "off", 0, "", None):
        return False
    raise InvalidInput(_("“%(field)s” must be yes or no."), field=field)


def as_list(value: Any, field: str, max_items: int) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidInput(_("“%(field)s” must be a list."), field=field)
    if len(value) > max_items:
        raise InvalidInput(
            _("“%(field)s” has too many entries (at most %(max)s)."),
            field=field,
            max=max_items,
        )
    return value


def as_text(value: Any, field: str, max_length: int) -> str:
    """A name a player typed: required, white space folded, at most ``max_length``."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(_("The field “%(field)s” is missing."), field=field)
    text = " ".join(value.split())
    if len(text) > max_length:
        raise InvalidInput(
            _("“%(field)s” must be a text of at most %(max)s characters."),
            field=field,
            max=max_length,
        )
    return text
