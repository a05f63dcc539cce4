"""Turn a posted form into the JSON payload an engine parses.

Empty fields are left out (a ``name[]`` list with only empty values is ``[]``),
and names starting with "_" only steer the form.
Dotted names nest: ``hits.0.target=dozer&hits.0.damage=2`` becomes
``{"hits": [{"target": "dozer", "damage": "2"}]}``. Engines validate types and
ranges; this only shapes the data and refuses shapes no form of ours produces.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext_noop as _

from companion.errors import BadRequest

RESERVED = {"csrfmiddlewaretoken", "key", "expected", "next", "seen", "again"}
MAX_INDEX = 9
MAX_DEPTH = 3


def form_to_payload(data: QueryDict) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for name, values in data.lists():
        if name in RESERVED or name.startswith("_"):
            continue  # CSRF, one-time key, and fields that only steer the form
        values = [v for v in values if v != ""]
        if not values and not name.endswith("[]"):
            continue  # an empty field means "not given"; an empty list stays a list
        parts = name.split(".")
        if len(parts) > MAX_DEPTH or not all(parts):
            raise BadRequest(_("The form field “%(field)s” is not understood."), field=name[:40])
        value: Any = values if name.endswith("[]") else values[-1]
        if name.endswith("[]"):
            parts[-1] = parts[-1][:-2]
        _insert(root, parts, value, name)
    return _lists(root)


def _insert(node: dict[str, Any], parts: list[str], value: Any, name: str) -> None:
    for part in parts[:-1]:
        if part.isdigit() and int(part) > MAX_INDEX:
            raise BadRequest(_("The form field “%(field)s” is not understood."), field=name[:40])
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise BadRequest(_("The form field “%(field)s” is not understood."), field=name[:40])
        node = child
    node[parts[-1]] = value


def _lists(node: Any) -> Any:
    """Dicts whose keys are all small integers become lists, in index order."""
    if not isinstance(node, dict):
        return node
    converted = {key: _lists(value) for key, value in node.items()}
    if converted and all(key.isdigit() for key in converted):
        return [converted[key] for key in sorted(converted, key=int)]
    return converted
