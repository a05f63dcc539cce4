"""A tap: one game action or one undo, however it reaches the server.

A phone sends its taps over the socket it already holds (``consumers``) and, when
the socket is down, as ordinary POSTs (``views.act``, ``views.undo``). Both carry
the same form fields, with the same one-time key, and come here: one parser and
one service call per kind of tap, so the two ways cannot drift apart, and a tap
retried the other way is recognised by its key and never applied twice.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import QueryDict

from companion import codes, services
from companion.errors import BadRequest
from companion.models import GameSession
from companion.payload import form_to_payload
from companion.services import Applied


def act(code: str, data: QueryDict, token: str) -> Applied:
    """One game action; the session is found and locked in one query."""
    payload = form_to_payload(data)
    return services.submit_action_at(code, payload, token=token, key=data.get("key", ""))


def undo(code: str, data: QueryDict, token: str) -> Applied:
    """The undo button: it says ``expected``, the version of the action it names,
    and nothing is undone if that is no longer the last one in effect."""
    raw = data.get("expected", "").strip()
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) <= 10):
        raise BadRequest(services.UNDO_UNSAID)
    session = services.get_session(code)
    applied = services.undo(
        session,
        token=token,
        key=data.get("key", ""),
        expected=int(raw) if raw else None,
        require_expected=True,  # a phone must say it (the service says why not)
    )
    return Applied(applied.action, applied.created, session=session)


#: The taps by the name of their URL (``companion/urls.py``): what a socket takes.
TAPS: dict[str, Callable[[str, QueryDict, str], Applied]] = {"act": act, "undo": undo}


def game_of(code: str) -> str | None:
    """The game of the session ``code`` names, to word a refusal in its terms (read
    only on the error path: a tap that succeeds never asks)."""
    found = GameSession.objects.filter(code=codes.normalise(code)).values_list("game", flat=True)
    return found.first()
