"""The URLs a live part names (a table's ``act`` and ``undo``, a game's helpers and
rules page), reversed once.

A live table renders its parts after every change, and each names the same few
URLs of its session: ``reverse`` walks the URL resolver each time (it was about a
tenth of a part's render). The answer depends only on the URL's name, the code,
the script prefix and the URLconf in force, so it is kept by those.
"""

from __future__ import annotations

import functools
from contextvars import ContextVar

from django.urls import get_script_prefix, get_urlconf, reverse

#: Inside a live table's render (``fragments.using``): the script prefix and the
#: URLconf in force, read once there. Django keeps both in asgiref's ``Local``,
#: whose every read costs more than the look-up it guards; nothing in a render
#: changes them.
IN_FORCE: ContextVar[tuple[str, object] | None] = ContextVar("segnalino_urls", default=None)


def in_force() -> tuple[str, object]:
    """The script prefix and URLconf in force now (as :data:`IN_FORCE` keeps them)."""
    return get_script_prefix(), get_urlconf()


def url_of(name: str, *args: object) -> str:
    """``reverse(name, args=args)``, kept (``url()`` in the live frame's templates,
    config/jinja.py: a seat's forms name the table's code and the seat)."""
    prefix, urlconf = IN_FORCE.get() or in_force()
    return _reversed(name, tuple(str(arg) for arg in args), prefix, urlconf)


@functools.lru_cache(maxsize=4096)
def _reversed(name: str, args: tuple[str, ...], _prefix: str, _urlconf: object) -> str:
    return reverse(name, args=args)
