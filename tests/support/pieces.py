"""Which pieces a live render renders (rather than takes from its table's store)."""

from __future__ import annotations

from typing import Any

from companion import fragments


def rendered_pieces(monkeypatch: Any) -> list[str]:
    """From now on in the test, the name of each template ``companion.fragments``
    renders, in order (a piece found in a store is not rendered, so not listed)."""
    names: list[str] = []
    real = fragments.template

    class Counted:
        cache_clear = staticmethod(real.cache_clear)  # the signals that forget templates

        def __init__(self, name: str) -> None:
            self.name, self.real = name, real(name)

        def render(self, context: Any = None, request: Any = None) -> str:
            names.append(self.name)
            return self.real.render(context, request)

    monkeypatch.setattr(fragments, "template", Counted)
    return names
