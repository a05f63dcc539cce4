"""Django's ASGI handler, leaving no reference cycle behind a request.

Every HTTP request used to leave some hundred objects in reference cycles (a table
page some 600, with those of ``config/template_backend.py``), which only a full
collection of the garbage collector frees, and a full collection pauses every phone
of the process (``config/collector.py``):

- Django's handler waits on a task that listens for the client going away; once
  the response is sent, that task ends with a ``RequestAborted`` the handler reads
  and ignores. The exception stays in the task, its traceback holds the handler's
  frame, and the frame the list of tasks: a cycle, holding the request.
- The request points to objects that point back to it: the user
  (``AuthenticationMiddleware``: a lazy object and a partial over the request),
  the message storage (``MessageMiddleware``) and django-htmx's ``request.htmx``.

This handler is Django's, except that the listener returns where Django's raised
(Django's handler takes either as the client having gone), and once the response
is made those attributes are let go. What a page renders leaves none either
(``config/template_backend.py``). ``tests/companion/test_views.py`` keeps a
request free of garbage.
"""

from __future__ import annotations

from typing import Any

import django
from django.core.exceptions import RequestAborted
from django.core.handlers import asgi
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponseBase

#: Attributes the middleware sets on a request that point back to it.
POINTING_BACK = ("user", "auser", "_messages", "htmx")


class ASGIHandler(asgi.ASGIHandler):
    async def listen_for_disconnect(self, receive: Any) -> None:
        try:
            await super().listen_for_disconnect(receive)
        except RequestAborted:
            return  # the client went: handle() sees the task done, and keeps no exception

    async def run_get_response(self, request: ASGIRequest) -> HttpResponseBase:
        try:
            return await super().run_get_response(request)
        finally:
            # The middleware and the view are done with it (the response is made;
            # what is sent next is the response's alone).
            for name in POINTING_BACK:
                request.__dict__.pop(name, None)


def get_asgi_application() -> ASGIHandler:
    """``django.core.asgi.get_asgi_application``, with this handler."""
    django.setup(set_prefix=False)
    return ASGIHandler()
