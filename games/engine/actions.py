"""The canonical payload of a simple action: its type and its fields as given.

An action is a frozen dataclass whose fields are plain values (ints, strings,
tuples of them). Mixing in :class:`Payload` and naming its ``action_type`` gives
it ``to_payload()``: ``{"type": action_type, field: value, …}``, leaving out fields that
were not given (None, "" or an empty tuple), tuples written as lists. That is the
form stored in the action log and parsed again on replay."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar


class Payload:
    action_type: ClassVar[str]

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"type": self.action_type}
        for field in fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if value is None or value == "" or value == ():
                continue
            payload[field.name] = list(value) if isinstance(value, tuple) else value
        return payload
