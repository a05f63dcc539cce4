"""Server-rendered fragments: the same partials serve the page, the POST reply
and the socket frame, so a phone sees the same thing whichever way it arrives.

A frame has two parts. The *personal* part (status line, seats) depends on who
is looking and is small. The *shared* part (board, controls, history) is the
expensive one; it depends only on the session version, the language, whether
the viewer may edit and, for games whose board differs per seat (hidden hands,
or "each seat edits only its own board"), on the seat. It is rendered once per
such key and reused by every socket and reply in this process. Frames carry no
CSRF input and no one-time key: htmx sends the CSRF token as a header and
``static/js/app.js`` gives each submission a fresh key.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from django.template.loader import render_to_string
from django.utils import translation

from companion.models import GameSession, Seat
from companion.selectors import Viewer, table_context
from games.views import presenter_for

_SHARED: OrderedDict[tuple, str] = OrderedDict()
_SHARED_MAX = 512
_lock = Lock()


def shared_key(session: GameSession, viewer: Viewer, language: str) -> tuple:
    presenter = presenter_for(session.game)
    by_seat = presenter.board_varies_by_seat(session)
    return (
        session.pk,
        session.version,
        session.edit_policy,
        session.ended_at is not None,
        language,
        viewer.can_act,
        viewer.spectator,
        viewer.seat if by_seat else None,
    )


def render_frames(
    session: GameSession,
    viewer: Viewer,
    *,
    language: str | None = None,
    seats: list[Seat] | None = None,
) -> str:
    """All live fragments for one viewer, each marked for an out-of-band swap."""
    language = language or translation.get_language()
    with translation.override(language):
        key = shared_key(session, viewer, language)
        with _lock:
            shared = _SHARED.get(key)
            if shared is not None:
                _SHARED.move_to_end(key)
        context = table_context(session, viewer, include_shared=shared is None, seats=seats)
        context.update(oob=True, csrf_token="")
        personal = render_to_string("companion/partials/personal_frames.html", context)
        if shared is None:
            shared = render_to_string("companion/partials/shared_frames.html", context)
            with _lock:
                _SHARED[key] = shared
                while len(_SHARED) > _SHARED_MAX:
                    _SHARED.popitem(last=False)
    return personal + shared
