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
from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_noop

from companion import codes, services
from companion.errors import BadRequest, ServiceError, error_text, status_for
from companion.models import GameSession
from companion.payload import RESERVED, form_to_payload
from companion.selectors import Wording, events_pickled
from companion.services import Applied, RepeatSuspected
from games.engine import EngineError
from games.views import presenter_for


def _version(data: QueryDict, field: str, message: str) -> int | None:
    raw = data.get(field, "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 10):
        raise BadRequest(message)
    return int(raw)


def act(code: str, data: QueryDict, token: str) -> Applied:
    """One game action; the session is found and locked in one query. ``seen`` is the
    version the phone showed when it was tapped (``app.js`` adds it), ``again`` the
    player's answer to "another phone just recorded this"."""
    payload = form_to_payload(data)
    return services.submit_action_at(
        code,
        payload,
        token=token,
        key=data.get("key", ""),
        seen=_version(data, "seen", gettext_noop("The tap's “seen” version is not a number.")),
        again=data.get("again") == "1",
    )


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


def refusal(
    error: ServiceError | EngineError, game: str | None, path: str, data: QueryDict | None
) -> tuple[int, str]:
    """A refused tap's status and message, in the active language: the one way a
    refusal is worded, whether the tap came on the socket or as a POST. A tap that
    repeats another phone's move also gets the button that sends it again."""
    context: dict[str, object] = {"error": error_text(error, game)}
    if isinstance(error, RepeatSuspected) and data is not None:
        context["error"] = gettext(error.message) % {
            "name": error.params["name"] or gettext("The host"),
            "what": _what(error, game),
        }
        context["again"] = {
            "path": path,
            "fields": [
                (name, value)
                for name, values in data.lists()
                if name not in RESERVED
                for value in values
            ],
        }
    html = render_to_string("companion/partials/messages.html", context)
    return status_for(error), html


def _what(error: RepeatSuspected, game: str | None) -> str:
    """The history sentences of the action the tap repeats."""
    if game is None:
        return ""
    row = error.earlier
    seen = presenter_for(game).history_state(row.session.state)
    return Wording(game, seen, error.names).sentence(events_pickled(row))


def game_of(code: str) -> str | None:
    """The game of the session ``code`` names, to word a refusal in its terms (read
    only on the error path: a tap that succeeds never asks)."""
    found = GameSession.objects.filter(code=codes.normalise(code)).values_list("game", flat=True)
    return found.first()
