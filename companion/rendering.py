"""Server-rendered fragments: the same partials serve the page, the POST reply
and the socket frame, so a phone sees the same thing whichever way it arrives."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation

from companion.models import GameSession
from companion.selectors import Viewer, table_context


def render_frames(
    session: GameSession,
    viewer: Viewer,
    *,
    language: str | None = None,
    request: HttpRequest | None = None,
    csrf_token: str = "",
) -> str:
    """All live fragments for one viewer, each marked for an out-of-band swap.

    From a view pass the ``request``; from a socket pass the phone's CSRF
    cookie, so the forms inside the fragments still post without JavaScript.
    """
    with translation.override(language or translation.get_language()):
        context = table_context(session, viewer)
        context["oob"] = True
        if request is None:
            context["csrf_token"] = csrf_token
        return render_to_string("companion/partials/frames.html", context, request=request)
