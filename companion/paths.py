"""The URLs of a table (``act``, ``undo``, a game's own helpers), reversed once.

A live table renders its parts after every change, and each names the same few
URLs of its session: ``reverse`` walks the URL resolver each time (it was about a
tenth of a part's render). The answer depends only on the URL's name, the code,
the script prefix and the URLconf in force, so it is kept by those.
"""

from __future__ import annotations

import functools

from django.urls import get_script_prefix, get_urlconf, reverse


def session_url(name: str, code: str) -> str:
    """``reverse(name, args=[code])``, kept."""
    return _reversed(name, code, get_script_prefix(), get_urlconf())


@functools.lru_cache(maxsize=4096)
def _reversed(name: str, code: str, _prefix: str, _urlconf: object) -> str:
    return reverse(name, args=[code])
