"""Pieces of a live frame rendered from their values alone, kept per live table.

The ``{% fragment %}`` tag renders a template from the values it is given and
nothing else, so the same values, template and language give the same HTML: the
values are the key. While a live table renders a revision it hands its
:class:`Store` to this module; a piece whose values did not change since the
table's last revision is taken from there (one player's board after a damage to
another, the unchanged lines of the history). A store keeps what the last
revision used, and goes with its table. Outside a live table (a POST reply), a
piece is simply rendered.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language


class Store:
    """One table's pieces: those its current revision has used, and the last one's."""

    def __init__(self) -> None:
        self.previous: dict[tuple[str, str, bytes], str] = {}
        self.current: dict[tuple[str, str, bytes], str] = {}

    def advance(self) -> None:
        """A new revision: what the last one used may serve it; the rest goes."""
        self.previous, self.current = self.current or self.previous, {}

    def get(self, key: tuple[str, str, bytes]) -> str | None:
        found = self.current.get(key)
        if found is None:
            found = self.previous.get(key)
            if found is not None:
                self.current[key] = found
        return found


_STORE: ContextVar[Store | None] = ContextVar("segnalino_fragments", default=None)


@contextmanager
def using(store: Store | None) -> Iterator[None]:
    token = _STORE.set(store)
    try:
        yield
    finally:
        _STORE.reset(token)


def key_of(template_name: str, values: Mapping[str, Any]) -> tuple[str, str, bytes]:
    """The values as bytes (pickled: every field of every object, nested), with the
    template and the language."""
    return template_name, get_language() or "", pickle.dumps(dict(values), protocol=5)


def render(template_name: str, values: Mapping[str, Any]) -> SafeString:
    store = _STORE.get()
    if store is None:
        return mark_safe(render_to_string(template_name, dict(values)))
    key = key_of(template_name, values)
    html = store.get(key)
    if html is None:
        html = store.current[key] = render_to_string(template_name, dict(values))
    return mark_safe(html)
